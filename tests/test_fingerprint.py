"""Every seeded AI turn on the shipped examples and on generated tables (up to 40 pieces and 30
obstacles; circles and polygons; blocked and open sight; the three sight tests) prints exactly
what it printed when tests/fingerprints.json was written: a speed-up must not change one bit.

The fingerprints change only by running `python tests/regenerate_fingerprints.py` on purpose,
in a commit that says why the output moved.
"""

from __future__ import annotations

import json

import pytest

from automa.catalog.load import load_catalog
from tests.regenerate_fingerprints import STORE, fingerprint, tables

STORED: dict[str, str] = json.loads(STORE.read_text())
CATALOG = load_catalog()
TABLES = dict(tables(CATALOG))


def test_every_table_has_a_fingerprint() -> None:
    assert sorted(STORED) == sorted(TABLES)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_seeded_turns_print_what_they_printed(name: str) -> None:
    assert fingerprint(TABLES[name], CATALOG) == STORED[name], (
        f"the seeded turns on {name} print something else now; if that is meant, run "
        f"python tests/regenerate_fingerprints.py and say why in the commit")

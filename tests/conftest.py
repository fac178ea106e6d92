"""Shared fixtures: the shipped catalog and a small scenario builder for rule tests."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from automa.catalog.load import Catalog, load_catalog
from automa.model.scenario import Scenario
from automa.scenario.load import parse_scenario

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

# The command line as a separate process, through the interpreter running the tests: it works
# whether or not the virtual environment is activated (no `automa` on PATH needed).
AUTOMA = [sys.executable, "-m", "automa"]
AUTOMA_SHELL = " ".join(shlex.quote(part) for part in AUTOMA)

OPEN_MAT = (Path(__file__).parent / "data_inline_mat.toml").read_text()


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


def scenario_from(text: str, catalog: Catalog, inline_mat: bool = True) -> Scenario:
    """A scenario from TOML text; with `inline_mat` the open test mat above is appended."""
    return parse_scenario(text + (OPEN_MAT if inline_mat else ""), "test.toml", catalog)

"""Setup positions on a mat whose layout is our unmeasured placeholder carry the house mark
(ruling 5); on a measured mat they do not (issue 11, section 4)."""

from __future__ import annotations

import re

from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.engine.setup import SetupOptions, SetupResult, run_setup
from automa.render.setup_out import setup_json, setup_text
from tests.test_setup import chance


def lair(catalog: Catalog) -> SetupResult:
    options = SetupOptions("lair", lord="hmotha", heroes=(("elf", 8),))
    return run_setup(catalog, options, chance(seed=1))


def test_placeholder_mat_positions_carry_the_house_mark(catalog: Catalog) -> None:
    result = lair(catalog)
    text = setup_text(result, catalog.components.tiles)
    placed = [line for line in text.splitlines() if re.match(r"\s*\d+\. ", line)]
    assert placed and all(re.search(r"\)\*(, marker \d+)?$", line) for line in placed)
    assert re.search(r"elf \([\d.]+, [\d.]+\)\*", text)
    assert "* ruling 5: the coordinates marked * are on our unmeasured placeholder layout" in text
    assert setup_json(result)["playmat_measured"] is False


def test_a_measured_mat_has_no_mark(catalog: Catalog) -> None:
    result = lair(catalog)
    measured = replace(result, scenario=replace(
        result.scenario, playmat=replace(result.scenario.playmat, provenance="fan")))
    text = setup_text(measured, catalog.components.tiles)
    assert ")*" not in text and "ruling 5" not in text
    assert setup_json(measured)["playmat_measured"] is True


def test_monster_tiles_are_named_by_their_printed_colour(catalog: Catalog) -> None:
    """Players lay real tiles: the printout names each Monster tile by the colour printed on
    it, with the family it stands for."""
    text = setup_text(lair(catalog), catalog.components.tiles)
    line = " ".join(" ".join(text.split("Monster   ")[1].split("\n")[:2]).split())
    for family, colour in catalog.components.tiles.colours.items():
        assert f"{colour} ({family})" in line

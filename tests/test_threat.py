"""The threat map against a slow reference: the hero placed on one spot at a time in a copy of
the battle, and the engine's own activation asked whom each AI piece targets there."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.engine.activation import activate
from automa.engine.battle import Battle, Table
from automa.engine.chance import Chance
from automa.engine.threat import ThreatMap, grid_spots, placed, threat_map
from automa.errors import InputError
from automa.geometry.moves import overlap_with
from automa.geometry.table import build_table
from automa.model.scenario import Scenario
from automa.render.threat_svg import levels
from automa.scenario.load import load_scenario
from tests.conftest import examples, scenario_from
from tests.test_engine import HEAD, piece
from tests.test_fuzz import random_battle

DEMO = Path(__file__).parent.parent / "automa" / "_examples" / "demo-battle.toml"


def reference(scenario: Scenario, catalog: Catalog, hero: str, spots: np.ndarray,
              actors: tuple[str, ...]) -> list[set[str]]:
    """Per spot, the AI pieces whose activation (the engine's, in full) targets the hero."""
    geometry = build_table(scenario.playmat)
    battle = Battle(scenario.pieces, scenario.bags, scenario.out)
    components = catalog.components
    chosen = []
    for x, y in spots.tolist():
        here = placed(battle, hero, (x, y))
        by = set()
        for actor in actors:
            chance = Chance(scenario.chance, np.random.default_rng(0), components.rune_die,
                            components.location_die)
            table = Table(scenario, catalog, geometry, chance)
            _, activation = activate(table, here, actor, "the threat map's reference")
            if activation.target == hero:
                by.add(actor)
        chosen.append(by)
    return chosen


def free_spots(scenario: Scenario, hero: str, step: float) -> set[tuple[float, float]]:
    """Every grid spot where the hero's disc overlaps nothing (geometry/moves.py's test)."""
    geometry = build_table(scenario.playmat)
    battle = Battle(scenario.pieces, scenario.bags, scenario.out)
    mover = battle.piece(hero)
    mat = scenario.playmat
    return {(x, y) for x, y in grid_spots(mat.width, mat.length, step).tolist()
            if overlap_with(geometry, battle.on_table(), mover, (x, y)) is None}


def assert_matches(scenario: Scenario, catalog: Catalog, hero: str, step: float) -> ThreatMap:
    threat = threat_map(scenario, catalog, hero, step)
    assert {(x, y) for x, y in threat.spots.tolist()} == free_spots(scenario, hero, step)
    expected = reference(scenario, catalog, hero, threat.spots, threat.actors)
    for cell, want in zip(threat.cells(), expected, strict=True):
        assert set(cell.targeted_by) == want, cell.at
        p_want = 1.0 if want else 0.0  # every mapped choice is certain: no die decides it
        assert abs(cell.p_targeted - p_want) <= 1e-9, cell.at
    return threat


def demo(catalog: Catalog, **battle: object) -> Scenario:
    scenario = load_scenario(DEMO, catalog)
    return replace(scenario, settings=replace(scenario.settings, **battle))


@pytest.mark.parametrize("hero", ["elf", "wizard"])
@pytest.mark.parametrize("sight", [
    {"los_blocked": True, "los_test": "centre-line"},
    {"los_blocked": True, "los_test": "any-line"},
    {"los_blocked": True, "los_test": "corridor"},
    {"los_blocked": False},
])
def test_the_demo_map_matches_the_engine_spot_by_spot(catalog: Catalog, hero: str,
                                                      sight: dict[str, object]) -> None:
    """Circles and polygons (the Mausoleum), blocked and open sight, each sight test."""
    threat = assert_matches(demo(catalog, **sight), catalog, hero, 6.0)
    p = threat.p_targeted
    assert 0 < np.count_nonzero(p) < len(p) or not sight["los_blocked"]


def test_blocked_sight_leaves_a_shadow_behind_an_obstacle(catalog: Catalog) -> None:
    """Line of sight: an obstacle between the rat and the hero hides the hero behind it."""
    text = HEAD.replace("[battle]\n", "[battle]\nlos_blocked = true\n") \
        + piece("elf", "heroes", (10, 20), health=5, gold=1) \
        + piece("rat", "ai", (30, 60), monster="sewer-rat")
    scenario = scenario_from(text, catalog)
    threat = assert_matches(scenario, catalog, "elf", 2.0)
    hidden = {(x, y) for c in threat.cells() if not c.targeted_by for x, y in [c.at]}
    assert (31.0, 31.0) in hidden and (31.0, 51.0) not in hidden  # behind A, in front of A


def test_ties_are_broken_by_the_direction_tiles(catalog: Catalog) -> None:
    """Target selection: heroes tied on every column (same gold and poison for the Brown row's
    rat) are told apart by the green Direction tile, then the blue one where the green ties."""
    text = HEAD + piece("elf", "heroes", (10, 20), health=5, gold=3, poison=1) \
        + piece("dwarf", "heroes", (30.5, 20.5), health=5, gold=3, poison=1) \
        + piece("rat", "ai", (30, 60), monster="sewer-rat") \
        + '[tiles]\ndirection = ["left-to-right", "msz-to-hsz"]\n'
    scenario = scenario_from(text, catalog)
    threat = assert_matches(scenario, catalog, "elf", 1.0)
    by = {c.at: c.targeted_by for c in threat.cells()}
    # "left to right" seen from the Monster Start Zone: the larger x is first
    assert by[(40.5, 10.5)] == ("rat",) and by[(20.5, 10.5)] == ()
    # level with the dwarf on the green tile: the blue one (nearer the Monster Start Zone)
    assert by[(30.5, 50.5)] == ("rat",) and by[(30.5, 10.5)] == ()


def test_closest_and_health_columns_with_a_claw_and_an_ally(catalog: Catalog) -> None:
    """The Blue row (closest, then least health) over a hero with a part (Ulom's claw, seen and
    measured as Ulom) and an ally, with blocked sight."""
    text = HEAD.replace("[battle]\n", "[battle]\nlos_blocked = true\n") \
        + piece("ulom", "heroes", (10, 20), health=6) \
        + piece("claw", "heroes", (20, 50), part_of="ulom") \
        + piece("wolf", "heroes", (45, 30), kind="ally", health=2) \
        + piece("centaur", "ai", (30, 70), monster="centaur") \
        + piece("rat", "ai", (50, 65), monster="sewer-rat")
    scenario = scenario_from(text, catalog)
    threat = assert_matches(scenario, catalog, "ulom", 4.0)
    assert threat.actors == ("centaur", "rat")


def test_frozen_stunned_and_advanced_targets_never_choose_the_hero(catalog: Catalog) -> None:
    """A frozen or stunned piece does not act; Advanced Target Selection rescues a frozen
    teammate in sight before any enemy is chosen."""
    text = HEAD.replace("[battle]\n", "[battle]\nadvanced_targeting = true\n") \
        + piece("elf", "heroes", (10, 20), health=5) \
        + piece("frozen", "ai", (30, 70), monster="sewer-rat", conditions=["frozen"]) \
        + piece("stunned", "ai", (50, 70), monster="sewer-rat", conditions=["stunned"]) \
        + piece("rescuer", "ai", (10, 70), monster="centaur")
    scenario = scenario_from(text, catalog)
    threat = assert_matches(scenario, catalog, "elf", 5.0)
    assert not threat.p.any()


def test_pieces_that_move_before_they_look_are_named_not_mapped(catalog: Catalog) -> None:
    text = HEAD + piece("elf", "heroes", (10, 20), health=5) \
        + piece("rat", "ai", (30, 70), monster="sewer-rat", conditions=["teleported"]) \
        + piece("orc", "ai", (50, 70), monster="orc")
    threat = threat_map(scenario_from(text, catalog), catalog, "elf", 5.0)
    assert threat.actors == ("orc",)
    assert threat.unmapped[0][0] == "rat" and "Teleported" in threat.unmapped[0][1]


# each example works out a whole threat map twice (~0.7 s): a share of the profile's count
@settings(max_examples=examples(0.4), suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_small_tables_match_the_reference(catalog: Catalog, seed: int) -> None:
    """Generated tables (the fuzz battles: any mat, sight setting, tiles, advanced targeting,
    lords, allies and familiars) agree with the engine on every spot of a coarse grid."""
    text = random_battle(catalog, np.random.default_rng(seed))
    scenario = scenario_from(text, catalog, inline_mat=False)
    hero = next(p.id for p in scenario.pieces if p.kind == "hero")
    assert_matches(scenario, catalog, hero, 9.0)


def test_the_json_has_the_contract_fields(catalog: Catalog) -> None:
    threat = threat_map(load_scenario(DEMO, catalog), catalog, "elf", 5.0)
    shown = threat.json()
    assert shown["hero"] == "elf" and shown["step"] == 5.0
    assert len(shown["cells"]) == len(threat.spots) > 0
    for cell in shown["cells"]:
        assert len(cell["at"]) == 2 and isinstance(cell["targeted_by"], list)
        assert 0.0 <= cell["p_targeted"] <= 1.0


@pytest.mark.parametrize(("hero", "step", "message"), [
    ("gandalf", 1.0, "gandalf: no piece; the heroes are barbarian, elf, wizard"),
    ("rat-1", 1.0, "rat-1: a monster, not a hero"),
    ("elf", 0.0, "--step 0: give a grid step from 0.25 to 50 cm"),
    ("elf", -2.0, "--step -2"),
    ("elf", 1e9, "--step 1e+09"),
    ("elf", float("nan"), "--step nan"),
])
def test_bad_input_is_one_line(catalog: Catalog, hero: str, step: float, message: str) -> None:
    with pytest.raises(InputError, match=None) as raised:
        threat_map(load_scenario(DEMO, catalog), catalog, hero, step)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_the_command_prints_json_text_and_a_picture(tmp_path: Path) -> None:
    """`automa threat`: --json as CONTRACT.md, a short summary, and -o drawing the map."""
    runner = CliRunner()
    shown = json.loads(runner.invoke(cli, ["threat", str(DEMO), "elf", "--step", "3",
                                           "--json"]).stdout)
    assert shown["hero"] == "elf" and shown["step"] == 3.0 and shown["cells"]
    assert {tuple(c) for c in (cell["at"] for cell in shown["cells"])} >= {(10.5, 37.5)}
    picture = tmp_path / "elf.svg"
    result = runner.invoke(cli, ["threat", str(DEMO), "elf", "--step", "3", "-o",
                                 str(picture)])
    assert result.exit_code == 0, result.output
    assert "Elf now at (10, 36): chosen by rat-2, skeleton-1, wraith-1." in result.stdout
    assert "Sewer Rat #1 (rat-1)" in result.stdout and "never chooses Elf" in result.stdout
    svg = picture.read_text()
    spots = sum(int(n) for n in re.findall(r'class="threat"[^>]*data-spots="(\d+)"', svg))
    assert spots == len(shown["cells"])
    assert 'class="hero-now" data-x="10.000" data-y="36.000"' in svg
    assert svg.count('class="threat-key"') >= 4 and 'data-piece="rat-1"' in svg


def test_the_command_reads_a_session_as_its_battle_stands_now(tmp_path: Path) -> None:
    """A session folder (or its log) gives the map where the heroes stand now, as `forecast`
    reads one: here after the Elf was reported moved (her spot printed to a millimetre)."""
    runner = CliRunner()
    folder = tmp_path / "evening"
    assert runner.invoke(cli, ["new", str(DEMO), "--session", str(folder)]).exit_code == 0
    played = runner.invoke(cli, ["play", "--session", str(folder)],
                           input="move elf 25.04,20.06\nquit\n")
    assert played.exit_code == 0, played.output
    for source in (folder, folder / "log.jsonl"):
        result = runner.invoke(cli, ["threat", str(source), "elf", "--step", "3"])
        assert result.exit_code == 0, result.output
        assert "Elf now at (25, 20.1): chosen by no AI piece." in result.stdout  # to a mm
    missing = runner.invoke(cli, ["threat", str(tmp_path / "nope"), "elf"])
    assert missing.exit_code != 0 and len(missing.stderr.strip().splitlines()) == 1


def test_the_picture_shades_more_pieces_darker(catalog: Catalog) -> None:
    """A sequential scale: each band's colour is darker than the one before."""
    threat = threat_map(load_scenario(DEMO, catalog), catalog, "elf", 3.0)
    _, colours = levels(threat)
    lightness = [sum(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in colours]
    assert len(colours) >= 3 and lightness == sorted(lightness, reverse=True)


@pytest.mark.parametrize(("args", "message"), [
    (["elf", "-o", "map.png"], "-o map.png: write a .svg file"),
    (["gandalf"], "the heroes are barbarian, elf, wizard"),
    (["elf", "--step", "0"], "--step 0: give a grid step"),
])
def test_the_command_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str],
                                                    message: str) -> None:
    result = CliRunner().invoke(cli, ["threat", str(DEMO), *args])
    assert result.exit_code != 0 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


SMALL_MAT = """[playmat]
size = [30.0, 40.0]
hero_zone = 6.0
monster_zone = 34.0
obstacles = [
  {{ id = "L", polygon = [[6.0, 16.0], [14.0, 16.0], [14.0, 18.0], [8.0, 18.0], [8.0, 24.0],
                         [6.0, 24.0]] }},
  {{ id = "O", circle = [{cx}, {cy}, 2.0] }},
  {{ id = "Q", polygon = [[18.0, 12.0], [22.0, 12.0], [22.0, 15.0], [18.0, 15.0]] }},
]
"""


# each example works out a map on a finer grid than the one above (~1.2 s): a smaller share
@settings(max_examples=examples(0.25), suppress_health_check=[HealthCheck.too_slow])
@given(cx=st.floats(4.0, 26.0), cy=st.floats(20.0, 27.0),
       test=st.sampled_from(["any-line", "centre-line", "corridor"]),
       hx=st.floats(3.0, 27.0), mx=st.floats(3.0, 27.0))
def test_small_mats_with_a_hollow_obstacle_match_the_reference(
        catalog: Catalog, cx: float, cy: float, test: str, hx: float, mx: float) -> None:
    """A non-convex (L-shaped) obstacle, a circle and a square anywhere among them, under each
    sight test: the lenient test's shortcut (a convex obstacle across both outermost lines)
    must never hide a spot the 81 lines would show."""
    text = (f'format = 1\n[battle]\nplaymat = "inline"\nlos_blocked = true\n'
            f'los_test = "{test}"\n'
            + piece("elf", "heroes", (hx, 3.0), health=5, gold=2)
            + piece("dwarf", "heroes", (15.0, 8.0), health=4, gold=2)
            + piece("rat", "ai", (mx, 37.0), monster="sewer-rat")
            + piece("centaur", "ai", (15.0, 31.0), monster="centaur")
            + SMALL_MAT.format(cx=cx, cy=cy))
    scenario = scenario_from(text, catalog, inline_mat=False)
    assert_matches(scenario, catalog, "elf", 2.0)


def test_by_maps_one_ai_piece_alone(catalog: Catalog) -> None:
    """"Where can my Elf end her flick without drawing the skeleton?": --by keeps one piece."""
    whole = threat_map(load_scenario(DEMO, catalog), catalog, "elf", 4.0)
    alone = whole.only(("skeleton-1",))
    column = whole.p[:, whole.actors.index("skeleton-1")]
    assert alone.actors == ("skeleton-1",)
    assert np.array_equal(alone.p_targeted, column)
    assert 0 < alone.share("skeleton-1") < 1
    with pytest.raises(InputError, match="--by gandalf: no AI piece; the AI pieces mapped are"):
        whole.only(("gandalf",))
    result = CliRunner().invoke(cli, ["threat", str(DEMO), "elf", "--by", "skeleton-1",
                                      "--step", "4", "--json"])
    shown = json.loads(result.stdout)
    assert {n for c in shown["cells"] for n in c["targeted_by"]} == {"skeleton-1"}


def test_chances_combine_as_independent_pieces() -> None:
    """A piece whose choice rests on a die counts with its chance: the spot's chance is that
    at least one piece chooses the hero, and every piece with any chance is listed."""
    spots = np.array([[1.5, 1.5], [2.5, 1.5], [3.5, 1.5]])
    p = np.array([[0.5, 0.5], [1.0, 0.0], [0.0, 0.0]])
    threat = ThreatMap("elf", 1.0, (2.5, 1.5), spots, ("rat", "orc"), p, ())
    cells = threat.cells()
    assert cells[0].targeted_by == ("orc", "rat") and cells[0].p_targeted == pytest.approx(0.75)
    assert cells[1].targeted_by == ("rat",) and cells[1].p_targeted == 1.0
    assert cells[2].targeted_by == () and cells[2].p_targeted == 0.0
    assert threat.safest_near() == ((3.5, 1.5), 0.0, 1.0)
    assert threat.nearest_clear_of("rat") == ((3.5, 1.5), 1.0)
    bands, colours = levels(threat)
    assert bands[0] == (0.0, 0.0) and len(bands) == len(colours) == 2


@pytest.mark.parametrize("test", ["centre-line", "any-line", "corridor"])
def test_a_sight_memo_gives_the_maps_worked_out_afresh(catalog: Catalog, test: str) -> None:
    """The board's kept sight (SightMemo): each hero's map, then each again, then after an AI
    piece and a hero moved, is the map without a memo; a map asked again asks no square."""
    from automa.engine.threat import SightMemo

    scenario = demo(catalog, los_blocked=True, los_test=test)
    memo = SightMemo(build_table(scenario.playmat))
    battle = Battle(scenario.pieces, scenario.bags, scenario.out)
    moved = placed(placed(battle, "elf", (30.0, 14.0)), "wizard", (8.0, 20.0))
    moved = moved.with_piece(replace(moved.piece("rat-1"), at=(44.0, 52.0)))
    for table in (battle, battle, moved):
        for hero in ("elf", "wizard", "barbarian"):
            before = memo.squares_worked
            kept = threat_map((scenario, table), catalog, hero, 3.0, memo=memo)
            fresh = threat_map((scenario, table), catalog, hero, 3.0)
            assert np.array_equal(kept.spots, fresh.spots) and np.array_equal(kept.p, fresh.p)
            if table is battle and hero == "elf" and before:
                assert memo.squares_worked == before  # the same map again: all known
    assert memo.squares_worked > 0

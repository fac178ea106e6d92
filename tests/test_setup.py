"""Battle setup by the Red Box rules (Solo & Co-Op Mode Setup, Catacomb Lord Room Setup):
each ordering rule table-driven, the setup -> turn round trip, seeds and typed rolls."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.engine.chance import Chance
from automa.engine.setup import SetupOptions, choose_playmat, run_setup
from automa.errors import RulesError
from automa.model.components import TileSet
from automa.model.playmat import Playmat
from automa.model.scenario import ChanceScript, Tiles
from automa.rules.rulings import RulingKey
from automa.rules.setup import Unit, direction_pair, placement_order
from automa.scenario.load import load_scenario


def chance(d12: tuple[int, ...] = (), rune: tuple[int, ...] = (), seed: int = 0) -> Chance:
    return Chance(ChanceScript(None, d12, rune), np.random.default_rng(seed))


# The playmat ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "d12", "rune", "expected"),
    [
        (SetupOptions("moghath"), (), (3,), "lava-tube"),
        (SetupOptions("moghath", last_playmat="lava-tube"), (), (3, 3, 6), "altar"),
        (SetupOptions("moghath", expansion_mats=("castle-mivroih",)), (1,), (2,), "throne-room"),
        (SetupOptions("moghath", expansion_mats=("castle-mivroih",)), (2, 9, 3), (),
         "castle-mivroih"),
        (SetupOptions("moghath", playmat="root-cellar"), (), (), "root-cellar"),
    ],
    ids=["rune-die", "just-played-roll-again", "d12-one-means-rune-die",
         "not-owned-roll-again", "chosen"],
)
def test_playmat_chart(catalog: Catalog, options: SetupOptions, d12: tuple[int, ...],
                       rune: tuple[int, ...], expected: str) -> None:
    """Rune Die without expansion mats, D12 with them; roll again on a mat not owned or just
    played."""
    room = catalog.rooms["moghath"]
    mat, _ = choose_playmat(catalog, options, room, None, chance(d12, rune), [])
    assert mat == expected


def test_a_lord_with_two_mats_rolls_the_d12_halves(catalog: Catalog) -> None:
    """Catacomb Lord Room Setup 1: 1-6 the left playmat, 7-12 the right."""
    lord = replace(catalog.lords["hmotha"], playmats=("altar", "campfire"))
    for face, mat in ((6, "altar"), (7, "campfire")):
        got, _ = choose_playmat(catalog, SetupOptions("lair", lord="hmotha"), None, lord,
                                chance((face,)), [])
        assert got == mat


# Tiles ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("drawn", "green", "blue", "discarded"),
    [
        (["left-to-right", "msz-to-hsz", "right-to-left", "hsz-to-msz"], "left-to-right",
         "msz-to-hsz", []),
        (["hsz-to-msz", "msz-to-hsz", "right-to-left", "left-to-right"], "right-to-left",
         "hsz-to-msz", ["msz-to-hsz"]),
        (["right-to-left", "left-to-right", "msz-to-hsz", "hsz-to-msz"], "right-to-left",
         "msz-to-hsz", ["left-to-right"]),
    ],
)
def test_direction_tiles_one_of_each_colour(drawn: list[str], green: str, blue: str,
                                            discarded: list[str]) -> None:
    """A second tile of the first one's colour is discarded and another drawn."""
    assert direction_pair(drawn, TileSet()) == (green, blue, discarded)


def test_a_battle_room_puts_the_lord_tile_aside(catalog: Catalog) -> None:
    battle = run_setup(catalog, SetupOptions("chagnars-lair"), chance(seed=1))
    lair = run_setup(catalog, SetupOptions("lair", lord="hmotha"), chance(seed=1))
    assert "catacomb-lord" not in battle.tiles.character_order
    assert "catacomb-lord" in lair.tiles.character_order


def test_hero_target_tiles_are_dealt_one_each(catalog: Catalog) -> None:
    result = run_setup(catalog, SetupOptions("chagnars-lair", heroes=(("elf", 8), ("thief", 6))),
                       chance(seed=5))
    assert sorted(result.tiles.hero_targets) == ["elf", "thief"]
    assert len(set(result.tiles.hero_targets.values())) == 2


# Placement order -------------------------------------------------------------------------------

TILES = Tiles(("level-2", "level-1", "level-3", "level-4", "antient"),
              ("undead", "vermin", "mythological", "dungeon", "infernal", "wraith-knight",
               "zombie"), ("left-to-right", "msz-to-hsz"), {})


@pytest.mark.parametrize(
    ("units", "expected"),
    [
        ([Unit("rat", 1, "vermin", ""), Unit("wraith", 2, "infernal", "")], ["wraith", "rat"]),
        ([Unit("rat", 1, "vermin", ""), Unit("zombie", 1, "undead", "")], ["zombie", "rat"]),
        ([Unit("spider", 4, "undead", ""), Unit("ghoul", 3, "undead", "")], ["ghoul", "spider"]),
    ],
    ids=["character-tile", "monster-tile-breaks-ties", "level-3-before-4"],
)
def test_monsters_are_placed_in_character_then_monster_tile_order(units: list[Unit],
                                                                   expected: list[str]) -> None:
    assert [u.monster for u in placement_order(units, TILES)] == expected


def test_spots_in_the_rules_order(catalog: Catalog) -> None:
    """Vacant zone runes along the green tile, then behind each obstacle, then the corners,
    then the back-edge centre."""
    result = run_setup(catalog, SetupOptions("chagnars-lair", playmat="mausoleum"),
                       chance(seed=2))
    kinds = [p.where.split(" ")[0] for p in result.placements]
    assert kinds[:2] == ["rune", "rune"]  # the Mausoleum has two runes in its zone
    assert kinds[2:6] == ["behind"] * 4
    runes = [p for p in result.placements if p.where.startswith("rune")]
    green = result.tiles.direction[0]
    xs = [p.at[0] for p in runes]
    assert xs == sorted(xs, reverse=green == "left-to-right")


def test_the_lord_goes_last_at_the_back_edge_centre(catalog: Catalog) -> None:
    """Thaggu: nine minions plus himself, ten pieces; the Lord placed last."""
    result = run_setup(catalog, SetupOptions("lair", lord="thaggu", playmat="altar"),
                       chance(seed=3))
    assert len(result.placements) == 10
    assert result.placements[-1].piece == "thaggu"
    assert result.placements[-1].where == "centre of the back edge"


def test_monster_metre_icons_draw_a_card_of_that_level(catalog: Catalog) -> None:
    result = run_setup(catalog, SetupOptions("wychward-burrow"), chance(seed=4))
    levels = sorted(catalog.monsters[p.monster].level or 0 for p in result.placements)
    assert set(levels) <= {1, 2} and 1 in levels and 2 in levels


def test_mercenary_icons_need_the_lord(catalog: Catalog) -> None:
    with pytest.raises(RulesError, match="--lord"):
        run_setup(catalog, SetupOptions("moghath"), chance())
    result = run_setup(catalog, SetupOptions("moghath", lord="vasesak"), chance(seed=1))
    assert sum(p.monster == "skeleton-warrior" for p in result.placements) == 2


# The Heroic Forces --------------------------------------------------------------------------------


def test_allies_and_familiars_go_behind_the_hero_start_zone_line(catalog: Catalog) -> None:
    """"Heroes, allies and familiars go behind the Hero Start Zone line" (research notes,
    Setup); a familiar is "placed within 2.5 cm of the hero" (2.6). The scenario holds them as
    the AI's enemies ("heroes, familiars, allies", l.226); only heroes get a Hero Target tile
    and the starting gold."""
    from automa.geometry.table import edge_distance

    result = run_setup(catalog, SetupOptions("chagnars-lair", playmat="mausoleum",
                                             heroes=(("elf", 8), ("thief", 6)),
                                             allies=(("squire", 6),),
                                             familiars=(("elf", 2),)), chance())
    mat = result.scenario.playmat
    pieces = {p.id: p for p in result.scenario.pieces if p.side == "heroes"}
    assert {p: pieces[p].kind for p in pieces} == {
        "elf": "hero", "thief": "hero", "squire": "ally", "elf-familiar": "familiar"}
    assert all(p.at[1] + p.radius <= mat.hero_zone for p in pieces.values())
    assert edge_distance(pieces["elf"], pieces["elf-familiar"]) <= 2.5
    assert (pieces["squire"].health, pieces["elf-familiar"].health) == (6, 2)
    assert (pieces["squire"].gold, pieces["elf"].gold) == (0, 5)
    assert set(result.tiles.hero_targets) == {"elf", "thief"}
    assert [(h.piece, h.source) for h in result.heroes] == [
        ("elf", "hero"), ("thief", "hero"), ("squire", "ally"), ("elf-familiar", "familiar")]
    assert "within 2.5 cm of elf" in result.heroes[-1].where


@pytest.mark.parametrize(("options", "words"), [
    (SetupOptions("moghath", playmat="mausoleum", heroes=(("elf", 8),),
                  familiars=(("dwarf", 2),)), "'dwarf' is not one of the heroes"),
    (SetupOptions("moghath", playmat="mausoleum", heroes=(("elf", 8),), allies=(("elf", 3),)),
     "a piece is named twice"),
])
def test_a_helper_without_its_hero_is_refused(catalog: Catalog, options: SetupOptions,
                                              words: str) -> None:
    with pytest.raises(RulesError, match=words):
        run_setup(catalog, replace(options, lord="vasesak"), chance())


# The Trilithon ----------------------------------------------------------------------------------


def _trilithon(mat: Playmat) -> list[tuple[float, float]]:
    """The corners of the Trilithon's two uprights, T1 and T2."""
    return [corner for o in mat.obstacles if o.id in ("T1", "T2") for corner in o.polygon]


def test_the_trilithon_goes_on_the_centre_of_the_monster_start_zone_line(catalog: Catalog
                                                                         ) -> None:
    """"For Catacombs 3E playmats, place the Trilithon in the center of the Monster Start Zone
    line"; the scenario keeps its uprights as obstacles T1 and T2 and nobody is placed behind
    them ("Directly behind each obstacle ... (6 possible locations)": the mat's own six)."""
    for seed in range(12):
        result = run_setup(catalog, SetupOptions("chagnars-lair", playmat="mausoleum",
                                                 trilithon=True), chance(seed=seed))
        mat = result.scenario.playmat
        xs, ys = zip(*_trilithon(mat), strict=True)
        assert (min(xs) + max(xs)) / 2 == pytest.approx(mat.width / 2)
        assert (min(ys) + max(ys)) / 2 == pytest.approx(mat.monster_zone)
        assert not {"behind obstacle T1", "behind obstacle T2"} & \
            {p.where for p in result.placements}


def test_the_trilithon_is_an_arch_sight_and_pushes_pass_its_opening(catalog: Catalog) -> None:
    """"When any ranged piece passes successfully through the Trilithon ... When any character
    piece passes successfully through the Trilithon" (l.346-348): it is an arch (ruling
    trilithon-arch). With sight blocked by obstacles the AI sees through its opening, not
    through an upright, and a push through the opening goes on; the setup marks the ruling."""
    from automa.geometry.moves import sweep
    from automa.geometry.sight import line_of_sight
    from automa.geometry.table import build_table
    from automa.model.pieces import Piece

    result = run_setup(catalog, SetupOptions("chagnars-lair", playmat="mausoleum",
                                             trilithon=True), chance())
    mat = result.scenario.playmat
    xs, ys = zip(*_trilithon(mat), strict=True)
    middle, line = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    table = build_table(mat)

    def disc(piece_id: str, x: float, y: float) -> Piece:
        return Piece(piece_id, "ai" if y > line else "heroes", "hero", (x, y), 1.25, health=5)

    through = line_of_sight(table, disc("rat", middle, line + 5), disc("elf", middle, line - 5),
                            True)
    assert through.visible, through
    upright = min(xs) + 1.0  # across T1
    hidden = line_of_sight(table, disc("rat", upright, line + 5),
                           disc("elf", upright, line - 5), True)
    assert not hidden.visible and hidden.blockers == ("T1",)
    pushed = sweep(table, [], disc("elf", middle, line - 5), (0.0, 1.0), 10.0)
    assert pushed.end[1] == pytest.approx(line + 5) and pushed.stopped_by is None
    assert any("ruling 71" in note for note in result.notes)
    assert RulingKey.TRILITHON_ARCH in result.rulings


def test_the_trilithon_moves_along_the_line_clear_of_an_obstacle(catalog: Catalog) -> None:
    """"... and move it such that it is not blocked by other obstacles (if necessary)"."""
    from automa.model.playmat import Obstacle

    mat = catalog.playmats["mausoleum"]
    blocker = Obstacle("Z", circle=(mat.width / 2, mat.monster_zone, 2.0))
    moved = replace(catalog, playmats={**catalog.playmats,
                                       "mausoleum": replace(mat, obstacles=(blocker,))})
    result = run_setup(moved, SetupOptions("chagnars-lair", playmat="mausoleum",
                                           trilithon=True), chance())
    xs = [x for x, _ in _trilithon(result.scenario.playmat)]
    assert min(xs) >= mat.width / 2 + 2.0 or max(xs) <= mat.width / 2 - 2.0


def test_on_the_cave_of_the_keystone_the_trilithon_is_placed_by_hand_as_printed(
        catalog: Catalog) -> None:
    """Its own sentence: "between the [word missing] and the rune near the centre of the Bridge
    of Cazanellorh", not a vacant obstacle location icon."""
    result = run_setup(catalog, SetupOptions("chagnars-lair", playmat="cave-of-the-keystone",
                                             trilithon=True), chance())
    note = next(n for n in result.notes if n.startswith("Trilithon"))
    assert "Bridge of Cazanellorh" in note and "obstacle location icon" not in note
    assert not _trilithon(result.scenario.playmat)
    assert "T1 and T2" in note and "ruling 71" in note


# Through the command line -----------------------------------------------------------------------


def test_setup_then_turn_round_trip(tmp_path: Path) -> None:
    out = tmp_path / "battle.toml"
    runner = CliRunner()
    made = runner.invoke(cli, ["setup", "chagnars-lair", "--heroes", "elf=8,barbarian=12",
                               "--seed", "9", "--out", str(out)])
    assert made.exit_code == 0, made.output
    turn = runner.invoke(cli, ["turn", str(out), "--seed", "1", "--json"])
    assert turn.exit_code == 0, turn.output
    acted = {a["character"] for a in json.loads(turn.stdout)["activations"]}
    assert acted == {"sewer-rat-1", "sewer-rat-2", "sewer-rat-3", "sewer-rat-4", "minotaur-1",
                     "crypt-spider-1"}


def test_allies_and_familiars_from_the_command_line(tmp_path: Path) -> None:
    """`--allies ID=HEALTH` and `--familiars HERO=HEALTH` put them in the file, and the AI sees
    them as enemies in its turn; a bad one is refused in one line."""
    out = tmp_path / "battle.toml"
    runner = CliRunner()
    made = runner.invoke(cli, ["setup", "chagnars-lair", "--heroes", "elf=8", "--allies",
                               "squire=6", "--familiars", "elf=2", "--seed", "9", "--json",
                               "--out", str(out)])
    assert made.exit_code == 0, made.output
    assert [(h["piece"], h["kind"]) for h in json.loads(made.stdout)["heroes"]] == [
        ("elf", "hero"), ("squire", "ally"), ("elf-familiar", "familiar")]
    turn = runner.invoke(cli, ["turn", str(out), "--seed", "1", "--json"])
    assert turn.exit_code == 0, turn.output
    seen = {hero for a in json.loads(turn.stdout)["activations"] for hero in a["visible"]}
    assert {"squire", "elf-familiar"} <= seen
    bad = runner.invoke(cli, ["setup", "chagnars-lair", "--heroes", "elf=8", "--familiars",
                              "elf"])
    assert bad.exit_code != 0
    assert "--familiars: write each familiar as HERO=HEALTH (elf=2" in bad.stderr


def test_same_seed_same_setup() -> None:
    runner = CliRunner()
    args = ["setup", "wychward-burrow", "--seed", "12", "--json"]
    first, second = (json.loads(runner.invoke(cli, args).stdout) for _ in range(2))
    assert first == second
    placement = first["placements"][0]
    assert {"piece", "monster", "at", "where"} <= placement.keys()


def test_physical_dice_are_typed_and_bad_rolls_re_asked(tmp_path: Path, catalog: Catalog
                                                        ) -> None:
    """--dice physical: the players draw the tiles one at a time, naming each as printed (a
    Monster tile by its colour); every answer is checked, and only what the rules need is asked:
    the last tile left is not asked, the Direction tiles stop at one of each colour."""
    typed = "\n".join([
        "13",                                   # Rune Die for the playmat: not a face
        "2",                                    # -> throne-room
        "7",                                    # a Character tile by a menu number: refused
        "level-4", "3", "level-2", "level-1",   # antient is the one left
        "purple", "black", "gray", "brown", "blue", "orange",  # green (dungeon) is left
        "left-to-right", "right-to-left",       # a second green: discarded, draw again
        "hsz-to-msz",                           # one of each colour: no fourth draw
    ]) + "\n"
    out = tmp_path / "typed.toml"
    result = CliRunner().invoke(cli, ["setup", "chagnars-lair", "--dice", "physical", "--out",
                                      str(out)], input=typed)
    assert result.exit_code == 0, result.output
    assert "not a face of this die" in result.stderr
    assert "'7' is not one of: level-1, level-2, level-3, level-4, antient" in result.stderr
    assert "Draw the Character tiles one at a time, face down: 5 of 5" not in result.stderr
    assert ("Draw the Character tiles one at a time, face down: 4 of 5 (level-1, antient): "
            "level-1") in result.stderr  # each draw lists what is left
    scenario = load_scenario(out, catalog)
    assert scenario.playmat.id == "throne-room"
    assert scenario.tiles.character_order == ("level-4", "level-3", "level-2", "level-1",
                                              "antient")
    assert scenario.tiles.monster_order == ("zombie", "wraith-knight", "undead", "vermin",
                                            "mythological", "infernal", "dungeon")
    assert scenario.tiles.direction == ("left-to-right", "hsz-to-msz")
    assert "automa new" in result.stdout and "--dice physical" in result.stdout
    assert "automa turn" not in result.stdout


def test_physical_hero_targets_are_asked_per_hero(tmp_path: Path) -> None:
    typed = "\n".join(["2", "level-1", "level-2", "level-3", "level-4",
                       "green", "orange", "blue", "gray", "brown", "black",
                       "4", "4", "1",                 # elf 4; the 4 is gone; barbarian 1
                       "msz-to-hsz", "left-to-right"]) + "\n"
    result = CliRunner().invoke(cli, ["setup", "chagnars-lair", "--dice", "physical",
                                      "--heroes", "elf=8,barbarian=12", "--json"], input=typed)
    assert result.exit_code == 0, result.output
    assert "Draw the Hero Target tile dealt to elf (1, 2, 3, 4)" in result.stderr
    assert "Draw the Hero Target tile dealt to barbarian (1, 2, 3)" in result.stderr
    assert "'4' is not one of: 1, 2, 3" in result.stderr
    tiles = json.loads(result.stdout)["tiles"]
    assert tiles["hero_targets"] == {"elf": 4, "barbarian": 1}
    assert tiles["direction"] == ["left-to-right", "msz-to-hsz"]


def test_input_ending_early_saves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "never.toml"
    result = CliRunner().invoke(cli, ["setup", "chagnars-lair", "--dice", "physical", "--out",
                                      str(out)], input="3\n")
    assert result.exit_code != 0 and not out.exists()
    assert "nothing was saved" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["setup", "chagnar-lair"], "did you mean 'chagnars-lair'"),
        (["setup", "althea-the-healer"], "special room"),
        (["setup", "lair"], "needs --lord"),
        (["setup", "moghath", "--lord", "nobody"], "unknown Catacomb Lord"),
        (["setup", "moghath", "--heroes", "elf"], "ID=HEALTH"),
        (["setup", "mothole"], "not in our data"),
    ],
)
def test_bad_setup_requests_give_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code != 0
    assert message in result.stderr and result.stderr.count("\n") == 1

"""Every ruling of the registry is marked where it decides something, in the printout and in the
JSON of the command whose output it decides.

`MARKED` (rules/rulings.py) says where each ruling is marked: an AI activation, a setup, a hero's
command in a session, the Kraken fight, a campaign's steps, or `automa data check`. For every
(ruling, place) pair there is one case below: a table where the ruling decides something (a
playthrough of tests/playthroughs, played with its seed, or a small table written here) and the
command whose output it decides. The case finds the mark in the printout (`* ruling N` or
`ruling N`) and in the JSON (its `rulings`, or the text the JSON carries), and in an activation
finds each ruling marked once. A ruling added to the registry without a case fails
`test_every_ruling_has_a_case`; a mark taken out of the code fails its case.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from automa.catalog.load import load_catalog
from automa.cli.main import cli
from automa.rules.rulings import MARKED, RULINGS, MarkedIn, RulingKey, ruling
from tests.conftest import GLAAOTH, OPEN_MAT, new_session, reseal
from tests.test_engine import HEAD, piece
from tests.test_rulings import printed_marks

ROOT = Path(__file__).resolve().parents[1]
PLAYTHROUGHS = ROOT / "tests" / "playthroughs"
SEED = "1"
MARK = re.compile(r"\bruling\s+(\d+)\b")  # how every output names a ruling

Outputs = tuple[str, Any]  # the printout, and the JSON (None: the command prints none)


@dataclass(frozen=True)
class Case:
    """A table where a ruling decides something, and how to play it: `play` gets a fresh folder
    and returns the printout and the JSON of the command whose output the ruling decides."""

    why: str
    play: Callable[[Path], Outputs]


def run(args: list[str], data: Path | None = None, stdin: str | None = None) -> str:
    """One `automa` command that must succeed; its stdout."""
    env = {"AUTOMA_DATA_DIR": str(data)} if data is not None else {}
    result = CliRunner().invoke(cli, args, env=env, input=stdin)
    assert result.exit_code == 0, (args, result.output, result.stderr)
    return result.stdout


# An AI turn: `automa turn TABLE --seed 1` and its `--json` --------------------------------

def _table(tmp: Path, table: str) -> Path:
    """A playthrough by its file name, or a table written here (on the open test mat unless it
    brings its own)."""
    if table.endswith(".toml"):
        return PLAYTHROUGHS / table
    path = tmp / "table.toml"
    path.write_text(HEAD + table + ("" if "[playmat]" in table else OPEN_MAT), encoding="utf-8")
    return path


def turn(table: str, why: str) -> Case:
    def play(tmp: Path) -> Outputs:
        path = _table(tmp, table)
        return (run(["turn", str(path), "--seed", SEED]),
                json.loads(run(["turn", str(path), "--seed", SEED, "--json"])))
    return Case(why, play)


RULINGS_ON = "[rulings]\n"
WALLED_MAT = """
[playmat]
size = [60.0, 90.0]
hero_zone = 12.0
monster_zone = 75.0
obstacles = [{ id = "W", polygon = [[5.0, 38.0], [55.0, 38.0], [55.0, 42.0], [5.0, 42.0]] }]
runes = { 1 = [10.0, 80.0], 2 = [30.0, 85.0], 3 = [50.0, 80.0], 4 = [10.0, 50.0], \
5 = [50.0, 50.0], 6 = [30.0, 60.0], 7 = [10.0, 65.0], 8 = [50.0, 65.0], 9 = [20.0, 70.0], \
10 = [40.0, 70.0], 11 = [20.0, 55.0], 12 = [40.0, 55.0] }
"""

TURN_CASES: dict[RulingKey, Case] = {
    RulingKey.DIRECTION_FRAME: turn("57-order-direction-tiles.toml",
                                    "the turn order is read from the Monster Start Zone"),
    RulingKey.HERO_TARGET_REROLL: turn("16-target-shot-tile-in-range.toml",
                                       "the Hero Target tiles' D12 bands pick the target"),
    RulingKey.LOS_TEST: turn("50-no-target-blue-closest-obstacle.toml",
                             "a hero hidden by the centre-line test"),
    RulingKey.CLOSEST_EDGE: turn("31-sword-black-tie-breaker.toml",
                                 "the closest enemy, measured edge to edge"),
    RulingKey.RUSH_STOP: turn("68-rush-end-on-obstacle.toml",
                              "a rush whose ruler ends on an obstacle"),
    RulingKey.CLOCK_EDGE: turn("13-push-at-mat-edge-reverse-clock.toml",
                               "a push near the mat edge: the reverse side"),
    RulingKey.HALF_CLOCK: turn("49-no-target-brown-retreat.toml",
                               "Brown's retreat with the half Clock template"),
    RulingKey.SUMMON_PLACEMENT: turn("06-lord-hmotha-summon-then-melee.toml",
                                     "a summoned piece placed, acting before the summoner"),
    RulingKey.RANDOM_RUNE: turn("20-teleport-returns-on-rune.toml",
                                "back from the Teleported! card, a taken rune rolled again"),
    RulingKey.HOUSE_ROWS: turn("02-giant-scorpion-sequence.toml", "the green row is ours"),
    RulingKey.MOST_POISON: turn(
        RULINGS_ON + 'non-hero-wealth = "count-zero"\n'
        + piece("elf", "heroes", (20, 40), health=5, poison=1)
        + piece("owl", "heroes", (40, 40), kind="familiar", health=2)
        + piece("rat", "ai", (30, 60), monster="sewer-rat")
        + '[chance]\ntokens = { 2 = ["0"] }\n',
        "no gold either (a familiar counted as 0): the most-poison column, where the familiar "
        "counts no Poison cards"),
    RulingKey.PREFERRED_SEQUENCE: turn("60-brown-secondary-most-poison.toml",
                                       "two sequences hold the preferred poison"),
    RulingKey.TOKEN_LEVELS: turn("35-cerberus-chain-ignored.toml",
                                 "a chain shot draws as unmodified"),
    RulingKey.BOULDER_ZERO: turn("28-boulder-one-zero-misses.toml",
                                 "one zero among the boulder's tokens"),
    RulingKey.RESET_SCOPE: turn("11-reset-token.toml", "a reset returns its own level's pile"),
    RulingKey.KEEP_TARGET: turn("18-hero-killed-mid-sequence.toml",
                                "the Active Target killed mid-sequence"),
    RulingKey.ICE_PUSH: turn("08-ice-freezes-then-pushed.toml", "the frozen target is pushed"),
    RulingKey.REGENERATION: turn("43-troll-regeneration.toml", "the troll heals 1"),
    RulingKey.TRANSFORM: turn("07-summoned-fire-spirit-transform.toml",
                              "the AI never flips into a fire wall"),
    RulingKey.NO_AI_RULE: turn("26-shield-skipped-lord.toml", "the shield is skipped"),
    RulingKey.REPEAT: turn(
        piece("elf", "heroes", (30, 10), health=5)
        + piece("lizard", "ai", (30, 60), monster="lizard-man", sequences=["repeat"])
        + piece("near", "ai", (36, 60), monster="sewer-rat", health=1, conditions=["stunned"])
        + piece("far", "ai", (30, 70), monster="sewer-rat", health=3, conditions=["stunned"]),
        "the repeat's friend: the nearest of two in sight"),
    RulingKey.FRIENDLY_TARGET: turn("69-advanced-target-frozen-friend.toml",
                                    "a rush at a frozen teammate knocks the ice off"),
    RulingKey.TWO_ROLLED_RUNES: turn(
        "los_blocked = true\n"  # under HEAD's [battle]: the wall hides the elf
        + piece("elf", "heroes", (30, 30), health=6)
        + piece("knight", "ai", (30, 60), family="wraith-knight", level=2, health=2,
                sequences=["melee"])
        + "[chance]\nrune_die = [3]\nlocation_die = [9]\n" + WALLED_MAT,
        "on a mat printing all twelve runes, both rolled runes free"),
    RulingKey.PARTS: turn("76-ulom-claw-nearer.toml", "Ulom measured to his claw"),
    RulingKey.ANTIENT_CONTROL: turn("55-antient-random-rune-then-target.toml",
                                    "the Antient's card passes back to the heroes"),
    RulingKey.EFFECTS_DATA: turn("04-d12-halves-skeleton-archer.toml",
                                 "the stun modifier's effect is ours"),
    RulingKey.DEVOUR_POISON: turn("32-devour-shot-remorhaz.toml",
                                  "a devoured survivor is not pushed"),
    RulingKey.BOOMERANG: turn("44-boomerang.toml", "the AI's boomerang"),
    RulingKey.PORTAL_TRAP: turn("47-portal-trap.toml", "the D12 portal table replaces the push"),
    RulingKey.ABSENT_HERO_TILE: turn(
        '[tiles]\nhero_targets = { elf = 1, wizard = 2 }\n'
        + piece("elf", "heroes", (30, 50), health=6)
        + piece("archer", "ai", (30, 60), family="mythological", level=2, health=2,
                sequences=["target"])
        + '[chance]\nd12 = [5, 2]\ntokens = { 1 = ["1"] }\n',
        "the tile of a hero not on the mat is rolled again"),
    RulingKey.CARD_RULES: turn(
        piece("elf", "heroes", (30, 50), health=6)
        + piece("cube", "ai", (30, 56), monster="gelatinous-cube")
        + '[chance]\nd12 = [6, 6]\ntokens = { 1 = ["0"], 3 = ["0"] }\n',
        "the Gelatinous Cube's modifier in rotation"),
    RulingKey.STUN_AND_ALOFT: turn("97-aloft-safe-from-attack-template.toml",
                                   "a piece on an obstacle is safe from the Attack template"),
    RulingKey.TELEPORT_LANDING: turn(
        piece("elf", "heroes", (10, 80), health=6)
        + piece("dwarf", "heroes", (30, 85), health=6)
        + piece("rak", "ai", (55, 85), monster="rakshasa", conditions=["teleported"])
        + "[chance]\nrune_die = [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2]\n"
        + "[playmat]\nsize = [60.0, 90.0]\nhero_zone = 12.0\nmonster_zone = 75.0\n"
        + "obstacles = []\nrunes = { 1 = [10.0, 80.0], 2 = [30.0, 85.0], 3 = [50.0, 50.0] }\n",
        "every rolled rune taken: the free rune nearest the mat centre"),
    RulingKey.LORD_SEQUENCE: turn("83-kaulaurn-rolls-the-printed-d12.toml",
                                  "the printed D12, not the card's health bands"),
    RulingKey.REPEAT_SEQUENCES: turn("75-lord-advanced-repeat-rolls-d12.toml",
                                     "a Lord aimed at a teammate to repeat"),
    RulingKey.FROZEN_HERO: turn(
        piece("elf", "heroes", (20, 30), health=5, conditions=["frozen"])
        + piece("rat", "ai", (20, 35), monster="sewer-rat", sequences=["melee"])
        + '[chance]\nd12 = [6]\ntokens = { 1 = ["2"] }\n',
        "a frozen hero takes no damage"),
    RulingKey.NON_HERO_WEALTH: turn(
        piece("elf", "heroes", (20, 40), health=5, gold=3)
        + piece("owl", "heroes", (40, 40), kind="familiar", health=2)
        + piece("wraith", "ai", (30, 60), family="wraith-knight", level=1, health=2,
                sequences=["melee"]),
        "least gold: a familiar ranks behind the hero"),
    RulingKey.RUNE_WHEN_ON_RUNE: turn("53-no-target-black-random-rune.toml",
                                      "a piece on a rune rolls another, free one"),
    RulingKey.PART_PUSH: turn("77-ulom-claw-visible-ulom-hidden.toml",
                              "a hit on the claw pushes the claw"),
    RulingKey.PART_REJOIN: turn("78-ulom-claw-ranged-hit.toml",
                                "a claw separated by a hit is put back"),
    RulingKey.RESET_TIMING: turn("80-boulder-first-token-reset.toml",
                                 "a reset among the boulder's two tokens"),
}


# A setup: `automa setup ROOM` and its `--json` -------------------------------------------

def setup(*args: str, why: str) -> Case:
    def play(tmp: Path) -> Outputs:
        command = ["setup", *args, "--seed", SEED]
        return run(command), json.loads(run([*command, "--json"]))
    return Case(why, play)


CAVE_SETUP = ("chagnars-lair", "--heroes", "elf=8", "--hidden-cave")
SETUP_CASES: dict[RulingKey, Case] = {
    RulingKey.ORDER_TILES: setup(*CAVE_SETUP, why="the tiles laid are our faces"),
    RulingKey.SIZES: setup(*CAVE_SETUP, why="positions on our unmeasured mat"),
    RulingKey.CAVE_PIECES: setup(*CAVE_SETUP, why="the Hidden Cave's five pieces set aside"),
    RulingKey.CARD_RULES: setup("the-mitholaq-hive",
                                why="two Monster Metre cards drawn without putting one back"),
    RulingKey.TRILITHON_ARCH: setup("chagnars-lair", "--playmat", "mausoleum", "--trilithon",
                                    why="the Trilithon written as its two uprights"),
}


# `automa data check` and its `--json` -----------------------------------------------------

@functools.cache
def _data_check() -> Outputs:
    return run(["data", "check"]), json.loads(run(["data", "check", "--json"]))


def data_check(why: str) -> Case:
    return Case(why, lambda tmp: _data_check())


DATA_CASES: dict[RulingKey, Case] = {
    RulingKey.ORDER_TILES: data_check("the tiles' faces shipped"),
    RulingKey.HERO_TARGET_REROLL: data_check("the Hero Target bands shipped"),
    RulingKey.TOKEN_MIX: data_check("the damage tokens shipped"),
    RulingKey.SIZES: data_check("the sizes shipped"),
    RulingKey.HALF_CLOCK: data_check("the half Clock template shipped"),
    RulingKey.KRAKEN_BAG: data_check("the red bag shipped"),
}


# The Kraken fight: `automa hidden-cave fight` and its `--json` ----------------------------

def kraken(health: int, shots: int, seed: int, why: str) -> Case:
    def play(tmp: Path) -> Outputs:
        command = ["hidden-cave", "fight", "--health", str(health), "--shots", str(shots),
                   "--seed", str(seed)]
        return run(command), json.loads(run([*command, "--json"]))
    return Case(why, play)


KRAKEN_CASES: dict[RulingKey, Case] = {
    RulingKey.KRAKEN_BAG: kraken(8, 1, 1, "the red tokens come from the level 1 bag"),
    RulingKey.KRAKEN_TIE: kraken(8, 1, 11, "a tie (D12 2, tokens 0 1R 1): the Kraken wins"),
    RulingKey.KRAKEN_DRAW: kraken(4, 14, 1, "15 tokens: the bag runs out"),
}


# A session: `automa play` typed, and the board's JSON for the same line -------------------

def play_out(folder: Path, lines: list[str], data: Path | None = None) -> str:
    return run(["play", "--session", str(folder)], data, "".join(f"{x}\n" for x in lines))


def board(folder: Path, path: str, body: dict[str, Any], data: Path | None = None) -> Any:
    """What the board's JSON answer to one request says the command did: its `output` (the
    lines the terminal prints), or a refusal's `error` as the server sends it."""
    from automa.campaign.battles import open_room
    from automa.web.api import ApiError, Board, call

    try:  # opened as `automa serve` opens it: with what its campaign says
        answer = call(Board(open_room(folder, load_catalog(data)), data), path, body)[1]
    except ApiError as error:
        return {"error": str(error)}
    return {"output": answer["output"]}


ELF = piece("elf", "heroes", (30, 30), health=6, starting_health=6)
DUEL = HEAD + "{rulings}" + ELF + piece("rat-1", "ai", (30, 60), monster="sewer-rat") \
    + piece("mino", "ai", (50, 60), monster="minotaur") \
    + piece("wk", "ai", (40, 70), family="wraith-knight", level=2, health=2,
            sequences=["melee"]) + "[chance]\nseed = 1\n" + OPEN_MAT


def hit(line: str, why: str, dice: tuple[str, ...] = (), rulings: str = "",
        physical: bool = False) -> Case:
    """`line` typed in `automa play` (then undone), and the same line on the board."""
    def play(tmp: Path) -> Outputs:
        table = DUEL.replace("{rulings}", f"[rulings]\n{rulings}\n" if rulings else "")
        folder = new_session(tmp, table, *(["--dice", "physical"] if physical else []))
        printout = play_out(folder, [line, *dice, "undo", "quit"])
        targets, _, rest = line.removeprefix("hit ").partition(" ")
        shot, _, by = rest.partition(" by ")
        body = {"targets": targets.split(","), "shot": shot, "by": by,
                "dice": [int(d) for d in dice]}
        return printout, board(folder, "/api/hit", body)
    return Case(why, play)


@dataclass(frozen=True)
class CaveBattle:
    """A Monstrosity campaign with the Hidden Cave, in its second room's battle: the elf holds
    four of the five and the fifth stands on the mat (tests/test_cave_battle.py)."""

    data: Path
    battle: Path
    needed: list[str]


def cave_battle(tmp: Path) -> CaveBattle:
    from automa.session.commands import Remove
    from automa.session.store import Session

    data, folder = tmp / "data", tmp / "c"
    data.mkdir(parents=True)
    run(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=3",
         "--lord", "hmotha", "--hidden-cave", "--seed", "8"])
    status = json.loads(run(["campaign", "status", "--session", str(folder), "--json"]))
    needed: list[str] = status["hidden_cave"]["needed"]
    catalog = load_catalog(data)
    last = next(m for m in reversed(needed) if catalog.monsters[m].health is not None)
    room2 = GLAAOTH.replace("[glaaoth]", "[ehanostha]").replace('"sewer-rat", count = 2',
                                                                f'"{last}", count = 1')
    (data / "rooms.toml").write_text(GLAAOTH + room2, encoding="utf-8")
    room1 = Path(json.loads(run(["campaign", "next", "glaaoth", "--session", str(folder),
                                 "--json"], data))["session"])
    session = Session.open(room1, load_catalog(data))
    for piece_id in [p.id for p in session.state.battle.pieces if p.side == "ai"]:
        session.do(Remove(piece_id, "dead"))
    collected = [f"--collect=elf={m}" for m in needed if m != last]
    run(["campaign", "end-room", "--session", str(folder), "--gold", "0", "--no-spell",
         *collected], data)
    battle = Path(json.loads(run(["campaign", "next", "ehanostha", "--session", str(folder),
                                  "--json"], data))["session"])
    return CaveBattle(data, battle, needed)


def _kill_the_fifth(cave: CaveBattle) -> None:
    from automa.session.commands import Remove
    from automa.session.store import Session

    session = Session.open(cave.battle, load_catalog(cave.data))
    victim = next(p.id for p in session.state.battle.pieces if p.monster in cave.needed)
    session.do(Remove(victim, "killed by elf"))


@functools.cache
def _fought(tmp: Path) -> tuple[str, str, Any, str, Any]:
    """The elf enters the Hidden Cave and wins (virtual dice); after the AI's turn the elf tries
    again, then summons the Antient won (typed, undone, then on the board): a hero in the cave
    takes no other action that turn (ruling 58). The fight's printout, the summon's printout and
    JSON, the second visit's printout and JSON."""
    from automa.session.commands import EndHeroesTurn
    from automa.session.store import Session

    cave = cave_battle(tmp)
    _kill_the_fifth(cave)
    fight = play_out(cave.battle, ["cave elf 20", "Trident", "urthoth", "quit"], cave.data)
    session = Session.open(cave.battle, load_catalog(cave.data))
    session.do(EndHeroesTurn())
    while session.state.phase == "ai" and session.next_activation() is not None:
        pass
    again = play_out(cave.battle, ["cave elf 20", "quit"], cave.data)
    refused = board(cave.battle, "/api/command", {"line": "cave elf 20"}, cave.data)
    summon = play_out(cave.battle, ["summon elf urthoth", "undo", "quit"], cave.data)
    summoned = board(cave.battle, "/api/command", {"line": "summon elf urthoth"}, cave.data)
    return fight, summon, summoned, again, refused


@functools.cache
def _fought_at_the_table(tmp: Path) -> str:
    """The elf (8 health: 2 tokens, and 12 shot icons) fights with the table's dice: a D12 of
    12, the level 1 bag's thirteen tokens (12 in all), the bag runs out, then a 0: a tie."""
    cave = cave_battle(tmp)
    log = cave.battle / "log.jsonl"
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    log.write_text(json.dumps({**header, "chance": "physical"}) + "\n", encoding="utf-8")
    reseal(log)
    _kill_the_fifth(cave)
    bag = ["0", "0", "0", "1", "1", "1", "1", "1", "1", "1", "2", "2", "1R"]
    return play_out(cave.battle, ["cave elf 12", "12", *bag, "0", "Trident", "quit"], cave.data)


def in_cave(pick: Callable[[tuple[str, str, Any, str, Any]], Outputs], why: str) -> Case:
    return Case(why, lambda tmp: pick(_fought(tmp.parent / "cave")))


SESSION_CASES: dict[RulingKey, Case] = {
    RulingKey.REGENERATION: hit("hit mino melee+regeneration by elf",
                                "a hero's regeneration heals them"),
    RulingKey.ANTIENT_CONTROL: in_cave(lambda f: (f[1], f[2]),
                                       "the summoned Antient's card passes to the Overseer"),
    RulingKey.STUN_AND_ALOFT: hit("hit mino melee+stun by elf", "a stunned monster"),
    RulingKey.KRAKEN_BAG: in_cave(lambda f: (f[0], None),
                                  "the red tokens drawn in a room's battle"),
    RulingKey.KRAKEN_TIE: Case("a tie in a room's battle",
                               lambda tmp: (_fought_at_the_table(tmp.parent / "table"), None)),
    RulingKey.KRAKEN_DRAW: Case("the bag runs out in a room's battle",
                                lambda tmp: (_fought_at_the_table(tmp.parent / "table"), None)),
    RulingKey.CAVE_ONCE: in_cave(lambda f: (f[3], f[4]), "a second visit is refused"),
    RulingKey.MONSTER_VULNERABILITIES: hit(
        "hit wk melee+chain by elf", "a Wraith Knight ignores the chain",
        rulings='monster-vulnerabilities = "on"'),
    RulingKey.PORTAL_RUSH: hit("hit mino portal-trap by elf", "Portal Trap 4: the AI declines",
                               ("4",), physical=True),
    RulingKey.PORTAL_TWELVE: hit("hit mino portal-trap by elf", "Portal Trap 12: a free rune",
                                 ("12",), physical=True),
    RulingKey.DAGGER_HERO: hit("hit mino dagger by elf", "a hero's dagger does 2"),
    RulingKey.HERO_POISON: hit("hit mino melee+poison by elf", "the Poison card adds", ("2",)),
    RulingKey.CAVE_IN_BATTLE: in_cave(lambda f: (f[0], None), "the fight at once, in battle"),
    RulingKey.ANTIENT_SUMMON_ONCE: in_cave(lambda f: (f[1], f[2]), "the Antient used once"),
}


# A campaign: `automa campaign ...` and its `--json` ---------------------------------------

def campaign(why: str, name: str, *steps: list[str]) -> Case:
    """A new campaign (its Lord the start piece), the steps, then the last one's printout and
    JSON (a step that changes the campaign is undone between the two)."""
    def play(tmp: Path) -> Outputs:
        folder, data = tmp / "c", tmp / "data"
        data.mkdir()
        run(["campaign", "new", name, "--session", str(folder), "--heroes", "elf=8,dwarf=9",
             "--seed", "5"], data)
        *before, last = [[*s[:2], "--session", str(folder), *s[2:]] for s in steps]
        for step in before:
            run(step, data)
        printout = run(last, data)
        if last[:2] != ["campaign", "status"]:
            run(["campaign", "undo", "--session", str(folder)], data)
        return printout, json.loads(run([*last, "--json"], data))
    return Case(why, play)


def _fallen(tmp: Path) -> Outputs:
    """The elf dies in Glaaoth's battle; `campaign end-room` says what the rule does to them."""
    from automa.session.commands import Remove
    from automa.session.store import Session

    folder, data = tmp / "c", tmp / "data"
    data.mkdir()
    (data / "rooms.toml").write_text(GLAAOTH, encoding="utf-8")
    run(["campaign", "new", "monstrosity", "--session", str(folder), "--heroes", "elf=8,dwarf=9",
         "--lord", "hmotha", "--seed", "5"], data)
    battle = Path(json.loads(run(["campaign", "next", "glaaoth", "--session", str(folder),
                                  "--json"], data))["session"])
    session = Session.open(battle, load_catalog(data))
    for piece_id in ["elf", *(p.id for p in session.state.battle.pieces if p.side == "ai")]:
        session.do(Remove(piece_id, "dead"))
    end = ["campaign", "end-room", "--session", str(folder), "--gold", "2", "--no-spell"]
    printout = run(end, data)
    run(["campaign", "undo", "--session", str(folder)], data)
    return printout, json.loads(run([*end, "--json"], data))


STATUS = ["campaign", "status"]
CAMPAIGN_CASES: dict[RulingKey, Case] = {
    RulingKey.CAMPAIGN_OPEN_ROOMS: campaign("the rooms open next", "monstrosity", STATUS),
    RulingKey.CAMPAIGN_LORD: campaign("the start piece is the Lord", "monstrosity", STATUS),
    RulingKey.CAMPAIGN_HERO_DEATH: Case("a hero fell in a room", _fallen),
    RulingKey.ALTHEA_CURE: campaign("Althea's price to cure", "monstrosity",
                                    ["campaign", "next", "althea-the-healer"]),
    RulingKey.VISIT_POOL: campaign("who pays at a special room", "monstrosity",
                                   ["campaign", "next", "izchak-the-merchant"]),
    RulingKey.TAVERN_BET: campaign("the Alewife Tavern's draw", "pharaoh",
                                   ["campaign", "next", "alewife-tavern"],
                                   ["campaign", "visit", "bet", "--pay", "dwarf", "--for",
                                    "elf", "--bag", "orc=6,fire-spirit=4,centaur=4"]),
    RulingKey.INN_SLEEP: campaign("the Inn's sleep stops at the starting health", "monstrosity",
                                  ["campaign", "next", "izchak-the-merchant"],
                                  ["campaign", "end-room", "--change", "elf.gold=+5"],
                                  ["campaign", "next", "amaranth-inn"],
                                  ["campaign", "visit", "sleep", "--pay", "elf"]),
    RulingKey.LAIR_LAST: campaign("the Healer listed after the Lair is open before it",
                                  "monstrosity", STATUS),
}


# Who acts in a round, Yilleph and the claw: a session's heroes' turn, then its AI turn --------

def session_turn(table: str, heroes: list[str], why: str, activations: int = 1) -> Case:
    """The heroes' inputs typed in `automa play` with the table's own dice (ending their
    turn), then the AI turn's first activation: `automa next`'s printout, and `automa next
    --json` on a copy of the session (the same activation), as a turn's JSON holds it."""
    def play(tmp: Path) -> Outputs:
        folder = new_session(tmp, HEAD + table + OPEN_MAT, "--dice", "physical")
        play_out(folder, [*heroes, "quit"])
        twin = tmp / "twin"
        shutil.copytree(folder, twin)
        printout = "".join(run(["next", "--session", str(folder)]) for _ in range(activations))
        return printout, {"activations": [json.loads(run(["next", "--session", str(twin),
                                                          "--json"]))
                                          for _ in range(activations)]}
    return Case(why, play)


def heroes_turn(table: str, line: str, board_path: str, body: dict[str, Any], why: str) -> Case:
    """`line` typed in `automa play` (then undone), and the same input on the board."""
    def play(tmp: Path) -> Outputs:
        folder = new_session(tmp, HEAD + table + OPEN_MAT)
        return (play_out(folder, [line, "undo", "quit"]), board(folder, board_path, body))
    return Case(why, play)


def _teleported_then_done(tmp: Path) -> Outputs:
    """A Portal Trap's 1 sends the scorpion to the Teleported! card, then the heroes' turn
    ends: typed (then undone), and on the board."""
    folder = new_session(tmp, HEAD + SCORPION + OPEN_MAT, "--dice", "physical")
    printout = play_out(folder, ["hit scorpion portal-trap by elf", "1", "done", "undo", "quit"])
    return printout, board(folder, "/api/done", {})


SCORPION = piece("elf", "heroes", (30, 20), health=6) \
    + piece("scorpion", "ai", (30, 70), monster="giant-scorpion", sequences=["rush"]) \
    + piece("rat", "ai", (10, 70), monster="sewer-rat", sequences=["rush"])
STONE = piece("elf", "heroes", (30, 20), health=6) \
    + piece("stone", "heroes", (40, 40), kind="antient", name="Stone Antient",
            sequences=["rush"]) \
    + piece("rat", "ai", (10, 70), monster="sewer-rat", sequences=["rush"])
YILLEPH_ALONE = piece("yilleph", "heroes", (10, 20), health=5, colour="black") \
    + piece("yilleph-w", "heroes", (30, 55), part_of="yilleph", colour="white")
YILLEPH = piece("elf", "heroes", (50, 20), health=6) + YILLEPH_ALONE
ORC_HITS = piece("orc", "ai", (30, 60), monster="orc", sequences=["melee"]) \
    + '[chance]\ntokens = { 1 = ["2"] }\nd12 = [12]\nrune_die = [4]\n'
ULOM = piece("ulom", "heroes", (10, 30), health=5, starting_health=6) \
    + piece("ulom-claw", "heroes", (13, 30), part_of="ulom") \
    + piece("rat", "ai", (30, 60), monster="sewer-rat") \
    + piece("mino", "ai", (50, 60), monster="minotaur")

ROUND_TURN_CASES: dict[RulingKey, Case] = {
    RulingKey.SUMMONED_TURN: turn("06-lord-hmotha-summon-then-melee.toml",
                                  "a summoned piece's turn is the one it takes at once"),
    RulingKey.TELEPORTED_BY_HEROES: session_turn(
        SCORPION, ["hit scorpion portal-trap by elf", "1", "done"],
        "a monster the heroes teleported stays on the card this round", activations=2),
    RulingKey.FROZEN_TURN: turn("09-frozen-ai-piece-cannot-act.toml",
                                "a frozen piece's turn passes"),
    RulingKey.ANTIENT_TURNS: turn("54-no-target-antient-stays.toml",
                                  "the Overseer holds the Antient in the AI turn"),
    RulingKey.YILLEPH_FLIP: turn(YILLEPH_ALONE + ORC_HITS,
                                 "the white Yilleph hit: it flips to black, onto a rune"),
}
ROUND_SESSION_CASES: dict[RulingKey, Case] = {
    RulingKey.TELEPORTED_BY_HEROES: Case("the heroes' turn ends with a monster they teleported",
                                         _teleported_then_done),
    RulingKey.ANTIENT_TURNS: heroes_turn(STONE, "done", "/api/done", {},
                                         "the heroes' Antient passes to the Overseer"),
    RulingKey.YILLEPH_FLIP: heroes_turn(
        YILLEPH + piece("rat", "ai", (30, 75), monster="sewer-rat"),
        "hit yilleph-w rush by elf", "/api/hit",
        {"targets": ["yilleph-w"], "shot": "rush", "by": "elf"},
        "a hero's piece hits the white Yilleph: it flips"),
    RulingKey.CLAW_HIT: heroes_turn(ULOM, "hit rat claw by ulom", "/api/hit",
                                    {"targets": ["rat"], "shot": "claw", "by": "ulom"},
                                    "Ulom's claw: 1 damage, no box"),
}

# Riders, and a character's parts on the cards: an AI turn, and a report in the heroes' turn ---

RIDER = piece("knight", "heroes", (30, 30), health=9, conditions=["riding"]) \
    + piece("horse", "heroes", (30, 30), kind="mount", radius=2.0, health=4,
            conditions=["ridden"]) \
    + piece("rat", "ai", (30, 70), monster="sewer-rat")

STACK_TURN_CASES: dict[RulingKey, Case] = {
    RulingKey.RIDERS: turn("95c-wyvern-rider-rushes-on-its-wyvern.toml",
                           "a rider's rush carries its wild wyvern"),
    RulingKey.PARTS_ON_CARDS: turn("79b-ulom-teleported-with-his-claw.toml",
                                   "Ulom's claw goes onto the Teleported! card with him"),
}
STACK_SESSION_CASES: dict[RulingKey, Case] = {
    RulingKey.RIDERS: heroes_turn(RIDER, "move knight 31,31", "/api/move",
                                  {"piece": "knight", "at": [31, 31]},
                                  "a reported move of a rider moves its mount"),
    RulingKey.PARTS_ON_CARDS: heroes_turn(
        ULOM, "condition ulom teleported on", "/api/condition",
        {"piece": "ulom", "condition": "teleported", "on": True},
        "Ulom put on the Teleported! card takes his claw"),
}

CASES: dict[tuple[RulingKey, MarkedIn], Case] = {
    **{(key, MarkedIn.TURN): case for key, case in TURN_CASES.items()},
    **{(key, MarkedIn.SETUP): case for key, case in SETUP_CASES.items()},
    **{(key, MarkedIn.DATA): case for key, case in DATA_CASES.items()},
    **{(key, MarkedIn.KRAKEN): case for key, case in KRAKEN_CASES.items()},
    **{(key, MarkedIn.SESSION): case for key, case in SESSION_CASES.items()},
    **{(key, MarkedIn.CAMPAIGN): case for key, case in CAMPAIGN_CASES.items()},
    **{(key, MarkedIn.TURN): case for key, case in ROUND_TURN_CASES.items()},
    **{(key, MarkedIn.SESSION): case for key, case in ROUND_SESSION_CASES.items()},
    **{(key, MarkedIn.TURN): case for key, case in STACK_TURN_CASES.items()},
    **{(key, MarkedIn.SESSION): case for key, case in STACK_SESSION_CASES.items()},
}


def test_every_ruling_has_a_case() -> None:
    """Each ruling of the registry says where it is marked, and each of those places has a case
    here: a ruling added without one (or a place claimed for it and never shown) fails."""
    assert set(MARKED) == {r.key for r in RULINGS}
    assert all(MARKED[r.key] for r in RULINGS)
    claimed = {(key, where) for key, places in MARKED.items() for where in places}
    assert set(CASES) == claimed


def test_few_rulings_are_marked_only_off_the_table() -> None:
    """The rulings marked only where the data is checked, never where they decide at the table:
    one, the damage tokens' mix, which decides every token the program draws (a mark on each
    activation would drown the others)."""
    assert [key for key, places in MARKED.items() if places == (MarkedIn.DATA,)] == \
        [RulingKey.TOKEN_MIX]


# What a mark looks like in each output ------------------------------------------------------

def json_marks(value: Any) -> set[int]:
    """The ruling numbers a JSON object carries: in a `rulings` list, or named in its text."""
    found: set[int] = set()

    def walk(item: Any, key: str = "") -> None:
        if isinstance(item, dict):
            for k, v in item.items():
                walk(v, k)
        elif isinstance(item, list):
            if key == "rulings" and all(isinstance(n, int) for n in item):
                found.update(item)
            else:
                for v in item:
                    walk(v)
        elif isinstance(item, str):
            found.update(int(n) for n in MARK.findall(item))

    walk(value)
    return found


def _pairs() -> Iterator[tuple[RulingKey, MarkedIn]]:
    return iter(sorted(CASES, key=lambda pair: (ruling(pair[0]).number, pair[1])))


@pytest.mark.parametrize(("key", "where"), list(_pairs()),
                         ids=[f"{ruling(k).number}-{k}-{w}" for k, w in _pairs()])
def test_the_ruling_is_marked_where_it_decides(key: RulingKey, where: MarkedIn,
                                               tmp_path: Path) -> None:
    number = ruling(key).number
    printout, shown = CASES[key, where].play(tmp_path)
    if where == MarkedIn.TURN:
        marked = printed_marks(printout)
        listed = [a["rulings"] for a in shown["activations"]]
        assert marked == listed, "the printout and the JSON mark the same rulings"
        assert any(number in numbers for numbers in marked), printout
        assert all(len(numbers) == len(set(numbers)) for numbers in marked), \
            "a ruling is marked once an activation"
        return
    assert number in {int(n) for n in MARK.findall(printout)}, printout
    if shown is not None:
        assert number in json_marks(shown), shown

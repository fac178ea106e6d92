"""Bad scenario files: `automa turn` exits non-zero with ONE line on stderr naming the file,
the record and the field, and never shows a traceback (CONTRACT.md, "A bad scenario ...").

Every broken scenario is the valid BASE below with one small edit, so each failure is caused by
exactly that edit (`test_base_scenario_is_valid` proves the base itself runs).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from automa.cli.main import cli

# Mausoleum obstacles lie between y = 27.25 and y = 66.5; the pieces stay in the start zones,
# well clear of them and of the mat edges.
BASE = """\
format = 1

[battle]
playmat = "mausoleum"
los_blocked = false
round = 1

[tiles]
hero_targets = { elf = 1, barbarian = 2 }

[[piece]]
id = "elf"
side = "heroes"
kind = "hero"
at = [20.0, 6.0]
health = 8
gold = 5

[[piece]]
id = "barbarian"
side = "heroes"
kind = "hero"
at = [40.0, 6.0]
health = 9
gold = 3

[[piece]]
id = "rat-1"
side = "ai"
monster = "sewer-rat"
at = [20.0, 80.0]

[[piece]]
id = "skeleton-1"
side = "ai"
monster = "skeleton-warrior"
at = [40.0, 80.0]

[chance]
seed = 7
d12 = [7, 3]
rune_die = [4]
tokens = { 1 = ["1", "0"] }
"""

INTERNAL_ERROR_EXIT = 70


@dataclass(frozen=True)
class Bad:
    """One broken scenario: BASE with `old` replaced by `new` (or `text` instead of BASE)."""

    old: str = ""
    new: str = ""
    record: str | None = None  # "piece rat-1", "battle", ...; None for a top-level key
    field: str | None = None  # None when the whole file is wrong
    says: tuple[str, ...] = ()  # further words the message must hold
    text: str | None = None  # the whole file, when it is not an edit of BASE
    write: bool = True  # False: the file does not exist

    def build(self) -> str:
        if self.text is not None:
            return self.text
        assert BASE.count(self.old) == 1, f"edit target {self.old!r} must occur once in BASE"
        return BASE.replace(self.old, self.new)


def inline_mat(polygon: str) -> str:
    """BASE on an inline 60 x 90 cm mat whose one obstacle has the outline `polygon`."""
    return BASE.replace('playmat = "mausoleum"', 'playmat = "inline"') + (
        "\n[playmat]\nsize = [60.0, 90.0]\nhero_zone = 12.0\nmonster_zone = 75.0\n"
        f'obstacles = [{{ id = "A", polygon = {polygon} }}]\n')


RAT_AT = "at = [20.0, 80.0]"
SKELETON_AT = "at = [40.0, 80.0]"

CASES: dict[str, Bad] = {
    "unknown-top-level-key": Bad("format = 1\n", "format = 1\nturns = 3\n", None, "turns"),
    "unknown-piece-key": Bad('monster = "sewer-rat"\n', 'monster = "sewer-rat"\nhealht = 2\n',
                             "piece rat-1", "healht"),
    # a required field misspelt: whatever field is blamed, the line must name the typo
    "hero-health-misspelt": Bad("health = 8\n", "healht = 8\n", "piece elf", None, ("healht",)),
    "piece-without-at": Bad(RAT_AT + "\n", "", "piece rat-1", "at", ("missing",)),
    "hero-without-health": Bad("health = 8\n", "", "piece elf", "health", ("missing",)),
    "part-with-health": Bad('id = "barbarian"\n', 'id = "barbarian"\npart_of = "elf"\n',
                            "piece barbarian", "health", ("no health of its own",)),
    # `part_of` names a whole piece (issue 27): else a monster no hit can damage loaded
    "part-of-itself": Bad('monster = "sewer-rat"', 'monster = "sewer-rat"\npart_of = "rat-1"',
                          "piece rat-1", "part_of", ("'rat-1' cannot be part of itself",)),
    "parts-of-each-other": Bad(text=BASE.replace(
        'monster = "sewer-rat"', 'monster = "sewer-rat"\npart_of = "skeleton-1"').replace(
        'monster = "skeleton-warrior"', 'monster = "skeleton-warrior"\npart_of = "rat-1"'),
        record="piece rat-1", field="part_of",
        says=("'skeleton-1' is itself part of 'rat-1'", "not to another part")),
    "part-of-a-part": Bad(text=BASE.replace(
        'monster = "sewer-rat"', 'monster = "sewer-rat"\npart_of = "skeleton-1"')
        + '\n[[piece]]\nid = "tail"\nside = "ai"\nmonster = "sewer-rat"\nat = [30.0, 80.0]\n'
        'part_of = "rat-1"\n', record="piece tail", field="part_of",
        says=("'rat-1' is itself part of 'skeleton-1'",)),
    # an id or a name is something to read and type, not only whitespace (issue 27)
    "blank-id": Bad('id = "rat-1"', 'id = "  "', "piece 3", "id",
                    ("expected a non-blank string, got '  '",)),
    "empty-id": Bad('id = "rat-1"', 'id = ""', "piece 3", "id",
                    ("expected a non-blank string, got ''",)),
    "invisible-id": Bad('id = "rat-1"', 'id = "\\u200b\\t"', "piece 3", "id",
                        ("expected a non-blank string",)),
    "blank-name": Bad(RAT_AT, RAT_AT + '\nname = " "', "piece rat-1", "name",
                      ("expected a non-blank string",)),
    "blank-part-of": Bad(RAT_AT, RAT_AT + '\npart_of = "  "', "piece rat-1", "part_of",
                         ("expected a non-blank string",)),
    "blank-condition": Bad(RAT_AT, RAT_AT + '\nconditions = [" "]', "piece rat-1", "conditions",
                           ("expected a non-blank string",)),
    "blank-out-id": Bad("[chance]", '[out]\n"  " = "dead"\n\n[chance]', None, "out.  ",
                        ("expected a non-blank string",)),
    "blank-hero-target": Bad("hero_targets = { elf = 1, barbarian = 2 }",
                             'hero_targets = { " " = 1, barbarian = 2 }', "tiles", None,
                             ("expected a non-blank string",)),
    "no-format": Bad("format = 1\n", "", None, "format", ("missing",)),
    "health-not-a-number": Bad("health = 8", 'health = "lots"', "piece elf", "health",
                               ("lots",)),
    "at-is-a-string": Bad(RAT_AT, 'at = "20, 80"', "piece rat-1", "at", ("20, 80",)),
    "los-blocked-not-boolean": Bad("los_blocked = false", 'los_blocked = "yes"', "battle",
                                   "los_blocked", ("yes",)),
    "piece-off-the-mat": Bad(RAT_AT, "at = [70.0, 80.0]", "piece rat-1", "at", ("off",)),
    "piece-overlaps-piece": Bad(SKELETON_AT, "at = [20.5, 80.0]", "piece skeleton-1", "at",
                                ("rat-1",)),
    "piece-overlaps-obstacle": Bad(RAT_AT, "at = [30.0, 42.0]", "piece rat-1", "at",
                                   ("obstacle", "C")),
    "unknown-monster-id": Bad('monster = "sewer-rat"', 'monster = "sewer-rta"', "piece rat-1",
                              "monster", ("sewer-rta", "did you mean 'sewer-rat'")),
    "d12-of-13": Bad("d12 = [7, 3]", "d12 = [13, 3]", "chance", "d12[0]", ("13",)),
    "d12-of-0": Bad("d12 = [7, 3]", "d12 = [7, 0]", "chance", "d12[1]", ("0",)),
    "token-not-in-bag": Bad('tokens = { 1 = ["1", "0"] }', 'tokens = { 1 = ["0", "9"] }',
                            "chance", "tokens.1[1]", ("9",)),
    "rune-die-of-7": Bad("rune_die = [4]", "rune_die = [7]", "chance", "rune_die[0]", ("7",)),
    "not-toml": Bad(text='format = 1\n[battle\nplaymat = "mausoleum"\n',
                    says=("not valid TOML", "line 2")),
    "file-does-not-exist": Bad(write=False, says=("not found",)),
    "format-2": Bad("format = 1\n", "format = 2\n", None, "format", ("2",)),
    "duplicate-piece-id": Bad('id = "skeleton-1"', 'id = "rat-1"', "piece rat-1", "id",
                              ("rat-1",)),
    # a tile may belong to a hero not on the mat (CONTRACT.md's own example does so)
    "hero-target-tile-5": Bad("hero_targets = { elf = 1, barbarian = 2 }",
                              "hero_targets = { elf = 5, barbarian = 2 }", "tiles",
                              "hero_targets.elf", ("5", "1..4")),
    # ... but never to a piece that is no hero (issue 27)
    "hero-target-tile-of-a-monster": Bad("hero_targets = { elf = 1, barbarian = 2 }",
                                         "hero_targets = { elf = 1, rat-1 = 2 }", "tiles",
                                         "hero_targets.rat-1",
                                         ("'rat-1' is a piece of the ai side",)),
    "unknown-playmat": Bad('playmat = "mausoleum"', 'playmat = "mausoleom"', "battle", "playmat",
                           ("mausoleom", "did you mean 'mausoleum'")),
    "inline-playmat-missing": Bad('playmat = "mausoleum"', 'playmat = "inline"', "battle",
                                  "playmat", ("inline",)),
    # hostile and broken files (issue 11): each is refused at load time in one line
    "obstacle-self-crossing": Bad(text=inline_mat("[[28, 40], [32, 44], [32, 40], [28, 44]]"),
                                  record="playmat", field="obstacles[0].polygon",
                                  says=("crosses itself",)),
    "obstacle-collinear": Bad(text=inline_mat("[[28, 40], [30, 40], [32, 40]]"),
                              record="playmat", field="obstacles[0].polygon",
                              says=("one line",)),
    "obstacle-repeated-point": Bad(text=inline_mat("[[28, 40], [32, 40], [32, 40], [28, 44]]"),
                                   record="playmat", field="obstacles[0].polygon",
                                   says=("point 3 repeats point 2",)),
    # found by the fuzzer: shapely's validity check warned (overflow) on stderr before the
    # off-the-mat check ran
    "obstacle-off-the-mat": Bad(text=inline_mat("[[28, 40], [32, 40], [-1e308, 44], [28, 44]]"),
                                record="playmat", field="obstacles[0].polygon",
                                says=("off the",)),
    "mat-size-nan": Bad(text=inline_mat("[[28, 40], [32, 40], [32, 44]]").replace(
        "size = [60.0, 90.0]", "size = [nan, 90.0]"), record="playmat", field="size",
        says=("finite",)),
    "mat-size-huge": Bad(text=inline_mat("[[28, 40], [32, 40], [32, 44]]").replace(
        "size = [60.0, 90.0]", "size = [1e308, 90.0]"), record="playmat", field="size",
        says=("at most",)),
    "at-is-inf": Bad(RAT_AT, "at = [inf, 80.0]", "piece rat-1", "at", ("finite",)),
    # every length is one a table holds (issue 27): 1e-300 or 1e308 cm once ran a turn
    "ruler-of-1e-300-cm": Bad("[chance]", "[templates]\nruler = { 1 = 1e-300 }\n\n[chance]",
                              "templates.ruler", "1",
                              ("1e-300 cm is not plausible for a ruler (0.1 to 100 cm)",)),
    "ruler-of-1e308-cm": Bad("[chance]", "[templates]\nruler = { 2 = 1e308 }\n\n[chance]",
                             "templates.ruler", "2", ("1e+308 cm is not plausible",)),
    "attack-radius-of-1e308-cm": Bad("[chance]", "[templates]\nattack = { radius = 1e308 }\n\n"
                                     "[chance]", "templates.attack", "radius",
                                     ("not plausible for the Attack template's radius",)),
    "clock-radius-of-1e-300-cm": Bad("[chance]", "[templates]\nclock = { radius = 1e-300 }\n\n"
                                     "[chance]", "templates.clock", "radius",
                                     ("not plausible for the Clock template's radius",)),
    "piece-radius-of-1e-300-cm": Bad(RAT_AT, RAT_AT + "\nradius = 1e-300", "piece rat-1",
                                     "radius", ("not plausible for a disc's radius (0.1 to 20",)),
    "mat-of-1e-300-cm": Bad(text=inline_mat("[[28, 40], [32, 40], [32, 44]]").replace(
        "size = [60.0, 90.0]", "size = [60.0, 1e-300]"), record="playmat", field="size",
        says=("at least 10",)),
    "rune-icon-of-1e9-cm": Bad(text=inline_mat("[[28, 40], [32, 40], [32, 44]]") +
                               "rune_radius = 1e9\n", record="playmat", field="rune_radius",
                               says=("1e+09 cm is not plausible for a rune icon's radius",)),
    "obstacle-circle-of-1e-300-cm": Bad(text=inline_mat("[[28, 40], [32, 40], [32, 44]]").replace(
        '{ id = "A", polygon = [[28, 40], [32, 40], [32, 44]] }',
        '{ id = "A", circle = [30, 40, 1e-300] }'), record="playmat", field="obstacles[0].circle",
        says=("not plausible for an obstacle's radius",)),
    # found by the fuzzer: a piece on the Teleported! card is not checked against the mat, and
    # a spot of -1e308 overflowed the picture's label placement
    "teleported-far-off-the-mat": Bad(RAT_AT, 'conditions = ["teleported"]\nat = [-1e308, 80.0]',
                                      "piece rat-1", "at", ("far off the",)),
    "radius-is-nan": Bad(RAT_AT, RAT_AT + "\nradius = nan", "piece rat-1", "radius",
                         ("finite",)),
    "out-not-a-table": Bad("format = 1\n", "format = 1\nout = [1, 2]\n", None, "out",
                           ("expected a table",)),
    "out-value-a-table": Bad("[chance]", '[out]\nrat-2 = { why = "dead" }\n\n[chance]', "out",
                             "rat-2", ("a table",)),
    "out-why-blank": Bad("[chance]", '[out]\nrat-2 = "  "\n\n[chance]', "out", "rat-2",
                         ("expected why the piece left play",)),
    "out-why-with-an-escape": Bad("[chance]", '[out]\nrat-2 = "dead\\u001b[2J"\n\n[chance]', "out",
                                  "rat-2", ("control character \\x1b",)),
    "out-piece-in-play": Bad("[chance]", '[out]\nrat-1 = "dead"\n\n[chance]', "out", "rat-1",
                             ("in play",)),
    # a piece on top of something stands on it, as the engine pairs them (issue 27)
    "riding-no-mount": Bad('monster = "sewer-rat"', 'monster = "sewer-rat"\nconditions = '
                           '["riding"]', "piece rat-1", "conditions",
                           ("'rat-1' is riding, but no piece marked \"ridden\" lies under it",)),
    "ridden-no-rider": Bad('monster = "sewer-rat"', 'monster = "sewer-rat"\nconditions = '
                           '["ridden"]', "piece rat-1", "conditions",
                           ("'rat-1' is ridden, but no piece marked \"riding\" sits on it",)),
    "riding-beside-its-mount": Bad(text=BASE.replace(
        "health = 8\n", 'health = 8\nconditions = ["riding"]\n').replace(
        "health = 9\n", 'health = 9\nconditions = ["ridden"]\n'), record="piece elf",
        field="conditions", says=("'elf' is riding, but",)),
    "aloft-on-no-obstacle": Bad('monster = "sewer-rat"', 'monster = "sewer-rat"\nconditions = '
                                '["aloft"]', "piece rat-1", "conditions",
                                ("(20, 80) is on no obstacle",)),
    "sequence-summons-unknown-monster": Bad(
        'monster = "sewer-rat"', 'monster = "sewer-rat"\nsequences = ["melee", "summon nobody"]',
        "piece rat-1", "sequences[1]", ("nobody",)),
    "sequence-unknown-shot": Bad('monster = "sewer-rat"',
                                 'monster = "sewer-rat"\nsequences = ["rush then meelee"]',
                                 "piece rat-1", "sequences[0]", ("meelee",)),
    "deep-nesting-array": Bad("format = 1\n", "format = 1\nx = " + "[" * 3000 + "]" * 3000 + "\n",
                              says=("nested deeper",)),
    "deep-nesting-tables": Bad("format = 1\n", "format = 1\nx = " + "{a = " * 40 + "1"
                               + "}" * 40 + "\n", says=("nested deeper",)),
    "not-utf8": Bad(text="format = 1\n# \udcff\n", says=("not UTF-8",)),
    # a whole number longer than Python converts (4300 digits) was an internal error (exit 70)
    "number-of-5000-digits": Bad("round = 1", "round = " + "1" * 5000, None, "battle.round",
                                 ("a whole number of 5000 digits",)),
    "number-of-400-digits": Bad("round = 1", "round = 1\nclose_call = 1" + "0" * 400, "battle",
                                "close_call", ("a number of 401 digits is out of range",)),
    "long-number-in-a-list": Bad("d12 = [7, 3]", "d12 = [7, -" + "3_0" * 2500 + "]", None,
                                 "chance.d12[1]", ("a whole number of 5000 digits",)),
    "no-die-face-of-4000-digits": Bad("d12 = [7, 3]", "d12 = [7, " + "30" * 2000 + "]", "chance",
                                      "d12[1]", ("a number of 4000 digits is not a face",)),
}


def run(*args: str) -> Result:
    """Run the CLI without a user data folder, so only the shipped data is used."""
    return CliRunner().invoke(cli, list(args), env={"AUTOMA_DATA_DIR": None})


def assert_one_clean_line(result: Result) -> str:
    """A non-zero exit, exactly one line on stderr, no traceback and no 'internal error'."""
    assert result.exit_code != 0, result.output
    assert result.exit_code != INTERNAL_ERROR_EXIT, result.stderr
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {result.stderr!r}"
    assert "internal error" not in lines[0]
    return lines[0]


def test_base_scenario_is_valid(tmp_path: Path) -> None:
    """The base every broken case starts from runs a full turn cleanly (exit 0, no stderr)."""
    path = tmp_path / "base.toml"
    path.write_text(BASE, encoding="utf-8")
    result = run("turn", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    turn = json.loads(result.stdout)
    assert sorted(a["character"] for a in turn["activations"]) == ["rat-1", "skeleton-1"]


@pytest.mark.parametrize("bad", CASES.values(), ids=CASES.keys())
def test_bad_scenario_gives_one_line_naming_file_record_field(tmp_path: Path, bad: Bad) -> None:
    """Each kind of bad input: non-zero exit, one stderr line naming file, record and field."""
    path = tmp_path / "battle.toml"
    if bad.write:
        path.write_bytes(bad.build().encode("utf-8", "surrogateescape"))
    line = assert_one_clean_line(run("turn", str(path)))
    assert line.startswith(f"automa: {path}: ")  # `FILE: [record] field: problem`, one colon
    if bad.record is not None:
        assert f"[{bad.record}]" in line
        if bad.field is not None:
            assert f"[{bad.record}] {bad.field}:" in line
    elif bad.field is not None:  # a top-level key: the file is the record
        assert f"{path}: {bad.field}:" in line
    for words in bad.says:
        assert words in line


def test_los_unknown_piece_gives_one_line_naming_it(tmp_path: Path) -> None:
    """`automa los` with a PIECE the scenario lacks: one line naming the file and that piece."""
    path = tmp_path / "base.toml"
    path.write_text(BASE, encoding="utf-8")
    line = assert_one_clean_line(run("los", str(path), "gandalf"))
    assert str(path) in line
    assert "'gandalf'" in line
    assert "PIECE" in line


def test_los_known_piece_works(tmp_path: Path) -> None:
    """The same `los` call with a piece that exists succeeds, so the failure above is real."""
    path = tmp_path / "base.toml"
    path.write_text(BASE, encoding="utf-8")
    result = run("los", str(path), "rat-1")
    assert result.exit_code == 0, result.output
    assert "elf" in result.stdout
    assert result.stderr == ""


def test_inline_mat_base_is_valid(tmp_path: Path) -> None:
    """The inline-mat base of the obstacle cases runs when its outline is a plain triangle."""
    path = tmp_path / "base.toml"
    path.write_text(inline_mat("[[28, 40], [32, 40], [32, 44]]"), encoding="utf-8")
    result = run("turn", str(path))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder"])
@pytest.mark.parametrize("command", ["turn", "los", "picture"])
def test_not_a_regular_file_is_refused_without_reading(tmp_path: Path, kind: str,
                                                       command: str) -> None:
    """A pipe (which would block forever), /dev/zero (endless) or a folder as the scenario."""
    if kind == "fifo":
        path = tmp_path / "battle.toml"
        os.mkfifo(path)
    elif kind == "dev-zero":
        path = Path("/dev/zero")
    else:
        path = tmp_path
    extra = {"los": ["rat-1"], "picture": ["-o", str(tmp_path / "out.svg")]}[command] \
        if command != "turn" else []
    line = assert_one_clean_line(run(command, str(path), *extra))
    assert str(path) in line
    if command != "picture":  # picture takes a non-file for a session folder: not one
        assert ("folder" if kind == "folder" else "not a regular file") in line


def test_huge_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "battle.toml"
    path.write_text(BASE + "#" * 5_000_000 + "\n", encoding="utf-8")
    line = assert_one_clean_line(run("turn", str(path)))
    assert "larger than" in line


ESCAPES = ["\x1b[2J\x1b[31m", "\x07", "\x9b31m", "\u202e", "\r", "\n"]


@pytest.mark.parametrize("escape", ESCAPES, ids=["esc", "bel", "csi-c1", "bidi", "cr", "nl"])
def test_control_characters_are_shown_not_obeyed(tmp_path: Path, escape: str) -> None:
    """A piece id with terminal escapes (or a newline) in an error: one line, nothing raw."""
    path = tmp_path / "battle.toml"
    bad_id = "rat" + escape + "x"
    quoted = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in bad_id)
    path.write_text(BASE.replace('id = "rat-1"\nside = "ai"',
                                 f'id = "{quoted}"\nside = "ai"\nhealht = 3'), encoding="utf-8")
    line = assert_one_clean_line(run("turn", str(path)))
    assert "control character" in line  # refused at load: it is never printed raw elsewhere
    assert escape not in line
    assert all(c.isprintable() for c in line), repr(line)


@pytest.mark.parametrize("escape", ESCAPES, ids=["esc", "bel", "csi-c1", "bidi", "cr", "nl"])
def test_control_characters_in_a_file_name_are_shown_not_obeyed(tmp_path: Path,
                                                                 escape: str) -> None:
    """The error wrapper escapes whatever user text reaches a message (here the path)."""
    path = tmp_path / f"battle{escape}.toml"
    line = assert_one_clean_line(run("turn", str(path)))
    assert "not found" in line
    assert escape not in line
    assert all(c.isprintable() for c in line), repr(line)


def test_control_characters_in_keys_and_data_ids_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "battle.toml"
    path.write_text(BASE.replace("hero_targets = { elf = 1, barbarian = 2 }",
                                 'hero_targets = { "elf\\u001b[2J" = 1, barbarian = 2 }'),
                    encoding="utf-8")
    line = assert_one_clean_line(run("turn", str(path)))
    assert "[tiles] hero_targets.elf\\x1b[2J:" in line
    assert "control character" in line


def test_too_many_pieces_is_refused_quickly(tmp_path: Path) -> None:
    """Thousands of pieces (each checked against every other) would load for minutes."""
    path = tmp_path / "battle.toml"
    extra = "".join(f'[[piece]]\nid = "h{i}"\nside = "heroes"\nat = [{1 + i % 50}, 1]\n'
                    f"health = 1\n" for i in range(3000))
    path.write_text(BASE + extra, encoding="utf-8")
    line = assert_one_clean_line(run("turn", str(path)))
    assert "at most 200" in line


def test_a_blank_id_or_name_in_a_data_file_is_refused(tmp_path: Path) -> None:
    """Data files are read by the same reader: a monster whose name or id holds only
    whitespace is refused with the same words, naming the file and the record."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "monsters.toml").write_text('["  "]\nname = "Orc"\n', encoding="utf-8")
    result = run("data", "check", str(folder))
    assert result.exit_code == 1
    assert any(line.startswith(f"{folder / 'monsters.toml'}: [  ]") and
               "expected a non-blank string, got '  '" in line
               for line in result.stdout.splitlines()), result.stdout
    (folder / "monsters.toml").write_text('[orc]\nname = "\\u3000"\nhealth = 2\n'
                                          'provenance = "house"\n', encoding="utf-8")
    result = run("data", "check", str(folder))
    assert any(line.startswith(f"{folder / 'monsters.toml'}: [orc] name: expected a non-blank "
                               f"string") for line in result.stdout.splitlines()), result.stdout


def test_a_long_string_is_cut_short_in_the_error(tmp_path: Path) -> None:
    path = tmp_path / "battle.toml"
    path.write_text(BASE.replace('los_blocked = false', f'los_blocked = "{"y" * 5000}"'),
                    encoding="utf-8")
    line = assert_one_clean_line(run("turn", str(path)))
    assert "[battle] los_blocked:" in line
    assert len(line) < 300


@given(st.text())
def test_json_output_carries_no_character_a_terminal_would_obey(text: str) -> None:
    """`--json` keeps Unicode readable (é stays é) but writes every control, C1 or bidi
    character as a \\u escape, and a JSON reader gets the very same string back."""
    from automa.safe_text import json_safe

    shown = json_safe(json.dumps({"name": text}, indent=2, ensure_ascii=False))
    assert json.loads(shown) == {"name": text}
    import unicodedata

    from automa.safe_text import BIDI

    assert not [c for c in shown if c not in "\n" and (
        c in BIDI or unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp"))]


def test_a_campaign_file_with_a_number_of_5000_digits_is_one_line(tmp_path: Path) -> None:
    """`setup --campaign FILE` reads FILE as every TOML file is read (it was exit 70)."""
    path = tmp_path / "campaign.toml"
    path.write_text("last_playmat = " + "1" * 5000 + "\n", encoding="utf-8")
    line = assert_one_clean_line(run("setup", "chagnars-lair", "--heroes", "elf=8",
                                     "--campaign", str(path)))
    assert line == (f"automa: {path}: not a campaign file (a whole number of 5000 digits: far "
                    f"beyond any value this program reads)")


@pytest.mark.parametrize("command", ["turn", "new"])
def test_new_refuses_a_scenario_over_the_size_turn_refuses(tmp_path: Path, command: str) -> None:
    """`new` read the file whole with no bound: a 5 MB scenario started a session that `turn`
    would refuse. Both now say the same line, and `new` writes nothing."""
    path = tmp_path / "battle.toml"
    path.write_text(BASE + "#" * 5_000_000 + "\n", encoding="utf-8")
    folder = tmp_path / "session"
    extra = ["--session", str(folder)] if command == "new" else []
    result = run(command, str(path), *extra)
    assert assert_one_clean_line(result) == (f"automa: {path}: larger than 4 MB: not a file "
                                             f"this program writes")
    assert result.exit_code == 2
    assert not folder.exists()

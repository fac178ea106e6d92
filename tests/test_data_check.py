"""`automa data check` and user data folders.

Rules checked: the shipped data is clean; a broken data folder makes `data check` exit 1 and list
EVERY problem (not just the first), one per line, each naming the file, the record and the
field; a user folder (--data-dir, AUTOMA_DATA_DIR or `load_catalog(dir)`) replaces shipped
records of the same id whole and adds new ones.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from automa.catalog.load import load_catalog
from automa.catalog.locate import DATA_FILES, shipped_data_dir
from automa.cli.main import cli


def run(*args: str, env: dict[str, str | None] | None = None) -> Result:
    """Run the CLI; AUTOMA_DATA_DIR is unset unless `env` sets it."""
    return CliRunner().invoke(cli, list(args), env={"AUTOMA_DATA_DIR": None, **(env or {})})


def copy_shipped(tmp_path: Path) -> Path:
    """A writable copy of the shipped data folder."""
    target = tmp_path / "data"
    shutil.copytree(shipped_data_dir(), target)
    assert sorted(p.name for p in target.glob("*.toml")) == sorted(DATA_FILES)
    return target


def section(text: str, header: str) -> tuple[int, int]:
    """Start and end offsets of the `[header]` table's body in a TOML text."""
    match = re.search(rf"^\[{re.escape(header)}\]\n", text, re.MULTILINE)
    assert match is not None, f"no [{header}] table"
    following = re.search(r"^\[", text[match.end():], re.MULTILINE)
    end = match.end() + following.start() if following else len(text)
    return match.end(), end


def edit(path: Path, header: str, old: str, new: str) -> None:
    """Replace `old` (which must occur exactly once) inside the `[header]` table of a file."""
    text = path.read_text(encoding="utf-8")
    start, end = section(text, header)
    body = text[start:end]
    assert body.count(old) == 1, f"{old!r} must occur once in [{header}] of {path.name}"
    path.write_text(text[:start] + body.replace(old, new) + text[end:], encoding="utf-8")


def replace_line(path: Path, header: str, begins: str, new: str) -> None:
    """Rewrite the one line of the `[header]` table that begins with `begins` as `new`."""
    text = path.read_text(encoding="utf-8")
    start, end = section(text, header)
    line = re.search(rf"^{re.escape(begins)}.*$", text[start:end], re.MULTILINE)
    assert line is not None, f"no line {begins!r} in [{header}] of {path.name}"
    edit(path, header, line.group(0), new)


def set_field(path: Path, header: str, key: str, value: str) -> None:
    """Rewrite the one-line `key = ...` of the `[header]` table with `key = value`."""
    replace_line(path, header, f"{key} = ", f"{key} = {value}")


def table(path: Path, header: str) -> dict[str, object]:
    """The parsed `[header]` table (dotted headers such as `bag.1` walk down)."""
    value: object = tomllib.loads(path.read_text(encoding="utf-8"))
    for part in header.split("."):
        assert isinstance(value, dict)
        value = value[part]
    assert isinstance(value, dict)
    return value


@dataclass(frozen=True)
class Planted:
    """One error planted in the copy, and where `data check` must say it is."""

    file: str
    record: str
    field: str
    says: str

    def found_in(self, lines: list[str], folder: Path) -> bool:
        where = f"{folder / self.file}: [{self.record}] {self.field}:"
        return any(line.startswith(where) and self.says in line for line in lines)


def plant_errors(folder: Path) -> list[Planted]:
    """Plant several independent errors in a copied data folder; return what each must report.

    The monsters and the playmat chosen are named by no room or Lord, so a broken record cannot
    cause follow-on "unknown monster" problems elsewhere.
    """
    monsters, rooms = folder / "monsters.toml", folder / "rooms.toml"
    playmats, components = folder / "playmats.toml", folder / "components.toml"
    behaviour = folder / "behaviour.toml"

    set_field(monsters, "siren", "level", "7")
    set_field(monsters, "lizard-man", "sequences", '["meelee", "repeat"]')
    edit(rooms, "the-outer-bailey", '{ monster = "centaur"', '{ monster = "centuar"')
    replace_line(playmats, "lava-tube", '  { id = "A", ', '  { id = "A", rune = 11 },')
    assert "circle" not in table(playmats, "lava-tube")["obstacles"][0]  # type: ignore[index]
    bag = table(components, "bag.1")["tokens"]
    assert isinstance(bag, list) and len(bag) == 13
    set_field(components, "bag.1", "tokens", json.dumps(bag[:12]))
    set_field(behaviour, "brown", "primary", '"most-golds"')
    return [
        Planted("monsters.toml", "siren", "level", "7"),
        Planted("monsters.toml", "lizard-man", "sequences[0]", "meelee"),
        Planted("rooms.toml", "the-outer-bailey", "monsters[0].monster", "centuar"),
        Planted("playmats.toml", "lava-tube", "obstacles[0]", "polygon"),
        Planted("components.toml", "bag.1", "tokens", "12"),
        Planted("behaviour.toml", "brown", "primary", "most-golds"),
    ]


def assert_clean_failure(result: Result) -> list[str]:
    """Exit 1, no traceback, a problem count on stderr; the problem lines of stdout."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    lines = result.stdout.splitlines()
    assert "data ok" not in lines
    assert re.fullmatch(rf"{len(lines)} problems? found\n", result.stderr), result.stderr
    return lines


def test_shipped_data_passes() -> None:
    """The shipped data has no problems: exit 0 and "data ok"."""
    result = run("data", "check")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "data ok"
    assert result.stderr == ""


def test_check_names_the_placeholders_still_ours() -> None:
    """The shipped components are house values: `data check` says which ruling each rests on
    (the tile faces, the Hero Target bands, the token mix, the sizes, the half Clock template,
    the red bag), in the printout and in the JSON."""
    said = run("data", "check").stdout
    marked = [int(n) for n in re.findall(r"^\* ruling (\d+):", said, re.MULTILINE)]
    assert marked == [1, 3, 4, 5, 10, 45]
    shown = json.loads(run("data", "check", "--json").stdout)
    assert shown["rulings"] == marked
    assert shown["placeholders"][2] == {"ruling": 4, "what": "the damage tokens' values and "
                                        "reset icons", "records": ["bag.1", "bag.2", "bag.3"]}


def test_unchanged_copy_passes(tmp_path: Path) -> None:
    """An untouched copy of the shipped data, given as DIR, passes too (so the edits below are
    what `data check` objects to)."""
    folder = copy_shipped(tmp_path)
    result = run("data", "check", str(folder))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "data ok"


def test_every_planted_error_is_reported(tmp_path: Path) -> None:
    """Several errors at once: exit 1, and each on its own line naming file, record and field."""
    folder = copy_shipped(tmp_path)
    planted = plant_errors(folder)
    lines = assert_clean_failure(run("data", "check", str(folder)))
    missing = [p for p in planted if not p.found_in(lines, folder)]
    assert not missing, f"not reported: {missing}\nreported:\n" + "\n".join(lines)


@pytest.mark.parametrize("how", ["argument", "--data-dir", "AUTOMA_DATA_DIR"])
def test_broken_folder_is_found_every_way(tmp_path: Path, how: str) -> None:
    """DIR, --data-dir and AUTOMA_DATA_DIR all point `data check` at the same folder."""
    folder = copy_shipped(tmp_path)
    set_field(folder / "behaviour.toml", "brown", "primary", '"most-golds"')
    args, env = {
        "argument": (["data", "check", str(folder)], None),
        "--data-dir": (["--data-dir", str(folder), "data", "check"], None),
        "AUTOMA_DATA_DIR": (["data", "check"], {"AUTOMA_DATA_DIR": str(folder)}),
    }[how]
    lines = assert_clean_failure(run(*args, env=env))
    assert Planted("behaviour.toml", "brown", "primary", "most-golds").found_in(lines, folder)


@pytest.mark.parametrize("name", ["monsters.toml", "lords.toml", "rooms.toml"])
def test_file_that_is_not_toml(tmp_path: Path, name: str) -> None:
    """A data file that is not TOML at all: exit 1, one line naming that file and the parse error
    (with its line), no traceback."""
    folder = copy_shipped(tmp_path)
    (folder / name).write_text("[orc\nname = Orc\n", encoding="utf-8")
    lines = assert_clean_failure(run("data", "check", str(folder)))
    path = folder / name
    hits = [line for line in lines if line.startswith(str(path))]
    assert len(hits) == 1, lines
    assert "not valid TOML" in hits[0]
    assert "line 1" in hits[0]
    assert hits[0].startswith(f"{path}: not valid TOML"), "shape: `FILE: problem`, one colon"


def test_room_naming_unknown_monster_names_the_users_file(tmp_path: Path) -> None:
    """Alone (no other error), a room naming an unknown monster is reported against the user's
    rooms.toml, where the typo is, with record and field."""
    folder = copy_shipped(tmp_path)
    edit(folder / "rooms.toml", "the-outer-bailey", '{ monster = "centaur"',
         '{ monster = "centuar"')
    lines = assert_clean_failure(run("data", "check", str(folder)))
    assert len(lines) == 1, lines
    assert "[the-outer-bailey] monsters[0].monster:" in lines[0]
    assert "centuar" in lines[0]
    assert Planted("rooms.toml", "the-outer-bailey", "monsters[0].monster",
                   "centuar").found_in(lines, folder)


def test_components_problem_does_not_hide_cross_reference_problems(tmp_path: Path) -> None:
    """A broken components.toml (a 12-token level-1 bag) must not stop `data check` from also
    checking that rooms name known monsters: both problems are listed."""
    folder = copy_shipped(tmp_path)
    components = folder / "components.toml"
    bag = table(components, "bag.1")["tokens"]
    assert isinstance(bag, list)
    set_field(components, "bag.1", "tokens", json.dumps(bag[:12]))
    edit(folder / "rooms.toml", "the-outer-bailey", '{ monster = "centaur"',
         '{ monster = "centuar"')
    lines = assert_clean_failure(run("data", "check", str(folder)))
    assert any("[bag.1] tokens:" in line for line in lines), lines
    assert any("[the-outer-bailey] monsters[0].monster:" in line and "centuar" in line
               for line in lines), lines


USER_MONSTERS = """\
[sewer-rat]
name = "Sewer Rat"
family = "vermin"
level = 1
health = 1
gold = 4
size = "extra-small"
nullifies = []
reflects = []
sequences = ["melee+poison"]
provenance = "house"

[cave-troll]
name = "Cave Troll"
family = "dungeon"
level = 2
health = 3
gold = 2
size = "large"
nullifies = []
reflects = []
sequences = ["melee", "rush then melee"]
provenance = "house"
"""


def user_folder(tmp_path: Path) -> Path:
    """A user data folder holding only a monsters.toml: one changed and one new monster."""
    folder = tmp_path / "my-data"
    folder.mkdir()
    (folder / "monsters.toml").write_text(USER_MONSTERS, encoding="utf-8")
    return folder


def assert_user_monsters_used(catalog: object) -> None:
    monsters = catalog.monsters  # type: ignore[attr-defined]
    assert monsters["sewer-rat"].gold == 4
    troll = monsters["cave-troll"]
    assert (troll.name, troll.family, troll.level, troll.health) == ("Cave Troll", "dungeon",
                                                                     2, 3)
    assert len(troll.sequences) == 2
    assert monsters["orc"].gold == 1  # shipped records the user did not touch stay


def test_shipped_catalog_has_no_user_monsters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a user folder the shipped values hold (the baseline for the override tests)."""
    monkeypatch.delenv("AUTOMA_DATA_DIR", raising=False)
    monsters = load_catalog().monsters
    assert monsters["sewer-rat"].gold == 1
    assert "cave-troll" not in monsters


def test_load_catalog_uses_user_folder(tmp_path: Path) -> None:
    """`load_catalog(dir)`: a user record replaces the shipped one of that id; new ids are added."""
    assert_user_monsters_used(load_catalog(user_folder(tmp_path)))


def test_load_catalog_reads_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`load_catalog()` with AUTOMA_DATA_DIR set uses that folder."""
    monkeypatch.setenv("AUTOMA_DATA_DIR", str(user_folder(tmp_path)))
    assert_user_monsters_used(load_catalog())


SCENARIO = """\
format = 1

[battle]
playmat = "mausoleum"

[[piece]]
id = "elf"
side = "heroes"
at = [20.0, 6.0]
health = 8

[[piece]]
id = "troll-1"
side = "ai"
monster = "cave-troll"
at = [40.0, 80.0]
"""


@pytest.mark.parametrize("how", ["--data-dir", "AUTOMA_DATA_DIR"])
def test_cli_uses_user_folder(tmp_path: Path, how: str) -> None:
    """`automa turn` knows the user's new monster through --data-dir or AUTOMA_DATA_DIR, and
    `data check` accepts the merged data."""
    folder = user_folder(tmp_path)
    scenario = tmp_path / "battle.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    if how == "--data-dir":
        prefix, env = ["--data-dir", str(folder)], None
    else:
        prefix, env = [], {"AUTOMA_DATA_DIR": str(folder)}
    result = run(*prefix, "turn", str(scenario), "--json", env=env)
    assert result.exit_code == 0, result.output
    turn = json.loads(result.stdout)
    assert [a["character"] for a in turn["activations"]] == ["troll-1"]
    assert turn["pieces"]["troll-1"]["health"] == 3
    checked = run(*prefix, "data", "check", env=env)
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.splitlines()[0] == "data ok"


def test_cli_without_user_folder_rejects_user_monster(tmp_path: Path) -> None:
    """Without the user folder the new monster is unknown (so the test above proves the override
    is what made it known)."""
    scenario = tmp_path / "battle.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    result = run("turn", str(scenario))
    assert result.exit_code != 0
    assert "[piece troll-1] monster:" in result.stderr
    assert "cave-troll" in result.stderr


def lines_of_check(folder: Path) -> list[str]:
    return assert_clean_failure(run("data", "check", str(folder)))


@pytest.mark.parametrize(("header", "key", "value", "field", "says"), [
    # a band typo once expanded to 600 million faces (and all the memory)
    ("hero-target", "bands", "{ 1 = [1, 3], 2 = [4, 600000000], 3 = [7, 9], 4 = [10, 12] }",
     "bands.2", "out of range 1..12"),
    ("hero-target", "bands", "{ 1 = [1, 3], 2 = [6, 4], 3 = [7, 9], 4 = [10, 12] }",
     "bands.2", "backwards"),
    ("hero-target", "bands", "{ 1 = [1, 3], 2 = [4.5, 6], 3 = [7, 9], 4 = [10, 12] }",
     "bands.2", "whole number"),
    ("kaulaurn", "sequence_by_health", "[[7, 1e308], [4, 6], [1, 3]]",
     "sequence_by_health[0]", "whole number"),
    ("kaulaurn", "sequence_by_health", "[[7, 600000000], [4, 6], [1, 3]]",
     "sequence_by_health[0]", "out of range"),
    ("playmat-chart", "rune_die", '{ 1 = ["mausoleum"], 2 = "throne-room" }',
     "rune_die.1", "unknown playmat"),
])
def test_bad_band_or_value_is_one_line_and_turn_refuses(tmp_path: Path, header: str, key: str,
                                                        value: str, field: str,
                                                        says: str) -> None:
    """A data-file typo is reported by `data check` and refuses `turn` in one line (exit 3)."""
    folder = copy_shipped(tmp_path)
    name = {"hero-target": "components.toml", "kaulaurn": "lords.toml",
            "playmat-chart": "setup.toml"}[header]
    set_field(folder / name, header, key, value)
    lines = lines_of_check(folder)
    assert any(f"[{header}] {field}:" in line and says in line for line in lines), lines
    demo = str(Path(__file__).resolve().parents[1] / "examples" / "demo-battle.toml")
    result = run("--data-dir", str(folder), "turn", demo)
    assert result.exit_code == 3, result.output
    assert len(result.stderr.splitlines()) == 1
    assert f"[{header}] {field}:" in result.stderr


def test_misspelt_file_name_in_the_folder(tmp_path: Path) -> None:
    """`monster.toml` is never read: `data check` says so and names the file it means; other
    files (notes, a campaign file) are left alone."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "monster.toml").write_text('[orc]\nname = "Orc"\n', encoding="utf-8")
    (folder / "notes.md").write_text("my table\n", encoding="utf-8")
    (folder / "campaign.toml").write_text('last_playmat = "altar"\n', encoding="utf-8")
    lines = lines_of_check(folder)
    assert lines == [f"{folder / 'monster.toml'}: unknown file, did you mean monsters.toml?"]


def broken(folder: Path, name: str, header: str, key: str, value: str) -> list[str]:
    set_field(folder / name, header, key, value)
    return lines_of_check(folder)


@pytest.mark.parametrize(("name", "header", "key", "value", "where", "says"), [
    # the vermin row no longer covers vermin: a Sewer Rat could not act
    ("behaviour.toml", "brown", "families", "[]", "families:", "'vermin'"),
    # two rows for one family: which one a Vermin piece follows would be an accident
    ("behaviour.toml", "blue", "families", '["mythological", "vermin"]', "[blue] families:",
     "'vermin'"),
    ("lords.toml", "pholith", "summon_choices", '["orc", "gargoyle", "pit-vipr", "orc"]',
     "[pholith] summon_choices:", "pit-vipr"),
    ("lords.toml", "hmotha", "playmats", '["altar", "mausolem"]', "[hmotha] playmats:",
     "mausolem"),
    # setup places monster cards only: a Lord as a mercenary would stop it
    ("lords.toml", "hmotha", "mercenary", '["pholith"]', "[hmotha] mercenary:", "pholith"),
    # setup rolls the Rune Die on the playmat chart: a face with no mat once crashed it
    ("components.toml", "die.rune", "faces", "[1, 2, 3, 4, 5, 12]",
     "[playmat-chart] rune_die.12:", "face 12"),
])
def test_cross_file_inconsistency_is_reported(tmp_path: Path, name: str, header: str, key: str,
                                              value: str, where: str, says: str) -> None:
    folder = copy_shipped(tmp_path)
    lines = broken(folder, name, header, key, value)
    assert any(where in line and says in line for line in lines), lines


@pytest.mark.parametrize(("text", "says"), [
    ('"draw {count} Poison {cardz}"', "unknown placeholder {cardz}"),
    ('"draw {} Poison cards"', "a placeholder without a name"),
    ('"draw {count:q} Poison cards"', "Unknown format code"),
])
def test_an_effect_text_with_a_placeholder_it_cannot_fill_is_reported(
        tmp_path: Path, text: str, says: str) -> None:
    """The effect's words are filled in at every hit: a misspelt placeholder once stopped a
    turn with an internal KeyError at the first poisoned hit."""
    folder = copy_shipped(tmp_path)
    lines = broken(folder, "effects.toml", "poison", "text", text)
    assert any("[poison] text:" in line and says in line for line in lines), lines


def test_empty_minion_choice_is_reported(tmp_path: Path) -> None:
    """A minion slot with no monster once crashed the lair setup (an empty list indexed)."""
    folder = copy_shipped(tmp_path)
    edit(folder / "lords.toml", "hmotha", '{ monster = "ghoul", count = 2 }',
         "{ choice = [], count = 2 }")
    lines = lines_of_check(folder)
    assert any("[hmotha] minions[2].choice:" in line for line in lines), lines
    result = run("--data-dir", str(folder), "setup", "lair", "--lord", "hmotha")
    assert result.exit_code == 3 and len(result.stderr.splitlines()) == 1, result.output


@pytest.mark.parametrize("kind", ["fifo", "folder", "deep"])
def test_data_file_that_cannot_be_read_safely(tmp_path: Path, kind: str) -> None:
    """A pipe or a folder named monsters.toml, or one nested absurdly deep: one line each,
    never a hang or a crash."""
    folder = copy_shipped(tmp_path)
    path = folder / "monsters.toml"
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    lines = lines_of_check(folder)
    says = {"fifo": "not a regular file", "folder": "folder", "deep": "nested deeper"}[kind]
    assert any(line.startswith(f"{path}: ") and says in line for line in lines), lines


@pytest.mark.parametrize(("polygon", "says"), [
    ("[[0, 0], [4, 0]]", "three to"),
    ("[[-4, -4], [4, 4], [4, -4], [-4, 4]]", "crosses itself"),
    ("[[-4, 0], [0, 0], [4, 0]]", "one line"),
    ("[[-4, 0], [-1e308, 0], [4, 4]]", "over 100 cm"),
])
def test_attack_template_polygon_must_be_a_simple_outline(tmp_path: Path, polygon: str,
                                                          says: str) -> None:
    folder = copy_shipped(tmp_path)
    path = folder / "components.toml"
    edit(path, "attack-template", 'shape = "disc"', f'shape = "polygon"\npolygon = {polygon}')
    lines = lines_of_check(folder)
    assert any("[attack-template] polygon:" in line and says in line for line in lines), lines


def test_record_id_or_name_with_control_characters_is_reported(tmp_path: Path) -> None:
    """An id or a name is printed by every command: a terminal escape in it is refused."""
    folder = copy_shipped(tmp_path)
    path = folder / "monsters.toml"
    set_field(path, "siren", "name", '"Si\\u001b[2Jren"')
    path.write_text(path.read_text(encoding="utf-8") + '\n["orc\\u202e"]\nname = "Orc"\n',
                    encoding="utf-8")
    lines = lines_of_check(folder)
    assert any("[orc\\u202e]" in line and "control character" in line for line in lines), lines
    assert any("[siren] name:" in line and "\\x1b" in line for line in lines), lines
    assert all(line.isprintable() for line in lines)


def test_a_broken_monsters_file_is_one_problem_not_a_flood(tmp_path: Path) -> None:
    """When monsters.toml cannot be read, the rooms and Lords naming its monsters are not
    reported one by one (97 lines that hid the one that matters)."""
    folder = copy_shipped(tmp_path)
    (folder / "monsters.toml").write_text("[orc\n", encoding="utf-8")
    lines = lines_of_check(folder)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{folder / 'monsters.toml'}: not valid TOML")


@pytest.mark.parametrize(("digits", "field", "says"), [
    (5000, "ruler.1.length", "a whole number of 5001 digits"),  # past Python's 4300
    (400, "[ruler.1] length", "a number of 401 digits is out of range"),  # past a float
])
def test_a_number_of_hundreds_of_digits_is_one_line(tmp_path: Path, digits: int, field: str,
                                                    says: str) -> None:
    """Such a number was an internal error (exit 70) in `data check` and in every command."""
    folder = copy_shipped(tmp_path)
    set_field(folder / "components.toml", "ruler.1", "length", "1" + "0" * digits)
    lines = lines_of_check(folder)
    where = f"{folder / 'components.toml'}: {field}: "
    assert any(line.startswith(where) and says in line for line in lines), lines
    demo = str(Path(__file__).resolve().parents[1] / "examples" / "demo-battle.toml")
    result = run("--data-dir", str(folder), "turn", demo)
    assert result.exit_code == 3, result.output
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"automa: {where}{says}"), result.stderr


@pytest.mark.parametrize(("name", "header", "key", "value", "field", "says"), [
    # each once passed as "data ok" (issue 27)
    ("components.toml", "disc.small", "radius", "1e9",
     "radius", "1e+09 cm is not plausible for a disc's radius (0.1 to 20 cm)"),
    ("components.toml", "ruler.1", "length", "1e-300",
     "length", "1e-300 cm is not plausible for a ruler (0.1 to 100 cm)"),
    ("components.toml", "attack-template", "radius", "1e308",
     "radius", "not plausible for the Attack template's radius"),
    ("components.toml", "clock-template", "radius", "0.001",
     "radius", "not plausible for the Clock template's radius"),
    ("components.toml", "clock-template", "half",
     "[-82.5, -67.5, -52.5, -37.5, -22.5, -7.5, 7.5, 22.5, 37.5, 52.5, 67.5, 1e308]",
     "half", "out of range -360.0..360.0"),
    ("playmats.toml", "mausoleum", "rune_radius", "1e9",
     "rune_radius", "not plausible for a rune icon's radius"),
    ("playmats.toml", "mausoleum", "size", "[60.0, 1e-300]", "size", "at least 10"),
])
def test_every_length_in_the_data_is_one_a_table_holds(tmp_path: Path, name: str, header: str,
                                                       key: str, value: str, field: str,
                                                       says: str) -> None:
    folder = copy_shipped(tmp_path)
    lines = broken(folder, name, header, key, value)
    where = f"{folder / name}: [{header}] {field}: "
    assert any(line.startswith(where) and says in line for line in lines), lines


KNOWN_PROVENANCES = "rulebook, official, fan, house, asked"


@pytest.mark.parametrize(("name", "text", "where", "says"), [
    # each once passed as "data ok" (issue 27)
    ("campaigns.toml", '[pharaoh]\nname = "Pharaoh"\nstart = "pharaoh"\n'
     'steps = [{ rooms = ["lair"] }]\nprovenance = "nobody"\n', "[pharaoh] provenance",
     f"expected one of {KNOWN_PROVENANCES}, got 'nobody'"),
    ("campaigns.toml", '[pharaoh]\nname = "Pharaoh"\nnmae = "Pharoah"\nstart = "pharaoh"\n'
     'steps = [{ rooms = ["lair"] }]\nprovenance = "house"\n', "[pharaoh] nmae",
     "unknown key (a typo?)"),
    ("campaigns.toml", '[rewards.dephaoth]\ngold = 2\nspell = true\nprovenance = "asked"\n'
     'spells = 1\n', "[rewards.dephaoth] spells", "unknown key (a typo?)"),
    ("campaigns.toml", '[rewards.dephaoth]\ngold = 2\nspell = true\nprovenance = "me"\n',
     "[rewards.dephaoth] provenance", "got 'me'"),
    ("visits.toml", '[althea-the-healer]\nknown = false\nprovenance = "nobody"\n',
     "[althea-the-healer] provenance", "got 'nobody'"),
    ("visits.toml", '[althea-the-healer]\nprovenance = "house"\noffers = [{ id = "heal", '
     'text = "heal", price = 3, effect = "health+1", provenance = "nobody" }]\n',
     "[althea-the-healer] offers[0].provenance", "got 'nobody'"),
    # a table with no provenance: once merged into ours under our provenance, or taken as ours
    ("monsters.toml", "[sewer-rat]\nhealth = 5\n", "[sewer-rat] provenance",
     f"missing: every record says where it comes from ({KNOWN_PROVENANCES})"),
    ("components.toml", "[disc.small]\nradius = 1.2\n", "[disc.small] provenance", "missing"),
    ("playmats.toml", "[mine]\nsize = [60.0, 90.0]\nhero_zone = 12.0\nmonster_zone = 75.0\n"
     "obstacles = []\n", "[mine] provenance", "missing"),
    ("campaigns.toml", '[pharaoh]\nsteps = [{ rooms = ["lair"] }]\n', "[pharaoh] provenance",
     "missing"),
    ("campaigns.toml", "[rewards.dephaoth]\ngold = 2\nspell = true\n",
     "[rewards.dephaoth] provenance", "missing: every record says where it comes from"),
])
def test_every_record_says_where_it_comes_from(tmp_path: Path, name: str, text: str,
                                               where: str, says: str) -> None:
    """A known provenance on every record, no unknown key in campaigns.toml either: one line
    each, naming the file, the record and the field."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    lines = lines_of_check(folder)
    assert any(line.startswith(f"{folder / name}: {where}: ") and says in line
               for line in lines), lines

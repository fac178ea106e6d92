"""`automa data todo` and `automa data card`: the card fields our data lacks, typed once.

Rules checked: on a fresh install `data todo` lists the unknown fields a battle needs, by record,
with file and provenance; card entry asks for them (or takes them as options), re-asks a bad
answer with one line saying why, refuses an unknown id in one line, and writes a record that
`data check` accepts, after which `data todo` no longer lists those fields and a scenario with
the piece runs `automa turn` without giving them itself. The player's file keeps its comments
and other records.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from automa.catalog.cards import parse_answer, record_text, write_record
from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.model.shots import MODIFIERS, SHOT_NAMES

HUSK = ["--level", "1", "--health", "2", "--gold", "1", "--nullifies", "none",
        "--reflects", "missile", "--sequence", "rush then melee"]
BATTLE = """format = 1
[battle]
playmat = "inline"
[[piece]]
id = "elf"
side = "heroes"
at = [30.0, 30.0]
health = 6
gold = 1
[[piece]]
id = "husk"
side = "ai"
monster = "husk-zombie"
at = [30.0, 36.0]
[playmat]
size = [60.0, 90.0]
hero_zone = 12.0
monster_zone = 75.0
obstacles = []
runes = { 1 = [10.0, 80.0] }
"""


def run(*args: str, input: str | None = None, env: dict[str, str | None] | None = None
        ) -> Result:
    return CliRunner().invoke(cli, list(args), input=input,
                              env={"AUTOMA_DATA_DIR": None, **(env or {})})


def todo(*args: str, env: dict[str, str | None] | None = None) -> dict[str, Any]:
    result = run("data", "todo", "--json", *args, env=env)
    assert result.exit_code == 0, result.output
    return {r["id"]: r for r in json.loads(result.stdout)["records"]}


def test_todo_on_a_fresh_install_lists_the_red_box_fields() -> None:
    records = todo()
    assert records["husk-zombie"]["fields"] == ["level", "health", "sequences"]
    assert records["husk-zombie"]["file"] == "data/monsters.toml"
    assert records["husk-zombie"]["provenance"] == "rulebook"
    assert records["ice-elemental"]["fields"] == ["family", "level", "health", "sequences"]
    assert records["urthoth"]["roles"] == {"size": "stand-in", "sequences": "battle"}
    assert records["pharaoh"]["roles"]["minions"] == "setup"
    assert "sewer-rat" not in records  # a complete fan record
    text = run("data", "todo")
    assert text.exit_code == 0
    assert "husk-zombie" in text.stdout and "level, health, sequences" in text.stdout
    assert "gold" not in todo()["ice-elemental"]["fields"]
    assert "gold" in todo("--all")["ice-elemental"]["fields"]


def test_card_entry_writes_a_folder_that_checks_and_battles(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    result = run("data", "card", "husk-zombie", "--data-dir", str(folder), *HUSK)
    assert result.exit_code == 0, result.output
    assert "automa data check" in result.stdout and ": ok" in result.stdout
    record = tomllib.loads((folder / "monsters.toml").read_text())["husk-zombie"]
    assert (record["level"], record["health"], record["family"], record["size"]) == (
        1, 2, "zombie", "large")
    assert record["reflects"] == ["missile"] and record["provenance"] == "house"
    assert "Typed from the card (house)" in record["notes"]
    assert run("data", "check", str(folder)).exit_code == 0
    assert "husk-zombie" not in todo("--data-dir", str(folder))
    assert "husk-zombie" not in todo(env={"AUTOMA_DATA_DIR": str(folder)})
    assert "husk-zombie" in todo()  # the shipped data is unchanged
    scenario = tmp_path / "battle.toml"
    scenario.write_text(BATTLE)
    refused = run("turn", str(scenario), "--seed", "1")
    assert refused.exit_code == 2 and "automa data card husk-zombie" in refused.stderr
    turn = run("--data-dir", str(folder), "turn", str(scenario), "--seed", "1", "--json")
    assert turn.exit_code == 0, turn.output
    activation = json.loads(turn.stdout)["activations"][0]
    assert activation["character"] == "husk" and activation["sequence"] == ["rush", "melee"]


def test_card_entry_reasks_a_bad_answer(tmp_path: Path) -> None:
    answers = ["5", "one", "1",            # level
               "0", "shadow",              # health
               "-1", "2",                  # gold
               "missle", "missile",        # nullifies
               "",                         # reflects: none
               "", "rush then bitee", "summon nobody", "rush then bite", "melee", ""]
    result = run("data", "card", "drowned-zombie", "--data-dir", str(tmp_path), "--ask",
                 input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    errors = [line for line in result.stderr.splitlines() if "try again" in line]
    assert len(errors) == 8
    assert "'5' is not a whole number from 1 to 4" in result.stderr
    assert "'missle' is not a shot" in result.stderr
    assert "the card has at least one sequence" in result.stderr
    assert "unknown shot 'bitee'" in result.stderr
    assert "'nobody' is not a monster id" in result.stderr
    record = tomllib.loads((tmp_path / "monsters.toml").read_text())["drowned-zombie"]
    assert (record["level"], record["health"], record["gold"]) == (1, "shadow", 2)
    assert record["nullifies"] == ["missile"] and record["reflects"] == []
    assert record["sequences"] == ["rush then bite", "melee"]


def test_card_entry_refuses_in_one_line(tmp_path: Path) -> None:
    unknown = run("data", "card", "husk-zombi", "--data-dir", str(tmp_path), *HUSK)
    assert unknown.exit_code == 2
    assert unknown.stderr.count("\n") == 1 and "did you mean 'husk-zombie'" in unknown.stderr
    piped = run("data", "card", "husk-zombie", "--data-dir", str(tmp_path), "--level", "1",
                input="")
    assert piped.exit_code == 2 and piped.stderr.count("\n") == 1
    assert "not given: --health, --gold, --nullifies, --reflects, --sequence" in piped.stderr
    bad = run("data", "card", "husk-zombie", "--data-dir", str(tmp_path), *HUSK, "--level", "9")
    assert bad.exit_code == 2 and "--level: '9' is not a whole number" in bad.stderr
    foreign = run("data", "card", "urthoth", "--data-dir", str(tmp_path), "--health", "3")
    assert foreign.exit_code == 2 and "its card has no health" in foreign.stderr
    ended = run("data", "card", "husk-zombie", "--data-dir", str(tmp_path), "--ask", input="1\n")
    assert ended.exit_code == 2 and "nothing was written" in ended.stderr
    assert not (tmp_path / "monsters.toml").exists()


def test_the_players_file_keeps_its_text(tmp_path: Path) -> None:
    mine = tmp_path / "monsters.toml"
    mine.write_text('# my notes on the vermin\n[sewer-rat]\nname = "Big Rat"\nfamily = "vermin"\n'
                    'level = 1\nhealth = 2 # measured\ngold = 1\nsize = "small"\nnullifies = []\n'
                    'reflects = []\nsequences = ["melee+poison"]\nprovenance = "house"\n')
    first = run("data", "card", "husk-zombie", "--data-dir", str(tmp_path), *HUSK)
    assert first.exit_code == 0, first.output
    again = run("data", "card", "husk-zombie", "--data-dir", str(tmp_path), "--health", "3")
    assert again.exit_code == 0, again.output
    text = mine.read_text()
    assert text.startswith("# my notes on the vermin\n") and "health = 2 # measured" in text
    records = tomllib.loads(text)
    assert list(records) == ["sewer-rat", "husk-zombie"]
    assert records["husk-zombie"]["health"] == 3 and records["husk-zombie"]["level"] == 1
    assert text.count("Typed from the card") == 1
    assert "level, health, gold, nullifies, reflects, sequences;" in text
    assert run("data", "check", str(tmp_path)).exit_code == 0


def test_a_lords_cards_feed_the_setup(tmp_path: Path) -> None:
    for card, args in [("mummy", ["--family", "black", "--health", "1", "--gold", "1",
                                  "--nullifies", "", "--reflects", "", "--sequence", "melee"]),
                       ("pharaoh", ["--health", "9", "--sequence", "melee then summon mummy",
                                    "--minions", "mummy x4", "--mercenary", "orc|zombie"])]:
        result = run("data", "card", card, "--data-dir", str(tmp_path), *args)
        assert result.exit_code == 0, result.output
    setup = run("--data-dir", str(tmp_path), "setup", "lair", "--lord", "pharaoh", "--heroes",
                "elf=8", "--seed", "1", "--json")
    assert setup.exit_code == 0, setup.output
    placed = [p["monster"] for p in json.loads(setup.stdout)["placements"]]
    assert placed.count("mummy") == 4 and "pharaoh" in placed


def test_nothing_to_enter_and_the_default_folder(tmp_path: Path) -> None:
    done = run("data", "card", "sewer-rat", env={"XDG_DATA_HOME": str(tmp_path)})
    assert done.exit_code == 0 and "already" in done.stdout
    result = run("data", "card", "husk-zombie", "--provenance", "fan", *HUSK,
                 env={"XDG_DATA_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    written = tmp_path / "catacombs-automa" / "monsters.toml"
    assert tomllib.loads(written.read_text())["husk-zombie"]["provenance"] == "fan"
    assert f"AUTOMA_DATA_DIR={written.parent}" in result.stdout


SHOT = st.builds(lambda name, mods: "+".join([name, *mods]),
                 st.sampled_from(sorted(SHOT_NAMES - {"summon"})),
                 st.lists(st.sampled_from(sorted(MODIFIERS)), max_size=2))


@given(st.lists(SHOT, min_size=1, max_size=4))
def test_a_typed_sequence_reads_back(catalog: Catalog, shots: list[str]) -> None:
    text = " then ".join(shots)
    assert parse_answer("sequences", text.upper(), catalog) == text


@given(st.sampled_from(["family", "level", "health", "gold", "size", "nullifies", "sequences",
                        "minions", "mercenary"]), st.text(max_size=30))
def test_any_answer_is_a_value_or_one_reason(catalog: Catalog, field: str, text: str) -> None:
    try:
        value = parse_answer(field, text, catalog)
    except ValueError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        tomllib.loads(record_text("x", {field: value}))


TOML_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)


@given(st.dictionaries(st.from_regex(r"[a-z][a-z_-]{0,8}", fullmatch=True),
                       st.one_of(TOML_TEXT, st.integers(-99, 99), st.lists(TOML_TEXT, max_size=3),
                                 st.lists(st.fixed_dictionaries({"monster": TOML_TEXT,
                                                                 "count": st.integers(1, 9)}),
                                          max_size=2)),
                       min_size=1, max_size=6))
def test_a_written_record_reads_back(record: dict[str, Any]) -> None:
    assert tomllib.loads(record_text("some id", record)) == {"some id": record}


def test_write_record_falls_back_when_the_table_cannot_be_spliced(tmp_path: Path) -> None:
    mine = tmp_path / "monsters.toml"
    mine.write_text('rat = { name = "x", provenance = "house" }\n')  # an inline table
    write_record(tmp_path, "monster", "rat", {"name": "y", "provenance": "house"})
    assert tomllib.loads(mine.read_text()) == {"rat": {"name": "y", "provenance": "house"}}


@pytest.mark.parametrize(("text", "problem"), [
    ("zombie x0", "from 1 to 10"), ("zombie", "ID xCOUNT"), ("a|b|c x2", "not a monster id"),
    ("orc|centaur|zombie x2", "a D12 choice of two")])
def test_minions_notation(catalog: Catalog, text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_answer("minions", text, catalog)

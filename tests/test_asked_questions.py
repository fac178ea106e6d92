"""Asked and hybrid geometry respects the table (issue 11, section 3): every question comes
after the instruction that sets up what it asks about, only what the decision needs is asked,
and nothing computed from positions the table never gave is printed as a measurement."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from automa.catalog.load import Catalog
from automa.engine.steps import MoveStep, RollStep
from automa.render.json_out import activation_json
from automa.render.session_out import latest_activation_text
from automa.render.text import activation_lines, labelled
from automa.session.store import Session
from tests.conftest import OPEN_MAT
from tests.test_geometry_modes import DUEL, ScriptedTable

TWO_HEROES = """format = 1
[battle]
playmat = "inline"
los_blocked = true
[tiles]
direction = ["left-to-right", "msz-to-hsz"]
[[piece]]
id = "elf"
name = "Elf"
side = "heroes"
at = [20.0, 30.0]
health = {elf_health}
gold = {elf_gold}
[[piece]]
id = "barbarian"
name = "Barbarian"
side = "heroes"
at = [40.0, 30.0]
health = {barbarian_health}
gold = {barbarian_gold}
[[piece]]
id = "{monster}-1"
side = "ai"
monster = "{monster}"
at = [30.0, 50.0]
[chance]
seed = 1
"""


def two_heroes(monster: str, elf: tuple[int, int] = (9, 0),
               barbarian: tuple[int, int] = (9, 0)) -> str:
    """Elf at the left (x 20), Barbarian at the right (x 40), the monster beyond obstacle A's
    reach of neither (health, gold each)."""
    return TWO_HEROES.format(monster=monster, elf_health=elf[0], elf_gold=elf[1],
                             barbarian_health=barbarian[0], barbarian_gold=barbarian[1]
                             ) + OPEN_MAT


def make(tmp_path: Path, catalog: Catalog, geometry: str, text: str) -> Session:
    scenario = tmp_path / "battle.toml"
    scenario.write_text(text)
    return Session.create(tmp_path / geometry, scenario, catalog, 4, "virtual", geometry)


# -- instruct, then ask ---------------------------------------------------------------------

def test_the_rush_is_shown_before_the_template_question(tmp_path: Path,
                                                         catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked", DUEL)
    table = ScriptedTable([True, True, False])
    session.next_activation(table)
    said = table.transcript
    template = next(i for i, line in enumerate(said) if "Attack template" in line)
    rush = next(i for i, line in enumerate(said) if "rush: lay Ruler" in line)
    sight = next(i for i, line in enumerate(said) if line.startswith("? Can Sewer Rat see"))
    assert said[0].startswith("Sewer Rat acts")  # the acting piece, before anything is asked
    assert 0 < sight < rush < template


def test_the_printout_after_points_back_at_what_was_shown(tmp_path: Path,
                                                          catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked", DUEL)
    table = ScriptedTable([True, True, False])
    session.next_activation(table)
    printout = latest_activation_text(session.state, coordinates=False)
    assert "▸ melee+poison, a) to e): as shown above" in printout
    assert "rush: lay Ruler" not in printout  # not printed twice
    assert "f) Roll the D12 (push direction)" in printout
    reopened = Session.open(tmp_path / "asked", catalog)  # a replay prints every step
    assert "rush: lay Ruler" in latest_activation_text(reopened.state, coordinates=False)


def test_tracked_mode_shows_nothing_early(tmp_path: Path, catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "tracked", DUEL)
    table = ScriptedTable([])
    session.next_activation(table)
    assert table.transcript == []
    assert "as shown above" not in latest_activation_text(session.state, coordinates=True)


# -- ask only what the decision needs --------------------------------------------------------

def test_no_closest_question_when_an_earlier_column_decides(tmp_path: Path,
                                                            catalog: Catalog) -> None:
    """Undead: most health, then closest. The Barbarian's 9 health beats the Elf's 5: no ruler
    is needed, and once the Barbarian is in sight the Elf's sight cannot matter."""
    session = make(tmp_path, catalog, "asked",
                   two_heroes("skeleton-warrior", elf=(5, 0), barbarian=(9, 0)))
    table = ScriptedTable([True, False])  # sees the Barbarian; the template misses
    activation = session.next_activation(table)
    assert activation is not None and activation.target == "barbarian"
    assert not any("closest" in q for q in table.questions)
    assert [q for q in table.questions if q.startswith("Can ")] == [
        "Can Skeleton Warrior see Barbarian? (a line from centre to centre clear of "
        "obstacles)"]
    assert "Sight   sees Barbarian; Elf not asked (the row prefers the one in sight)" in \
        latest_activation_text(session.state, coordinates=False)


def test_the_next_preferred_enemy_is_looked_at_when_the_first_is_hidden(
        tmp_path: Path, catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked",
                   two_heroes("skeleton-warrior", elf=(5, 0), barbarian=(9, 0)))
    table = ScriptedTable([False, True, False])  # Barbarian hidden, Elf seen, template misses
    activation = session.next_activation(table)
    assert activation is not None and activation.target == "elf"
    assert [q.split("?")[0] for q in table.questions[:2]] == [
        "Can Skeleton Warrior see Barbarian", "Can Skeleton Warrior see Elf"]
    assert not any("closest" in q for q in table.questions)


def test_closest_is_asked_among_those_still_tied_only(tmp_path: Path,
                                                      catalog: Catalog) -> None:
    """Both have 9 health: the Secondary column (closest) is reached, and the table says."""
    session = make(tmp_path, catalog, "asked", two_heroes("skeleton-warrior"))
    table = ScriptedTable([True, True, "elf", False])
    activation = session.next_activation(table)
    assert activation is not None and activation.target == "elf"
    closest = [line for line in table.transcript if "closest" in line]
    assert len(closest) == 1 and closest[0].endswith("barbarian / elf")
    assert "cm" not in activation.reason


def test_a_tie_on_every_column_is_read_off_the_real_tiles(tmp_path: Path,
                                                          catalog: Catalog) -> None:
    """Vermin: gold, poison, poison; equal on all three, so the Direction tiles decide. The
    positions are the scenario's guesses: the players read the tiles, and are obeyed."""
    session = make(tmp_path, catalog, "asked", two_heroes("sewer-rat"))
    table = ScriptedTable([True, True, "elf", False])
    activation = session.next_activation(table)
    tie = table.questions[2]
    assert "tie on every column" in tie and "leftmost seen from the Monster Start Zone" in tie
    assert activation is not None and activation.target == "elf"  # the computed one: Barbarian
    assert "read at the table" in activation.reason


def test_tracked_mode_keeps_its_recorded_questions(tmp_path: Path, catalog: Catalog) -> None:
    """Logs of tracked sessions replay: the computed answers are recorded as before."""
    session = make(tmp_path, catalog, "tracked",
                   two_heroes("skeleton-warrior", elf=(5, 0), barbarian=(9, 0)))
    session.next_activation(ScriptedTable([]))
    log = (tmp_path / "tracked" / "log.jsonl").read_text().splitlines()
    questions = [a["q"] for a in json.loads(log[-1])["answers"]]
    assert questions[:3] == [
        "Can Skeleton Warrior see Barbarian? (a line from centre to centre clear of "
        "obstacles)",
        "Can Skeleton Warrior see Elf? (a line from centre to centre clear of obstacles)",
        "Which enemy is closest to Skeleton Warrior, edge to edge?"]


def test_hybrid_does_not_ask_a_close_call_that_cannot_matter(tmp_path: Path,
                                                              catalog: Catalog) -> None:
    """A generous tolerance makes every sight a close call; the Barbarian's 9 health decides
    whatever the Elf's sight, so only the Barbarian's is asked (and no ruler for closest)."""
    text = two_heroes("skeleton-warrior", elf=(5, 0), barbarian=(9, 0)).replace(
        "los_blocked = true", "los_blocked = true\nclose_call = 10")
    session = make(tmp_path, catalog, "hybrid", text)
    table = ScriptedTable([True, False])
    activation = session.next_activation(table)
    assert activation is not None and activation.target == "barbarian"
    assert [q.split("?")[0] for q in table.questions] == [
        "Can Skeleton Warrior see Barbarian",
        "Centre the Attack template on Skeleton Warrior: does it cover Barbarian, even "
        "partly"]


def test_asked_json_gives_no_invented_distances(tmp_path: Path, catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked", two_heroes("skeleton-warrior"))
    activation = session.next_activation(ScriptedTable([True, True, "elf", True, False]))
    assert activation is not None
    data = activation_json(activation)
    assert not any(" cm" in line for line in (data["reason"], *data["explain"]))


def test_a_lazy_asked_session_replays(tmp_path: Path, catalog: Catalog) -> None:
    """The answers say the mode they were given in, so a replay takes the same (lazy) path."""
    session = make(tmp_path, catalog, "asked",
                   two_heroes("skeleton-warrior", elf=(5, 0), barbarian=(9, 0)))
    # the Elf seen, covered, at the edge
    session.next_activation(ScriptedTable([False, True, True, True]))
    reopened = Session.open(tmp_path / "asked", catalog)
    assert reopened.state.battle == session.state.battle
    answers = json.loads((tmp_path / "asked" / "log.jsonl").read_text().splitlines()[-1])
    assert {a["mode"] for a in answers["answers"]} == {"asked"}


# -- no invented numbers ---------------------------------------------------------------------

def test_asked_printout_and_explain_give_no_measurements(tmp_path: Path,
                                                         catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked", two_heroes("skeleton-warrior"))
    activation = session.next_activation(ScriptedTable([True, True, "elf", True, False]))
    assert activation is not None
    pieces, names = labelled(session.state.battle.pieces)
    text = "\n".join(activation_lines(1, activation, names, pieces, True, explain=True,
                                      coordinates=False))
    assert " cm" not in text and "overlap" not in text, text
    attack = next(s for s in activation_json(activation)["steps"] if s["kind"] == "attack")
    assert attack["margin"] is None and attack["measured"] is False


def test_hybrid_gives_no_margin_after_the_table_answered(tmp_path: Path,
                                                         catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "hybrid",
                   DUEL.replace("los_blocked = true", "los_blocked = true\nclose_call = 9"))
    # the template: "no", said the table
    activation = session.next_activation(ScriptedTable([True, False]))
    assert activation is not None
    text = latest_activation_text(session.state, coordinates=True)
    assert "it does not reach elf: the shot misses" in text
    assert "cm short" not in text and "close call" not in text


def test_asked_clock_side_is_the_tables(tmp_path: Path, catalog: Catalog) -> None:
    """The scenario has the Elf in mid-mat (front side), but the table says the template
    hangs over the edge: the reverse side it is."""
    session = make(tmp_path, catalog, "asked", DUEL)
    table = ScriptedTable([True, True, True])
    activation = session.next_activation(table)
    assert table.questions[-1] == ("Centre the Clock template on elf: does it hang over the "
                                   "mat edge?")
    assert activation is not None
    roll = next(s for s in activation.steps if isinstance(s, RollStep) and "push" in s.why)
    assert roll.result.startswith("reverse side")


def test_asked_no_target_move_asks_who_is_closest(tmp_path: Path, catalog: Catalog) -> None:
    """Nobody in sight: the dungeon row moves toward the closest enemy, sight ignored. The
    scenario's guesses put both heroes at one distance; the table says the Elf."""
    session = make(tmp_path, catalog, "asked", two_heroes("orc"))
    table = ScriptedTable([False, False, "elf"])
    activation = session.next_activation(table)
    assert table.questions[-1] == ("Which enemy is closest to Orc, edge to edge, whether it "
                                   "sees it or not?")
    assert activation is not None
    move = next(s for s in activation.steps if isinstance(s, MoveStep))
    assert move.toward == "Elf"


class DiceTable(ScriptedTable):
    """Players with physical dice: every roll is 12, every token the last the bag offers."""

    def number(self, prompt: str, allowed: Sequence[int]) -> int:
        self.questions.append(prompt)
        self.transcript.append(f"? {prompt}")
        return max(allowed)

    def token(self, prompt: str, faces: Sequence[str], elsewhere: Mapping[str, str]) -> str:
        self.questions.append(prompt)
        self.transcript.append(f"? {prompt}")
        return faces[-1]


def test_physical_rolls_come_after_the_steps_they_follow(tmp_path: Path,
                                                         catalog: Catalog) -> None:
    """Tracked geometry, physical dice: the push roll is asked once the rush, the template and
    the damage have been shown, not before the piece has even moved."""
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL)
    session = Session.create(tmp_path / "dice", scenario, catalog, 4, "physical", "tracked")
    table = DiceTable([])
    session.next_activation(table)
    said = table.transcript
    token = next(i for i, line in enumerate(said) if line.startswith("? Draw a level"))
    push = next(i for i, line in enumerate(said) if line.startswith("? Roll the D12"))
    rush = next(i for i, line in enumerate(said) if "rush: lay Ruler" in line)
    damage = next(i for i, line in enumerate(said) if "elf takes" in line)
    assert rush < token < damage < push


def test_no_enemy_sight_is_asked_when_an_advanced_target_comes_first(
        tmp_path: Path, catalog: Catalog) -> None:
    """Advanced targeting: a frozen teammate to rescue comes before any enemy, so whether the
    Elf is in sight cannot matter."""
    source = Path(__file__).parent / "playthroughs" / "69-advanced-target-frozen-friend.toml"
    session = make(tmp_path, catalog, "asked",
                   source.read_text().replace("los_blocked = false", "los_blocked = true"))
    table = ScriptedTable(["skeleton-1", "skeleton-2"])  # who acts first; the frozen mate
    activation = session.next_activation(table)
    assert "tie on the Character" in table.questions[0]
    assert table.questions[1:] == ["Which frozen teammate that Skeleton Warrior #1 can see is "
                                   "nearest to it, edge to edge (nobody: none in sight)?"]
    assert activation is not None and activation.target == "skeleton-2"
    assert "an advanced target comes first" in latest_activation_text(session.state, False)


TWO_RATS = """format = 1
[battle]
playmat = "inline"
[tiles]
direction = ["left-to-right", "msz-to-hsz"]
[[piece]]
id = "elf"
name = "Elf"
side = "heroes"
at = [30.0, 20.0]
health = 9
[[piece]]
id = "rat-1"
name = "Sewer Rat #1"
side = "ai"
monster = "sewer-rat"
at = [20.0, 50.0]
[[piece]]
id = "rat-2"
name = "Sewer Rat #2"
side = "ai"
monster = "sewer-rat"
at = [40.0, 50.0]
[chance]
seed = 1
""" + OPEN_MAT


def test_who_acts_first_in_a_tile_tie_is_read_at_the_table(tmp_path: Path,
                                                            catalog: Catalog) -> None:
    """Two Sewer Rats tie on the Character and Monster tiles; the scenario's guessed positions
    put #2 leftmost seen from the Monster Start Zone, the table says #1."""
    session = make(tmp_path, catalog, "asked", TWO_RATS)
    table = ScriptedTable(["rat-1", False])  # #1 first; the template misses
    activation = session.next_activation(table)
    assert table.questions[0].startswith("Sewer Rat #1, Sewer Rat #2 tie on the Character and "
                                         "Monster tiles: which is leftmost seen from the Monster "
                                         "Start Zone")
    assert table.transcript[0].startswith("? ")  # asked before anything of the activation
    assert activation is not None and activation.character == "rat-1"
    assert activation.order_reason == "tie on tiles; the Direction tiles, read at the table"
    reopened = Session.open(tmp_path / "asked", catalog)
    assert reopened.state.battle == session.state.battle


class PlainTable:
    """An asker from before briefings: it answers, and is shown nothing."""

    def yes_no(self, prompt: str) -> bool:
        return True

    def choice(self, prompt: str, options: Sequence[str]) -> str:
        return options[0]


def test_an_asker_without_instruct_still_plays(tmp_path: Path, catalog: Catalog) -> None:
    session = make(tmp_path, catalog, "asked", DUEL)
    activation = session.next_activation(PlainTable())  # type: ignore[arg-type]
    assert activation is not None and activation.target == "elf"


def test_an_asked_rune_move_replays(tmp_path: Path, catalog: Catalog) -> None:
    """Nobody in sight: the black row moves to a random rune, and the table says whether the
    rolled rune is free. The replay takes the asked path too (it used to judge as tracked,
    skip that question and call the log inconsistent)."""
    text = two_heroes("wraith-commander").replace(
        'monster = "wraith-commander"',
        'monster = "wraith-commander"\nlevel = 3\nhealth = 2\nsequences = ["rush then sword"]')
    session = make(tmp_path, catalog, "asked", text)
    table = ScriptedTable([False, False, True])  # neither hero in sight; the rune is free
    session.next_activation(table)
    assert table.questions[-1].startswith("Is rune ")
    reopened = Session.open(tmp_path / "asked", catalog)
    assert reopened.state.battle == session.state.battle


class YesTable(ScriptedTable):
    """Players who say yes, and pick the Orc whenever they may."""

    def yes_no(self, prompt: str) -> bool:
        self.questions.append(prompt)
        return True

    def choice(self, prompt: str, options: Sequence[str]) -> str:
        self.questions.append(prompt)
        return "orc-1" if "orc-1" in options else options[0]


def test_asked_repeat_asks_which_teammate_is_nearest(tmp_path: Path,
                                                     catalog: Catalog) -> None:
    source = Path(__file__).parent / "playthroughs" / "21-repeat-friend-acts-again.toml"
    session = make(tmp_path, catalog, "asked", source.read_text())
    table = YesTable([])
    session.next_activation(table)
    lizard = session.next_activation(table)
    assert lizard is not None and lizard.repeat == "orc-1"
    assert table.questions[-1] == ("Which teammate that Lizard Man #1 can see is nearest to it, "
                                   "edge to edge (nobody: none in sight)?")

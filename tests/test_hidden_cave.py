"""The Hidden Cave (Red Box rulebook, "Hidden Cave (Optional)"): the Kraken fight, its rewards,
and the `automa hidden-cave fight` command (CONTRACT.md). Each test quotes the sentence it checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.engine.chance import Chance
from automa.engine.setup import SetupOptions, SetupResult, run_setup
from automa.errors import RulesError, ScenarioError
from automa.model.components import DamageToken
from automa.model.scenario import Bag, ChanceScript
from automa.rules import hidden_cave, kraken
from automa.rules.rulings import RulingKey, ruling


def _t(*faces: str) -> tuple[DamageToken, ...]:
    return tuple(DamageToken.parse(f) for f in faces)


def _scripted(faces: Sequence[str]) -> kraken.DrawToken:
    """A draw that takes the next face in order (it must be in the bag)."""
    queue: Iterator[DamageToken] = iter(_t(*faces))

    def draw(bag: Bag, hand: Sequence[DamageToken]) -> DamageToken:
        token = next(queue)
        assert token in bag.tokens, f"{token} drawn but not in the bag"
        return token

    return draw


BAG = Bag(_t("0", "0", "1", "1", "2", "1R"))


# "The hero draws a red Damage token for every 4 Health points they currently have."
@pytest.mark.parametrize(("health", "tokens"), [(0, 0), (3, 0), (4, 1), (7, 1), (8, 2), (12, 3)])
def test_one_token_for_every_four_current_health_rounded_down(health: int, tokens: int) -> None:
    assert kraken.health_tokens(health) == tokens


# "They also draw Damage tokens for each damage inflicting shot icon available to them"
def test_one_token_for_each_shot_icon_on_top_of_the_health_tokens() -> None:
    assert kraken.token_count(9, 4) == 2 + 4
    with pytest.raises(ValueError):
        kraken.token_count(9, -1)


# "1. Their base shot sequence. 2. Any Ability cards (even those that have been used ...).
#  3. Any Item cards (again, even those ...). 4. Up to five Spell cards."
def test_only_five_spell_cards_count_and_used_cards_do() -> None:
    icons = kraken.ShotIcons(base=2, abilities=1, items=3, spells=(1, 2, 1, 1, 3, 2))
    assert kraken.spell_icons((1, 2, 1, 1, 3, 2)) == 3 + 2 + 2 + 1 + 1  # the smallest is left
    assert icons.total() == 2 + 1 + 3 + 9


# "First, roll the D12 which represents the Kraken's attack strength. ... Add up all of the
#  values on the Damage tokens and compare it to the Kraken's attack strength."
def test_the_tokens_add_up_against_the_d12() -> None:
    won = kraken.fight(8, 1, BAG, lambda: 3, _scripted(["2", "1R", "1"]))
    assert (won.strength, won.total, won.hero_wins, won.tie) == (3, 4, True, False)
    lost = kraken.fight(8, 1, BAG, lambda: 5, _scripted(["2", "1R", "1"]))
    assert (lost.total, lost.hero_wins) == (4, False)


# Ruling 46 (kraken-tie): a tie is not mentioned; by default the Kraken wins it.
def test_a_tie_goes_by_the_ruling() -> None:
    assert ruling(RulingKey.KRAKEN_TIE).default == "kraken"
    tie = kraken.fight(4, 1, BAG, lambda: 3, _scripted(["2", "1"]))
    assert tie.tie and not tie.hero_wins
    assert kraken.fight(4, 1, BAG, lambda: 3, _scripted(["2", "1"]), tie="hero").hero_wins


def test_a_kraken_strength_off_the_die_is_refused() -> None:
    with pytest.raises(ValueError, match="1 to 12"):
        kraken.fight(4, 0, BAG, lambda: 13, _scripted([]))


# Ruling 47 (kraken-draw): tokens come out without putting any back; when every token is in
# hand they are counted and go back; afterwards they are discarded as any shot's are.
def test_tokens_are_not_put_back_until_the_bag_runs_out() -> None:
    small = Bag(_t("0", "2"))
    result = kraken.fight(4, 2, small, lambda: 1, _scripted(["2", "0", "2"]))
    assert [t.label() for t in result.tokens] == ["2", "0", "2"]
    assert result.refilled and result.total == 4
    with pytest.raises(AssertionError):  # the 2 is in hand: it cannot come out twice
        kraken.fight(4, 1, small, lambda: 1, _scripted(["2", "2"]))


def test_the_drawn_tokens_are_discarded_and_a_reset_returns_the_pile() -> None:
    plain = kraken.fight(4, 0, BAG, lambda: 1, _scripted(["2"]))
    assert plain.bag.discard == _t("2") and len(plain.bag.tokens) == 5
    reset = kraken.fight(4, 0, BAG, lambda: 1, _scripted(["1R"]))
    assert reset.bag.discard == () and len(reset.bag.tokens) == 6


# "If the Kraken wins ... They may discard one Poison card (if they have one) and take one of
#  the four items (randomly determined)."
def test_the_kraken_wins_one_poison_card_and_a_random_item() -> None:
    lost = kraken.reward(False, 2, kraken.CAVE_ITEMS, lambda items: items[3])
    assert (lost.discard_poison, lost.item, lost.item_chosen) == (1, "Trident", False)
    assert (lost.platinum, lost.health, lost.antient) == (0, 0, False)
    assert kraken.reward(False, 0, kraken.CAVE_ITEMS, lambda items: items[0]).discard_poison == 0


# "If the hero wins, then they evaded the kraken and gain the following: 1 platinum coin from
#  the Treasury, 2 health points, 1 of the items of their choice, and 1 unused Antient piece"
def test_the_hero_wins_platinum_health_a_chosen_item_and_an_antient() -> None:
    won = kraken.reward(True, 3, kraken.CAVE_ITEMS, lambda items: "Trident")
    assert (won.platinum, won.health, won.item, won.item_chosen, won.antient) == (
        1, 2, "Trident", True, True)
    assert won.discard_poison == 0
    with pytest.raises(ValueError, match="not beside"):
        kraken.reward(True, 0, kraken.CAVE_ITEMS, lambda items: "Excalibur")


# "When a hero collects all five of the monsters, the player controlling that hero may place
#  their hero's piece on the Hidden Cave card": the items beside the card are no condition, so
#  with none left the fight gives everything else it gives.
def test_with_no_item_left_the_fight_gives_the_rest() -> None:
    def never(items: object) -> str:
        raise AssertionError("no item to pick")

    won = kraken.reward(True, 0, (), never)
    assert (won.platinum, won.health, won.item, won.antient) == (1, 2, None, True)
    lost = kraken.reward(False, 1, (), never)
    assert (lost.discard_poison, lost.item, lost.platinum, lost.antient) == (1, None, 0, False)


# The command (CONTRACT.md): `automa hidden-cave fight --health H --shots N [--seed S] [--json]`

def _fight(*args: str, given: str | None = None) -> object:
    return CliRunner().invoke(cli, ["hidden-cave", "fight", *args], input=given)


def test_the_command_prints_the_contract_json() -> None:
    result = _fight("--health", "9", "--shots", "4", "--seed", "7", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # CONTRACT.md's keys, and ours added (fields may be added): the red bag and its ruling 45
    assert set(data) == {"strength", "tokens", "total", "hero_wins", "bag", "rulings"}
    assert (data["bag"], data["rulings"]) == (1, [45])
    assert 1 <= data["strength"] <= 12 and len(data["tokens"]) == 2 + 4
    assert all(isinstance(t, str) for t in data["tokens"])
    assert data["total"] == sum(DamageToken.parse(t).value for t in data["tokens"])
    assert data["hero_wins"] == (data["total"] > data["strength"])


def test_the_same_seed_gives_the_same_fight() -> None:
    args = ("--health", "12", "--shots", "3", "--json")
    runs = [json.loads(_fight(*args, "--seed", str(s)).stdout) for s in (1, 1, 2, 3, 4)]
    assert runs[0] == runs[1]
    assert any(run != runs[0] for run in runs[2:])


@pytest.mark.parametrize("bad", [["--health", "x", "--shots", "1"],
                                 ["--health", "8", "--shots", "-1"],
                                 ["--health", "\uff18", "--shots", "1"]])
def test_bad_input_is_one_line_and_exit_two(bad: list[str]) -> None:
    result = _fight(*bad)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("automa: ")


def test_physical_dice_refuse_a_face_and_a_token_in_hand() -> None:
    # D12 13 is refused; the level 1 bag (data) holds one 1R: once drawn it is in hand.
    result = _fight("--health", "8", "--shots", "1", "--dice", "physical", "--json",
                    given="13\n5\n1R\n1R\n2\n1\n")
    assert result.exit_code == 0, result.output
    assert "'13' is not a face of this die" in result.stderr
    assert "no 1R is in the bag now (every 1R is in hand" in result.stderr
    assert json.loads(result.stdout) == {"strength": 5, "tokens": ["1R", "2", "1"], "total": 4,
                                         "hero_wins": False, "bag": 1, "rulings": [45]}


def test_the_text_says_the_printed_outcome() -> None:
    result = _fight("--health", "0", "--shots", "0", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "The Kraken wins: the hero may discard one Poison card" in result.stdout
    drawn = [line for line in result.stdout.splitlines() if "drawn at random:" in line]
    assert len(drawn) == 1 and drawn[0].split(": ")[1] in kraken.CAVE_ITEMS
    won = _fight("--health", "48", "--shots", "0", "--seed", "3")  # 12 tokens; the D12 is 10
    assert "The hero evades the Kraken: 1 platinum coin" in won.stdout, won.stdout
    assert "drawn at random" not in won.stdout


# Ruling 45 (kraken-bag): which bag is red is a data field, `[kraken] bag` in components.toml.
def test_the_red_bag_is_read_from_the_data(tmp_path: Path) -> None:
    (tmp_path / "components.toml").write_text('[kraken]\nbag = 3\nprovenance = "house"\n')
    args = ("hidden-cave", "fight", "--health", "0", "--shots", "12", "--seed", "5", "--json")
    level_three = json.loads(CliRunner().invoke(cli, ["--data-dir", str(tmp_path), *args]).stdout)
    assert {t for t in level_three["tokens"]} <= {"0", "1", "2", "3", "4", "2R", "3R"}
    assert "3R" in level_three["tokens"] or "3" in level_three["tokens"]  # level 1 has no 3
    shipped = json.loads(CliRunner().invoke(cli, list(args)).stdout)
    assert not {"3", "3R"} & set(shipped["tokens"])


def test_a_red_bag_that_is_no_level_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "components.toml").write_text('[kraken]\nbag = 4\nprovenance = "house"\n')
    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path), "hidden-cave", "fight",
                                      "--health", "8", "--shots", "1"])
    assert result.exit_code == 3
    assert result.stderr.strip() == (f"automa: {tmp_path / 'components.toml'}: [kraken] bag: 4 "
                                     f"is out of range 1..3")


# The collection and the Hidden Cave card (automa/rules/hidden_cave.py) ------------------------

FIVE = ("skeleton-warrior", "eris", "mummy", "savage-centaur", "flame-salamander")


def _cave() -> hidden_cave.HiddenCave:
    return hidden_cave.new_cave(FIVE, kraken.CAVE_ITEMS)


def _with_all(cave: hidden_cave.HiddenCave, hero: str) -> hidden_cave.HiddenCave:
    for monster in FIVE:
        cave, kept = hidden_cave.collect(cave, hero, monster)
        assert kept
    return cave


# "randomly draw five of them. This smaller set represents what a hero must collect"
def test_the_cave_needs_five_different_monsters() -> None:
    with pytest.raises(RulesError, match="5 different"):
        hidden_cave.new_cave(FIVE[:4], kraken.CAVE_ITEMS)
    with pytest.raises(RulesError, match="5 different"):
        hidden_cave.new_cave((*FIVE[:4], FIVE[0]), kraken.CAVE_ITEMS)


# "Each time a hero destroys one of the indicated level 1 monsters, they keep it on their
#  player board."
def test_a_kill_of_one_of_the_five_is_kept_on_the_killers_board() -> None:
    cave, kept = hidden_cave.collect(_cave(), "elf", "mummy")
    assert kept and cave.pieces("elf") == ("mummy",) and cave.pieces("barbarian") == ()
    same, kept = hidden_cave.collect(cave, "elf", "orc")
    assert not kept and same == cave
    twice, kept = hidden_cave.collect(cave, "elf", "mummy")
    assert kept and twice.pieces("elf") == ("mummy", "mummy")
    assert twice.missing("elf") == ("skeleton-warrior", "eris", "savage-centaur",
                                    "flame-salamander")


# "When a hero collects all five of the monsters, the player controlling that hero may place
#  their hero's piece on the Hidden Cave card instead of taking their normal turn."
def test_only_a_hero_with_all_five_may_enter() -> None:
    cave = _cave()
    for monster in FIVE[:4]:
        cave, _ = hidden_cave.collect(cave, "elf", monster)
    assert not hidden_cave.may_enter(cave, "elf")
    with pytest.raises(RulesError, match="has not collected flame-salamander"):
        hidden_cave.enter(cave, "elf")
    cave, _ = hidden_cave.collect(cave, "elf", "flame-salamander")
    assert hidden_cave.has_all(cave, "elf") and hidden_cave.may_enter(cave, "elf")
    inside = hidden_cave.enter(cave, "elf")
    assert inside.inside == ("elf",)


# "only one hero is permitted to visit the Hidden Cave at a time, unless a hero is sent there
#  via the Portal Trap."
def test_one_hero_at_a_time_unless_sent_by_the_portal_trap() -> None:
    cave = hidden_cave.enter(_with_all(_with_all(_cave(), "elf"), "barbarian"), "elf")
    assert not hidden_cave.may_enter(cave, "barbarian")
    with pytest.raises(RulesError, match="only one hero may visit at a time"):
        hidden_cave.enter(cave, "barbarian")
    sent = hidden_cave.enter(cave, "wizard", portal_trap=True)  # nothing collected
    assert sent.inside == ("elf", "wizard")
    assert hidden_cave.may_enter(hidden_cave.leave(cave, "elf"), "barbarian")


# "A hero that has been placed on the Hidden Cave card is considered to have temporarily left
#  the Battle Phase."
def test_a_hero_inside_has_left_the_battle_phase() -> None:
    cave = hidden_cave.enter(_with_all(_cave(), "elf"), "elf")
    assert not hidden_cave.in_battle(cave, "elf") and hidden_cave.in_battle(cave, "barbarian")
    assert hidden_cave.in_battle(hidden_cave.leave(cave, "elf"), "elf")
    with pytest.raises(RulesError, match="not in the Hidden Cave"):
        hidden_cave.leave(cave, "barbarian")


# Ruling 48 (cave-once): one visit per hero by their collection; a Portal Trap visit is extra.
def test_a_hero_visits_once_by_their_collection() -> None:
    cave = hidden_cave.leave(hidden_cave.enter(_with_all(_cave(), "elf"), "elf"), "elf")
    assert not hidden_cave.may_enter(cave, "elf")
    with pytest.raises(RulesError, match="ruling 48"):
        hidden_cave.enter(cave, "elf")
    portal = hidden_cave.leave(hidden_cave.enter(_with_all(_cave(), "elf"), "elf",
                                                 portal_trap=True), "elf")
    assert hidden_cave.may_enter(portal, "elf")


# "1 of the items of their choice" / "take one of the four items": an item taken is gone.
def test_an_item_taken_leaves_the_card() -> None:
    cave = hidden_cave.take_item(_cave(), "Trident")
    assert cave.items == ("Champion's Helm", "Dagger of Deception", "Delilah's Potion")
    with pytest.raises(RulesError, match="not beside the Hidden Cave card"):
        hidden_cave.take_item(cave, "Trident")


# Setup (`automa setup --hidden-cave`, automa/engine/setup.py) ----------------------------------

def _cave_setup(catalog: Catalog, room: str, seed: int) -> SetupResult:
    chance = Chance(ChanceScript(), np.random.default_rng(seed))
    return run_setup(catalog, SetupOptions(room, heroes=(("elf", 8),), hidden_cave=True), chance)


# "take one of each level 1 monster piece from the Monster Pool and randomly draw five of them.
#  ... In the example below, the Skeleton Warrior, Eris, Mummy, Savage Centaur, and Flame
#  Salamander were chosen." A piece is in the pool whether or not we have its card's data.
def test_the_five_are_drawn_from_every_level_one_monster(catalog: Catalog) -> None:
    level_one = {m.id for m in catalog.monsters.values() if m.level == 1 and m.kind == "monster"}
    drawn = [_cave_setup(catalog, "the-mitholaq-hive", seed).hidden_cave for seed in range(40)]
    assert all(len(five) == 5 and len(set(five)) == 5 and set(five) <= level_one
               for five in drawn)
    assert {"mummy", "eris"} <= {m for five in drawn for m in five}


# "These five monster pieces are not available to the Overseer during the game." Ruling 49: the
# five set-aside pieces, one of each kind; the kind's other pieces and its Monster card stay in
# the Overseer's draws, so heroes can meet and collect it.
def test_a_monster_metre_may_still_draw_a_kind_one_piece_of_which_is_set_aside(
        catalog: Catalog) -> None:
    met = set()
    for seed in range(40):
        result = _cave_setup(catalog, "the-mitholaq-hive", seed)
        met |= {p.monster for p in result.placements} & set(result.hidden_cave)
    assert met


# "separate the following items ... Champion's Helm, Dagger of Deception, Delilah's Potion,
#  Trident. Optionally, four random Item cards can be assigned instead."
def test_the_setup_names_the_four_items_and_the_random_alternative(catalog: Catalog) -> None:
    notes = " ".join(_cave_setup(catalog, "the-mitholaq-hive", 1).notes)
    assert "Champion's Helm, Dagger of Deception, Delilah's Potion, Trident" in notes
    assert "or four random Item cards" in notes
    assert "one piece of each" in notes


def test_the_state_round_trips_through_json_and_bad_json_is_one_line() -> None:
    cave = hidden_cave.enter(_with_all(_cave(), "elf"), "elf")
    cave, _ = hidden_cave.collect(cave, "barbarian", "eris")
    data = json.loads(json.dumps(hidden_cave.cave_json(cave)))
    assert data["collected"] == {"elf": list(FIVE), "barbarian": ["eris"]}
    assert hidden_cave.cave_from_json(data, "campaign.toml") == cave
    with pytest.raises(ScenarioError, match=r"\[hidden_cave\] collected.barbarian: orc is not"):
        hidden_cave.cave_from_json({**data, "collected": {"barbarian": ["orc"]}}, "c.toml")
    with pytest.raises(ScenarioError, match=r"\[hidden_cave\] needed: "):
        hidden_cave.cave_from_json({**data, "needed": list(FIVE[:3])}, "c.toml")
    with pytest.raises(ScenarioError, match=r"\[hidden_cave\] items: expected a list"):
        hidden_cave.cave_from_json({**data, "items": "Trident"}, "c.toml")


def test_physical_draws_past_the_bag_put_the_hand_back() -> None:
    # Ruling 47: the shipped level 1 bag holds 13 tokens; the 14th comes after all go back.
    faces = ["0", "0", "0", "1", "1", "1", "1", "1", "1", "1", "2", "2", "1R", "2"]
    result = _fight("--health", "0", "--shots", "14", "--dice", "physical", "--json",
                    given="".join(f"{line}\n" for line in ["5", *faces]))
    assert result.exit_code == 0, result.output
    assert "note the 13 tokens drawn so far and put them all back" in result.stderr
    assert json.loads(result.stdout)["tokens"] == faces


def test_a_win_with_every_antient_taken_gives_none() -> None:
    """l.446 gives "1 unused Antient piece of their choice"; with none left unused the log
    keeps NO_ANTIENT, which no board, summon or status counts as an Antient won."""
    from automa.model.modes import KrakenTie
    from automa.session.cave import NO_ANTIENT, antients_won
    from automa.session.commands import CaveFight, EnterCave

    def visit(hero: str, antient: str) -> EnterCave:
        return EnterCave(hero, 3, fight=CaveFight(1, 4, ("2", "2", "1"), KrakenTie.KRAKEN,
                                                  None, antient))

    commands = [visit("elf", "urthoth"), visit("dwarf", NO_ANTIENT)]
    assert antients_won(commands) == ["urthoth"]
    assert antients_won(commands, "dwarf") == []

"""Whole activations on small tables, each test citing the Red Box rule it checks."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.engine.turn import TurnResult, run_turn
from automa.errors import RulesError
from automa.model.components import DamageToken
from automa.model.scenario import Bag
from tests.conftest import scenario_from

HEAD = 'format = 1\n[battle]\nplaymat = "inline"\n'


def piece(piece_id: str, side: str, at: tuple[float, float], **fields: object) -> str:
    lines = ["[[piece]]", f'id = "{piece_id}"', f'side = "{side}"', f"at = [{at[0]}, {at[1]}]"]
    for key, value in fields.items():
        if isinstance(value, str):
            lines.append(f'{key} = "{value}"')
        elif isinstance(value, bool):
            lines.append(f"{key} = {str(value).lower()}")
        elif isinstance(value, list):
            lines.append(f"{key} = [{', '.join(repr(v).replace(chr(39), chr(34)) for v in value)}]")
        else:
            lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def turn(catalog: Catalog, text: str, seed: int = 1) -> TurnResult:
    return run_turn(scenario_from(HEAD + text, catalog), catalog, seed)


def kinds(result: TurnResult, index: int = 0) -> list[str]:
    return [step.kind for step in result.activations[index].steps]


def test_advanced_targeting_rescues_a_frozen_teammate(catalog: Catalog) -> None:
    """Advanced Target Selection 1: the nearest frozen teammate in sight; the rush that reaches
    it knocks the ice off."""
    text = piece("elf", "heroes", (10, 20), health=5) \
        + piece("orc", "ai", (30, 70), monster="orc", sequences=["rush"]) \
        + piece("rat", "ai", (30, 62), monster="sewer-rat", conditions=["frozen"])
    scenario = HEAD.replace("[battle]\n", "[battle]\nadvanced_targeting = true\n") + text
    result = run_turn(scenario_from(scenario, catalog), catalog, 1)
    first = result.activations[0]
    assert first.character == "orc" and first.target == "rat"
    assert "frozen" not in result.battle.piece("rat").conditions


def test_advanced_targeting_picks_a_teammate_to_repeat(catalog: Catalog) -> None:
    """Advanced Target Selection 2: a character with the repeat shot targets the nearest teammate
    in sight, which then acts again at once."""
    scenario = HEAD.replace("[battle]\n", "[battle]\nadvanced_targeting = true\n") \
        + piece("elf", "heroes", (10, 20), health=5) \
        + piece("lizard", "ai", (30, 70), monster="lizard-man") \
        + piece("rat", "ai", (36, 70), monster="sewer-rat")
    result = run_turn(scenario_from(scenario, catalog), catalog, 1)
    order = [a.character for a in result.activations]
    lizard = order.index("lizard")
    assert result.activations[lizard].sequence == ("repeat",)
    assert result.activations[lizard + 1].character == "rat"
    assert result.activations[lizard + 1].order_reason.startswith("repeat shot")
    assert order.count("rat") == 2


def test_a_claw_is_seen_as_part_of_ulom(catalog: Catalog) -> None:
    """Special heroes: Ulom's claw is part of Ulom. Ulom is hidden, the claw is not: the AI sees
    Ulom (through the claw) and never targets the claw itself."""
    scenario = HEAD.replace("[battle]\n", "[battle]\nlos_blocked = true\n") \
        + piece("ulom", "heroes", (30, 30), health=6) \
        + piece("claw", "heroes", (20, 50), part_of="ulom") \
        + piece("rat", "ai", (30, 70), monster="sewer-rat")
    activation = run_turn(scenario_from(scenario, catalog), catalog, 1).activations[0]
    assert [s.target for s in activation.visible] == ["ulom"]
    assert activation.target == "ulom"


def test_invulnerable_pieces_are_pushed_but_not_damaged(catalog: Catalog) -> None:
    """Clock template: the push comes from the hit, not the damage; the target may be
    invulnerable (Yilleph's white piece)."""
    text = piece("yilleph", "heroes", (30, 55), invulnerable=True) \
        + piece("orc", "ai", (30, 60), monster="orc", sequences=["melee"]) \
        + '[chance]\ntokens = { 1 = ["2"] }\nd12 = [12]\n'
    result = turn(catalog, text)
    assert "damage" not in kinds(result)
    assert result.battle.piece("yilleph").at != (30.0, 55.0)


def test_a_hero_killed_mid_sequence_leaves_the_rest_without_a_target(catalog: Catalog) -> None:
    """Ruling 19: the Active Target is kept for the whole sequence."""
    text = piece("elf", "heroes", (30, 55), health=1) \
        + piece("orc", "ai", (30, 60), monster="orc", sequences=["melee then missile"]) \
        + '[chance]\ntokens = { 1 = ["2"] }\n'
    result = turn(catalog, text)
    assert result.battle.out == {"elf": "dead"}
    assert "out of play" in result.activations[0].steps[-1].text  # type: ignore[union-attr]


def test_poison_does_not_touch_an_ally(catalog: Catalog) -> None:
    """Allies cannot be poisoned (base rules; data/effects.toml)."""
    text = piece("squire", "heroes", (30, 55), health=5, kind="ally") \
        + piece("rat", "ai", (30, 58), monster="sewer-rat") \
        + '[chance]\ntokens = { 2 = ["1"] }\nd12 = [6]\n'
    result = turn(catalog, text)
    assert result.battle.piece("squire").poison == 0
    assert any("immune" in getattr(s, "text", "") for s in result.activations[0].steps)


def test_corrosion_takes_an_item_else_three_gold(catalog: Catalog) -> None:
    for items, gold, expect in ((2, 5, (1, 5)), (0, 5, (0, 2)), (0, 0, (0, 0))):
        text = piece("elf", "heroes", (30, 55), health=9, items=items, gold=gold) \
            + piece("rust", "ai", (30, 58), monster="rust-monster",
                    sequences=["melee+corrosion"]) \
            + '[chance]\ntokens = { 2 = ["1"] }\nd12 = [6]\n'
        elf = turn(catalog, text).battle.piece("elf")
        assert (elf.items, elf.gold) == expect


def test_target_melee_is_a_plain_melee(catalog: Catalog) -> None:
    """Rulebook: treat target melee as a regular melee (level 1 token)."""
    text = piece("elf", "heroes", (30, 55), health=9) \
        + piece("orc", "ai", (30, 58), monster="orc", sequences=["melee+target"])
    token = next(s for s in turn(catalog, text).activations[0].steps if s.kind == "token")
    assert token.level == 1  # type: ignore[union-attr]


def test_an_antient_moves_to_a_random_rune_first_and_passes_back(catalog: Catalog) -> None:
    """Special Exception: an Antient moves to a random rune before target selection; control
    alternates, so afterwards the heroes hold it."""
    text = piece("elf", "heroes", (30, 20), health=9) \
        + piece("urthoth", "ai", (50, 30), kind="antient", sequences=["rush"]) \
        + "[chance]\nrune_die = [4]\n"
    result = turn(catalog, text)
    first_move = next(s for s in result.activations[0].steps if s.kind == "move")
    assert first_move.end == (10.0, 50.0)  # type: ignore[union-attr]
    assert result.battle.piece("urthoth").side == "heroes"


def test_teleport_then_return_on_a_random_rune_with_a_melee(catalog: Catalog) -> None:
    """Teleport: onto the Teleported! card; next round back on a random rune, then melee."""
    text = piece("elf", "heroes", (10, 47), health=9) \
        + piece("rak", "ai", (30, 70), monster="rakshasa", sequences=["teleport"])
    gone = turn(catalog, text)
    assert "teleported" in gone.battle.piece("rak").conditions
    back = run_turn(gone.after, catalog, 2)
    rak = back.battle.piece("rak")
    assert "teleported" not in rak.conditions
    assert back.activations[0].sequence == ("melee",)


def test_a_summoned_monster_acts_at_once(catalog: Catalog) -> None:
    """Summon: Clock template, D12, Ruler 1; the new piece immediately performs its sequence."""
    text = piece("elf", "heroes", (30, 20), health=9) \
        + piece("acolyte", "ai", (30, 60), monster="infernal-acolyte",
                sequences=["summon fire-spirit"]) + "[chance]\nd12 = [12]\n"
    result = turn(catalog, text)
    order = [a.character for a in result.activations]
    assert order == ["acolyte", "fire-spirit-1"]
    placed = next(s for s in result.activations[0].steps if s.kind == "move")
    assert placed.end == (30.0, 60.0 - 1.25 - 5.0)  # type: ignore[union-attr]


def _kaulaurn(health: int) -> str:
    return piece("elf", "heroes", (30, 30), health=9) \
        + piece("hydra", "ai", (30, 60), monster="kaulaurn", kind="catacomb-lord",
                health=health)


def test_kaulaurn_rolls_the_printed_d12_by_default(catalog: Catalog) -> None:
    """"If the character is a Catacomb Lord, roll the D12 ...": the transcription of
    Kaulaurn's card (health bands, `fan` data) does not override the printed rule (ruling 37)."""
    for health in (8, 5):
        text = _kaulaurn(health) + "[chance]\nd12 = [12]\n"
        activation = turn(catalog, text).activations[0]
        assert " then ".join(activation.sequence) == \
            "melee then melee+critical then melee+critical"  # 9-12 of three: the third
        assert activation.sequence_reason.startswith("a Catacomb Lord always rolls the D12")
        assert 37 in [r.number for r in activation.rulings]


def test_kaulaurn_card_reading_is_a_switch(catalog: Catalog) -> None:
    """With `[rulings] lord-sequence = "card"` the card's health bands pick the sequence."""
    for health, expected in ((8, "melee then melee+critical"),
                             (5, "melee then fireball then melee then fireball")):
        text = _kaulaurn(health) + '[rulings]\nlord-sequence = "card"\n'
        activation = turn(catalog, text).activations[0]
        assert " then ".join(activation.sequence) == expected
        assert "picks by health" in activation.sequence_reason
        assert 37 in [r.number for r in activation.rulings]


def _boulder(tokens: list[str]) -> str:
    return (piece("knight", "heroes", (15, 40), health=8)
            + piece("giant", "ai", (15, 70), name="Stone Giant", family="mythological", level=3,
                    health=2, sequences=["boulder"])
            + "[chance]\nd12 = [12]\ntokens = { 3 = [" + ", ".join(f'"{t}"' for t in tokens)
            + "] }\n")


def test_a_boulder_draws_both_tokens_before_it_resolves(catalog: Catalog) -> None:
    """Rulebook: "boulder - draw two level 3 Damage tokens": both are drawn (draws 1 and 2 of
    2), then the damage, then both go onto the discard pile (docs/rulings.md 18)."""
    result = turn(catalog, _boulder(["2", "3"]))
    assert kinds(result)[1:] == ["token", "token", "damage", "roll", "move", "discard"]
    tokens = [s.to_json() for s in result.activations[0].steps if s.kind == "token"]
    assert [(t["value"], t["draw"], t["of"]) for t in tokens] == [(2, 1, 2), (3, 2, 2)]
    assert result.battle.bags[3].discard == (DamageToken(2), DamageToken(3))


def test_a_set_too_small_for_the_draw_is_one_line(catalog: Catalog) -> None:
    """A boulder needs two level 3 tokens: a bag and pile holding one refuse it plainly."""
    scenario = scenario_from(HEAD + _boulder([]), catalog)
    tiny = replace(scenario, bags={**scenario.bags, 3: Bag((DamageToken(4),), ())})
    with pytest.raises(RulesError, match="a boulder draws 2 level 3 tokens, but the level 3 "
                                         "bag and discard pile hold 1"):
        run_turn(tiny, catalog, 1)

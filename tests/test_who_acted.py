"""Who has acted this round: battles played through the session, round after round, checking
exactly which AI pieces acted in which order after a summon, a teleport, a devour, a freeze, an
Antient's arrival and a hero's visit to the Hidden Cave (issue 27, point 11). In every AI turn
each AI piece able to act takes one turn: none twice (a summoner going on with its sequence
after the summoned piece is the same turn, `continued`), none skipped.

The rulings these battles rest on: 58 (the cave visit is the hero's turn), 63 (a summoned
piece's turn is the one it takes at once), 64 (a piece the heroes teleport comes back next
round), 65 (a frozen piece's turn passes), 66 (an Antient acts in each side's turn).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from automa.catalog.load import Catalog, load_catalog
from automa.engine.activation import Activation
from automa.errors import InputError
from automa.model.pieces import Condition, Side
from automa.rules.rulings import RulingKey, ruling
from automa.session.commands import (
    EndHeroesTurn,
    Hit,
    Move,
    NextActivation,
    ReturnToMat,
)
from automa.session.game import Game
from automa.session.store import Session
from tests.conftest import scenario_from
from tests.test_cave_battle import _campaign, _kill_the_fifth, _play
from tests.test_engine import piece

TILES = """
[tiles]
character_order = [{order}]
monster_order = ["infernal", "vermin", "dungeon", "undead", "mythological", "wraith-knight",
                 "zombie"]
direction = ["left-to-right", "msz-to-hsz"]
"""


ORDER = ("level-3", "level-1", "level-2", "level-4", "antient", "catacomb-lord")


def _scenario(pieces: str, first: str = "level-3", advanced: bool = False) -> str:
    """The pieces, two heroes who will not die, the Character tiles with `first` first."""
    battle = "advanced_targeting = true\n" if advanced else ""
    order = ", ".join(f'"{tile}"' for tile in (first, *(t for t in ORDER if t != first)))
    return (f'format = 1\n[battle]\nplaymat = "inline"\n{battle}'
            + TILES.format(order=order) + pieces
            + piece("elf", "heroes", (10, 20), health=40)
            + piece("dwarf", "heroes", (50, 20), health=40))


def _game(catalog: Catalog, text: str, seed: int = 7) -> Game:
    return Game(scenario_from(text, catalog), catalog, seed)


def _ai_turn(game: Game | Session) -> list[Activation]:
    """The heroes' turn ends; the whole AI turn, its activations in order. Checks that no AI
    piece took two turns and that every AI piece that could act took one."""
    game.do(EndHeroesTurn())
    start = game.state.battle
    activations: list[Activation] = []
    while game.state.phase == "ai":
        activation = game.next_activation()
        assert activation is not None
        activations.append(activation)
    turns = [a.character for a in activations if not a.continued]
    assert len(turns) == len(set(turns)), f"a piece took two turns: {turns}"
    summoned = {s for a in activations for s in a.summoned}
    able = {p.id for p in start.pieces
            if p.side == Side.AI and Condition.DEVOURED not in p.conditions}
    assert set(turns) == able | summoned, f"skipped: {sorted(able | summoned - set(turns))}"
    return activations


def _turns(activations: list[Activation]) -> list[str]:
    """Who acted, in order; a summoner going on with its sequence marked `+`."""
    return [a.character + ("+" if a.continued else "") for a in activations]


def _marked(activation: Activation, key: RulingKey) -> bool:
    return any(fired.number == ruling(key).number for fired in activation.rulings)


# --- a summon ---------------------------------------------------------------------------------

def test_a_summoned_monster_acts_at_once_and_not_again_that_round(catalog: Catalog) -> None:
    # rule: l.300 "Once placed, the newly summoned character immediately performs its shot
    # sequence as normal." (ruling 63: that is its turn of the round). The Fire Spirit is level
    # 1 and Infernal, first on both tiles: were it chosen again by the tiles it would act before
    # the rat; next round it acts in the tiles' order, after the new summon.
    game = _game(catalog, _scenario(
        piece("acolyte", "ai", (30, 70), monster="infernal-acolyte",
               sequences=["summon fire-spirit then rush"])
        + piece("rat", "ai", (10, 70), monster="sewer-rat", sequences=["rush"])
        + piece("orc", "ai", (50, 70), monster="orc", sequences=["rush"])))
    first = _ai_turn(game)
    assert _turns(first) == ["acolyte", "fire-spirit-1", "acolyte+", "rat", "orc"]
    assert first[1].order_reason == "summoned: acts at once"
    assert _marked(first[1], RulingKey.SUMMONED_TURN)
    assert game.state.round == 2
    second = _ai_turn(game)
    assert _turns(second) == ["acolyte", "fire-spirit-2", "acolyte+", "fire-spirit-1", "rat",
                              "orc"]
    assert not _marked(second[3], RulingKey.SUMMONED_TURN)  # its own turn by the tiles now


# --- a teleport -------------------------------------------------------------------------------

def test_a_monster_that_teleports_comes_back_at_its_turn_next_round(catalog: Catalog) -> None:
    # rule: l.272 "the character under AI player control will move to the Teleported! card as
    # normal. When the character returns from the Teleported! card they are placed on a random
    # rune ... before performing their melee shot"; base game: "During the next round ... the
    # teleported character must come back into play ... The teleported character's turn then
    # ends."
    game = _game(catalog, _scenario(
        piece("rak", "ai", (30, 70), monster="rakshasa", sequences=["teleport"])
        + piece("rat", "ai", (10, 70), monster="sewer-rat", sequences=["rush"]),
        first="level-4"))
    first = _ai_turn(game)
    assert _turns(first) == ["rak", "rat"]
    assert Condition.TELEPORTED in game.state.battle.piece("rak").conditions
    second = _ai_turn(game)
    assert _turns(second) == ["rak", "rat"]  # once, at its place, and no more
    assert second[0].sequence == ("melee",)
    assert Condition.TELEPORTED not in game.state.battle.piece("rak").conditions


def test_a_monster_the_heroes_teleport_comes_back_next_round(catalog: Catalog) -> None:
    # rule: Portal Trap "Result 1: 1 point of damage is inflicted and the character is placed on
    # the Teleported! card"; base game: "During the next round of the Battle Phase, the
    # teleported character must come back into play" (ruling 64): its place in this round's AI
    # turn passes with it still on the card.
    game = _game(catalog, _scenario(
        piece("scorpion", "ai", (30, 70), monster="giant-scorpion", sequences=["rush"])
        + piece("rat", "ai", (10, 70), monster="sewer-rat", sequences=["rush"])))
    applied = game.do(Hit(("scorpion",), "portal-trap", by="elf", portal=(1,)))
    assert Condition.TELEPORTED in applied.after.battle.piece("scorpion").conditions
    first = _ai_turn(game)
    assert _turns(first) == ["scorpion", "rat"]
    assert first[0].sequence == () and first[0].target is None
    assert _marked(first[0], RulingKey.TELEPORTED_BY_HEROES)
    assert Condition.TELEPORTED in game.state.battle.piece("scorpion").conditions
    second = _ai_turn(game)
    assert _turns(second) == ["scorpion", "rat"]
    assert second[0].sequence == ("melee",)  # back on a random rune, one melee shot
    assert Condition.TELEPORTED not in game.state.battle.piece("scorpion").conditions


def test_the_teleport_s_round_survives_a_replay(catalog: Catalog) -> None:
    # the pieces the heroes teleported are read from the heroes' turn's inputs: the log played
    # again gives the same turn
    game = _game(catalog, _scenario(
        piece("scorpion", "ai", (30, 70), monster="giant-scorpion", sequences=["rush"])
        + piece("rat", "ai", (10, 70), monster="sewer-rat", sequences=["rush"])))
    game.do(Hit(("scorpion",), "portal-trap", by="elf", portal=(1,)))
    game.do(EndHeroesTurn())
    assert game.state.progress is not None and game.state.progress.away == {"scorpion"}
    game.next_activation()
    again = Game(game.state.scenario, catalog, game.seed, commands=list(game.raw))
    assert again.state.progress == game.state.progress
    assert [a.sequence for _, a in again.state.activations] == [()]


# --- a devour ---------------------------------------------------------------------------------

def test_a_devoured_monster_sits_out_until_it_is_back(catalog: Catalog) -> None:
    # rule: base game, Devour Shots: "If still alive, it goes onto the Devoured card and is out
    # of play" until released; back on the mat before the AI turn, it takes its turn as usual.
    game = _game(catalog, _scenario(
        piece("scorpion", "ai", (30, 70), monster="giant-scorpion", sequences=["rush"])
        + piece("rat", "ai", (10, 70), monster="sewer-rat", sequences=["rush"])))
    game.do(Hit(("scorpion",), "melee+devour", by="elf"))
    assert Condition.DEVOURED in game.state.battle.piece("scorpion").conditions
    assert _turns(_ai_turn(game)) == ["rat"]
    assert _turns(_ai_turn(game)) == ["rat"]  # still on the card
    game.do(ReturnToMat("scorpion"))
    game.do(Move("scorpion", (30.0, 70.0)))
    assert _turns(_ai_turn(game)) == ["scorpion", "rat"]
    assert _turns(_ai_turn(game)) == ["scorpion", "rat"]


# --- a freeze ---------------------------------------------------------------------------------

def test_a_frozen_monster_rescued_after_its_place_acts_next_round(catalog: Catalog) -> None:
    # rule: base game, Ice Shots: "A frozen character cannot act"; Advanced Target Selection 1:
    # the nearest frozen teammate in sight is rescued. The rat's place comes first: it cannot
    # act; the scorpion knocks the ice off after; the rat does not act again this round
    # (ruling 65), and takes its turn next round.
    game = _game(catalog, _scenario(
        piece("scorpion", "ai", (30, 70), monster="giant-scorpion", sequences=["rush"])
        + piece("rat", "ai", (30, 62), monster="sewer-rat", sequences=["rush"]),
        first="level-1", advanced=True))
    game.do(Hit(("rat",), "ice", by="elf"))
    first = _ai_turn(game)
    assert _turns(first) == ["rat", "scorpion"]
    assert first[0].target is None and _marked(first[0], RulingKey.FROZEN_TURN)
    assert first[1].target == "rat"  # advanced target 1: the ice knocked off
    assert Condition.FROZEN not in game.state.battle.piece("rat").conditions
    second = _ai_turn(game)
    assert _turns(second) == ["rat", "scorpion"]
    assert second[0].target == "elf" or second[0].target == "dwarf"


def test_a_frozen_monster_rescued_before_its_place_acts_this_round(catalog: Catalog) -> None:
    # rule: the same, the rescuer first on the tiles: the rat is free when its place comes
    game = _game(catalog, _scenario(
        piece("scorpion", "ai", (30, 70), monster="giant-scorpion", sequences=["rush"])
        + piece("rat", "ai", (30, 62), monster="sewer-rat", sequences=["rush"]),
        advanced=True))
    game.do(Hit(("rat",), "ice", by="elf"))
    first = _ai_turn(game)
    assert _turns(first) == ["scorpion", "rat"]
    assert first[0].target == "rat" and first[1].target in ("elf", "dwarf")
    assert not _marked(first[1], RulingKey.FROZEN_TURN)


# --- an Antient -------------------------------------------------------------------------------

def test_the_heroes_antient_acts_for_the_overseer_every_ai_turn(catalog: Catalog) -> None:
    # rule: base game, Antients: "Once that player's turn is over, the Antient card passes to
    # the Overseer. Control of the Antient passes back and forth between the heroes and the
    # Overseer until the battle phase is finished." (ruling 66); Red Box step 3: "The AI player
    # ignores Antients not under its control" (the rat, after the Antient passed back).
    game = _game(catalog, _scenario(
        piece("stone", "heroes", (40, 40), kind="antient", name="Stone Antient",
               sequences=["rush"])
        + piece("rat", "ai", (10, 70), monster="sewer-rat", sequences=["rush"]),
        first="antient"))
    for _ in range(3):
        assert game.state.battle.piece("stone").side == Side.HEROES  # the heroes' turn
        applied = game.do(EndHeroesTurn())
        assert applied.after.battle.piece("stone").side == Side.AI
        assert any("Stone Antient: its card passes to the Overseer" in n for n in applied.notes)
        activations = [game.next_activation(), game.next_activation()]
        assert [a.character for a in activations if a] == ["stone", "rat"]
        assert game.state.phase == "heroes"
        stone, rat = activations
        assert stone is not None and _marked(stone, RulingKey.ANTIENT_TURNS)
        assert rat is not None and "stone" not in {s.target for s in rat.visible}
    assert game.state.round == 4


def test_a_summoned_antient_reaches_the_mat_and_the_ai_turn(tmp_path: Path,
                                                            catalog: Catalog) -> None:
    # rule: "1 unused Antient piece of their choice. This Antient may be summoned instead of
    # performing their hero's base shot sequence in a subsequent turn of the Battle Phase";
    # base game: "An Antient is controlled first by the player that summoned it. Once that
    # player's turn is over, the Antient card passes to the Overseer." (ruling 66). Urthoth's
    # card entered in the players' data folder.
    urthoth = ('[urthoth]\nname = "Urthoth the Liquid Antient"\nkind = "antient"\n'
               'size = "medium"\nsequences = ["rush"]\nset = "base"\nprovenance = "house"\n')
    _, data, battle, needed = _campaign(tmp_path, catalog, heroes="elf=40,dwarf=40",
                                        monsters=urthoth)
    _kill_the_fifth(battle, data, needed)
    out = _play(battle, data, ["cave elf 20", "Trident", "urthoth", "quit"])
    assert "the hero evades the Kraken" in out
    session = Session.open(battle, load_catalog(data))
    _ai_turn(session)  # round 1: the cave visit was the elf's turn
    assert session.state.battle.get("urthoth") is None
    out = _play(battle, data, ["summon elf urthoth", "quit"])
    assert "Its piece is placed beside elf at (" in out
    session = Session.open(battle, load_catalog(data))
    placed = session.state.battle.piece("urthoth")
    assert placed.side == Side.HEROES and placed.sequences
    for _ in range(2):  # rounds 2 and 3: it acts once in each AI turn, and passes back
        turns = _turns(_ai_turn(session))
        assert turns.count("urthoth") == 1
        assert session.state.battle.piece("urthoth").side == Side.HEROES


# --- the Hidden Cave --------------------------------------------------------------------------

def test_the_cave_visit_is_the_hero_s_turn(tmp_path: Path, catalog: Catalog) -> None:
    # rule: "the player controlling that hero may place their hero's piece on the Hidden Cave
    # card instead of taking their normal turn" (ruling 58: the fight is at once and the hero
    # is back on the mat where they stood): no hit of theirs follows in that turn, the AI turn
    # plays every AI piece once, and the hero acts again next round.
    _, data, battle, needed = _campaign(tmp_path, catalog, heroes="elf=40,dwarf=40")
    _kill_the_fifth(battle, data, needed)
    session = Session.open(battle, load_catalog(data))
    target = next(p.id for p in session.state.battle.pieces if p.side == Side.AI)
    out = _play(battle, data, ["cave elf 20", "Trident", "urthoth",
                               f"hit {target} melee by elf", "quit"])
    assert "elf has been in the Hidden Cave this turn: the visit was their turn (ruling 58)" \
        in out
    session = Session.open(battle, load_catalog(data))
    elf = session.state.battle.piece("elf")
    assert session.state.battle.placed(elf)  # back on the mat, a target like any hero
    assert not any(isinstance(c, Hit) for c in session.effective()[0])  # refused, not logged
    with pytest.raises(InputError, match="the visit was their turn"):
        session.do(Hit((target,), "melee", by="elf"))
    _ai_turn(session)
    survivor = next(p.id for p in session.state.battle.pieces if p.side == Side.AI)
    session.do(Hit((survivor,), "melee", by="elf"))  # round 2: the elf's own turn again


def test_a_hero_the_portal_trap_sent_to_the_cave_acts_next_round(tmp_path: Path,
                                                                 catalog: Catalog) -> None:
    # rule: "only one hero is permitted to visit the Hidden Cave at a time, unless a hero is
    # sent there via the Portal Trap": sent in the AI turn, the visit takes no turn of theirs
    _, data, battle, needed = _campaign(tmp_path, catalog, heroes="elf=40,dwarf=40")
    _kill_the_fifth(battle, data, needed)
    session = Session.open(battle, load_catalog(data))
    session.do(EndHeroesTurn())
    session.next_activation()
    out = _play(battle, data, ["cave elf 20 portal", "Trident", "urthoth", "quit"])
    assert "the Kraken fight" in out
    session = Session.open(battle, load_catalog(data))
    while session.state.phase == "ai":
        session.next_activation()
    survivor = next(p.id for p in session.state.battle.pieces if p.side == Side.AI)
    session.do(Hit((survivor,), "melee", by="elf"))  # the heroes' turn: the elf may act
    assert sum(isinstance(c, NextActivation) for c in session.effective()[0]) >= 1

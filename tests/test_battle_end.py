"""The Resolution Phase for the monsters of a cleared room: the gold each surviving hero
collects for their kills, the discs back to the Monster Pool, the Hidden Cave's kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from automa.catalog.load import Catalog, load_catalog
from automa.model.pieces import Piece
from automa.rules.battle_end import gold_earners, is_elani, lord_fell, resolution
from automa.session.replay import frozen_by
from automa.session.store import Session
from tests.conftest import new_session, play_lines
from tests.test_hero_hits import DUEL, _session

DWARF = '[[piece]]\nid = "dwarf"\nside = "heroes"\nat = [10.0, 30.0]\nhealth = 9\n'


def _pieces() -> list[Piece]:
    def ai(piece_id: str, kind: str, monster: str | None) -> Piece:
        return Piece(piece_id, "ai", kind, (0.0, 0.0), 1.0, health=1, monster=monster)

    return [Piece("elf", "heroes", "hero", (0.0, 0.0), 1.0, health=6),
            Piece("dwarf", "heroes", "hero", (0.0, 0.0), 1.0, health=6),
            ai("rat-1", "monster", "sewer-rat"), ai("mino", "monster", "minotaur"),
            ai("sk", "monster", "skeleton-warrior"), ai("lord", "catacomb-lord", None)]


def test_kill_gold_and_the_monster_pool(catalog: Catalog) -> None:
    # rule: "Each surviving hero collects gold equal to the printed rewards of the monsters
    # *they* destroyed ... All monsters return to the pool." (catacombs-facts.md, Resolution)
    gold = {m: s.gold for m, s in catalog.monsters.items()}
    out = {"rat-1": "killed by elf", "mino": "killed by elf", "sk": "dead"}
    lines = resolution(_pieces(), out, gold)
    assert lines[0] == "elf collects 3 gold for the monsters they destroyed (rat-1, mino)"
    assert lines[-1] == "back to the Monster Pool: rat-1, mino, sk"
    # a hero who fell collects nothing
    lines = resolution(_pieces(), {**out, "sk": "killed by dwarf", "dwarf": "dead"}, gold)
    assert not any(line.startswith("dwarf collects") for line in lines)
    # the Lord fight: no disc goes onto a hero's board, so no kill gold
    assert not any("collects" in line for line in resolution(_pieces(), out, gold,
                                                             lord_fight=True))


def test_the_hidden_cave_monsters_stay_out_of_the_pool(catalog: Catalog) -> None:
    # rule: "The collected monsters are not returned to the Monster Pool during the Resolution
    # Phase and are considered to be out of the game."
    gold = {m: s.gold for m, s in catalog.monsters.items()}
    out = {"rat-1": "killed by elf", "sk": "dead"}
    lines = resolution(_pieces(), out, gold, cave=("sewer-rat", "skeleton-warrior"))
    assert "rat-1: kept on elf's board for the Hidden Cave, out of the game" in lines
    assert lines[-1] == "back to the Monster Pool: sk"  # not killed by a hero: not collected


def test_play_prints_the_resolution_when_the_room_is_cleared(tmp_path: Path) -> None:
    # rule: "All monsters return to the pool." (catacombs-facts.md, Resolution)
    folder = _session(tmp_path)
    out = play_lines(folder, ["hit rat-1, mino giant-fireball+critical by elf", "quit"])
    resolved = out.split("The room is cleared: no AI character is left.")[1]
    assert "Resolution Phase:\n  elf collects 3 gold for the monsters they destroyed " \
           "(rat-1, mino)\n  back to the Monster Pool: rat-1, mino" in resolved


def test_a_frozen_monsters_gold_goes_to_the_hero_who_froze_it(catalog: Catalog) -> None:
    # rule: "If every other monster is dead, the frozen ones count as cleared: the room is
    # complete, and the hero who froze a monster gets its gold." (catacombs-facts.md, Ice)
    gold = {m: s.gold for m, s in catalog.monsters.items()}
    out = {"rat-1": "killed by elf", "sk": "dead"}
    lines = resolution(_pieces(), out, gold, frozen_by={"mino": "dwarf"})
    assert "dwarf collects 2 gold for the monsters they froze (mino)" in lines
    assert lines[-1] == "back to the Monster Pool: rat-1, sk, mino"
    assert gold_earners(out, {"mino": "dwarf"}) == {"rat-1": "elf", "mino": "dwarf"}


def test_a_lord_gone_from_play_has_fallen() -> None:
    pieces = _pieces()
    assert not lord_fell(pieces, pieces)
    assert lord_fell(pieces, [p for p in pieces if p.id != "lord"])


def test_play_pays_the_freezer_when_only_frozen_monsters_are_left(tmp_path: Path) -> None:
    """The elf freezes the Minotaur, then her fireball kills the rat: the frozen Minotaur
    counts as cleared, and its gold is hers."""
    folder = _session(tmp_path)
    out = play_lines(folder, ["hit mino ice by elf", "hit rat-1 giant-fireball by elf", "quit"])
    resolved = out.split("The room is cleared: every other monster is dead: the frozen ones "
                         "count as cleared.")[1]
    assert "elf collects 3 gold for the monsters they destroyed (rat-1) and froze (mino)" \
        in resolved
    assert "back to the Monster Pool: rat-1, mino" in resolved
    assert frozen_by(Session.open(folder, load_catalog())) == {"mino": "elf"}


@pytest.mark.parametrize(("lines", "earner"), [
    (["hit mino ice by elf"], "elf"),
    (["hit mino ice by elf", "hit mino ice by dwarf"], "elf"),  # iced again: froze nothing
    (["hit mino ice by elf", "unfreeze mino", "hit mino ice"], None),  # frozen by no one named
    (["hit mino ice by elf", "unfreeze mino", "freeze mino"], None),
    (["hit mino ice by elf", "undo", "freeze mino"], None),
    (["freeze mino", "unfreeze mino", "hit mino ice by dwarf"], "dwarf"),
])
def test_the_freezer_is_the_hero_whose_shot_put_the_ice_on(tmp_path: Path, lines: list[str],
                                                           earner: str | None) -> None:
    """Whose a frozen monster's gold is: the hero named by the input that froze it, in the log
    in force; with no hero named it is nobody's, yet the monster still goes back to the pool."""
    folder = new_session(tmp_path, DUEL.replace("[chance]", DWARF + "[chance]"))
    out = play_lines(folder, [*lines, "hit rat-1 giant-fireball by dwarf", "quit"])
    assert frozen_by(Session.open(folder, load_catalog())) == {"mino": earner}
    resolved = out.split("The room is cleared")[1]
    assert "back to the Monster Pool: rat-1, mino" in resolved
    mino_paid = "froze (mino)" in resolved
    assert mino_paid == (earner is not None)


def test_a_frozen_monster_is_not_destroyed_for_the_hidden_cave(catalog: Catalog) -> None:
    """The Hidden Cave keeps the monsters a hero "destroys": a frozen one pays its freezer but
    goes back to the pool."""
    gold = {m: s.gold for m, s in catalog.monsters.items()}
    lines = resolution(_pieces(), {"rat-1": "killed by elf"}, gold, cave=("minotaur",),
                       frozen_by={"mino": "dwarf"})
    assert not any("Hidden Cave" in line for line in lines)
    assert lines[-1] == "back to the Monster Pool: rat-1, mino"


@pytest.mark.parametrize(("hero", "name"), [("thief", ""), ("elani", ""), ("rogue", "Elani"),
                                            ("elani-the-thief", ""), ("t", "Elani the Thief")])
def test_elani_the_thief_gets_one_gold_more_a_kill(catalog: Catalog, hero: str,
                                                   name: str) -> None:
    # rule: "Elani gets +1 gold per kill." (catacombs-facts.md, Resolution); "Elani the Thief:
    # ... +1 gold per monster slain" (Heroes). A hero is Elani by a word of its id or name.
    gold = {m: s.gold for m, s in catalog.monsters.items()}
    pieces = [Piece(hero, "heroes", "hero", (0.0, 0.0), 1.0, health=6, name=name),
              *_pieces()[1:]]
    out = {"rat-1": f"killed by {hero}", "mino": f"killed by {hero}", "sk": "dead"}
    lines = resolution(pieces, out, gold, frozen_by={"sk": hero})
    assert lines[0] == (f"{hero} collects 6 gold for the monsters they destroyed (rat-1, mino) "
                        f"and froze (sk), 2 of it Elani the Thief's +1 a kill")
    assert is_elani(hero, name)
    # not another hero, and not in the Lord fight (no kill gold there)
    assert resolution(_pieces(), {"rat-1": "killed by elf"}, gold)[0] == \
        "elf collects 1 gold for the monsters they destroyed (rat-1)"
    assert not is_elani("elf", "Oleira the Elf") and not is_elani("thiefling")
    assert not any("collects" in line for line in resolution(pieces, out, gold,
                                                             lord_fight=True))


def test_a_familiar_earns_nothing_and_an_ally_for_its_hero(catalog: Catalog) -> None:
    # rule: "Familiar kills earn nothing." (catacombs-facts.md, Resolution); an ally "earns no
    # gold itself; its gold goes to its hero" (2.5)
    gold = {m: s.gold for m, s in catalog.monsters.items()}
    pieces = [*_pieces(), Piece("owl", "heroes", "familiar", (0.0, 0.0), 1.0, health=2),
              Piece("squire", "heroes", "ally", (0.0, 0.0), 1.0, health=5)]
    lines = resolution(pieces, {"rat-1": "killed by owl", "mino": "killed by squire"}, gold)
    assert "owl is a familiar: the monsters it destroyed (rat-1) earn nothing" in lines
    assert "squire earns no gold itself: the 2 gold for the monsters it destroyed (mino) go " \
           "to the hero it serves" in lines
    assert not any("collects" in line for line in lines)
    pieces[-1] = pieces[-1].altered(serves="elf")  # a campaign's ally knows its hero
    assert "squire earns no gold itself: the 2 gold for the monsters it destroyed (mino) go " \
           "to elf, the hero it serves" in resolution(pieces, {"mino": "killed by squire"}, gold)


def test_the_campaign_pays_elani_one_gold_more_a_kill(catalog: Catalog) -> None:
    """The campaign's Resolution Phase (campaign/rules.py kill_gold) adds Elani's +1 a kill to
    the boards, not for a monster she only froze."""
    from automa.campaign.rules import kill_gold, new_heroes

    heroes = {b.id: b for b in new_heroes([("thief", 6), ("elf", 8)])}
    kinds = {"rat-1": "sewer-rat", "mino": "minotaur", "sk": "skeleton-warrior"}
    gold = {m: s.gold for m, s in catalog.monsters.items()}
    out = {"rat-1": "killed by thief", "mino": "killed by elf"}
    assert kill_gold(heroes, out, kinds, gold, {"sk": "thief"}) == {"thief": 3, "elf": 2}

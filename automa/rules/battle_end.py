"""When a room's Battle Phase is over on the heroes' side: the room cleared, and who comes back
from the Devoured! card."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from automa.model.pieces import Condition, Kind, Piece, Side

FROZEN_CLEAR = "every other monster is dead: the frozen ones count as cleared"
KILLED_BY = "killed by "  # how the log says who took a piece out of play (`hit ... by HERO`)
ELANI_WORDS = frozenset({"elani", "thief"})  # a hero named so is Elani the Thief
ELANI_BONUS = 1  # "Elani gets +1 gold per kill" (catacombs-facts.md, Resolution)


def is_elani(hero_id: str, name: str = "") -> bool:
    """Whether a hero is Elani the Thief, who "gets +1 gold per kill" (catacombs-facts.md,
    Resolution; "+1 gold per monster slain", Heroes). The program holds no hero cards: a hero
    is Elani when a word of its id or name says so, `thief` or `elani` (`--heroes thief=6`,
    `id = "elani"`, `name = "Elani the Thief"`; docs/scenario.md)."""
    return bool(set(re.split(r"[^a-z0-9]+", f"{hero_id} {name}".lower())) & ELANI_WORDS)


def elani_bonus(hero_id: str, name: str, destroyed: int) -> int:
    """Elani the Thief's extra gold for the monsters a hero destroyed (0 for another hero)."""
    return ELANI_BONUS * destroyed if is_elani(hero_id, name) else 0


def killer(why: str) -> str | None:
    """The hero a piece out of play was killed by, when the log names one."""
    return why.removeprefix(KILLED_BY) if why.startswith(KILLED_BY) else None


def gold_earners(out: Mapping[str, str], frozen_by: Mapping[str, str | None]
                 ) -> dict[str, str]:
    """Whose each monster's gold is: the hero that killed it; for a monster left frozen when
    the room is cleared by them, the hero who froze it, if one is known ("If every other
    monster is dead, the frozen ones count as cleared: the room is complete, and the hero who
    froze a monster gets its gold", catacombs-facts.md 1.6)."""
    earners = {piece: hero for piece, why in out.items() if (hero := killer(why)) is not None}
    return {**earners, **{piece: hero for piece, hero in frozen_by.items() if hero is not None}}


def lord_fell(started: Sequence[Piece], now: Sequence[Piece]) -> bool:
    """A Catacomb Lord the battle began with is no longer in play."""
    present = {p.id for p in now}
    return any(p.kind == Kind.CATACOMB_LORD and p.id not in present for p in started)


def room_cleared(started: Sequence[Piece], pieces: Sequence[Piece]) -> str | None:
    """Why the room is cleared, or None while it goes on: `started` are the pieces the battle
    began with, `pieces` those in play now.

    - "The heroes win by killing the Lord; the remaining minions need not be killed."
    - Antients "cannot be damaged, destroyed": they never hold a room.
    - Ice: "If every other monster is dead, the frozen ones count as cleared".
    - Teleport: "The Battle Phase goes on even if monsters are only on the Teleported card."
    (catacombs-facts.md 2.3, 2.4, 1.6)"""
    if lord_fell(started, pieces):
        return "the Catacomb Lord is dead: the heroes win (the minions left need not be killed)"
    holding = [p for p in pieces if p.side == Side.AI and p.kind != Kind.ANTIENT]
    if not holding:
        return "no AI character is left"
    if not still_holding(pieces):
        return FROZEN_CLEAR
    return None


def still_holding(pieces: Sequence[Piece]) -> list[Piece]:
    """The AI characters that keep the room from being cleared: not Antients, and not frozen
    on the mat (a frozen one on the Teleported! or Devoured! card still holds it)."""
    return [p for p in pieces if p.side == Side.AI and p.kind != Kind.ANTIENT
            and (Condition.FROZEN not in p.conditions
                 or p.conditions & {Condition.TELEPORTED, Condition.DEVOURED})]


def overseer_won(pieces: Sequence[Piece]) -> str | None:
    """Why the heroes have lost, or None while one can still act. "The Overseer wins as soon as
    all four heroes are dead or unable to act, for example all devoured"; a teleported hero
    comes back "in the next round" (catacombs-facts.md 1.6 and "Win / loss")."""
    heroes = [p for p in pieces if p.side == Side.HEROES and p.kind == Kind.HERO]
    if any(Condition.DEVOURED not in p.conditions for p in heroes):
        return None
    if heroes:
        return "every hero left is on the Devoured! card: none can act"
    return "no hero is left alive"


def devoured_return(pieces: Sequence[Piece]) -> list[str]:
    """"Devoured characters are released when the room is cleared" (catacombs-facts.md 1.6)."""
    return [f"{p.label} comes back from the Devoured! card" for p in pieces
            if p.side == Side.HEROES and p.part_of is None and Condition.DEVOURED in p.conditions]


def resolution(pieces: Sequence[Piece], out: Mapping[str, str],
               gold: Mapping[str, int | None], cave: Sequence[str] = (),
               lord_fight: bool = False, frozen_by: Mapping[str, str | None] | None = None
               ) -> list[str]:
    """The Resolution Phase for the monsters killed: "Each surviving hero collects gold equal
    to the printed rewards of the monsters *they* destroyed ... All monsters return to the
    pool." (catacombs-facts.md, Resolution), except the Hidden Cave's: "The collected monsters
    are not returned to the Monster Pool during the Resolution Phase and are considered to be
    out of the game." Elani the Thief "gets +1 gold per kill" (`is_elani`; a frozen monster is
    no kill), "Familiar kills earn nothing", and an ally "earns no gold itself; its gold goes to
    its hero" (catacombs-facts.md 2.5). `pieces` are the battle's starting pieces, `gold` each
    monster's printed reward, `cave` the Hidden Cave's five kinds, `frozen_by` each monster
    left frozen when the frozen ones cleared the room and the hero who froze it (None: nobody's
    gold); it is not destroyed, so it is never kept for the Hidden Cave. In the Lord fight no
    disc goes onto a hero's board."""
    kind = {p.id: p for p in pieces}
    lines: list[str] = []
    back: list[str] = []
    by_hero: dict[str, list[str]] = {}
    frozen_by = frozen_by or {}
    earners = gold_earners(out, frozen_by)
    for piece_id in [*out, *(p for p in frozen_by if p not in out)]:
        piece = kind.get(piece_id)
        if piece is None or piece.side != Side.AI or piece.kind != Kind.MONSTER:
            continue
        hero = earners.get(piece_id)
        if hero is not None and not lord_fight:
            by_hero.setdefault(hero, []).append(piece_id)
        killed_by = killer(out[piece_id]) if piece_id in out else None
        if killed_by is not None and piece.monster in cave:
            lines.append(f"{piece.id}: kept on {killed_by}'s board for the Hidden Cave, out "
                         f"of the game")
        else:
            back.append(piece.id)
    paid = []
    for hero, killed in by_hero.items():
        earner = kind.get(hero)
        if earner is None or out.get(hero) is not None:  # it fell: nothing to collect
            continue
        earned = sum(gold.get(kind[k].monster or "", None) or 0 for k in killed)
        did = _destroyed_or_froze(killed, frozen_by)
        if earner.kind == Kind.FAMILIAR:
            paid.append(f"{hero} is a familiar: the monsters it {did} earn nothing")
            continue
        if earner.kind != Kind.HERO:  # an ally (a mount, an assistant) earns for its hero
            serves = f"{earner.serves}, the hero it serves" if earner.serves else (
                "the hero it serves")
            paid.append(f"{hero} earns no gold itself: the {earned} gold for the monsters it "
                        f"{did} go to {serves}")
            continue
        bonus = elani_bonus(hero, earner.name, sum(k not in frozen_by for k in killed))
        thief = f", {bonus} of it Elani the Thief's +1 a kill" if bonus else ""
        paid.append(f"{hero} collects {earned + bonus} gold for the monsters they {did}{thief}")
    lines[:0] = paid[::-1]  # the last earner first, as the printout has always had them
    if back:
        lines.append(f"back to the Monster Pool: {', '.join(back)}")
    return lines


def _destroyed_or_froze(earned: Sequence[str], frozen_by: Mapping[str, str | None]) -> str:
    """"destroyed (rat-1, mino)", "froze (mino)" or "destroyed (rat-1) and froze (mino)"."""
    killed = [piece for piece in earned if piece not in frozen_by]
    frozen = [piece for piece in earned if piece in frozen_by]
    said = [f"{verb} ({', '.join(pieces)})"
            for verb, pieces in (("destroyed", killed), ("froze", frozen)) if pieces]
    return " and ".join(said)

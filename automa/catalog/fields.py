"""Which fields of a piece's card a battle needs, and which fields a player can type from a card.

A field the sources do not give is written "unknown" in data/ and loads into the record's
`unknown` set. `automa data todo` lists the ones below (catalog/todo.py); `automa data card`
asks for them.
"""

from __future__ import annotations

from automa.model.monsters import LordSpec, MonsterSpec
from automa.model.pieces import Kind

LORD = Kind.CATACOMB_LORD
# without these a battle refuses the piece (unless the scenario gives the field itself)
REQUIRED: dict[Kind, tuple[str, ...]] = {
    Kind.MONSTER: ("family", "level", "health", "sequences"),
    Kind.ANTIENT: ("sequences",),
    LORD: ("health", "sequences"),
}
# without these a battle goes on with a stand-in: the medium disc
DEFAULTED: dict[Kind, tuple[str, ...]] = {Kind.MONSTER: ("size",), Kind.ANTIENT: ("size",),
                                          LORD: ("size",)}
# `automa setup` needs these (a lair's minions, the Mercenary icons)
SETUP: dict[Kind, tuple[str, ...]] = {Kind.MONSTER: (), Kind.ANTIENT: (),
                                      LORD: ("minions", "mercenary")}
# everything a card shows that the data keeps, in the order a card is read
CARD: dict[Kind, tuple[str, ...]] = {
    Kind.MONSTER: ("family", "level", "health", "gold", "size", "nullifies", "reflects",
                   "sequences"),
    Kind.ANTIENT: ("size", "sequences"),
    LORD: ("health", "size", "sequences", "minions", "mercenary"),
}


def kind_of(spec: MonsterSpec | LordSpec) -> Kind:
    return LORD if isinstance(spec, LordSpec) else spec.kind


def needed(spec: MonsterSpec | LordSpec, every: bool = False) -> tuple[str, ...]:
    """The unknown fields of `spec` a battle or a setup needs (`every`: all its card fields)."""
    kind = kind_of(spec)
    wanted = CARD[kind] if every else (*REQUIRED[kind], *DEFAULTED[kind], *SETUP[kind])
    return tuple(f for f in CARD[kind] if f in wanted and f in spec.unknown)


def missing_for_battle(spec: MonsterSpec | LordSpec) -> tuple[str, ...]:
    return tuple(f for f in REQUIRED[kind_of(spec)] if f in spec.unknown)


def card_hint(record_id: str) -> str:
    return f"enter the card once with `automa data card {record_id}`"

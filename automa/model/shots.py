"""Shots and shot sequences, and their text notation ("rush then melee+poison", "summon zombie").

A sequence string holds shots joined by " then " (or " elastic ", which the AI reads as then);
a shot is a name with optional "+modifier" terms; a modifier may carry a card count, "poison(2)".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CHARACTER_DAMAGE_SHOTS = frozenset({"melee", "bite", "roll", "sword", "devour"})
RANGED_SHOTS = frozenset(
    {
        "missile", "fireball", "giant-fireball", "ice", "target", "boulder",
        "boomerang", "scorched-earth", "dagger", "portal-trap", "vortex",
    }
)
OTHER_SHOTS = frozenset(
    {"rush", "repeat", "move-to-rune", "runic-shift", "open-portal", "teleport", "shield", "summon"}
)
SHOT_NAMES = CHARACTER_DAMAGE_SHOTS | RANGED_SHOTS | OTHER_SHOTS
MODIFIERS = frozenset(
    {
        "poison", "stun", "fear", "critical", "chain", "regeneration", "corrosion",
        "petrify", "capture-coin", "transform", "devour", "target",
    }
)
CONNECTORS = (" then ", " elastic ")

_MODIFIER = re.compile(r"^(?P<name>[a-z-]+)(?:\((?P<count>[1-9])\))?$")


@dataclass(frozen=True)
class Modifier:
    name: str
    count: int = 1

    def notation(self) -> str:
        return self.name if self.count == 1 else f"{self.name}({self.count})"


@dataclass(frozen=True)
class Shot:
    name: str
    modifiers: tuple[Modifier, ...] = ()
    argument: str | None = None  # the summoned monster id of "summon <id>"

    @property
    def is_ranged(self) -> bool:
        return self.name in RANGED_SHOTS

    @property
    def damages_by_contact(self) -> bool:
        return self.name in CHARACTER_DAMAGE_SHOTS

    def has_modifier(self, name: str) -> bool:
        return any(m.name == name for m in self.modifiers)

    def notation(self) -> str:
        """"melee+poison(2)" (made once per shot, kept in the instance's dict)."""
        kept: str | None = self.__dict__.get("_notation_kept")
        if kept is None:
            head = f"{self.name} {self.argument}" if self.argument else self.name
            kept = self.__dict__["_notation_kept"] = "+".join(
                [head, *(m.notation() for m in self.modifiers)])
        return kept


@dataclass(frozen=True)
class Sequence:
    shots: tuple[Shot, ...]

    def notation(self) -> str:
        kept: str | None = self.__dict__.get("_notation_kept")
        if kept is None:
            kept = self.__dict__["_notation_kept"] = " then ".join(s.notation()
                                                                 for s in self.shots)
        return kept

    def shot_names(self) -> list[str]:
        return [s.notation() for s in self.shots]


def parse_shot(text: str) -> Shot:
    """Parse one shot such as "melee+poison(2)" or "summon skeleton-warrior"; ValueError if bad."""
    head, *mods = [part.strip() for part in text.strip().split("+")]
    words = head.split()
    if not words:
        raise ValueError(f"empty shot in {text!r}")
    name, argument = words[0], None
    if name == "summon":
        if len(words) != 2:
            raise ValueError(f"'summon' needs one monster id, as in 'summon zombie', not {head!r}")
        argument = words[1]
    elif len(words) != 1:
        raise ValueError(f"unknown shot {head!r}")
    if name not in SHOT_NAMES:
        raise ValueError(f"unknown shot {name!r} (known: {', '.join(sorted(SHOT_NAMES))})")
    modifiers = []
    for mod in mods:
        match = _MODIFIER.match(mod)
        if not match or match["name"] not in MODIFIERS:
            raise ValueError(f"unknown modifier {mod!r} (known: {', '.join(sorted(MODIFIERS))})")
        modifiers.append(Modifier(match["name"], int(match["count"] or 1)))
    return Shot(name, tuple(modifiers), argument)


def parse_sequence(text: str) -> Sequence:
    """Parse "rush then melee+critical" into a Sequence; ValueError naming the bad part."""
    normalised = text.strip().lower()
    for connector in CONNECTORS[1:]:
        normalised = normalised.replace(connector, CONNECTORS[0])
    parts = normalised.split(CONNECTORS[0])
    if not normalised or any(not p.strip() for p in parts):
        raise ValueError(f"empty shot in sequence {text!r}")
    return Sequence(tuple(parse_shot(p) for p in parts))

"""Shots and shot sequences, and their text notation ("rush then melee+poison", "summon zombie").

A sequence string holds shots joined by " then " (or " elastic ", which the AI reads as then);
a shot is a name with optional "+modifier" terms; a modifier may carry a card count, "poison(2)".
"""

from __future__ import annotations

import re

from msgspec import Struct

from automa.model.vocabulary import Word


class ShotName(Word):
    """A shot's name as a card prints it (the words of a sequence)."""

    # character damage shots: they hit by contact
    MELEE = "melee"
    BITE = "bite"
    ROLL = "roll"
    SWORD = "sword"
    DEVOUR = "devour"
    # ranged shots
    MISSILE = "missile"
    FIREBALL = "fireball"
    GIANT_FIREBALL = "giant-fireball"
    ICE = "ice"
    TARGET = "target"
    BOULDER = "boulder"
    BOOMERANG = "boomerang"
    SCORCHED_EARTH = "scorched-earth"
    DAGGER = "dagger"
    PORTAL_TRAP = "portal-trap"
    VORTEX = "vortex"
    # the others: moves, repeats, summons
    RUSH = "rush"
    REPEAT = "repeat"
    MOVE_TO_RUNE = "move-to-rune"
    RUNIC_SHIFT = "runic-shift"
    OPEN_PORTAL = "open-portal"
    TELEPORT = "teleport"
    SHIELD = "shield"
    SUMMON = "summon"
    # no shot: a hero's `hit` names it when a piece hit, or was pushed into, a fire wall
    FIRE_WALL = "fire-wall"
    # no card's shot: Ulom's claw flicked after his sequence (Red Box l.316), in a hero's `hit`
    CLAW = "claw"


class ModifierName(Word):
    """A shot's modifier, the "+poison" of "melee+poison"."""

    POISON = "poison"
    STUN = "stun"
    FEAR = "fear"
    CRITICAL = "critical"
    CHAIN = "chain"
    REGENERATION = "regeneration"
    CORROSION = "corrosion"
    PETRIFY = "petrify"
    CAPTURE_COIN = "capture-coin"
    TRANSFORM = "transform"
    DEVOUR = "devour"
    TARGET = "target"


CHARACTER_DAMAGE_SHOTS = frozenset({ShotName.MELEE, ShotName.BITE, ShotName.ROLL, ShotName.SWORD,
                                    ShotName.DEVOUR})
RANGED_SHOTS = frozenset({
    ShotName.MISSILE, ShotName.FIREBALL, ShotName.GIANT_FIREBALL, ShotName.ICE, ShotName.TARGET,
    ShotName.BOULDER, ShotName.BOOMERANG, ShotName.SCORCHED_EARTH, ShotName.DAGGER,
    ShotName.PORTAL_TRAP, ShotName.VORTEX})
OTHER_SHOTS = frozenset({
    ShotName.RUSH, ShotName.REPEAT, ShotName.MOVE_TO_RUNE, ShotName.RUNIC_SHIFT,
    ShotName.OPEN_PORTAL, ShotName.TELEPORT, ShotName.SHIELD, ShotName.SUMMON})
SHOT_NAMES = CHARACTER_DAMAGE_SHOTS | RANGED_SHOTS | OTHER_SHOTS  # not the fire wall
MODIFIERS = frozenset(ModifierName)
CONNECTORS = (" then ", " elastic ")

_MODIFIER = re.compile(r"^(?P<name>[a-z-]+)(?:\((?P<count>[1-9])\))?$")


class Modifier(Struct, frozen=True):
    """A shot's modifier, with its card count."""

    name: ModifierName
    count: int = 1

    def notation(self) -> str:
        return self.name if self.count == 1 else f"{self.name}({self.count})"


class Shot(Struct, frozen=True):
    """One shot of a sequence: its name, modifiers and (a summon's) argument."""

    name: ShotName
    modifiers: tuple[Modifier, ...] = ()
    argument: str | None = None  # the summoned monster id of "summon <id>"

    @property
    def text(self) -> str:
        """Its notation, "melee+poison(2)", as every step and summary that names it prints it."""
        head = f"{self.name} {self.argument}" if self.argument else self.name
        if not self.modifiers:
            return head
        return "+".join([head, *(m.notation() for m in self.modifiers)])

    @property
    def is_ranged(self) -> bool:
        return self.name in RANGED_SHOTS

    @property
    def damages_by_contact(self) -> bool:
        return self.name in CHARACTER_DAMAGE_SHOTS

    def has_modifier(self, name: ModifierName) -> bool:
        return any(m.name == name for m in self.modifiers)

    def notation(self) -> str:
        """"melee+poison(2)"."""
        return self.text


class Sequence(Struct, frozen=True):
    """A shot sequence, its shots in order."""

    shots: tuple[Shot, ...]

    @property
    def text(self) -> str:
        """Its notation, "rush then melee+poison"."""
        return " then ".join([s.text for s in self.shots])

    def notation(self) -> str:
        return self.text

    def shot_names(self) -> list[str]:
        return [s.text for s in self.shots]


def parse_shot(text: str) -> Shot:
    """Parse one shot such as "melee+poison(2)" or "summon skeleton-warrior"; ValueError if bad."""
    head, *mods = [part.strip() for part in text.strip().split("+")]
    words = head.split()
    if not words:
        raise ValueError(f"empty shot in {text!r}")
    name, argument = words[0], None
    if name == ShotName.SUMMON:
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
        modifiers.append(Modifier(ModifierName(match["name"]), int(match["count"] or 1)))
    return Shot(ShotName(name), tuple(modifiers), argument)


def parse_sequence(text: str) -> Sequence:
    """Parse "rush then melee+critical" into a Sequence; ValueError naming the bad part."""
    normalised = text.strip().lower()
    for connector in CONNECTORS[1:]:
        normalised = normalised.replace(connector, CONNECTORS[0])
    parts = normalised.split(CONNECTORS[0])
    if not normalised or any(not p.strip() for p in parts):
        raise ValueError(f"empty shot in sequence {text!r}")
    return Sequence(tuple(parse_shot(p) for p in parts))

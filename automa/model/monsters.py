"""Monster, Catacomb Lord and AI behaviour-table records as loaded from data/."""

from __future__ import annotations

from msgspec import Struct

from automa.model.components import Family
from automa.model.pieces import Kind
from automa.model.provenance import Provenance
from automa.model.shots import ModifierName, Sequence, ShotName


class MonsterSpec(Struct, frozen=True):
    """A monster card, as data/monsters.toml gives it."""

    id: str
    name: str
    family: Family | None  # None = unknown
    level: int | None
    health: int | None  # None = unknown or shadow
    shadow: bool
    gold: int | None
    size: str | None
    nullifies: tuple[ShotName, ...]
    reflects: tuple[ShotName, ...]
    sequences: tuple[Sequence, ...]
    provenance: Provenance
    kind: Kind = Kind.MONSTER  # or Kind.ANTIENT
    units: int | None = None  # pieces a Monster Metre icon brings, when the card says
    # the Gelatinous Cube's modifiers, turn by turn: round 1, 2, 3, 4, 1 ...
    rotating_modifiers: tuple[ModifierName, ...] = ()
    unknown: frozenset[str] = frozenset()  # fields written "unknown": our sources lack them
    # shots a source names for the card, its sequences unknown
    named_shots: tuple[ShotName, ...] = ()


class MinionSlot(Struct, frozen=True):
    """A Catacomb Lord's minions of one kind: which monster (or a D12 choice of two), how many."""

    choices: tuple[str, ...]  # one id, or two when the card offers a D12 choice
    count: int


class LordSpec(Struct, frozen=True):
    """A Catacomb Lord card, as data/lords.toml gives it."""

    id: str
    name: str
    health: int | None
    size: str | None
    minions: tuple[MinionSlot, ...]
    mercenary: tuple[str, ...]
    playmats: tuple[str, ...]
    sequences: tuple[Sequence, ...]
    provenance: Provenance
    health_bands: tuple[tuple[int, int], ...] = ()  # Kaulaurn: sequence chosen by health
    summon_choices: tuple[str, ...] = ()  # P'holith: its summon is one of these (D12 split)
    unknown: frozenset[str] = frozenset()  # fields written "unknown": our sources lack them


class BehaviourRow(Struct, frozen=True):
    """One row of the AI Player Attack Behaviour table (printed, or a house row)."""

    id: str
    families: tuple[Family, ...]
    ruler: int
    shot_preference: str | None
    primary: str
    secondary: str
    tie_breaker: str
    no_target: str
    no_target_ruler: int
    provenance: Provenance
    house_fields: frozenset[str] = frozenset()

    def is_house(self, field: str) -> bool:
        return self.provenance == Provenance.HOUSE or field in self.house_fields


class EffectSpec(Struct, frozen=True):
    """What a modifier does to the character a shot hits (data/effects.toml)."""

    modifier: ModifierName
    effect: str
    needs_damage: bool
    kinds: tuple[Kind, ...]  # the heroes' kinds it affects
    text: str  # the step's words; may name {target}, {attacker}, {count}, {cards}, {amount}
    provenance: Provenance

    def said(self, target: str, attacker: str, count: int, amount: int) -> str:
        """The step's words for one hit: `count` cards (or tokens) to `target`, `amount` damage."""
        return self.text.format(target=target, attacker=attacker, count=count,
                                cards="card" if count == 1 else "cards", amount=amount)

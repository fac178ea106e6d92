"""Room cards as loaded from data/rooms.toml."""

from __future__ import annotations

from msgspec import Struct

from automa.model.provenance import Provenance


class RoomSpec(Struct, frozen=True):
    id: str
    name: str
    kind: str  # battle | special
    difficulty: int | None
    suppresses: tuple[str, ...] | None  # None: not in our sources
    playmat: str | None
    monsters: tuple[tuple[str, int], ...]  # (monster id, count) in card order
    metres: tuple[tuple[int, int], ...]  # (level, count) Monster Metre icons
    mercenaries: int | None
    known: bool
    provenance: Provenance

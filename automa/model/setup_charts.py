"""The charts and counts setup reads (data/setup.toml): apart from the rooms, as every catalog
holds them and a turn reads no room."""

from __future__ import annotations

from msgspec import Struct


class SetupData(Struct, frozen=True):
    """The setup charts and counts (data/setup.toml)."""

    rune_die_mats: dict[int, str]
    d12_mats: dict[int, str]
    metre_units: dict[int, int]
    hidden_cave_items: tuple[str, ...]
    hidden_cave_collect: int
    max_monsters: int

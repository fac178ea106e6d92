"""The components our data ships as placeholders, and the ruling each rests on.

The rulebook prints no sizes, token values or tile faces (docs/rulings.md, "Components we cannot
see"), so data/components.toml ships house values for them. A few of those rulings decide
something the table can see where it happens (the Hero Target bands at a target shot, the half
Clock template at a retreat, the tiles' faces at a setup); two decide everything at once (every
length, every token drawn by the program) and are said where the data is checked instead
(`automa data check`). This module says which records, still `house`, each ruling stands for.
"""

from __future__ import annotations

from collections.abc import Collection

from msgspec import Struct

from automa.rules.rulings import RulingKey


class Placeholder(Struct, frozen=True):
    """A ruling about components whose records are still ours (provenance `house`)."""

    key: RulingKey
    what: str  # what the records hold, in table words
    records: tuple[str, ...]  # the components.toml records, as `[record]` names them


# ruling -> what its records hold, and the records (a name ending in "." stands for each record
# under it, as the disc sizes)
PLACEHOLDERS: tuple[tuple[RulingKey, str, tuple[str, ...]], ...] = (
    (RulingKey.ORDER_TILES, "the order tiles' faces",
     ("tiles.character", "tiles.monster", "tiles.direction")),
    (RulingKey.HERO_TARGET_REROLL, "the Hero Target tiles' D12 bands", ("hero-target",)),
    (RulingKey.TOKEN_MIX, "the damage tokens' values and reset icons",
     ("bag.1", "bag.2", "bag.3")),
    (RulingKey.SIZES, "the rulers', templates' and discs' sizes",
     ("ruler.", "attack-template", "clock-template.radius", "disc.")),
    (RulingKey.HALF_CLOCK, "the half Clock template's faces", ("clock-template.half",)),
    (RulingKey.KRAKEN_BAG, "which bag holds the red Damage tokens", ("kraken",)),
)


def placeholders(ours: Collection[str]) -> list[Placeholder]:
    """The component rulings whose records are still our placeholders, in the registry's
    order, each with those records (`ours`: `Components.placeholders`, the records as shipped
    with provenance house)."""
    found = []
    for key, what, names in PLACEHOLDERS:
        records = tuple(record for name in names for record in sorted(ours)
                        if (record.startswith(name) if name.endswith(".") else record == name))
        if records:
            found.append(Placeholder(key, what, records))
    return found

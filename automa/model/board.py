"""A hero's player board as the battle leaves it: health against starting health, gold (a
platinum coin is 5 gold), Poison cards against starting health, items, and the monsters it
killed (their discs on the board)."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct

from automa.model.pieces import Piece

PLATINUM = 5  # "Platinum x10 (1 platinum = 5 gold)" (catacombs-facts.md, components)


class HeroBoard(Struct, frozen=True):
    hero: str
    health: int | None
    starting_health: int | None
    gold: int  # in gold; platinum coins counted at 5
    poison: int
    items: int
    kills: tuple[str, ...]
    used: tuple[str, ...] = ()  # cards used this room: "elven-arrow (room)"

    @property
    def coins(self) -> tuple[int, int]:
        """(platinum, gold) coins for the gold, fewest coins first."""
        return divmod(self.gold, PLATINUM)

    def text(self) -> str:
        start = self.starting_health
        health = "no health track" if self.health is None else \
            f"health {self.health}" + (f" of {start}" if start is not None else "")
        platinum, gold = self.coins
        poison = f"{self.poison} Poison card{'' if self.poison == 1 else 's'}" + \
            (f" (dies at {start})" if start is not None and self.poison else "")
        kills = ", ".join(self.kills) or "none"
        used = f", used: {', '.join(self.used)}" if self.used else ""
        return (f"{self.hero}: {health}, gold {self.gold} ({platinum} platinum + {gold}), "
                f"{poison}, items {self.items}, kills: {kills}{used}")


def board_of(hero: Piece, out: Mapping[str, str], lord_fight: bool = False) -> HeroBoard:
    """The hero's board: its piece's counters and the pieces logged as `killed by` it. "A
    killed monster's disc goes onto the killing hero's board, except in the Lord fight."
    (catacombs-facts.md 2.1)"""
    kills = () if lord_fight else \
        tuple(piece for piece, why in out.items() if why == f"killed by {hero.id}")
    return HeroBoard(hero.id, hero.health, hero.starting_health, hero.gold, hero.poison,
                     hero.items, kills, hero.used)

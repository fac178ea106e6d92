"""What the Kraken fight shows (`automa hidden-cave fight`): the D12, the red tokens and the
printed outcome, as text and as CONTRACT.md's JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from automa.model.modes import DiceMode
from automa.rules.rulings import RulingKey, cite, ruling

if TYPE_CHECKING:
    from automa.campaign.cave import KrakenFought

JSON = dict[str, object]


def kraken_rulings(fought: KrakenFought) -> list[int]:
    """The rulings the fight's printout marks: which bag is red (always), and the bag running
    out or a tie when they happen."""
    result = fought.fight
    keys = [RulingKey.KRAKEN_BAG, *([RulingKey.KRAKEN_TIE] if result.tie else []),
            *([RulingKey.KRAKEN_DRAW] if result.refilled else [])]
    return sorted(ruling(key).number for key in keys)


def kraken_json(fought: KrakenFought) -> JSON:
    result = fought.fight
    return {"strength": result.strength, "tokens": [t.label() for t in result.tokens],
            "total": result.total, "hero_wins": result.hero_wins, "bag": fought.level,
            "rulings": kraken_rulings(fought)}


def kraken_text(fought: KrakenFought) -> str:
    result, command = fought.fight, fought.command
    lines = [f"The Kraken's strength (D12): {result.strength}"]
    faces = " ".join(t.label() for t in result.tokens) or "none"
    lines.append(f"The hero's {fought.tokens} red tokens ({command.health // 4} for health, "
                 f"{command.shots} for shot icons; the level {fought.level} bag, "
                 f"{cite(RulingKey.KRAKEN_BAG)}): {faces} = {result.total}")
    if result.refilled:
        lines.append(f"  the bag ran out: the tokens in hand were counted and put back "
                     f"({cite(RulingKey.KRAKEN_DRAW)})")
    if result.tie:
        winner = "the hero" if result.hero_wins else "the Kraken"
        lines.append(f"A tie: {winner} wins ({cite(RulingKey.KRAKEN_TIE)}, kraken-tie)")
    if result.hero_wins:
        lines.append("The hero evades the Kraken: 1 platinum coin from the Treasury, 2 health, "
                     "1 of the items of their choice and 1 unused Antient of their choice.")
        lines.append(f"  the items beside the Hidden Cave card: {', '.join(fought.items)}")
    else:
        lines.append("The Kraken wins: the hero may discard one Poison card (if they have one) "
                     "and takes one of the four items, at random.")
        if fought.item_drawn is not None:
            lines.append(f"  the item, drawn at random: {fought.item_drawn}")
    if command.dice == DiceMode.VIRTUAL:
        lines.append(f"(seed {command.seed})")
    return "\n".join(lines)

"""How a table plays: its dice (the program's or the players' own), its test of blocked sight
(ruling 6, `[battle] los_test`) and who wins a tie against the Kraken (ruling 46)."""

from __future__ import annotations

from automa.model.vocabulary import Word


class DiceMode(Word):
    """Who rolls and draws: the program, from the seed (virtual), or the players at the table
    with their own dice and tokens (physical). A session's first line keeps it as `chance`."""

    VIRTUAL = "virtual"
    PHYSICAL = "physical"


class LosTest(Word):
    """When obstacles block sight, what must be clear between two discs (ruling 6): the line
    between their centres, a ruler-wide band along it, or any one straight line."""

    CENTRE_LINE = "centre-line"
    CORRIDOR = "corridor"
    ANY_LINE = "any-line"


class KrakenTie(Word):
    """Who wins a tie against the Kraken (ruling kraken-tie, `automa hidden-cave fight --tie`)."""

    KRAKEN = "kraken"
    HERO = "hero"


# the words a command-line option offers (click would offer an enum's member names)
DICE_WORDS = tuple(mode.value for mode in DiceMode)

"""The picture's colours: the Okabe-Ito palette, safe for colour-blind eyes."""

from automa.model.pieces import Side

HEROES, AI, NEUTRAL = "#0072B2", "#D55E00", "#999999"  # blue, vermilion, grey
SEEN, BLOCKED, PATH, TEMPLATE, PUSH = "#009E73", "#777777", "#000000", "#E69F00", "#CC79A7"
UNKNOWN = "#555555"
BLOCKER = "#F0E442"  # yellow: the band round an obstacle that blocks a line of sight


def side_colour(side: Side) -> str:
    """A disc's fill: the heroes' blue, the AI's vermilion, grey for anything neutral."""
    return {Side.HEROES: HEROES, Side.AI: AI}.get(side, NEUTRAL)
ZONE = {"hero": "#56B4E9", "monster": "#F0E442"}

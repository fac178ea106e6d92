"""Pieces on the table: heroes and their helpers, monsters, Catacomb Lords and Antients."""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from automa.model.components import Family
from automa.model.shots import Sequence
from automa.model.vocabulary import Word


class Side(Word):
    """Whose a piece is: the Heroic Forces, the AI (the Overseer's), or nobody's (a wild
    wyvern)."""

    HEROES = "heroes"
    AI = "ai"
    NEUTRAL = "neutral"


class Condition(Word):
    """What a piece may be under, besides its health (the cards and tokens laid on it)."""

    FROZEN = "frozen"
    STUNNED = "stunned"
    TELEPORTED = "teleported"
    DEVOURED = "devoured"
    ALOFT = "aloft"
    RIDING = "riding"
    RIDDEN = "ridden"


class Kind(Word):
    """What a piece is: a hero or one of the heroes' helpers, a monster, a Catacomb Lord, an
    Antient (the AI's, or a hero's won in the Hidden Cave), or a wild wyvern."""

    HERO = "hero"
    ALLY = "ally"
    FAMILIAR = "familiar"
    MOUNT = "mount"
    ASSISTANT = "assistant"
    MONSTER = "monster"
    CATACOMB_LORD = "catacomb-lord"
    ANTIENT = "antient"
    WILD_WYVERN = "wild-wyvern"


class Colour(Word):
    """The face up of one of Yilleph the Illusionist's two-sided pieces (Red Box l.320-335): "The
    white Yilleph is invulnerable ... The black Yilleph is vulnerable to damage"; a direct hit
    flips it over."""

    WHITE = "white"
    BLACK = "black"


# The kinds each side fields, the first its default; an Antient may also be the heroes' (won
# in the Hidden Cave: `SIDE_KINDS`).
HERO_KINDS = (Kind.HERO, Kind.ALLY, Kind.FAMILIAR, Kind.MOUNT, Kind.ASSISTANT)
AI_KINDS = (Kind.MONSTER, Kind.CATACOMB_LORD, Kind.ANTIENT)
NEUTRAL_KINDS = (Kind.WILD_WYVERN,)
SIDE_KINDS: dict[Side, tuple[Kind, ...]] = {Side.HEROES: (*HERO_KINDS, Kind.ANTIENT),
                                            Side.AI: AI_KINDS, Side.NEUTRAL: NEUTRAL_KINDS}
SIDES = tuple(Side)
CONDITIONS = tuple(Condition)
COLOURS = tuple(Colour)

Point = tuple[float, float]


class Piece(Struct, frozen=True):
    """A piece on the table (or off it, on a card), as the scenario and the turn hold it."""

    id: str
    side: Side
    kind: Kind
    at: Point
    radius: float
    health: int | None = None  # None: shadow monster or Antient (no health track)
    gold: int = 0
    poison: int = 0
    items: int = 0
    monster: str | None = None
    name: str = ""
    family: Family | None = None
    level: int | None = None
    sequences: tuple[Sequence, ...] = ()
    starting_health: int | None = None
    conditions: frozenset[Condition] = frozenset()
    flying: bool = False
    invulnerable: bool = False  # e.g. Yilleph's white pieces: hit and pushed, never damaged
    part_of: str | None = None  # e.g. Ulom's claw: targeted as part of Ulom
    colour: Colour | None = None  # Yilleph's pieces: the side face up (white: invulnerable)
    used: tuple[str, ...] = ()  # a hero's cards used in this room: "elven-arrow (room)"
    serves: str | None = None  # an ally's hero: its kill gold is theirs (a campaign's ally)

    @property
    def label(self) -> str:
        """How the printout names the piece: "Skeleton Warrior #2", "Elf"."""
        return self.name or self.id

    def moved(self, to: Point) -> Piece:
        """The same piece at another place."""
        return replace(self, at=to)

    def altered(self, **changes: object) -> Piece:
        """The same piece with `changes` to its fields (a name that is not a field is
        refused)."""
        return replace(self, **changes)

"""Damage tokens: which bags a shot draws from, and each token's way from the bag into the hand,
onto the discard pile once the shot is resolved, and back into the bag after a reset.

A shot draws all its tokens before it resolves any: while it is resolved they are in hand,
neither in the bag nor on the discard pile. So every token of a level is, at any moment, in
exactly one of bag, hand and discard pile, and no physical token can come out twice in one shot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from msgspec import Struct

from automa.model.components import DamageToken
from automa.model.scenario import Bag
from automa.model.shots import ModifierName, Shot, ShotName

LEVEL_TWO_SHOTS = frozenset({ShotName.ROLL, ShotName.BITE, ShotName.SWORD, ShotName.DEVOUR,
                             ShotName.GIANT_FIREBALL})
# chain ignored; target melee is a plain melee
IGNORED_BY_AI = frozenset({ModifierName.CHAIN, ModifierName.TARGET})


def token_levels(shot: Shot) -> tuple[int, ...]:
    """The damage-token draws of one AI shot, by the rulebook's list.

    Critical: one level 3. Boulder: two level 3. Any other modifier: one level 2. Roll, bite,
    sword (as bite), devour and giant fireball: level 2. Any other unmodified shot: level 1.
    """
    modifiers = [m.name for m in shot.modifiers if m.name not in IGNORED_BY_AI]
    if shot.name == ShotName.BOULDER:
        return (3, 3)  # already the strongest draw; a modifier does not lessen it
    if ModifierName.CRITICAL in modifiers:
        return (3,)
    if modifiers or shot.name in LEVEL_TWO_SHOTS:
        return (2,)
    return (1,)


def level_reading(shot: Shot) -> str | None:
    """What our reading of the token list (ruling 16) decides for this shot, where it is ours
    rather than the printed list's: the sword drawn as the bite, and a chain shot drawn as
    unmodified (the AI ignores the chain modifier, so it is no modified shot). None elsewhere."""
    if shot.name == ShotName.SWORD:
        return "the sword draws as the bite: one level 2 token"
    if any(m.name == ModifierName.CHAIN for m in shot.modifiers) and token_levels(shot) == (1,):
        return (f"the AI ignores the chain modifier, so its {shot.notation()} draws as "
                f"unmodified: one level 1 token")
    return None


def pour_back(bag: Bag) -> Bag:
    """The discard pile flipped face down and put back into the bag (a refill or a reset)."""
    return Bag(tuple(sorted((*bag.tokens, *bag.discard))), ())


def refill_if_empty(bag: Bag) -> tuple[Bag, bool]:
    """An empty bag gets its discard pile back (face down) before a draw; tokens in hand stay in
    hand. True when it was refilled."""
    if bag.tokens or not bag.discard:
        return bag, False
    return pour_back(bag), True


def draw(bag: Bag, tokens: Sequence[DamageToken]) -> Bag:
    """The bag after `tokens` are drawn from it one after the other into the hand (refilling it
    from its discard pile whenever it is empty before a draw). ValueError if a token is not in
    the bag at its turn: a token in hand or on the discard pile cannot be drawn."""
    for token in tokens:
        bag, _ = refill_if_empty(bag)
        rest = list(bag.tokens)
        try:
            rest.remove(token)  # one scan, where a test for it first made two
        except ValueError:
            raise ValueError(f"no {token.label()} token in the bag to draw") from None
        bag = Bag(tuple(rest), bag.discard)
    return bag


def discard(bag: Bag, hand: Sequence[DamageToken]) -> Bag:
    """The bag once the shot that drew `hand` is resolved: those tokens go face up onto the
    discard pile; then, if any of them bears the reset icon, the whole pile (these tokens
    included) goes back into the bag."""
    discarded = Bag(bag.tokens, (*bag.discard, *hand))
    return pour_back(discarded) if any(token.reset for token in hand) else discarded


def whereabouts(token: DamageToken, bag: Bag, hand: Sequence[DamageToken]) -> str:
    """Where the tokens like `token` are that are not in the bag, in words."""
    places = [where for where, pile in (("in hand, drawn earlier in this shot", hand),
                                        ("on the discard pile", bag.discard)) if token in pile]
    return " or ".join(places) if places else "not in this level's set"


class FaceChance(Struct, frozen=True):
    """One face of a level's damage tokens on the next draw: how many tokens in the bag show
    it, out of how many the bag holds."""

    face: str  # the token's label: "2", or "1R" with the reset icon
    count: int
    of: int

    @property
    def percent(self) -> float:
        return 100.0 * self.count / self.of


class NextDraw(Struct, frozen=True):
    """What the next draw from one level's bag may bring, as the bag stands between shots: the
    tokens in it (after the discard pile goes back, when it is empty: `refilled`), and the
    chance of each face, in the tokens' order (0, 1, 1R, 2, ...)."""

    left: int  # tokens in the bag now
    refilled: bool  # the bag is empty: its discard pile goes back in before the draw
    faces: tuple[FaceChance, ...]


def next_draw(bag: Bag) -> NextDraw:
    """The chance of each face on the next draw from `bag`: each token in it is as likely as
    any other (drawn blind); an empty bag is refilled from its discard pile first, as `draw`
    does. No token anywhere: no face."""
    drawn_from, refilled = refill_if_empty(bag)
    counts = Counter(drawn_from.tokens)
    total = len(drawn_from.tokens)
    faces = tuple(FaceChance(token.label(), count, total)
                  for token, count in sorted(counts.items()))
    return NextDraw(len(bag.tokens), refilled, faces)

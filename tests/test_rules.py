"""Pure rule functions, each test citing the Red Box rule it checks."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.model.components import DamageToken
from automa.model.pieces import Piece
from automa.model.scenario import Bag, Tiles
from automa.model.shots import parse_sequence, parse_shot
from automa.rules.sequences import band_text, d12_band, plan_sequence
from automa.rules.targeting import Candidate, select_target
from automa.rules.tiles import DIRECTION_WORDS, by_tiles, first_on_tiles, next_to_act
from automa.rules.tokens import discard, draw, refill_if_empty, token_levels, whereabouts

TILES = Tiles(
    ("level-2", "level-1", "level-3", "level-4", "antient", "catacomb-lord"),
    ("vermin", "mythological", "wraith-knight", "infernal", "dungeon", "undead", "zombie"),
    ("left-to-right", "msz-to-hsz"),
    {},
)


def monster(piece_id: str, family: str, level: int, at: tuple[float, float]) -> Piece:
    return Piece(piece_id, "ai", "monster", at, 1.25, 1, family=family, level=level)


def hero(piece_id: str, at: tuple[float, float] = (0.0, 0.0), **stats: int) -> Piece:
    return Piece(piece_id, "heroes", "hero", at, 1.25, stats.pop("health", 5), **stats)


# Activation order ---------------------------------------------------------------------------


def test_character_tiles_decide_first() -> None:
    """Step 1: the order of the Character tiles (level 2 laid before level 1 here)."""
    chosen = next_to_act([monster("rat", "vermin", 1, (0, 80)),
                          monster("wraith", "infernal", 2, (0, 80))], TILES)
    assert chosen.piece.id == "wraith"
    assert "Character tile 1st" in chosen.reason


def test_monster_tiles_break_a_character_tile_tie() -> None:
    """Step 1: a tie on Character tiles goes to the Monster tiles."""
    chosen = next_to_act([monster("orc", "dungeon", 1, (0, 80)),
                          monster("rat", "vermin", 1, (50, 80))], TILES)
    assert chosen.piece.id == "rat"


@pytest.mark.parametrize(
    ("green", "expected"),
    [("left-to-right", "east"), ("right-to-left", "west")],
)
def test_green_direction_tile_reads_from_the_monster_zone(green: str, expected: str) -> None:
    """Directions are seen from the Monster Start Zone: its left is the mat's high x."""
    tiles = Tiles(TILES.character_order, TILES.monster_order, (green, "msz-to-hsz"), {})
    pieces = [monster("west", "vermin", 1, (5, 80)), monster("east", "vermin", 1, (55, 80))]
    assert next_to_act(pieces, tiles).piece.id == expected


def test_blue_direction_tile_breaks_the_last_tie() -> None:
    """msz-to-hsz: the piece nearest the Monster Start Zone edge comes first."""
    pieces = [monster("near", "vermin", 1, (30, 50)), monster("far", "vermin", 1, (30, 85))]
    assert next_to_act(pieces, TILES).piece.id == "far"


def test_the_order_kept_for_a_set_of_pieces_reads_their_places_and_families_anew() -> None:
    """The tiles keep what they decided for a set of waiting pieces (engine turns ask again and
    again); a Direction-tile tie among them is still read where the pieces stand now, and the
    same ids of another family or level are a different set."""
    tiles = Tiles(TILES.character_order, TILES.monster_order, TILES.direction, {})
    west, east = monster("a", "vermin", 1, (5, 80)), monster("b", "vermin", 1, (55, 80))
    assert next_to_act([west, east], tiles).piece.id == "b"  # left to right: high x first
    swapped = [replace(west, at=(60, 80)), replace(east, at=(10, 80))]
    assert next_to_act(swapped, tiles).piece.id == "a"
    assert next_to_act([replace(west, level=2), east], tiles).piece.id == "a"  # level 2 first
    assert next_to_act([west, replace(east, family="dungeon")], tiles).piece.id == "a"


COORDINATES = st.one_of(st.sampled_from([0.0, 1.0, 1.0000004, 1.000001, -2.5, 30.0]),
                        st.floats(-100, 100, allow_nan=False))
TILE = st.sampled_from(sorted(DIRECTION_WORDS))


@given(st.lists(st.tuples(COORDINATES, COORDINATES), min_size=1, max_size=8),
       st.lists(TILE, min_size=1, max_size=2))
def test_first_on_tiles_is_by_tiles_first_and_deciding_tile(
        spots: list[tuple[float, float]], direction: list[str]) -> None:
    """The turn order's shortcut agrees exactly with the full tie-break: the same winner (the
    first of equal ones), decided on the same tile, on ties, near-ties and one candidate."""
    named = list(enumerate(spots))
    broken = by_tiles(named, direction, lambda c: c[1], lambda c: str(c[0]), explain=False)
    first, tile = first_on_tiles(named, direction, lambda c: c[1])
    assert (first, tile) == (broken.ranked[0], broken.tile)


# Targeting -----------------------------------------------------------------------------------


def test_brown_targets_most_gold(catalog: Catalog) -> None:
    """Brown, Primary: most gold."""
    row = catalog.behaviour["brown"]
    choice = select_target([Candidate(hero("elf", gold=7), 5.0),
                            Candidate(hero("barbarian", gold=9), 30.0)], row, TILES, 0.5)
    assert (choice.target, choice.column) == ("barbarian", "Primary")
    assert "most gold" in choice.reason and "9 gold" in choice.reason


def test_brown_secondary_is_most_poison(catalog: Catalog) -> None:
    """Brown, Secondary: hero with most poison when gold ties."""
    row = catalog.behaviour["brown"]
    choice = select_target([Candidate(hero("elf", gold=5, poison=2), 5.0),
                            Candidate(hero("thief", gold=5, poison=0), 3.0)], row, TILES, 0.5)
    assert (choice.target, choice.column) == ("elf", "Secondary")


def test_blue_targets_closest_then_least_health(catalog: Catalog) -> None:
    """Blue: closest enemy in LOS, then least health."""
    row = catalog.behaviour["blue"]
    assert select_target([Candidate(hero("a", health=3), 10.0),
                          Candidate(hero("b", health=9), 4.0)], row, TILES, 0.5).target == "b"
    tie = select_target([Candidate(hero("a", health=3), 4.0),
                         Candidate(hero("b", health=9), 4.0)], row, TILES, 0.5)
    assert (tie.target, tie.column) == ("a", "Secondary")


def test_black_least_gold_then_no_items_then_closest(catalog: Catalog) -> None:
    """Black: least gold, hero without any items, closest in LOS."""
    row = catalog.behaviour["black"]
    pick = select_target([Candidate(hero("a", gold=2, items=1), 1.0),
                          Candidate(hero("b", gold=2, items=0), 9.0)], row, TILES, 0.5)
    assert (pick.target, pick.column) == ("b", "Secondary")
    last = select_target([Candidate(hero("a", gold=2), 7.0),
                          Candidate(hero("b", gold=2), 3.0)], row, TILES, 0.5)
    assert (last.target, last.column) == ("b", "Tie Breaker")


def test_close_distances_are_flagged_for_the_table(catalog: Catalog) -> None:
    row = catalog.behaviour["blue"]
    choice = select_target([Candidate(hero("a"), 10.0), Candidate(hero("b"), 10.3)], row,
                           TILES, 0.5)
    assert choice.target == "a" and choice.close_call


def test_full_tie_goes_to_the_direction_tiles(catalog: Catalog) -> None:
    """Step 3: still tied after every column: the first Direction tile decides."""
    row = catalog.behaviour["brown"]
    choice = select_target([Candidate(hero("west", (5, 20)), 5.0),
                            Candidate(hero("east", (55, 20)), 5.0)], row, TILES, 0.5)
    assert (choice.target, choice.column) == ("east", "green tile")


# Shot sequence choice ---------------------------------------------------------------------------


def test_sewer_rat_has_a_single_shot(catalog: Catalog) -> None:
    """Rule example: the Sewer Rat only performs a poison melee shot."""
    plan = plan_sequence(catalog.monsters["sewer-rat"].sequences, "poison-modifier", False)
    assert plan.index == 0 and plan.reason == "its only shot"


def test_giant_scorpion_has_a_single_sequence(catalog: Catalog) -> None:
    """Rule example: the Giant Scorpion performs a rush then a critical melee."""
    sequences = catalog.monsters["giant-scorpion"].sequences
    assert sequences[0].notation() == "rush then melee+critical"
    assert plan_sequence(sequences, None, False).reason == "its only sequence"


def test_flame_wraith_prefers_its_ranged_sequence(catalog: Catalog) -> None:
    """Rule example: the Flame Wraith prefers 'rush then fireball' (the second)."""
    row = catalog.behaviour["orange"]
    plan = plan_sequence(catalog.monsters["flame-wraith"].sequences, row.shot_preference, False)
    assert plan.index == 1


def test_no_preferred_shot_means_a_d12_split() -> None:
    sequences = (parse_sequence("melee"), parse_sequence("rush then melee"))
    assert plan_sequence(sequences, "poison-modifier", False).index is None


def test_catacomb_lords_always_split() -> None:
    sequences = (parse_sequence("melee+poison"), parse_sequence("missile"))
    assert plan_sequence(sequences, "poison-modifier", True).index is None


def test_d12_split_in_halves_and_thirds() -> None:
    """Rule examples: two sequences 1-6 / 7-12; three 1-4 / 5-8 / 9-12."""
    assert [d12_band(2, f) for f in range(1, 13)] == [0] * 6 + [1] * 6
    assert [d12_band(3, f) for f in range(1, 13)] == [0] * 4 + [1] * 4 + [2] * 4
    assert [band_text(3, i) for i in range(3)] == ["1-4", "5-8", "9-12"]
    with pytest.raises(ValueError):
        d12_band(2, 13)


# Damage tokens ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shot", "levels"),
    [
        ("melee", (1,)),
        ("missile", (1,)),
        ("bite", (2,)),
        ("roll", (2,)),
        ("devour", (2,)),
        ("giant-fireball", (2,)),
        ("sword", (2,)),
        ("boulder", (3, 3)),
        ("melee+poison", (2,)),
        ("missile+stun", (2,)),
        ("melee+critical", (3,)),
        ("fireball+chain", (1,)),
        ("boulder+critical", (3, 3)),
    ],
)
def test_token_level_per_shot(shot: str, levels: tuple[int, ...]) -> None:
    """The rulebook's list: unmodified 1; roll/bite/devour/giant fireball 2; boulder two 3s;
    modified 2; critical 3. The AI ignores chain, so a chain shot is unmodified."""
    assert token_levels(parse_shot(shot)) == levels


def test_a_drawn_token_is_in_hand_then_on_the_discard_pile() -> None:
    """Drawn: in neither bag nor pile. Resolved: face up on the discard pile."""
    bag = draw(Bag((DamageToken(0), DamageToken(1), DamageToken(2))), [DamageToken(1)])
    assert bag == Bag((DamageToken(0), DamageToken(2)), ())
    assert discard(bag, [DamageToken(1)]) == Bag((DamageToken(0), DamageToken(2)),
                                                 (DamageToken(1),))


def test_a_reset_token_returns_the_discard_pile_to_the_bag() -> None:
    """Resolve the reset token first, then every discarded token goes back into the bag."""
    bag = Bag((DamageToken(1, True), DamageToken(2)), (DamageToken(0), DamageToken(1)))
    after = discard(draw(bag, [DamageToken(1, True)]), [DamageToken(1, True)])
    assert after.discard == ()
    assert sorted(after.tokens) == sorted([DamageToken(0), DamageToken(1), DamageToken(2),
                                           DamageToken(1, True)])


def test_a_reset_drawn_first_does_not_return_before_the_shot_is_drawn() -> None:
    """A boulder whose first token is a reset: the second is drawn while the reset is in
    hand, so only the one token left in the bag can come out."""
    reset, four = DamageToken(3, True), DamageToken(4)
    bag = Bag((reset, four), (DamageToken(1), DamageToken(2)))
    assert draw(bag, [reset]) == Bag((four,), (DamageToken(1), DamageToken(2)))
    with pytest.raises(ValueError, match="no 3R token in the bag"):
        draw(bag, [reset, reset])
    after = discard(draw(bag, [reset, four]), [reset, four])
    assert after == Bag(tuple(sorted([reset, four, DamageToken(1), DamageToken(2)])), ())


def test_an_empty_bag_is_refilled_from_its_discard_pile() -> None:
    bag = Bag((), (DamageToken(0), DamageToken(2)))
    assert refill_if_empty(bag) == (Bag((DamageToken(0), DamageToken(2))), True)
    after = discard(draw(bag, [DamageToken(2)]), [DamageToken(2)])
    assert after.tokens == (DamageToken(0),) and after.discard == (DamageToken(2),)


def test_an_empty_bag_refilled_mid_shot_leaves_the_hand_alone() -> None:
    four = DamageToken(4)
    bag = Bag((four,), (DamageToken(1), DamageToken(3)))
    assert draw(bag, [four, DamageToken(3)]) == Bag((DamageToken(1),), ())
    with pytest.raises(ValueError, match="no 4 token"):
        draw(bag, [four, four])


def test_whereabouts_names_the_hand_and_the_pile() -> None:
    bag = Bag((DamageToken(0),), (DamageToken(2),))
    assert whereabouts(DamageToken(2), bag, ()) == "on the discard pile"
    assert whereabouts(DamageToken(2), bag, [DamageToken(2)]) == (
        "in hand, drawn earlier in this shot or on the discard pile")
    assert whereabouts(DamageToken(9), bag, ()) == "not in this level's set"


TOKENS = st.builds(DamageToken, st.integers(0, 4), st.booleans())


@st.composite
def bag_and_draws(draw_from: st.DrawFn) -> tuple[Bag, list[DamageToken]]:
    """Any bag and discard pile, and a draw of up to all their tokens, each drawn token picked
    among those the bag holds at its turn (as a player's hand would)."""
    bag = Bag(tuple(draw_from(st.lists(TOKENS, max_size=8))),
              tuple(draw_from(st.lists(TOKENS, max_size=8))))
    count = draw_from(st.integers(0, len(bag.tokens) + len(bag.discard)))
    drawn: list[DamageToken] = []
    now = bag
    for _ in range(count):
        now, _refilled = refill_if_empty(now)
        token = draw_from(st.sampled_from(now.tokens))
        now = draw(now, [token])
        drawn.append(token)
    return bag, drawn


@given(bag_and_draws())
def test_a_draw_never_takes_a_token_twice_and_loses_none(case: tuple[Bag, list[DamageToken]]
                                                         ) -> None:
    """Bag + hand + discard is the same multiset before, during and after the shot; so no
    physical token is in the hand twice (the hand is a sub-multiset of what there was)."""
    bag, hand = case
    total = Counter(bag.tokens) + Counter(bag.discard)
    drawn = draw(bag, hand)
    assert Counter(drawn.tokens) + Counter(hand) + Counter(drawn.discard) == total
    assert not Counter(hand) - total
    after = discard(drawn, hand)
    assert Counter(after.tokens) + Counter(after.discard) == total
    if any(t.reset for t in hand):
        assert after.discard == ()
    else:
        assert after.discard == (*drawn.discard, *hand)


@given(st.lists(TOKENS, max_size=6), st.lists(TOKENS, max_size=6), TOKENS)
def test_a_token_not_in_the_bag_cannot_be_drawn(tokens: list[DamageToken],
                                                  pile: list[DamageToken],
                                                  token: DamageToken) -> None:
    bag = Bag(tuple(t for t in tokens if t != token), tuple(pile))
    if bag.tokens or token not in pile:
        with pytest.raises(ValueError):
            draw(bag, [token])

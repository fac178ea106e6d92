"""A battle's reading indexes (by id, the pieces on the mat, plain) are carried from state to
state by `with_piece` and `with_bag` instead of being built again: after any chain of changes,
every read answers as a battle built fresh from the same pieces would."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from automa.engine.battle import Battle
from automa.model.pieces import Piece
from automa.model.scenario import Bag

IDS = ("a", "b", "c", "d")
CONDITIONS = st.frozensets(st.sampled_from(("teleported", "devoured", "stunned")), max_size=2)


def piece(piece_id: str, side: str, x: float, conditions: frozenset[str],
          part_of: str | None) -> Piece:
    return Piece(piece_id, side, "monster", (x, 1.0), 1.0, health=3, conditions=conditions,
                 part_of=part_of)


PIECES = st.builds(piece, st.sampled_from(IDS), st.sampled_from(("ai", "heroes")),
                   st.floats(0, 50), CONDITIONS, st.sampled_from((None, None, "a")))
CHANGES = st.one_of(
    st.tuples(st.just("piece"), PIECES),
    st.tuples(st.just("bag"), st.sampled_from((1, 2))),
    st.tuples(st.just("without"), st.sampled_from(IDS)),
    st.tuples(st.just("read"), st.just(None)),
    st.tuples(st.just("forget"), st.just(None)),
)


def reads(battle: Battle) -> tuple[object, ...]:
    """Everything a turn reads through the indexes."""
    return (tuple(battle.get(i) for i in (*IDS, "zz")), battle.on_table(), battle.plain,
            tuple(battle.placed(p) for p in battle.pieces), battle.enemies_of_ai(),
            tuple(tuple(battle.teammates_of(i)) for i in IDS if battle.get(i) is not None))


@given(st.lists(PIECES, min_size=1, max_size=5), st.lists(CHANGES, max_size=12))
def test_carried_indexes_read_as_fresh_ones(start: list[Piece],
                                            changes: list[tuple[str, object]]) -> None:
    battle = Battle(tuple(start), {1: Bag(()), 2: Bag(())}, {})
    for kind, value in changes:
        if kind == "piece" and isinstance(value, Piece):
            battle = battle.with_piece(value)
        elif kind == "bag" and isinstance(value, int):
            battle = battle.with_bag(value, Bag((), discard=()))
        elif kind == "without" and isinstance(value, str) and battle.get(value) is not None:
            battle = battle.without(value, "dead")
        elif kind == "read":
            reads(battle)  # builds the indexes, so the next change carries them
        elif kind == "forget":
            battle.forget_indexes()
        fresh = Battle(battle.pieces, battle.bags, battle.out)
        assert reads(battle) == reads(fresh)

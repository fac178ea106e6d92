"""The mat's memo (TableGeometry.memo, on a geometry made `remembering`) answers exactly what
working it out again would: the same seeded turns print the same with the memo kept from turn to
turn, with it emptied before every turn and with none at all (the shared geometry a single turn
uses), and a key tells apart what changes the answer (a radius, a moved piece)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from automa.catalog.load import load_catalog
from automa.engine.turn import run_turn
from automa.errors import RulesError
from automa.geometry import moves
from automa.geometry.moves import ruler_toward, sweep
from automa.geometry.sight import look_around
from automa.geometry.table import TableGeometry, build_table, remembering
from automa.model.pieces import Piece
from automa.scenario.load import parse_scenario
from tests.fingerprint_tables import DEMO_BLOCKED, table_text
from tests.regenerate_fingerprints import turn_record
from tests.test_geometry_fast import direction, tables

CATALOG = load_catalog()
SCENARIO = parse_scenario(table_text(DEMO_BLOCKED), "12m.toml", CATALOG)
SHARED = build_table(SCENARIO.playmat)
TABLE = remembering(SHARED)


def _records(table: TableGeometry, empty_every_turn: bool = False) -> list[object]:
    if table.memo is not None:
        table.memo.clear()
    out = []
    for seed in range(4):
        if empty_every_turn and table.memo is not None:
            table.memo.clear()
        out.append(turn_record(run_turn(SCENARIO, CATALOG, seed, table, explain=True), True))
    return out


def test_seeded_turns_print_the_same_with_the_memo_kept_emptied_or_none() -> None:
    kept = _records(TABLE)
    assert len(TABLE.memo) > 0
    assert kept == _records(TABLE, empty_every_turn=True)
    assert kept == _records(SHARED)


def test_only_a_remembering_geometry_keeps_answers() -> None:
    """The shared geometry (a single turn's) keeps nothing; each remembering copy has its own
    memo, and is the same mat."""
    assert SHARED.memo is None
    run_turn(SCENARIO, CATALOG, 0)
    assert build_table(SCENARIO.playmat).memo is None
    other = remembering(SHARED)
    assert other.memo is not None and other.memo is not TABLE.memo
    assert other.obstacles is SHARED.obstacles and other.hub is SHARED.hub


def test_a_remembered_sighting_is_keyed_by_the_radii_too() -> None:
    TABLE.memo.clear()
    viewer, *others = SCENARIO.pieces
    first = look_around(TABLE, viewer, others, True)
    assert first == look_around(TABLE, viewer, others, True)
    bigger = replace(viewer, radius=viewer.radius + 0.5)
    grown = look_around(TABLE, bigger, others, True)
    by_target = {s.target: s for s in first}
    assert all(abs(s.distance - (by_target[s.target].distance - 0.5)) < 1e-9 for s in grown)


def test_a_remembered_move_is_keyed_by_where_every_piece_stands() -> None:
    TABLE.memo.clear()
    pieces = SCENARIO.pieces
    mover, goal, bystander = pieces[0], pieces[-1], pieces[1]
    move = ruler_toward(TABLE, pieces, mover, goal.at, goal.radius, 12.0, goal, goal.id)
    assert ruler_toward(TABLE, pieces, mover, goal.at, goal.radius, 12.0, goal, goal.id) is move
    pushed = sweep(TABLE, pieces, mover, (0.6, -0.8), 10.0)
    assert sweep(TABLE, pieces, mover, (0.6, -0.8), 10.0) is pushed
    # a bystander now stands where the move ended: the memo must not answer with the old move
    blocked = tuple(bystander.moved(move.end) if p.id == bystander.id else p for p in pieces)
    again = ruler_toward(TABLE, blocked, mover, goal.at, goal.radius, 12.0, goal, goal.id)
    TABLE.memo.clear()
    fresh = ruler_toward(TABLE, blocked, mover, goal.at, goal.radius, 12.0, goal, goal.id)
    assert again == fresh
    assert fresh.end != move.end


# A move kept by the pieces near it (moves._placed_near_disc / _placed_near_ray) answers for
# every state where those stand as they stood, wherever the others are: each piece the kept key
# leaves out is put somewhere else, and the answer (kept, where the key still leaves it out) is
# compared with the move worked out afresh. A move nudged into a crowd (the whole mat searched)
# is kept by every piece: nothing is moved.
# A crowd in a 30 cm box, in millimetres (spread over the box, where floats would cluster on its
# corners): the pieces meet each other and the moves.
BOX = (st.integers(0, 300).map(lambda mm: 15.0 + mm / 10),
       st.integers(0, 300).map(lambda mm: 30.0 + mm / 10))
ELSEWHERE = st.lists(st.tuples(*BOX), min_size=9, max_size=9)


@st.composite
def crowd(draw: st.DrawFn) -> tuple[Piece, ...]:
    count = draw(st.integers(2, 9))
    return tuple(Piece(f"p{i}", "ai", "monster", draw(st.tuples(*BOX)),
                       draw(st.sampled_from([1.0, 1.25, 1.5, 2.5])), 3) for i in range(count))


def _moved_off_key(table: TableGeometry, kind: str, placed: tuple[Piece, ...],
                   spots: list[tuple[float, float]], goal: str = "") -> tuple[Piece, ...]:
    """Every piece the memo's one `kind` key leaves out (but the goal), put on its spot."""
    (key,) = [k for k in table.memo if k[0] == kind]
    kept = {entry[0] for entry in key[1]} | {goal}
    return tuple(p if p.id in kept else p.moved(spot)
                 for p, spot in zip(placed, spots, strict=False))


@given(tables(), crowd(), st.integers(0, 8), st.integers(0, 8), st.floats(0.0, 30.0), ELSEWHERE)
def test_a_ruler_move_kept_by_the_pieces_near_it_is_the_move_worked_out_again(
        table: TableGeometry, placed: tuple[Piece, ...], which: int, towards: int, length: float,
        spots: list[tuple[float, float]]) -> None:
    table = remembering(table)
    mover, goal = placed[which % len(placed)], placed[towards % len(placed)]
    if goal.id == mover.id:
        return
    args = (mover, goal.at, goal.radius, length, goal, goal.id)
    try:
        ruler_toward(table, placed, *args)
    except RulesError:  # no room on the mat
        return
    elsewhere = _moved_off_key(table, "ruler", placed, spots, goal.id)
    try:
        kept = ruler_toward(table, elsewhere, *args)
        table.memo.clear()
        fresh = moves._ruler_toward(table, elsewhere, *args)[0]
    except RulesError:
        return
    assert kept == fresh


@given(tables(), crowd(), st.integers(0, 8), direction, st.floats(0.0, 40.0), ELSEWHERE)
def test_a_sweep_kept_by_the_pieces_near_its_line_is_the_sweep_worked_out_again(
        table: TableGeometry, placed: tuple[Piece, ...], which: int, way: tuple[float, float],
        length: float, spots: list[tuple[float, float]]) -> None:
    table = remembering(table)
    mover = placed[which % len(placed)]
    try:
        sweep(table, placed, mover, way, length)
    except RulesError:
        return
    elsewhere = _moved_off_key(table, "sweep", placed, spots)
    try:
        kept = sweep(table, elsewhere, mover, way, length)
        table.memo.clear()
        fresh = moves._sweep(table, elsewhere, mover, way, length)[0]
    except RulesError:
        return
    assert kept == fresh


def test_a_remembered_look_is_keyed_by_the_names_too() -> None:
    """The whole look is kept, names and all: the same look again is the kept one; a target
    renamed, or a viewer renamed, is seen under its own name, as a look afresh sees it."""
    TABLE.memo.clear()
    viewer, *others = SCENARIO.pieces
    first = look_around(TABLE, viewer, others, True)
    again = look_around(TABLE, viewer, others, True)
    assert again == first and all(a is b for a, b in zip(again, first, strict=True))
    renamed = [replace(others[0], id="someone-else"), *others[1:]]
    seen = look_around(TABLE, replace(viewer, id="watcher"), renamed, True)
    TABLE.memo.clear()
    assert seen == look_around(TABLE, replace(viewer, id="watcher"), renamed, True)
    assert {s.target for s in seen} == {o.id for o in renamed}
    assert {s.viewer for s in seen} == {"watcher"}

"""The mat's memo (TableGeometry.memo) answers exactly what working it out again would: the
same seeded turns print the same with the memo kept from turn to turn and with it emptied before
every turn, and a key tells apart what changes the answer (a radius, a moved piece)."""

from __future__ import annotations

from dataclasses import replace

from automa.catalog.load import load_catalog
from automa.engine.turn import run_turn
from automa.geometry.moves import ruler_toward, sweep
from automa.geometry.sight import look_around
from automa.geometry.table import build_table
from automa.scenario.load import parse_scenario
from tests.fingerprint_tables import DEMO_BLOCKED, table_text
from tests.regenerate_fingerprints import turn_record

CATALOG = load_catalog()
SCENARIO = parse_scenario(table_text(DEMO_BLOCKED), "12m.toml", CATALOG)
TABLE = build_table(SCENARIO.playmat)


def _records(empty_every_turn: bool) -> list[object]:
    TABLE.memo.clear()
    out = []
    for seed in range(4):
        if empty_every_turn:
            TABLE.memo.clear()
        out.append(turn_record(run_turn(SCENARIO, CATALOG, seed, TABLE, explain=True), True))
    return out


def test_seeded_turns_print_the_same_with_the_memo_kept_or_emptied() -> None:
    kept = _records(empty_every_turn=False)
    assert len(TABLE.memo) > 0
    assert kept == _records(empty_every_turn=True)


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

"""Going on from a record that no longer matches this machine, explicitly, never by rewriting
a past activation: a checkpoint line keeps the battle as it stands and records the data and
rulings in force, and the inputs after it start from that battle.

`automa log --accept-data`: the rules data (or a ruling's default) changed since the inputs
were logged. The battle kept is the one the log replays to with every logged answer and end
standing; the inputs from then on are played under the new data.

`automa log --accept-recomputed`: this machine computes a logged figure otherwise. The battle
kept is the one this machine computes (where it puts the pieces), the logged answers still
deciding what each activation did; the disagreements before it are no longer reported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from automa.catalog.load import Catalog
from automa.errors import InputError
from automa.session.agreement import COMPUTED, LOGGED
from automa.session.lock import session_lock
from automa.session.log import LogContents, LogEnd, SessionError, read_log
from automa.session.provenance import (
    CHECKPOINT,
    basis_changes,
    recorded_basis,
    refusal,
    started_with,
)
from automa.session.snapshot import standing_json
from automa.session.state import SessionState, effective_events, standing_of
from automa.session.store import LOG, SCENARIO, _fingerprinted, _parsed, _replayed

DATA_CHANGED, RECOMPUTED = "data", "recomputed"


def _checkpoint(why: str, state: SessionState, catalog: Catalog) -> dict[str, Any]:
    return {"type": CHECKPOINT, "why": why, **started_with(state.scenario, catalog),
            "state": standing_json(standing_of(state))}


def accept_data(folder: Path, catalog: Catalog) -> list[str]:
    """Append a checkpoint going on under the data and rulings in force now; what changed."""
    with session_lock(folder):
        path = folder / LOG
        contents = read_log(path)
        scenario = _parsed(folder / SCENARIO, _fingerprinted(folder, contents.header), catalog)
        changes = basis_changes(recorded_basis(contents.header, effective_events(
            contents.events)[0]), scenario, catalog)
        if not changes:
            raise InputError(f"{folder}: the data and rulings in force are those the session "
                             f"records: nothing to accept")
        state, _ = _replayed(folder, scenario, contents, catalog, LOGGED)
        _append(path, contents, _checkpoint(DATA_CHANGED, state, catalog))
    return changes


def accept_recomputed(folder: Path, catalog: Catalog) -> tuple[str, ...]:
    """Append a checkpoint going on with the battle as this machine computes it; the
    disagreements it settles, one line each."""
    with session_lock(folder):
        path = folder / LOG
        contents = read_log(path)
        scenario = _parsed(folder / SCENARIO, _fingerprinted(folder, contents.header), catalog)
        changes = basis_changes(recorded_basis(contents.header, effective_events(
            contents.events)[0]), scenario, catalog)
        if changes:
            raise SessionError(refusal(folder, changes))
        _, found = _replayed(folder, scenario, contents, catalog, LOGGED, advice=False)
        if not found:
            raise InputError(f"{folder}: this machine computes every logged answer and end as "
                             f"logged: nothing to accept")
        state, _ = _replayed(folder, scenario, contents, catalog, COMPUTED)
        _append(path, contents, _checkpoint(RECOMPUTED, state, catalog))
    return found


def _append(path: Path, contents: LogContents, record: dict[str, Any]) -> None:
    LogEnd.of(path, contents).append(record)

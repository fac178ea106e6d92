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

from automa.catalog.load import Catalog
from automa.errors import InputError
from automa.model.scenario import Scenario
from automa.session.agreement import Contradiction
from automa.session.apply import Keep, Setting
from automa.session.commands import Checkpoint, Command
from automa.session.lock import session_lock
from automa.session.log import LogContents, LogEnd, SessionError, read_log
from automa.session.provenance import basis_changes, recorded_basis, refusal, started_with
from automa.session.snapshot import standing_json
from automa.session.state import SessionState, in_force, standing_of
from automa.session.store import (
    LOG,
    SCENARIO,
    _fingerprinted,
    _parsed,
    commands_of,
    replayed,
    setting_of,
)

DATA_CHANGED, RECOMPUTED = "data", "recomputed"


def _checkpoint(why: str, state: SessionState, catalog: Catalog) -> Checkpoint:
    return Checkpoint(why, started_with(state.scenario, catalog),
                      standing_json(standing_of(state)))


def _read(folder: Path, catalog: Catalog
          ) -> tuple[LogContents, Scenario, list[Command], Setting, list[str]]:
    """The log as it is, its scenario, inputs and setting, and what changed in the data."""
    contents = read_log(folder / LOG)
    scenario = _parsed(folder / SCENARIO, _fingerprinted(folder, contents.header), catalog)
    commands = commands_of(contents)
    changes = basis_changes(recorded_basis(contents.header, in_force(commands)[0]), scenario,
                            catalog)
    return contents, scenario, commands, setting_of(contents.header, scenario, catalog), changes


def accept_data(folder: Path, catalog: Catalog) -> list[str]:
    """Append a checkpoint going on under the data and rulings in force now; what changed."""
    with session_lock(folder):
        contents, scenario, commands, setting, changes = _read(folder, catalog)
        if not changes:
            raise InputError(f"{folder}: the data and rulings in force are those the session "
                             f"records: nothing to accept")
        state, _ = replayed(folder, scenario, contents, commands, setting, Keep.LOGGED)
        _append(folder / LOG, contents, _checkpoint(DATA_CHANGED, state, catalog))
    return changes


def accept_recomputed(folder: Path, catalog: Catalog) -> tuple[Contradiction, ...]:
    """Append a checkpoint going on with the battle as this machine computes it; the
    disagreements it settles."""
    with session_lock(folder):
        contents, scenario, commands, setting, changes = _read(folder, catalog)
        if changes:
            raise SessionError(refusal(folder, changes))
        _, found = replayed(folder, scenario, contents, commands, setting, Keep.LOGGED)
        if not found:
            raise InputError(f"{folder}: this machine computes every logged answer and end as "
                             f"logged: nothing to accept")
        state, _ = replayed(folder, scenario, contents, commands, setting, Keep.COMPUTED)
        _append(folder / LOG, contents, _checkpoint(RECOMPUTED, state, catalog))
    return found


def _append(path: Path, contents: LogContents, checkpoint: Checkpoint) -> None:
    LogEnd.of(path, contents).append(checkpoint.to_json())

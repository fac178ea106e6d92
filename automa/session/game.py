"""One battle played through commands, in the manner of python-chess's `Board`: a starting
scenario, the inputs given since (undo, redo and rollback included, as markers), and the state
they lead to. `do(command)` checks a command against the battle, asks the players through the
asker for what it still needs, applies it and keeps it; nothing else changes a battle.

`Game` keeps its inputs in memory; `Session` (session/store.py) is a game kept in a folder, its
every input appended to a log on disk the moment it is done.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from automa.catalog.load import Catalog
from automa.engine.activation import Activation
from automa.engine.judge import GeometryMode
from automa.errors import InputError
from automa.geometry.table import TableGeometry, build_table
from automa.model.scenario import Scenario
from automa.session.apply import (
    Applied,
    Setting,
    TableAsker,
    apply_command,
    check_command,
    replay,
)
from automa.session.cave import RoomContext
from automa.session.commands import Command, NextActivation, Redo, Rollback, Undo
from automa.session.state import SessionState, in_force, start


class Game:
    """A battle from `scenario`, its dice drawn from `seed`'s streams (one per input), or
    rolled by the players (`physical`), its geometry computed or asked (`geometry_mode`)."""

    def __init__(self, scenario: Scenario, catalog: Catalog, seed: int, physical: bool = False,
                 geometry_mode: GeometryMode = GeometryMode.TRACKED,
                 room: RoomContext | None = None, geometry: TableGeometry | None = None,
                 commands: list[Command] | None = None) -> None:
        self.catalog = catalog
        self.geometry = geometry if geometry is not None else build_table(scenario.playmat)
        self.seed = seed
        self.physical = physical
        self.geometry_mode = GeometryMode(geometry_mode)
        self.room = room
        self.raw: list[Command] = commands if commands is not None else []
        self.state: SessionState = start(scenario)
        if self.raw:
            self._rebuild()

    @property
    def setting(self) -> Setting:
        return Setting(self.catalog, self.geometry, self.seed, self.physical,
                       self.geometry_mode, self.room)

    @property
    def scenario(self) -> Scenario:
        return self.state.scenario

    def effective(self) -> tuple[list[Command], list[Command]]:
        """(the inputs in force, those that can be redone: the next to redo last)."""
        return in_force(self.raw)

    def check(self, command: Command) -> str | None:
        """Why `command` cannot be done now, in one line, or None (nothing is asked or
        changed)."""
        if isinstance(command, Undo | Redo | Rollback):
            return _marker_problem(command, *self.effective())
        return check_command(self.state, command, self.setting, self.effective()[0])

    def do(self, command: Command, asker: TableAsker | None = None) -> Applied:
        """Do one command: checked against the battle (InputError, one line, nothing changed,
        when it cannot be), its missing answers asked or drawn, then kept with every answer in
        it. An activation that finds no AI character able to act is not kept
        (`Applied.logged` False)."""
        with self._writing(isinstance(command, NextActivation) and self.setting.asks):
            if isinstance(command, Undo | Redo | Rollback):
                return self._mark(command)
            applied = apply_command(self.state, command, self.setting, self.effective()[0],
                                    asker)
            if applied.logged:
                self._record(applied.command)
            self.state = applied.after
            return applied

    def next_activation(self, asker: TableAsker | None = None) -> Activation | None:
        """One AI activation (None: no AI character can act)."""
        return self.do(NextActivation(), asker).activation

    def _mark(self, command: Undo | Redo | Rollback) -> Applied:
        done, undone = self.effective()
        problem = _marker_problem(command, done, undone)
        if problem is not None:
            raise InputError(problem)
        taken = done[-1] if isinstance(command, Undo) else \
            undone[-1] if isinstance(command, Redo) else None
        before = self.state
        self._record(command)
        self._rebuild()
        return Applied(command, before, self.state, taken=taken)

    def _rebuild(self) -> None:
        self.state = replay(self.state.scenario, self.effective()[0], self.setting)

    @contextmanager
    def _writing(self, asking: bool = False) -> Iterator[None]:
        """Where a game on disk takes its lock and reads the log again; in memory, nothing."""
        yield

    def _record(self, command: Command) -> None:
        self.raw.append(command)

    def at_scenario(self) -> Scenario:
        """The battle now as a scenario (positions, health, bags, round), for saving."""
        return self.state.as_scenario()


def _marker_problem(command: Undo | Redo | Rollback, done: list[Command],
                    undone: list[Command]) -> str | None:
    if isinstance(command, Undo) and not done:
        return "nothing to undo"
    if isinstance(command, Redo) and not undone:
        return "nothing to redo"
    if isinstance(command, Rollback) and not 0 <= command.keep <= len(done):
        return f"rollback: there are {len(done)} inputs; keep 0..{len(done)}"
    return None

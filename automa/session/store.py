"""A session folder: `scenario.toml` (the start, never rewritten) and `log.jsonl` (every input,
appended and synced). Every command replays the log, so what is on disk is the whole truth."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from automa.catalog.load import Catalog
from automa.engine.activation import Activation
from automa.engine.battle import Battle
from automa.engine.chance import Asker
from automa.engine.judge import GEOMETRY_MODES, Judge
from automa.errors import InputError
from automa.geometry.table import TableGeometry, build_table
from automa.scenario.load import load_scenario
from automa.session.events import Event, apply_table_event
from automa.session.log import (
    SessionError,
    append_event,
    drop_torn_tail,
    read_log,
    write_header,
)
from automa.session.state import (
    SessionState,
    advance,
    effective_events,
    new_chance,
    outcomes_json,
    replay,
    scripted_left,
)

SCENARIO = "scenario.toml"
LOG = "log.jsonl"
CHANCE_MODES = ("virtual", "physical")


@dataclass
class Session:
    folder: Path
    catalog: Catalog
    header: dict[str, Any]
    raw: list[Event]
    state: SessionState
    geometry: TableGeometry
    torn: bool = False

    @classmethod
    def create(cls, folder: Path, scenario_path: Path, catalog: Catalog, seed: int | None,
               chance: str = "virtual", geometry: str = "tracked") -> Session:
        scenario = load_scenario(scenario_path, catalog)  # validate before writing anything
        folder.mkdir(parents=True, exist_ok=True)
        if (folder / LOG).exists():
            raise SessionError(f"{folder}: already holds a session; resume it with "
                               f"`automa play --session {folder}`")
        used_seed = seed if seed is not None else scenario.chance.seed
        if used_seed is None:
            used_seed = int(np.random.SeedSequence().generate_state(1)[0])
        if scenario_path.resolve() != (folder / SCENARIO).resolve():
            shutil.copyfile(scenario_path, folder / SCENARIO)
        write_header(folder / LOG, {"seed": used_seed, "chance": chance, "geometry": geometry,
                                    "scenario": scenario_path.name, "round": scenario.round})
        return cls.open(folder, catalog)

    @classmethod
    def open(cls, folder: Path, catalog: Catalog) -> Session:
        if not folder.is_dir():
            raise SessionError(f"{folder}: no such session folder")
        contents = read_log(folder / LOG)
        scenario = load_scenario(folder / SCENARIO, catalog)
        seed = contents.header.get("seed")
        if not isinstance(seed, int) or contents.header.get("chance") not in CHANCE_MODES:
            raise SessionError(f"{folder / LOG}: line 1 lacks the seed or the chance mode")
        done, _ = effective_events(contents.events)
        state = replay(scenario, done, catalog, seed)
        return cls(folder, catalog, contents.header, contents.events, state,
                   build_table(scenario.playmat), contents.torn)

    @property
    def seed(self) -> int:
        return int(self.header["seed"])

    @property
    def physical(self) -> bool:
        return self.header.get("chance") == "physical"

    @property
    def geometry_mode(self) -> str:
        mode = self.header.get("geometry", "tracked")
        return mode if mode in GEOMETRY_MODES else "tracked"

    def effective(self) -> tuple[list[Event], list[Event]]:
        return effective_events(self.raw)

    def _record(self, event: Event) -> None:
        if self.torn:  # cut a crash's half line off before the next input goes after it
            drop_torn_tail(self.folder / LOG)
            self.torn = False
        append_event(self.folder / LOG, event)
        self.raw.append(event)

    def _rebuild(self) -> None:
        self.state = replay(self.state.scenario, self.effective()[0], self.catalog, self.seed)

    def report(self, event: Event) -> None:
        """A heroes'-turn report: checked against the table, then logged."""
        self.state = _with_battle(self.state,
                                  apply_table_event(self.state.battle, event, self.geometry))
        self._record(event)

    def report_turn_end(self) -> None:
        """The heroes are done: the AI turn begins."""
        if self.state.phase == "ai":
            raise InputError("the AI turn is already on")
        self._record({"type": "end-heroes-turn"})
        self._rebuild()

    def next(self, asker: Asker | None = None) -> Activation | None:
        """One AI activation; its dice are logged with it. None: no AI character can act."""
        done, _ = self.effective()
        chance = new_chance(self.catalog, self.seed, len(done),
                            asker if self.physical else None,
                            scripted_left(self.state.scenario, done),
                            f"{self.state.scenario.source}: [chance] tokens")
        judge = Judge(self.geometry_mode, self.state.scenario.settings.close_call, asker)
        state, activation = advance(self.state, self.catalog, self.geometry, chance, judge)
        if activation is None:
            self.state = state
            return None
        self._record({"type": "activation", "outcomes": outcomes_json(chance.record),
                      "answers": judge.record})
        self.state = state
        return activation

    def undo(self) -> Event:
        done, _ = self.effective()
        if not done:
            raise InputError("nothing to undo")
        self._record({"type": "undo"})
        self._rebuild()
        return done[-1]

    def redo(self) -> Event:
        _, undone = self.effective()
        if not undone:
            raise InputError("nothing to redo")
        self._record({"type": "redo"})
        self._rebuild()
        return undone[-1]

    def rollback(self, keep: int) -> None:
        done, _ = self.effective()
        if not 0 <= keep <= len(done):
            raise InputError(f"rollback: there are {len(done)} inputs; keep 0..{len(done)}")
        self._record({"type": "rollback", "to": keep})
        self._rebuild()


def _with_battle(state: SessionState, battle: Battle) -> SessionState:
    return replace(state, battle=battle)

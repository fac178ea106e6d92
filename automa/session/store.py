"""A session folder: `scenario.toml` (the start, never rewritten; its SHA-256 is in the log's
header) and `log.jsonl` (every input, appended and synced), plus `.lock`, which one writer at a
time holds. Every command replays the log, so what is on disk is the whole truth."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from automa.catalog.load import Catalog
from automa.engine.activation import Activation
from automa.engine.battle import Battle
from automa.engine.chance import Asker
from automa.engine.judge import GEOMETRY_MODES, Judge
from automa.errors import InputError, ScenarioError
from automa.geometry.table import TableGeometry, build_table
from automa.model.scenario import Scenario
from automa.scenario.load import parse_scenario
from automa.session.agreement import ENDS, LOGGED, Contradiction, ends_of
from automa.session.events import Event, apply_hit_event, apply_table_event, apply_used_event
from automa.session.lock import ACTIVATION, WRITE, session_lock
from automa.session.log import (
    SCENARIO_SHA256,
    LogContents,
    LogEnd,
    SessionError,
    parse_log,
    read_bytes,
    read_log,
    stamp_of,
    write_header,
)
from automa.session.provenance import basis_changes, recorded_basis, refusal, started_with
from automa.session.state import (
    SessionState,
    activation_summary,
    advance,
    effective_events,
    new_chance,
    outcomes_json,
    replay,
    replay_checked,
    scripted_left,
)
from automa.storage import atomic_write_bytes

SCENARIO = "scenario.toml"
LOG = "log.jsonl"
CHANCE_MODES = ("virtual", "physical")


@dataclass
class Session:
    """A session as last read from disk. Every write takes the folder's lock, reads the log
    again if another window changed it, and only then checks and appends its input, so two
    windows on one session never write a log that cannot be replayed."""

    folder: Path
    catalog: Catalog
    header: dict[str, Any]
    raw: list[Event]
    state: SessionState
    geometry: TableGeometry
    torn: bool = False
    stamp: tuple[int, str] = (0, "")  # the log bytes the state was built from
    end: LogEnd | None = None  # where the next input goes (the last line's hash)
    # logged figures this machine computes otherwise (the logged ones stand), one line each
    contradictions: tuple[str, ...] = ()

    @classmethod
    def create(cls, folder: Path, scenario_path: Path, catalog: Catalog, seed: int | None,
               chance: str = "virtual", geometry: str = "tracked") -> Session:
        data = _scenario_bytes(scenario_path, in_session=False)
        scenario = _parsed(scenario_path, data, catalog)  # validate before writing anything
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SessionError(f"{folder}: cannot be made ({exc.strerror})") from None
        _refuse_link(folder / LOG)
        with session_lock(folder):
            if _holds_session(folder / LOG):
                raise SessionError(f"{folder}: already holds a session; resume it with "
                                   f"`automa play --session {folder}`")
            # A session is made by its header, written last: a kill before it leaves a
            # half-made folder that `new` simply finishes.
            for stale in folder.glob(".*.tmp"):  # a killed `new`'s temporary files
                if stale.name.startswith((f".{SCENARIO}.", f".{LOG}.")):
                    stale.unlink(missing_ok=True)
            used_seed = seed if seed is not None else scenario.chance.seed
            if used_seed is None:
                used_seed = int(np.random.SeedSequence().generate_state(1)[0])
            _refuse_link(folder / SCENARIO)
            if scenario_path.resolve() != (folder / SCENARIO).resolve():
                atomic_write_bytes(folder / SCENARIO, data)
            write_header(folder / LOG, {
                "seed": used_seed, "chance": chance, "geometry": geometry,
                "scenario": scenario_path.name, "round": scenario.round,
                SCENARIO_SHA256: hashlib.sha256(data).hexdigest(),
                **started_with(scenario, catalog)})
        return cls.open(folder, catalog)

    @classmethod
    def open(cls, folder: Path, catalog: Catalog) -> Session:
        if not folder.is_dir():
            raise SessionError(f"{folder}: no such session folder")
        contents = read_log(folder / LOG)
        if contents.header.get("chance") not in CHANCE_MODES:
            raise SessionError(f"{folder / LOG}: line 1 lacks the chance mode")
        data = _fingerprinted(folder, contents.header)
        scenario = _parsed(folder / SCENARIO, data, catalog)  # the very bytes fingerprinted
        changes = basis_changes(recorded_basis(contents.header, effective_events(
            contents.events)[0]), scenario, catalog)
        if changes:
            raise SessionError(refusal(folder, changes))
        state, found = _replayed(folder, scenario, contents, catalog)
        return cls(folder, catalog, contents.header, contents.events, state,
                   build_table(scenario.playmat), contents.torn, contents.stamp,
                   LogEnd.of(folder / LOG, contents), found)

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

    def refresh(self) -> bool:
        """Read the log again if another window wrote to it; True when it had changed. The
        play loop calls this before each prompt so another window's input shows."""
        path = self.folder / LOG
        data = read_bytes(path)
        if stamp_of(data) == self.stamp:  # the same bytes: nothing to parse or replay
            return False
        contents = parse_log(path, data)
        if not same_start(contents.header, self.header):
            raise SessionError(f"{self.folder / LOG}: was replaced by another session's log "
                               f"while this window had it open; open the session again")
        state, found = _replayed(self.folder, self.state.scenario, contents, self.catalog)
        self.header, self.raw, self.state = contents.header, contents.events, state
        self.torn, self.stamp = contents.torn, contents.stamp
        self.end, self.contradictions = LogEnd.of(path, contents), found
        return True

    @contextmanager
    def _writing(self, purpose: str = WRITE) -> Iterator[None]:
        """Hold the lock, on the log as it is on disk now."""
        with session_lock(self.folder, purpose):
            self.refresh()
            yield

    def _record(self, event: Event) -> None:
        """Append one input; call it inside `_writing`."""
        if self.end is None:
            self.end = LogEnd.of(self.folder / LOG, read_log(self.folder / LOG))
        self.stamp = self.end.append(event)  # a crash's half line is cut off first
        self.torn = False
        self.raw.append(event)

    def _rebuild(self) -> None:
        self.state = replay(self.state.scenario, self.effective()[0], self.catalog, self.seed)

    def report(self, event: Event) -> None:
        """A heroes'-turn report: checked against the table, then logged."""
        with self._writing():
            battle = apply_table_event(self.state.battle, event, self.geometry)
            self._record(event)
            self.state = _with_battle(self.state, battle)

    def report_hit(self, event: Event) -> list[str]:
        """A hero's hit resolved by the rules, then logged: what it did, a line or two a
        piece."""
        with self._writing():
            battle, lines = apply_hit_event(self.state.battle, event, self.catalog.monsters,
                                            self.state.scenario.settings.rulings)
            self._record(event)
            self.state = _with_battle(self.state, battle)
            return lines

    def report_used(self, event: Event) -> None:
        """A hero's card used this room or this game: checked, then logged."""
        with self._writing():
            battle = apply_used_event(self.state.battle, event)
            self._record(event)
            self.state = _with_battle(self.state, battle)

    def report_turn_end(self) -> None:
        """The heroes are done: the AI turn begins."""
        with self._writing():
            if self.state.phase == "ai":
                raise InputError("the AI turn is already on")
            self._record({"type": "end-heroes-turn"})
            self._rebuild()

    def next(self, asker: Asker | None = None) -> Activation | None:
        """One AI activation; its dice are logged with it. None: no AI character can act.

        When the players may be asked (physical dice, asked or hybrid geometry) the lock is
        held through the questions: another window's write waits for nobody and is refused
        in one line, rather than changing the battle under a half-answered activation."""
        asks = self.physical or self.geometry_mode != "tracked"
        with self._writing(ACTIVATION if asks else WRITE):
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
                          "answers": judge.record,
                          "summary": activation_summary(activation, self.state, state),
                          **self._ends(state)})
            self.state = state
            return activation

    def _ends(self, after: SessionState) -> dict[str, Any]:
        """Where the activation left each piece it moved (tracked positions only), so a
        replay keeps them and a machine computing otherwise is found."""
        if self.geometry_mode == "asked":
            return {}
        return {ENDS: ends_of(self.state.battle, after.battle)}

    def undo(self) -> Event:
        with self._writing():
            done, _ = self.effective()
            if not done:
                raise InputError("nothing to undo")
            self._record({"type": "undo"})
            self._rebuild()
            return done[-1]

    def redo(self) -> Event:
        with self._writing():
            _, undone = self.effective()
            if not undone:
                raise InputError("nothing to redo")
            self._record({"type": "redo"})
            self._rebuild()
            return undone[-1]

    def rollback(self, keep: int) -> None:
        with self._writing():
            done, _ = self.effective()
            if not 0 <= keep <= len(done):
                raise InputError(f"rollback: there are {len(done)} inputs; keep 0..{len(done)}")
            self._record({"type": "rollback", "to": keep})
            self._rebuild()


def rollback_log(folder: Path, keep: int) -> int:
    """Append a rollback marker keeping `keep` inputs, without replaying anything: the way out
    of a log that no longer replays. Returns how many inputs were in force before."""
    path = folder / LOG
    if not folder.is_dir():
        raise SessionError(f"{folder}: no such session folder")
    with session_lock(folder):
        contents = read_log(path)
        _fingerprinted(folder, contents.header)  # rolling back cannot mend an edited start
        done, _ = effective_events(contents.events)
        if not 0 <= keep <= len(done):
            raise InputError(f"rollback: there are {len(done)} inputs; keep 0..{len(done)}")
        LogEnd.of(path, contents).append({"type": "rollback", "to": keep})
    return len(done)


def _replayed(folder: Path, scenario: Scenario, contents: LogContents, catalog: Catalog,
              keep: str = LOGGED, advice: bool = True) -> tuple[SessionState, tuple[str, ...]]:
    """The state after the inputs in force, a failure naming the log line it stopped at; and
    one line for each logged figure this machine computes otherwise (the logged one stands,
    or this machine's with `keep` COMPUTED)."""
    done, _ = effective_events(contents.events)
    line_of = {id(event): line for event, line in zip(contents.events, contents.lines,
                                                       strict=False)}
    seed = contents.header.get("seed")
    assert isinstance(seed, int)
    lines = [line_of.get(id(e), 0) for e in done]
    state, found = replay_checked(scenario, done, catalog, seed, lines, str(folder / LOG), keep)
    return state, tuple(contradiction_line(folder / LOG, c, lines, advice) for c in found)


def contradiction_line(log: Path, found: Contradiction, lines: list[int],
                       advice: bool = True) -> str:
    """One line: the input, the question and both answers (and what to do about it)."""
    line = lines[found.input] if found.input < len(lines) else 0
    where = f"{log} line {line}" if line else str(log)
    text = (f"{where}: input {found.input + 1} ({found.actor}): {found.question!r} is "
            f"{found.logged} in the log, {found.computed} as computed here")
    if not advice:
        return text
    return (f"{text}; the log's stands (`automa log --accept-recomputed --session "
            f"{log.parent}` goes on with this machine's)")


START_KEYS = ("seed", "chance", "geometry", SCENARIO_SHA256)  # what a session is started with


def same_start(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Two headers of one session (the log may have been chained or mended since)."""
    return all(one.get(key) == other.get(key) for key in START_KEYS)


def _fingerprinted(folder: Path, header: dict[str, Any]) -> bytes:
    """scenario.toml's bytes, refused if they are not those the session started from."""
    data = _scenario_bytes(folder / SCENARIO)
    fingerprint = header.get(SCENARIO_SHA256)
    if fingerprint is not None and fingerprint != hashlib.sha256(data).hexdigest():
        raise SessionError(f"{folder / SCENARIO}: edited after the session started (it no "
                           f"longer matches the log); a session's start is never changed: "
                           f"start a new one from it with `automa new {folder / SCENARIO} "
                           f"--session NEW`")
    return data


def _refuse_link(path: Path) -> None:
    if path.is_symlink():
        raise SessionError(f"{path}: is a symbolic link; a session's files must be its own "
                           f"(copy the file there instead)")


def _scenario_bytes(path: Path, in_session: bool = True) -> bytes:
    """The scenario file's bytes. In a session folder a symbolic link or a missing file is a
    session problem (exit 5); the file given to `new` is a scenario problem (exit 2)."""
    def fail(problem: str) -> Exception:
        if in_session:
            return SessionError(f"{path}: {problem}")
        return ScenarioError(str(path), "", "", problem)

    if in_session:
        _refuse_link(path)
    if path.exists() and not path.is_file():
        raise fail("is not a regular file")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise fail("file not found") from None
    except OSError as exc:
        raise fail(f"cannot be read ({exc.strerror})") from None


def _parsed(path: Path, data: bytes, catalog: Catalog) -> Scenario:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(str(path), "", "", f"cannot be read: {exc}") from None
    return parse_scenario(text, str(path), catalog)


def _holds_session(path: Path) -> bool:
    """A complete session header is there (an empty or half-written log is not a session)."""
    if path.is_symlink():
        return True
    try:
        with path.open("rb") as handle:
            return b"\n" in handle.read(1 << 16)
    except FileNotFoundError:
        return False
    except OSError:
        return True


def _with_battle(state: SessionState, battle: Battle) -> SessionState:
    return replace(state, battle=battle)

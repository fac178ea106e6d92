"""A session folder: `scenario.toml` (the start, never rewritten; its SHA-256 is in the log's
header) and `log.jsonl` (every input, appended and synced), plus `.lock`, which one writer at a
time holds. Every command replays the log, so what is on disk is the whole truth."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.catalog.reader import MAX_FILE_BYTES, TOO_LARGE, read_file_bytes
from automa.engine.judge import GEOMETRY_MODES, GeometryMode
from automa.errors import InputError, ScenarioError
from automa.geometry.table import build_table
from automa.model.modes import DiceMode
from automa.model.scenario import Scenario
from automa.scenario.load import parse_scenario
from automa.session.agreement import Contradiction
from automa.session.apply import Keep, Setting, replay_checked
from automa.session.cave import RoomContext
from automa.session.checks import DAMAGED
from automa.session.commands import Command, Damaged, Rollback, read_or_damaged
from automa.session.game import Game
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
from automa.session.state import SessionState, in_force
from automa.storage import atomic_write_bytes

SCENARIO = "scenario.toml"
LOG = "log.jsonl"
CHANCE_MODES = tuple(DiceMode)


class Session(Game):
    """A game kept in a folder, as last read from disk. Every write takes the folder's lock,
    reads the log again if another window changed it, and only then checks and appends its
    input, so two windows on one session never write a log that cannot be replayed."""

    def __init__(self, folder: Path, catalog: Catalog, header: dict[str, object],
                 contents: LogContents, scenario: Scenario,
                 room: RoomContext | None = None) -> None:
        self.folder = folder
        self.header = header
        self.torn = contents.torn
        self.stamp = contents.stamp  # the log bytes the state was built from
        self.end = LogEnd.of(folder / LOG, contents)  # where the next input goes
        seed = header.get("seed")
        assert isinstance(seed, int)
        super().__init__(scenario, catalog, seed, header.get("chance") == DiceMode.PHYSICAL,
                         _geometry_mode(header), room)
        self.raw = commands_of(contents)
        changes = basis_changes(recorded_basis(header, in_force(self.raw)[0]), scenario,
                                catalog)
        if changes:
            raise SessionError(refusal(folder, changes))
        # logged figures this machine computes otherwise (the logged ones stand)
        self.state, self.contradictions = replayed(folder, scenario, contents, self.raw,
                                                   self.setting)

    @classmethod
    def create(cls, folder: Path, scenario_path: Path, catalog: Catalog, seed: int | None,
               chance: DiceMode = DiceMode.VIRTUAL,
               geometry: GeometryMode = GeometryMode.TRACKED) -> Session:
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
    def open(cls, folder: Path, catalog: Catalog, room: RoomContext | None = None) -> Session:
        """The session in `folder`; `room`: what its campaign's other rooms say (campaign/
        rooms.py), for the Hidden Cave and the Antients held."""
        if not folder.is_dir():
            raise SessionError(f"{folder}: no such session folder")
        contents = read_log(folder / LOG)
        if contents.header.get("chance") not in CHANCE_MODES:
            raise SessionError(f"{folder / LOG}: line 1 lacks the chance mode")
        data = _fingerprinted(folder, contents.header)
        scenario = _parsed(folder / SCENARIO, data, catalog)  # the very bytes fingerprinted
        return cls(folder, catalog, contents.header, contents, scenario, room)

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
        commands = commands_of(contents)
        self.state, self.contradictions = replayed(self.folder, self.state.scenario, contents,
                                                   commands, self.setting)
        self.header, self.raw, self.torn = contents.header, commands, contents.torn
        self.stamp, self.end = contents.stamp, LogEnd.of(path, contents)
        return True

    @contextmanager
    def _writing(self, asking: bool = False) -> Iterator[None]:
        """Hold the lock, on the log as it is on disk now. When the players may be asked (an
        activation with physical dice, asked or hybrid geometry) the lock is held through the
        questions: another window's write waits for nobody and is refused in one line, rather
        than changing the battle under a half-answered activation."""
        with session_lock(self.folder, ACTIVATION if asking else WRITE):
            self.refresh()
            yield

    def _record(self, command: Command) -> None:
        """Append one input, sealed onto the last line's hash (a crash's half line is cut off
        first); call it inside `_writing`."""
        self.stamp = self.end.append(command.to_json())
        self.torn = False
        self.raw.append(command)


def rollback_log(folder: Path, keep: int) -> int:
    """Append a rollback marker keeping `keep` inputs, without replaying anything: the way out
    of a log that no longer replays. Returns how many inputs were in force before."""
    path = folder / LOG
    if not folder.is_dir():
        raise SessionError(f"{folder}: no such session folder")
    with session_lock(folder):
        contents = read_log(path)
        _fingerprinted(folder, contents.header)  # rolling back cannot mend an edited start
        done, _ = in_force(commands_of(contents))
        if not 0 <= keep <= len(done):
            raise InputError(f"rollback: there are {len(done)} inputs; keep 0..{len(done)}")
        LogEnd.of(path, contents).append(Rollback(keep).to_json())
    return len(done)


def commands_of(contents: LogContents) -> list[Command]:
    """The log's inputs as commands; a line that cannot be one is kept as `Damaged`, so
    replaying stops there naming it (and rollback can step back past it)."""
    commands: list[Command] = []
    for event, line in zip(contents.events, contents.lines, strict=False):
        if event.get("type") == DAMAGED:
            commands.append(Damaged(str(event.get("problem", "damaged")), line))
        else:
            commands.append(read_or_damaged(event, line))
    return commands


def replayed(folder: Path, scenario: Scenario, contents: LogContents, commands: list[Command],
             setting: Setting, keep: Keep = Keep.LOGGED
             ) -> tuple[SessionState, tuple[Contradiction, ...]]:
    """The state after the inputs in force, a failure naming the log line it stopped at; and
    each logged figure this machine computes otherwise, with its log line (the logged one
    stands, or this machine's with `keep` COMPUTED)."""
    done, _ = in_force(commands)
    line_of = {id(command): line for command, line in zip(commands, contents.lines,
                                                           strict=False)}
    lines = [line_of.get(id(c), 0) for c in done]
    state, found = replay_checked(scenario, done, setting, lines, str(folder / LOG), keep)
    return state, tuple(replace(c, line=lines[c.input] if c.input < len(lines) else 0)
                        for c in found)


START_KEYS = ("seed", "chance", "geometry", SCENARIO_SHA256)  # what a session is started with


def same_start(one: Mapping[str, object], other: Mapping[str, object]) -> bool:
    """Two headers of one session (the log may have been chained or mended since)."""
    return all(one.get(key) == other.get(key) for key in START_KEYS)


def _geometry_mode(header: Mapping[str, object]) -> GeometryMode:
    mode = header.get("geometry", GeometryMode.TRACKED)
    return GeometryMode(str(mode)) if mode in GEOMETRY_MODES else GeometryMode.TRACKED


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
    """The scenario file's bytes, of at most MAX_FILE_BYTES. In a session folder a symbolic
    link or a missing file is a session problem (exit 5); the file given to `new` is a scenario
    problem (exit 2), read as `turn` reads it."""
    if not in_session:
        return read_file_bytes(path, ScenarioError)
    _refuse_link(path)
    if path.exists() and not path.is_file():
        raise SessionError(f"{path}: is not a regular file")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise SessionError(f"{path}: file not found") from None
    except OSError as exc:
        raise SessionError(f"{path}: cannot be read ({exc.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise SessionError(f"{path}: {TOO_LARGE}")
    return data


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



def setting_of(header: Mapping[str, object], scenario: Scenario, catalog: Catalog) -> Setting:
    """The setting a session's header gives (no campaign: replaying needs none)."""
    seed = header.get("seed")
    assert isinstance(seed, int)
    return Setting(catalog, build_table(scenario.playmat), seed,
                   header.get("chance") == DiceMode.PHYSICAL, _geometry_mode(header))

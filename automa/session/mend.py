"""Mending a damaged session log on explicit request (`automa log --repair`), and the seed a
damaged header may have lost.

Every sound line is kept: lines moved are put back in their written order, a line copied twice
is kept once, and a line lost or edited beyond recovery leaves a `damaged` input in its place,
which replay stops at and `automa rollback` can leave behind. A damaged header is restored
exactly when one character changed (the next line carries the header's hash, so the one edit
that gives it back is found), else rebuilt from scenario.toml, the data in force and what the
inputs say. The file as it was is kept beside the log.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from msgspec import Struct

from automa.catalog.load import Catalog
from automa.engine.judge import GEOMETRY_MODES, GeometryMode
from automa.errors import AutomaError
from automa.model.modes import DiceMode
from automa.session.agreement import Contradiction
from automa.session.chain import (
    SEQ,
    Sealed,
    body_of,
    chained_bytes,
    digest_of,
    parse_line,
    read_chain,
    rewrite,
    unseal,
    whole_lines,
)
from automa.session.checks import DAMAGED, check_event
from automa.session.commands import Source, read_or_damaged
from automa.session.log import (
    LOG_FORMAT,
    LOG_VERSION,
    SCENARIO_SHA256,
    SessionError,
    damaged,
    is_chained,
    parse_log,
    read_bytes,
)
from automa.session.provenance import started_with
from automa.session.state import in_force
from automa.session.store import LOG, SCENARIO, Session, _parsed, _scenario_bytes

DICE_FACES = {"d12": tuple(range(1, 13))}
_LOOSE_SEAL = re.compile(rb', "hash": "[^"\n]*"\}\Z')
SUBSTITUTES = bytes(range(0x20, 0x7f))  # one changed character: printable ASCII, bit flips


class Mended(Struct, frozen=True):
    backup: Path | None  # the file as it was (None: nothing needed mending)
    notes: tuple[str, ...]  # what was done, one line each
    header: dict[str, Any]


# --- the seed ---------------------------------------------------------------------------------

class Roll(Struct, frozen=True):
    """A roll logged with an activation that only the seed decided: the first the Generator
    drew in that activation (an index into the die's faces), so a seed can be checked by it."""

    index: int  # the input number the activation's Generator was seeded with
    faces: tuple[int, ...]
    value: int


def checkable_rolls(events: Sequence[dict[str, Any]], catalog: Catalog) -> list[Roll]:
    """Each logged activation's first drawn die, with the input index it was drawn for."""
    faces = {"d12": DICE_FACES["d12"], "rune_die": catalog.components.rune_die,
             "location_die": catalog.components.location_die}
    rolls = []
    for number, event in enumerate(events):
        if event.get("type") != "activation":
            continue
        drawn = [o for o in event.get("outcomes", []) if isinstance(o, dict)
                 and o.get("source") == "rng"]
        if not drawn or drawn[0].get("kind") not in faces:
            continue
        value = str(drawn[0].get("value"))
        if value.isdigit():
            index = len(in_force([read_or_damaged(e) for e in events[:number]])[0])
            rolls.append(Roll(index, tuple(faces[str(drawn[0]["kind"])]), int(value)))
    return rolls


def agrees(seed: int, rolls: Sequence[Roll]) -> bool:
    """The seed draws every checkable roll as logged (session/state.py's `new_chance`)."""
    for roll in rolls:
        generator = np.random.default_rng([seed, roll.index])
        if roll.faces[int(generator.integers(len(roll.faces)))] != roll.value:
            return False
    return True


def one_digit_away(seed: int) -> Iterator[int]:
    """Every seed that one changed digit turns `seed` into (and `seed` itself)."""
    yield seed
    text = str(seed)
    for place, digit in enumerate(text):
        for other in "0123456789":
            if other != digit and not (place == 0 and other == "0" and len(text) > 1):
                candidate = int(text[:place] + other + text[place + 1:])
                if candidate < 2**64:
                    yield candidate


def recovered_seed(given: int | None, damaged_seed: object, scenario_seed: int | None,
                   rolls: Sequence[Roll]) -> tuple[int, str]:
    """The seed to write, and where it came from (one phrase); SessionError when no seed can
    be recovered and none was given."""
    checked = f"{len(rolls)} logged roll{'s' if len(rolls) != 1 else ''}"
    if given is not None:
        if not rolls:
            return given, "given (no logged roll can check it)"
        if agrees(given, rolls):
            return given, f"given, and it draws the {checked}"
        return given, (f"given; it does not draw the {checked}: the rolls logged are kept, "
                       f"the rolls to come differ from what the lost seed would have drawn")
    readable = isinstance(damaged_seed, int) and not isinstance(damaged_seed, bool) and \
        0 <= damaged_seed < 2**64
    if not rolls:
        if readable:
            assert isinstance(damaged_seed, int)
            return damaged_seed, "read from the damaged line (no logged roll can check it)"
        if scenario_seed is not None:
            return scenario_seed, "scenario.toml's [chance] seed (no logged roll can check it)"
        raise SessionError(_lost_seed("no logged roll can tell it"))
    candidates: list[int] = []
    if readable:
        assert isinstance(damaged_seed, int)
        candidates += one_digit_away(damaged_seed)
    if scenario_seed is not None:
        candidates.append(scenario_seed)
    found = list(dict.fromkeys(c for c in candidates if agrees(c, rolls)))
    if len(found) == 1:
        where = ("read from the damaged line" if found[0] == damaged_seed else
                 "scenario.toml's [chance] seed" if found[0] == scenario_seed else
                 "one digit of the damaged line's mended")
        return found[0], f"{where}; it draws the {checked}"
    if not found:
        raise SessionError(_lost_seed(f"no seed near the damaged line's draws the {checked}"))
    raise SessionError(_lost_seed(f"{', '.join(map(str, found))} all draw the {checked}"))


def _lost_seed(why: str) -> str:
    return (f"the session's seed was kept only in the header and cannot be recovered ({why}); "
            f"give it with --seed N (`automa new` printed it). Any seed goes on with this "
            f"battle: the rolls logged are kept, only the rolls to come depend on it")


# --- the header -------------------------------------------------------------------------------

def single_edit(raw: bytes, target: str) -> tuple[bytes, int] | None:
    """The line that gives `target` as its hash with one character changed back (its bytes,
    the 1-based column changed; 0: only the hash it carried was damaged), or None."""
    loose = _LOOSE_SEAL.search(raw)
    if loose is not None and digest_of(raw[:loose.start()] + b"}") == target:
        body = raw[:loose.start()] + b"}"
        return body[:-1] + b', "hash": "' + target.encode() + b'"}', 0
    for place, byte in enumerate(raw):
        flips = {byte ^ (1 << bit) for bit in range(8)}
        for other in flips.union(SUBSTITUTES):
            if other == byte:
                continue
            candidate = raw[:place] + bytes((other,)) + raw[place + 1:]
            sealed = body_of(candidate)
            if sealed is not None and sealed[1] == target and digest_of(sealed[0]) == target:
                return candidate, place + 1
    return None


def _lenient(raw: bytes) -> dict[str, Any]:
    """What can still be read from a damaged line (nothing, if it is not JSON)."""
    value = parse_line(raw)
    return value if isinstance(value, dict) else {}


def _modes(found: dict[str, Any], events: Sequence[dict[str, Any]]) -> tuple[str, str, str]:
    """The dice and geometry modes: as the damaged header says when its words are still
    valid and the inputs agree, else as the inputs show."""
    sources = {o.get("source") for e in events if e.get("type") == "activation"
               for o in e.get("outcomes", []) if isinstance(o, dict)}
    modes = {a.get("mode", GeometryMode.TRACKED) for e in events
             if e.get("type") == "activation"
             for a in e.get("answers", []) if isinstance(a, dict)}
    chance = found.get("chance")
    played_at_table = Source.TABLE in sources
    inferred_chance = DiceMode.PHYSICAL if played_at_table else DiceMode.VIRTUAL
    if chance not in tuple(DiceMode) or played_at_table != (chance == DiceMode.PHYSICAL):
        chance, said_chance = inferred_chance, "as the logged rolls show"
    else:
        said_chance = "read from the damaged line"
    geometry = found.get("geometry")
    inferred = next(iter(modes)) if len(modes) == 1 else \
        GeometryMode.HYBRID if modes else GeometryMode.TRACKED
    if geometry not in GEOMETRY_MODES or (modes and geometry not in modes
                                          and geometry != GeometryMode.HYBRID):
        geometry, said_geometry = inferred, "as the logged answers show"
    else:
        said_geometry = "read from the damaged line"
    return f"{chance} dice ({said_chance}), {geometry} geometry ({said_geometry})", \
        str(chance), str(geometry)


def rebuilt_header(folder: Path, catalog: Catalog, raw: bytes | None,
                   events: Sequence[dict[str, Any]], seed: int | None
                   ) -> tuple[dict[str, Any], str]:
    """A header from scenario.toml, the data in force now and the inputs; one line saying
    where each part came from and what cannot be told."""
    data = _scenario_bytes(folder / SCENARIO)
    scenario = _parsed(folder / SCENARIO, data, catalog)
    found = _lenient(raw) if raw is not None else {}
    said, chance, geometry = _modes(found, events)
    used, said_seed = recovered_seed(seed, found.get("seed"), scenario.chance.seed,
                                     checkable_rolls(events, catalog))
    name = found.get("scenario")
    header = {"format": LOG_FORMAT, "version": LOG_VERSION, "seed": used, "chance": chance,
              "geometry": geometry, "scenario": name if isinstance(name, str) else SCENARIO,
              "round": scenario.round, SCENARIO_SHA256: hashlib.sha256(data).hexdigest(),
              **started_with(scenario, catalog)}
    note = (f"rebuilt from {folder / SCENARIO} and the data as they are now (if either was "
            f"also changed since the session started, that can no longer be told); seed "
            f"{used} ({said_seed}); {said}")
    return header, note


# --- the whole log ----------------------------------------------------------------------------

def _header_line(lines: Sequence[bytes], unsealed: Sequence[Sealed | str]
                 ) -> tuple[dict[str, Any] | None, str]:
    """The header as written, if it is sound or one character away from it."""
    first = unsealed[0] if unsealed else "missing"
    if isinstance(first, Sealed) and first.intact and first.seq == 1:
        return first.record, ""
    second = next((one for one in unsealed if isinstance(one, Sealed) and one.intact
                   and one.seq == 2), None)
    if second is None or not lines:
        return None, ""
    mended = single_edit(lines[0], second.prev)
    if mended is None:
        return None, ""
    line, column = mended
    header = unseal(line)
    assert isinstance(header, Sealed)
    where = "only the hash it carried" if column == 0 else f"one character, at column {column}"
    return header.record, f"restored exactly ({where} had changed)"


def _body(path: Path, lines: Sequence[bytes], unsealed: Sequence[Sealed | str]
          ) -> tuple[list[dict[str, Any]], list[str]]:
    """The inputs in their written order, a stand-in for each one lost; what was done."""
    notes: list[str] = []
    written: dict[int, tuple[int, dict[str, Any]]] = {}
    for number, one in enumerate(unsealed, start=1):
        if number == 1:
            continue
        if not isinstance(one, Sealed) or not one.intact:
            what = one if isinstance(one, str) else "was edited or damaged"
            notes.append(f"{path} line {number} {what}: left out (it is in the copy)")
            continue
        if one.seq in written:
            notes.append(f"{path} line {number} repeats line {written[one.seq][0]}: kept once")
            continue
        if one.seq < 2:
            notes.append(f"{path} line {number} is a second header: left out")
            continue
        if any(seq > one.seq for seq in written):
            notes.append(f"{path} line {number} was out of order: put back as line {one.seq}")
        written[one.seq] = (number, one.record)
    events: list[dict[str, Any]] = []
    for seq in range(2, max(written, default=1) + 1):
        if seq in written:
            events.append(written[seq][1])
            continue
        problem = f"the line written as line {seq} was lost or damaged (see the copy)"
        events.append({"type": DAMAGED, "problem": problem})
        notes.append(f"{path}: the line written as line {seq} is lost; a damaged input stands "
                     f"in its place (replay stops there: `automa rollback` keeps the inputs "
                     f"before it)")
    return events, notes


def _older_input(number: int, raw: bytes) -> dict[str, Any]:
    value = parse_line(raw)
    if isinstance(value, str):
        return damaged(number, value)
    problem = check_event(value)
    return value if problem is None else damaged(number, problem)


def repair(folder: Path, catalog: Catalog, seed: int | None) -> Mended:
    """The log mended and rewritten whole (the old file kept beside it); call it holding the
    session's lock."""
    path = folder / LOG
    data = read_bytes(path)
    lines, torn = whole_lines(data)
    if not is_chained(data):
        try:
            contents = parse_log(path, data)
        except SessionError:
            contents = None
        if contents is not None:
            return Mended(None, (f"{path}: a log from before the hash chain, sound: nothing to "
                                 f"mend (it is chained on its next write)",), contents.header)
    unsealed = [unseal(raw) for raw in lines]
    if not is_chained(data):  # an older log whose header is damaged: its lines as read
        events = [_older_input(number, raw) for number, raw in enumerate(lines[1:], start=2)
                  if raw.strip()]
        notes: list[str] = []
        header, how = None, ""
    else:
        header, how = _header_line(lines, unsealed)
        events, notes = _body(path, lines, unsealed)
    if header is None:
        header, how = rebuilt_header(folder, catalog, lines[0] if lines else None,
                                     [e for e in events if e.get("type") != DAMAGED], seed)
    if how:
        notes.insert(0, f"{path} line 1, the header: {how}")
    if torn:
        notes.append(f"{path}: the last line was cut off by a crash (that input never "
                     f"completed): left out")
    header = {k: v for k, v in header.items() if k != SEQ}
    if not notes and data.endswith(b"\n"):
        return Mended(None, (f"{path}: sound, nothing to mend",), header)
    chained, _ = chained_bytes([header, *events])
    backup = rewrite(path, data, chained, "damaged")
    notes.append(f"kept {len(events)} input line(s); the file as it was is {backup}")
    return Mended(backup, tuple(notes), header)


class Verdict(Struct, frozen=True):
    problems: tuple[str, ...]  # one line each: what does not hold
    notes: tuple[str, ...]  # one line each: worth knowing, not damage
    lines: int  # the log's lines read
    # logged figures this machine computes otherwise (the log's stand)
    contradictions: tuple[Contradiction, ...] = ()

    @property
    def sound(self) -> bool:
        return not self.problems and not self.contradictions


def verify(folder: Path, catalog: Catalog) -> Verdict:
    """Every check a session's record gets, reported rather than refused: the chain line by
    line, then (if it holds) the start, the data and rulings, and a replay comparing every
    logged answer and end."""
    path = folder / LOG
    data = read_bytes(path)
    problems: list[str] = []
    notes: list[str] = []
    found: tuple[Contradiction, ...] = ()
    count = data.count(b"\n")
    if is_chained(data):
        chain = read_chain(data)
        problems += [f"{path} line {b.line} {b.problem}" for b in chain.breaks]
        if chain.torn:
            notes.append(f"{path}: the last line was cut off by a crash; that input never "
                         f"completed: it is ignored, and cut off before the next one")
    else:
        notes.append(f"{path}: written before the hash chain (log version 1), so its lines "
                     f"cannot vouch for each other; it is chained on its next write")
    if not problems:
        try:
            session = Session.open(folder, catalog)
        except AutomaError as error:
            problems.append(str(error))
        else:
            found = session.contradictions
    return Verdict(tuple(problems), tuple(notes), count, found)

"""Mutation fuzzing of the files a player feeds the program: the shipped scenarios (examples/,
tests/playthroughs/) and data files, each mutated by seeded edits (lines deleted, duplicated or
swapped; numbers made 0, -1, huge, nan, 1e308; strings emptied, typed wrong or laced with
control characters; values nested deep; the file truncated; unicode inserted), then run through
the real commands (`turn`, `los`, `picture`, `forecast`, `setup`, `data check`).

Every input must end in exit 0, or in ONE line on stderr and a non-zero exit other than 70 (the
internal-error exit), within a few seconds: never a traceback, a hang or a multi-line error.
`bench/fuzz_files.py` runs thousands of the same inputs and counts the outcomes.
"""

from __future__ import annotations

import re
import shutil
import signal
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import numpy as np
import pytest
from click.testing import CliRunner, Result

from automa.catalog.locate import DATA_FILES, shipped_data_dir
from automa.cli.main import EXIT_INTERNAL, cli

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted([*(REPO / "examples").glob("*.toml"), *(REPO / "examples").glob("*/*.toml"),
                    *(REPO / "tests" / "playthroughs").glob("*.toml")])
PER_INPUT_SECONDS = 10.0  # a guard against hangs; a normal input takes well under a second
SUITE_SCENARIOS = 240
SUITE_DATA = 60

NUMBER = re.compile(r"(?<![\w.\"-])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w.\"])")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
VALUE = re.compile(r"(?<== )[^\n]+$", re.MULTILINE)
NUMBERS = ("0", "-1", "1e308", "-1e308", "nan", "inf", "-inf", "600000000", "4.5", "1e-300",
           "99999999999999999999", "0.000001", "12", "13", '"7"', "true", "[]", "{}",
           "[4, 600000000]", "[1, 1]", "[0, 0]")
STRINGS = ('""', '"x"', "0", "-1", "nan", "[]", "{}", "true", '"\\u001b[31mred\\u001b[0m"',
           '"a\\nb"', '"\\u202eevil"', '"\\u0000"', '"' + "y" * 2000 + '"', '"unknown"',
           '"\\uff46\\uff55\\uff4c\\uff4c"', '"\\u00b2"', '"summon nobody"',
           '"rush then meelee"', '"summon rat-1"', '"inline"', '"dead"', '"\\U0001f600"')
CONTROL = ("\x1b", "\x00", "\x07", "\x9b", "\u202e", "\r", "\x0b", "\ufeff")
UNICODE = ("\u00e9", "\u4e2d", "\U0001f600", "\u0301", "\uff12", "\u2028", "\u0131", "\u00df")
POINT = re.compile(r"\[-?[\d.e+-]+, -?[\d.e+-]+\]")


def _deep(rng: np.random.Generator) -> str:
    depth = int(rng.choice([8, 13, 40, 200, 3000]))
    if rng.random() < 0.5:
        return "[" * depth + "1" + "]" * depth
    return "{a = " * depth + "1" + "}" * depth


def mutate_once(text: str, rng: np.random.Generator, donor: str) -> str:
    """One seeded edit of a TOML text."""
    lines = text.split("\n")
    which = int(rng.integers(16))
    if which >= 12:
        return _mutate_structure(text, rng, which)
    if which == 0 and lines:  # delete a line
        del lines[int(rng.integers(len(lines)))]
    elif which == 1 and lines:  # duplicate a line
        i = int(rng.integers(len(lines)))
        lines.insert(i, lines[i])
    elif which == 2 and len(lines) > 1:  # swap two lines
        i, j = (int(v) for v in rng.integers(len(lines), size=2))
        lines[i], lines[j] = lines[j], lines[i]
    elif which in (3, 4):  # a number made strange
        spots = list(NUMBER.finditer(text))
        if spots:
            m = spots[int(rng.integers(len(spots)))]
            return text[:m.start()] + str(rng.choice(NUMBERS)) + text[m.end():]
    elif which in (5, 6):  # a string made strange or typed wrong
        spots = list(STRING.finditer(text))
        if spots:
            m = spots[int(rng.integers(len(spots)))]
            return text[:m.start()] + str(rng.choice(STRINGS)) + text[m.end():]
    elif which == 7:  # a value of another type, or nested deep
        spots = list(VALUE.finditer(text))
        if spots:
            m = spots[int(rng.integers(len(spots)))]
            new = _deep(rng) if rng.random() < 0.4 else str(rng.choice(NUMBERS + STRINGS))
            return text[:m.start()] + new + text[m.end():]
    elif which == 8 and text:  # truncated
        return text[:int(rng.integers(len(text)))]
    elif which == 9:  # a control or unicode character anywhere
        at = int(rng.integers(len(text) + 1))
        return text[:at] + str(rng.choice(CONTROL + UNICODE)) + text[at:]
    elif which == 10:  # a line from another file
        donor_lines = donor.split("\n")
        lines.insert(int(rng.integers(len(lines) + 1)),
                     donor_lines[int(rng.integers(len(donor_lines)))])
    else:  # a key renamed
        spots = list(re.finditer(r"^(\w+) =", text, re.MULTILINE))
        if spots:
            m = spots[int(rng.integers(len(spots)))]
            return text[:m.start(1)] + m.group(1)[::-1] + text[m.end(1):]
    return "\n".join(lines)


def _mutate_structure(text: str, rng: np.random.Generator, which: int) -> str:
    """Edits that keep the TOML valid: a number or point moved, a point repeated, a table
    repeated."""
    if which == 12:  # a point's coordinates set to another point's (collinear, repeated)
        spots = list(POINT.finditer(text))
        if len(spots) > 1:
            a, b = (spots[int(i)] for i in rng.integers(len(spots), size=2))
            return text[:a.start()] + b.group(0) + text[a.end():]
    if which == 13:  # two points of one list swapped (a self-crossing outline)
        spots = list(POINT.finditer(text))
        if len(spots) > 1:
            i = int(rng.integers(len(spots) - 1))
            a, b = spots[i], spots[i + 1]
            return (text[:a.start()] + b.group(0) + text[a.end():b.start()] + a.group(0)
                    + text[b.end():])
    if which == 14:  # a number scaled a little (a piece nudged onto another, off the mat)
        spots = list(NUMBER.finditer(text))
        if spots:
            m = spots[int(rng.integers(len(spots)))]
            value = float(m.group(0)) * float(rng.choice([0.5, 0.9, 1.1, 2.0, 10.0]))
            return text[:m.start()] + repr(round(value, 3)) + text[m.end():]
    blocks = re.split(r"(?m)^(?=\[)", text)  # a table or array-of-tables block repeated
    if len(blocks) > 1:
        i = int(rng.integers(1, len(blocks)))
        blocks.insert(i, blocks[i])
    return "".join(blocks)


def mutate(text: str, rng: np.random.Generator, donor: str) -> str:
    for _ in range(int(rng.integers(1, 4))):
        text = mutate_once(text, rng, donor)
    return text


@dataclass(frozen=True)
class Case:
    """One mutated input: a scenario text, or one data file of a copied data folder."""

    label: str
    text: str
    data_file: str | None = None  # None: `text` is a scenario


def cases(seed: int, scenarios: int, data: int) -> Iterator[Case]:
    rng = np.random.default_rng(seed)
    texts = {p: p.read_text(encoding="utf-8") for p in SCENARIOS}
    shipped = {n: (shipped_data_dir() / n).read_text(encoding="utf-8") for n in DATA_FILES}
    paths = list(texts)
    for i in range(scenarios):
        path = paths[int(rng.integers(len(paths)))]
        donor = texts[paths[int(rng.integers(len(paths)))]]
        yield Case(f"{seed}:{i} {path.name}", mutate(texts[path], rng, donor))
    for i in range(data):
        name = DATA_FILES[int(rng.integers(len(DATA_FILES)))]
        donor = shipped[DATA_FILES[int(rng.integers(len(DATA_FILES)))]]
        # one edit: a data folder is checked as a whole, so more would rarely load at all
        yield Case(f"{seed}:{scenarios + i} {name}", mutate_once(shipped[name], rng, donor),
                   name)


class Hang(BaseException):
    """Raised by the alarm: an input took longer than its budget (BaseException, so neither
    click's runner nor the error wrapper catches it)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def invoke(args: list[str], seconds: float = PER_INPUT_SECONDS) -> Result | None:
    """Run one command in-process; None when it ran past `seconds`."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return CliRunner().invoke(cli, args, env={"AUTOMA_DATA_DIR": None})
    except Hang:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def verdict(result: Result | None, listing: bool = False) -> str:
    """"ok", "refused" (one clean line), or what went wrong. `listing`: `data check`, whose
    problems are one per stdout line and whose stderr holds the count."""
    if result is None:
        return "hang"
    if result.exit_code == 0:
        return "ok"
    if result.exit_code == EXIT_INTERNAL:
        return "internal error"
    if not isinstance(result.exception, SystemExit):
        return f"uncaught {type(result.exception).__name__}"
    if "Traceback" in result.output or "Traceback" in result.stderr:
        return "traceback"
    lines = result.stderr.splitlines()
    if len(lines) != 1:
        return f"{len(lines)} lines on stderr"
    shown = result.stdout.splitlines() + lines if listing else lines
    if not all(line.isprintable() for line in shown):
        return "control character in an error"
    return "refused"


def commands(case: Case, folder: Path) -> list[tuple[list[str], bool]]:
    """The commands one input is run through, and whether each lists problems (data check)."""
    if case.data_file is None:
        path = folder / "battle.toml"
        path.write_bytes(case.text.encode("utf-8", "surrogatepass"))
        piece = re.search(r'^id = "([^"]*)"', case.text, re.MULTILINE)
        return [(["turn", str(path), "--seed", "1"], False),
                (["los", str(path), piece.group(1) if piece else "rat-1"], False),
                (["picture", str(path), "-o", str(folder / "out.svg")], False),
                (["forecast", str(path), "--n", "3", "--seed", "2"], False)]
    data = folder / "data"
    data.mkdir()
    for name in DATA_FILES:
        shutil.copy(shipped_data_dir() / name, data / name)
    (data / case.data_file).write_bytes(case.text.encode("utf-8", "surrogatepass"))
    demo = str(REPO / "examples" / "demo-battle.toml")
    return [(["data", "check", str(data)], True),
            (["--data-dir", str(data), "turn", demo, "--seed", "1"], False),
            (["--data-dir", str(data), "setup", "chagnars-lair", "--heroes", "elf=8,dwarf=9",
              "--seed", "1"], False),
            (["--data-dir", str(data), "setup", "lair", "--lord", "hmotha", "--heroes",
              "elf=8", "--seed", "2"], False)]


def run_case(case: Case) -> list[tuple[str, str, str]]:
    """(command, verdict, stderr) for each command the input went through."""
    from automa.catalog.load import _load

    outcomes = []
    with tempfile.TemporaryDirectory() as tmp:
        for args, listing in commands(case, Path(tmp)):
            result = invoke(args)
            outcomes.append((" ".join(args[:1] if args[0] != "--data-dir" else args[2:3]),
                             verdict(result, listing),
                             "" if result is None else result.stderr.strip()))
    _load.cache_clear()  # each data folder is new: do not keep thousands of catalogs
    return outcomes


BAD = ("hang", "internal error", "traceback", "uncaught", "lines on stderr", "control character")


def is_bad(what: str) -> bool:
    return any(word in what for word in BAD)


def failures(case: Case) -> list[str]:
    return [f"{case.label}: {command}: {what}: {err[:300]}"
            for command, what, err in run_case(case) if is_bad(what)]


@pytest.mark.parametrize("chunk", range(4))
def test_mutated_scenarios_end_cleanly(chunk: int) -> None:
    """A few hundred mutated scenarios: exit 0 or one clean line, never 70, never a hang."""
    found = [f for case in cases(chunk, SUITE_SCENARIOS // 4, 0) for f in failures(case)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("chunk", range(2))
def test_mutated_data_files_end_cleanly(chunk: int) -> None:
    """Mutated data files, through data check, turn and both kinds of setup."""
    found = [f for case in cases(100 + chunk, 0, SUITE_DATA // 2) for f in failures(case)]
    assert not found, "\n".join(found)


def test_the_fuzzer_mutates_and_its_verdicts_can_fail() -> None:
    """The mutations change the text, and `verdict` calls an internal error, a traceback and
    two stderr lines what they are (so the tests above can fail)."""
    rng = np.random.default_rng(0)
    text = SCENARIOS[0].read_text(encoding="utf-8")
    changed = sum(mutate(text, rng, text) != text for _ in range(50))
    assert changed >= 40
    runner = CliRunner()
    internal = runner.invoke(cli, ["rulings", "0"])  # a clean refusal, for contrast
    assert verdict(internal) == "refused"

    @cli.command("fuzz-probe-crash", hidden=True)
    def crash() -> None:
        raise SystemExit(EXIT_INTERNAL)

    try:
        assert verdict(runner.invoke(cli, ["fuzz-probe-crash"])) == "internal error"
    finally:
        cli.commands.pop("fuzz-probe-crash")
    assert verdict(None) == "hang"
    assert is_bad("2 lines on stderr") and is_bad("uncaught ValueError") and is_bad("hang")
    assert not is_bad("refused") and not is_bad("ok")


def test_the_time_guard_stops_a_hang() -> None:
    """A command that would run for minutes is stopped by the per-input guard and reported."""
    import time

    @cli.command("fuzz-probe-hang", hidden=True)
    def hang() -> None:
        time.sleep(60)

    try:
        began = time.perf_counter()
        assert invoke(["fuzz-probe-hang"], seconds=0.2) is None
        assert time.perf_counter() - began < 5
    finally:
        cli.commands.pop("fuzz-probe-hang")

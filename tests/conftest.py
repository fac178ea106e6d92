"""Shared fixtures: the shipped catalog and a small scenario builder for rule tests; the
hypothesis profiles; child processes and the browser, stopped however a test ends."""

from __future__ import annotations

import atexit
import json
import os
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner
from hypothesis import settings

from automa.user_cache import CACHE_ENV

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# The suite never touches the user's own cache (~/.cache/automa: the validation marker and the
# parsed data tables; automa/user_cache.py): one fresh folder for the whole run, set before any
# data is read and inherited by every command the tests start. tests/test_cold_start.py sets
# its own.
os.environ[CACHE_ENV] = tempfile.mkdtemp(prefix="automa-test-cache-")
atexit.register(shutil.rmtree, os.environ[CACHE_ENV], True)

# Hypothesis's run length is the profile's, chosen by HYPOTHESIS_PROFILE (or pytest's
# --hypothesis-profile): "default" is sized so that every run of the suite stays quick,
# "thorough" is for fuzzing (HYPOTHESIS_PROFILE=thorough pytest tests/test_foo.py). A test sets
# its own count only for a reason it states, and then as a share of the profile's (`examples`).
# No deadline in either: the suite shares its cores, and a timed example would fail at random.
settings.register_profile("default", max_examples=25, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")
if PROFILE not in ("default", "thorough"):
    raise pytest.UsageError(f"HYPOTHESIS_PROFILE={PROFILE!r}: not one of default, thorough")
settings.load_profile(PROFILE)


def examples(share: float) -> int:
    """A share of the profile's examples, at least one: fewer for a test whose every example
    is slow (a threat map worked out twice), more for one whose every example is microseconds
    (plain floats held to numpy), so it scales with the profile like the others."""
    return max(1, round(settings().max_examples * share))


from automa.catalog.load import Catalog, load_catalog  # noqa: E402
from automa.model.scenario import Scenario  # noqa: E402
from automa.scenario.load import parse_scenario  # noqa: E402
from automa.session.game import Game  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

# The command line as a separate process, through the interpreter running the tests: it works
# whether or not the virtual environment is activated (no `automa` on PATH needed).
AUTOMA = [sys.executable, "-m", "automa"]
AUTOMA_SHELL = " ".join(shlex.quote(part) for part in AUTOMA)

OPEN_MAT = (Path(__file__).parent / "data_inline_mat.toml").read_text()

# Debian's chromium, driven by Playwright: no browser is ever downloaded
CHROMIUM = shutil.which("chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
STOP_WITHIN = 20.0  # seconds a child process gets to stop on SIGTERM before it is killed


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` (pyproject.toml's addopts) spreads the whole suite over one worker more than
    there are cores: the browser and server tests spend much of their time waiting on a page
    or a child process, and a third worker computes meanwhile (the whole suite on 2 cores:
    116 s with 3 workers, 123 s with 2, 114 s with 4; measured 2026-12-02). A run that names
    its files or tests on the command line stays in this process: its workers' start would
    cost more than they save (6-13 s against 3 s for one small file on a loaded 2-core
    machine). PYTEST_XDIST_AUTO_NUM_WORKERS, when set, decides (None: pytest-xdist reads it)."""
    if "PYTEST_XDIST_AUTO_NUM_WORKERS" in os.environ:
        return None
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        return 0
    return (os.cpu_count() or 1) + 1


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@contextmanager
def running(command: Sequence[str], **options: Any) -> Iterator[subprocess.Popen[str]]:
    """`subprocess.Popen(command, text=True, **options)`, stopped however the test ends: a
    process still running is sent SIGTERM, then SIGKILL if it has not ended within
    STOP_WITHIN, and waited for; its pipes are closed. A test may stop it first (a signal of
    its own, `communicate`) and read what it printed."""
    process = subprocess.Popen(list(command), text=True, **options)
    try:
        yield process
    finally:
        stop(process)


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=STOP_WITHIN)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()


def first_line(process: subprocess.Popen[str], within: float = 60.0) -> str:
    """The first line the process prints on stdout (a server's address), without its newline;
    an AssertionError, not a hung test, when none comes in time."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], within)
    assert ready, f"{' '.join(map(str, process.args))}: printed nothing in {within:g} s"
    return process.stdout.readline().strip()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """One headless Chromium per test process, closed at its end."""
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def browser(chromium: Browser) -> Iterator[Browser]:
    """The shared Chromium; every context (and so page) a test opened is closed when the test
    ends, passed or failed, so no page goes on polling a board that is gone."""
    yield chromium
    for context in chromium.contexts:
        context.close()


def scenario_from(text: str, catalog: Catalog, inline_mat: bool = True) -> Scenario:
    """A scenario from TOML text; with `inline_mat` the open test mat above is appended."""
    return parse_scenario(text + (OPEN_MAT if inline_mat else ""), "test.toml", catalog)


def new_session(tmp_path: Path, scenario_text: str, *options: str) -> Path:
    """`automa new` on a scenario written from text; the session folder (`--dice ...` etc.)."""
    from automa.cli.main import cli

    scenario = tmp_path / "scenario.toml"
    scenario.write_text(scenario_text)
    folder = tmp_path / "s"
    result = CliRunner().invoke(cli, ["new", str(scenario), "--session", str(folder), *options])
    assert result.exit_code == 0, result.output
    return folder


def play_lines(folder: Path, lines: list[str]) -> str:
    """`automa play` with these lines typed; its whole output (it must end with exit 0)."""
    from automa.cli.main import cli

    result = CliRunner().invoke(cli, ["play", "--session", str(folder)],
                                input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


@contextmanager
def playing(folder: Path) -> Iterator[subprocess.Popen[str]]:
    """`automa play` in its own process (as another terminal window runs it), `gold elf +1`
    typed into it and waited for until the log holds it: the loop is at its next prompt and
    the test may write from elsewhere, then `communicate` the rest. Stopped however the test
    ends (`running`)."""
    with running([*AUTOMA, "play", "--session", str(folder)], stdin=subprocess.PIPE,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE) as play:
        assert play.stdin is not None
        play.stdin.write("gold elf +1\n")
        play.stdin.flush()
        deadline = time.monotonic() + 30
        while '"gold"' not in (folder / "log.jsonl").read_text():
            assert time.monotonic() < deadline and play.poll() is None
            time.sleep(0.05)
        yield play


def logged_inputs(folder: Path) -> list[dict[str, Any]]:
    """The session log's inputs, header left out (and each line's place in the chain)."""
    return [unsealed(json.loads(line))
            for line in (folder / "log.jsonl").read_text().splitlines()[1:]]


def unsealed(record: dict[str, Any]) -> dict[str, Any]:
    """A log line's record without the hash chain's fields (seq, prev, hash)."""
    from automa.session.chain import SEAL_KEYS

    return {key: value for key, value in record.items() if key not in SEAL_KEYS}


def reseal(log: Path) -> None:
    """Chain a log's lines again after a test edited them by hand, as automa would have written
    them: the edit stays, only the hashes are made whole (what a faulty program would write)."""
    from automa.session.chain import chained_bytes

    records = [unsealed(json.loads(line)) for line in log.read_text().splitlines()]
    log.write_bytes(chained_bytes(records)[0])


def unchain(log: Path) -> None:
    """The log as automa wrote it before the hash chain (version 1): such a log still opens,
    and takes lines a test appends by hand."""
    records = [unsealed(json.loads(line)) for line in log.read_text().splitlines()]
    records[0]["version"] = 1
    log.write_text("".join(json.dumps(record) + "\n" for record in records))


def finish_ai_turn(game: Game) -> None:
    """Every AI activation left in this turn, so the heroes may report again."""
    while game.state.phase == "ai" and game.next_activation() is not None:
        pass


# A Battle Room card as the players would type it (the shipped Glaaoth's monsters are unknown):
# the campaign tests play it.
GLAAOTH = """
[glaaoth]
name = "Glaaoth"
kind = "battle"
difficulty = 1
set = "red-box"
suppresses = []
playmat = "unknown"
monsters = [{ monster = "sewer-rat", count = 2 }]
metres = []
mercenaries = 1
known = true
provenance = "house"
"""


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data folder of the players' own holding the Glaaoth room card."""
    folder = tmp_path / "my-data"
    folder.mkdir()
    (folder / "rooms.toml").write_text(GLAAOTH, encoding="utf-8")
    return folder

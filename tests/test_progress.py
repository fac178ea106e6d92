"""The progress bar of long work (`automa forecast`, `automa threat`): on stderr when it is a
terminal (a pty here), never with --json, never when stderr is piped. The bar waits a second
before it shows; these runs set that wait to 0 (AUTOMA_PROGRESS_AFTER), so the test does not
hang on the machine's speed."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEMO = str(ROOT / "examples" / "demo-battle.toml")
FORECAST = ["forecast", DEMO, "--n", "400", "--workers", "2"]
THREAT = ["threat", DEMO, "elf", "--step", "4"]


def _env(after: str = "0") -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "AUTOMA_PROGRESS_AFTER": after,
            "COLUMNS": "100"}


def on_a_terminal(args: list[str], after: str = "0") -> tuple[str, str]:
    """Run `automa ARGS` with stderr on a pseudo-terminal: (stdout, what the terminal got)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "automa", *args], stdout=subprocess.PIPE,
                               stderr=follower, stdin=subprocess.DEVNULL, env=_env(after))
    os.close(follower)
    seen = bytearray()
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    out = process.stdout.read().decode() if process.stdout else ""
    assert process.wait() == 0, seen.decode(errors="replace")
    return out, seen.decode(errors="replace")


@pytest.mark.parametrize(("args", "label"), [(FORECAST, "Forecast"),
                                             (THREAT, "Threat map of elf")])
def test_a_terminal_sees_the_bar_on_stderr(args: list[str], label: str) -> None:
    out, terminal = on_a_terminal(args)
    assert label in terminal and "100%" in terminal  # the bar, to its end
    assert label not in out and "%|" not in out.replace(" ", "")  # stdout has the answer only


@pytest.mark.parametrize("args", [FORECAST, THREAT])
def test_no_bar_with_json_even_on_a_terminal(args: list[str]) -> None:
    out, terminal = on_a_terminal([*args, "--json"])
    assert terminal.strip() == ""
    assert out.lstrip().startswith("{")


def test_no_bar_before_the_wait_is_over() -> None:
    """Quick work (far under the wait) shows no bar."""
    _, terminal = on_a_terminal(FORECAST, after="600")
    assert terminal.strip() == ""


@pytest.mark.parametrize("args", [FORECAST, THREAT])
def test_no_bar_when_stderr_is_piped(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "automa", *args], capture_output=True,
                          text=True, env=_env(), check=True)
    assert done.stderr == ""
    assert done.stdout.strip()

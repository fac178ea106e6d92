"""How the benches run the program in fresh processes: as it runs once installed.

A wheel's install compiles the bytecode, so an installed `automa` reads it from the first run.
This development environment sets PYTHONDONTWRITEBYTECODE=1, under which an editable checkout
would compile its source on every run; the benches that time fresh processes drop it (the first
run writes the bytecode, the rest read it), unless they time the uncached case on purpose.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path


def installed_env() -> dict[str, str]:
    """This process's environment without PYTHONDONTWRITEBYTECODE."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], env: dict[str, str] | None = None) -> float:
    """Wall time in seconds of one run of `command` (output discarded; a failure raises, with
    what the command said), under `env` (default: `installed_env()`)."""
    start = time.perf_counter()
    done = subprocess.run(command, env=installed_env() if env is None else env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    spent = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stderr}")
    return spent


def instructions(tree: Path, args: list[str]) -> int:
    """Instructions (valgrind's cachegrind, `--cache-sim=no`) of `python ARGS` run on the code
    tree `tree` (first on the path), with a fixed hash seed, one BLAS thread (the idle one's
    spinning varies) and no user cache (the data is checked whole every time): the same count
    from run to run, whatever else the machine is doing. No bytecode is written: a count less
    another run's (a forecast of N turns less one of one) would otherwise charge the first run
    with compiling every module whose cached bytecode was stale or missing, and the second with
    nothing."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0",
           "OPENBLAS_NUM_THREADS": "1", "AUTOMA_CACHE_DIR": "", "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                           "--cachegrind-out-file=/dev/null", sys.executable, *args],
                          env=env, cwd=tree, capture_output=True, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"python {' '.join(args)} under valgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))

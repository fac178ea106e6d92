"""A progress bar on stderr for long work: shown only when stderr is a terminal, the output is
not JSON, and the work is still going after a second (a quick answer is not cluttered).

The work tells how far it has got through a callback (`Progress`); the bar is click's own (no
new dependency), made only once the second has passed, so piped or quick runs print nothing.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

Progress = Callable[..., None]  # told (steps done) or (steps done, steps in all)
DELAY_SECONDS = 1.0  # no bar for work done sooner
DELAY_VARIABLE = "AUTOMA_PROGRESS_AFTER"  # seconds before the bar shows (tests set 0)


def _delay() -> float:
    """The wait before a bar shows: DELAY_SECONDS, or the environment's number (the tests show
    the bar at once, on any machine, rather than time a run)."""
    text = os.environ.get(DELAY_VARIABLE, "")
    try:
        value = float(text)
    except ValueError:
        return DELAY_SECONDS
    return value if value >= 0 else DELAY_SECONDS


@contextmanager
def progress_bar(label: str, total: int = 0, shown: bool = True) -> Iterator[Progress | None]:
    """A callback that moves a bar of `total` steps on stderr (or as many as the work says
    when it first tells), once the work has taken longer than the delay; None where no bar may
    show (`shown` False: --json; stderr not a terminal), so the work need not even count."""
    stderr = sys.stderr
    if not shown or not stderr.isatty():
        yield None
        return
    delay, start = _delay(), time.monotonic()
    bar: Any = None  # click's ProgressBar, made when the delay has passed

    def told(done: int, steps: int | None = None) -> None:
        nonlocal bar
        if bar is None:
            if time.monotonic() - start < delay:
                return
            length = max(1, steps or total)
            bar = click.progressbar(length=length, label=label, file=stderr, show_eta=True,
                                    show_percent=True)
            bar.__enter__()
        bar.update(min(done, bar.length) - bar.pos)

    try:
        yield told
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)

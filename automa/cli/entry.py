"""The `automa` console script (and `python -m automa`): the command line is built with the
cyclic garbage collector paused. Importing it makes tens of thousands of objects that live until
the command ends, and the collector walked them some thirty times for nothing (~3 ms of a
turn's start); it is on again before the command runs (which pauses it itself where that pays,
`one_shot`, and freezes it as the process ends, `main`)."""

from __future__ import annotations

import gc


def main() -> None:
    collecting = gc.isenabled()
    gc.disable()
    try:
        from automa.cli.main import main as run
    finally:
        if collecting:
            gc.enable()
    run()

"""Monte Carlo over the coming AI turn: how often each hero is targeted, the damage it can
expect, and the chance it dies, each with its 95 % interval.

Run i is a full turn seeded with word i of `SeedSequence(seed).generate_state(runs)`: its own
stream, whatever else runs. The runs are dealt into tasks, run on every core, and each task
returns only its sums (counts, damage and damage squared per hero), added up as integers: the
result is the same for any number of workers. Runs are played through an `OutcomeTree`, so an
activation that an earlier run already played from the same place with the same draws is not
played again. The runs are first sorted by where their first step leads (played once, here),
and each task is whole branches, the biggest first (a branch of more than a fair share of the
runs cut into pieces, so no core waits on another), played through a tree of its own: a
worker that is done takes the next task, and a tree is dropped with its task (no later run
comes back to its branch), so memory stays within one bounded tree a worker.

With a precision asked for (`forecast_runs`), the runs are played in chunks in seed order and
the forecast stops at the first chunk's end where every share is within it: the same figures
as a plain forecast of as many runs.
"""

from __future__ import annotations

import gc
import math
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any

import numpy as np
from msgspec import Struct
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.engine.outcome_tree import OutcomeTree, Place, Stream
from automa.engine.seeding import pcg64_states
from automa.geometry.table import TableGeometry, build_table, remembering
from automa.model.pieces import Kind, Piece, Side
from automa.model.scenario import ChanceScript, Scenario

Z95 = 1.959963984540054  # the normal quantile of 97.5 %
MIN_CHUNK = 50  # runs per task: enough that sending a task costs little beside running it
SERIAL_BELOW = 200  # fewer runs than this: starting workers costs more than it saves
BRANCH_STEPS = 1  # runs are dealt to workers by where their first step leads
TASKS_A_WORKER = 4  # no task holds more than 1/(4 x workers) of a batch's runs (see `by_branch`)
PRECISION_CHUNK = 500  # runs between two looks at the intervals (`forecast_runs`'s precision)


class HeroForecast(Struct, frozen=True):
    """One hero's figures over all runs, each share with its 95 % (Wilson) interval."""

    targeted: float  # share of turns in which some activation targets it
    expected_damage: float  # mean health lost (a death loses all it had)
    death: float  # share of turns it ends dead
    targeted_ci95: tuple[float, float] = (0.0, 1.0)
    expected_damage_ci95: tuple[float, float] = (0.0, 0.0)
    death_ci95: tuple[float, float] = (0.0, 1.0)


def wilson(successes: int, runs: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share: sound at 0 and 1, unlike p ± 1.96·se."""
    if runs == 0:
        return (0.0, 1.0)
    p = successes / runs
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * runs)) / (1 + z2 / runs)
    half = Z95 * math.sqrt(p * (1 - p) / runs + z2 / (4 * runs * runs)) / (1 + z2 / runs)
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no 3e-18
    high = 1.0 if successes == runs else min(1.0, centre + half)
    return (low, high)


def mean_interval(total: int, squares: int, runs: int) -> tuple[float, float]:
    """The 95 % normal interval of a mean from its sum and sum of squares (never below 0)."""
    mean = total / runs
    if runs < 2:
        return (mean, mean)
    variance = max(0.0, (squares - total * total / runs) / (runs - 1))
    half = Z95 * math.sqrt(variance / runs)
    return (max(0.0, mean - half), mean + half)


class _Job(Struct, frozen=True):
    """What every run shares: built once, handed to each worker once."""

    scenario: Scenario
    catalog: Catalog
    geometry: TableGeometry
    heroes: tuple[Piece, ...]

    def tree(self) -> OutcomeTree:
        """An empty tree of outcomes for these runs."""
        return OutcomeTree(self.scenario, self.catalog, self.geometry)


_JOB: _Job | None = None  # a worker's copy, set by `_start_worker`


def _start_worker(job: _Job) -> None:
    global _JOB
    _JOB = job


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while runs are played: a run makes thousands of
    short-lived objects, freed as their counts fall to zero, and next to no cycles (465 objects
    in cycles after 3,000 runs of the 8-monster table), yet the collector's passes over them
    cost about 2.4 % of the runs' instructions. It runs again afterwards, as it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class _Sums(Struct, frozen=True):
    """A task's figures: per hero, [turns targeted, deaths, health lost, its square], over
    `runs` runs."""

    rows: list[list[int]]
    runs: int


def _run_task(job: _Job, seeds: Sequence[Stream]) -> _Sums:
    """The sums over `seeds`, played through a tree of their own. The tree is dropped before
    the collector runs again: it holds no cycles, so it is freed at once, where a collector
    woken with it still alive would first walk all of it."""
    with _collector_paused():
        tree = job.tree()
        sums = _sums(job, tree, seeds)
        del tree
        return _Sums(sums, len(seeds))


def _sums(job: _Job, tree: OutcomeTree, seeds: Sequence[Stream]) -> list[list[int]]:
    sums = [[0, 0, 0, 0] for _ in job.heroes]
    for stream in seeds:
        result = tree.play(stream)
        battle = result.battle  # its index by id is most often built already
        for hero, row in zip(job.heroes, sums, strict=True):
            row[0] += hero.id in result.aimed
            end = battle.get(hero.id)
            lost = 0
            if end is None and battle.out.get(hero.id) == "dead":
                row[1] += 1
                lost = hero.health or 0
            elif end is not None and end.health is not None and hero.health is not None:
                lost = hero.health - end.health
            row[2] += lost
            row[3] += lost * lost
    return sums


def _worker_task(seeds: Sequence[Stream]) -> _Sums:
    assert _JOB is not None, "the worker was started without its job"
    return _run_task(_JOB, seeds)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class Forecast(Struct, frozen=True):
    """A forecast's figures per hero, over `runs` turns: all those asked for, or, with a
    precision asked for, as many as it took (`precise`: every share's interval was within it
    when the forecast stopped; False: the cap on the runs came first)."""

    heroes: dict[str, HeroForecast]
    runs: int
    precise: bool = True


Progress = Callable[[int], None]  # told the runs played so far, as tasks come back


def forecast(scenario: Scenario, catalog: Catalog, runs: int, seed: int,
             workers: int | None = None) -> dict[str, HeroForecast]:
    """`runs` turns from `scenario`, on `workers` processes (default: every core, or one for
    fewer than SERIAL_BELOW runs)."""
    return forecast_runs(scenario, catalog, runs, seed, workers).heroes


def forecast_runs(scenario: Scenario, catalog: Catalog, runs: int, seed: int,
                  workers: int | None = None, *, precision: float | None = None,
                  progress: Progress | None = None, threaded: bool = False) -> Forecast:
    """As `forecast`; with `precision`, the runs are played in chunks of PRECISION_CHUNK in
    seed order, and the forecast stops after the first chunk at whose end every share it
    reports (targeted, death) has its 95 % interval within +-`precision` of it (`runs`: the
    cap). Run i is seeded alike in either way, and the sums are integers, so a forecast that
    stopped after k runs gives exactly the figures of a plain forecast of k runs, for any
    number of workers. `progress` is told the runs played as tasks come back. `threaded`: the
    caller runs other threads (the board's server), so the workers are forked from a clean
    single-threaded server process, never from the caller: a copy of a threaded process can
    hold a lock another thread had, and hang."""
    if precision is not None and not 0.0 < precision < 0.5:
        raise ValueError(f"the precision must be above 0 and below 0.5, not {precision}")
    unscripted = replace(scenario, chance=ChanceScript())  # every outcome drawn, none fixed
    heroes = tuple(p for p in scenario.pieces if p.side == Side.HEROES and p.kind != Kind.ANTIENT)
    job = _Job(unscripted, catalog, remembering(build_table(scenario.playmat)), heroes)
    streams = np.random.SeedSequence(seed).generate_state(runs)
    if workers is None:  # every core, unless starting them costs more than it saves
        wanted = 1 if runs < SERIAL_BELOW else default_workers()
    else:
        wanted = max(1, workers)
    wanted = min(wanted, math.ceil(runs / MIN_CHUNK))
    chunk = runs if precision is None else PRECISION_CHUNK
    totals = [[0, 0, 0, 0] for _ in heroes]
    done = 0
    with _pool(job, wanted, threaded) as pool:
        while done < runs:
            batch = streams[done:done + chunk]
            tasks = by_branch(branches(job, batch), MIN_CHUNK, len(batch), wanted)
            for part in _played(job, pool, tasks):
                _add_up(totals, part)
                done += part.runs
                if progress is not None:
                    progress(done)
            if precision is not None and within(totals, done, precision):
                return Forecast(_figures(heroes, totals, done), done, True)
    return Forecast(_figures(heroes, totals, runs), runs, precision is None)


def most_runs(cap: int, precision: float | None) -> int:
    """The runs a forecast plays at most: the cap, or sooner the first chunk's end where even a
    share of one half (the widest interval there is) is within the precision, so the
    forecast has stopped by then whatever the shares are. What progress is told against."""
    if precision is None:
        return cap
    runs = PRECISION_CHUNK
    while runs < cap:
        if within([[runs // 2, runs // 2, 0, 0]], runs, precision):
            return runs
        runs += PRECISION_CHUNK
    return cap


def within(totals: list[list[int]], runs: int, precision: float) -> bool:
    """Every share (targeted, death) has its 95 % Wilson interval within +-`precision` of it:
    the interval the printout shows, so every printed bracket lies within the precision."""
    for targeted, deaths, _, _ in totals:
        for hits in (targeted, deaths):
            low, high = wilson(hits, runs)
            share = hits / runs
            if max(share - low, high - share) > precision:
                return False
    return True


def _figures(heroes: tuple[Piece, ...], totals: list[list[int]], runs: int
             ) -> dict[str, HeroForecast]:
    return {hero.id: HeroForecast(
        targeted / runs, damage / runs, deaths / runs, wilson(targeted, runs),
        mean_interval(damage, squares, runs), wilson(deaths, runs))
        for hero, (targeted, deaths, damage, squares) in zip(heroes, totals, strict=True)}


@contextmanager
def _pool(job: _Job, workers: int, threaded: bool) -> Iterator[ProcessPoolExecutor | None]:
    """The worker processes, started once for every batch (None: play in this process)."""
    if workers == 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context(threaded),
                             initializer=_start_worker, initargs=(job,)) as pool:
        yield pool


def _played(job: _Job, pool: ProcessPoolExecutor | None, tasks: list[list[Stream]]
            ) -> Iterator[_Sums]:
    """Each task's sums, as each is done (in any order: the sums are integers)."""
    if pool is None:
        for task in tasks:
            yield _run_task(job, task)
        return
    for done in as_completed([pool.submit(_worker_task, task) for task in tasks]):
        yield done.result()


def branches(job: _Job, streams: np.ndarray[Any, Any]) -> list[list[Stream]]:
    """The runs sorted by where their first BRANCH_STEPS steps lead, in the order first met:
    each run as the state its seed gives the Generator (engine/seeding.py)."""
    tree = job.tree()
    reached: dict[int, tuple[Place, list[Stream]]] = {}  # by place (kept alive here)
    with _collector_paused():
        for seeded in pcg64_states(streams):
            place = tree.branch(seeded, BRANCH_STEPS)
            reached.setdefault(id(place), (place, []))[1].append(seeded)
    return [runs for _, runs in reached.values()]


def by_branch(branches: Sequence[list[Stream]], least: int, total: int = 0,
              workers: int = 1) -> list[list[Stream]]:
    """Tasks of whole branches, the biggest first (so no worker is left with a big one at the
    end); branches smaller than `least` runs go together, so no task is too small to send.
    With several workers, a branch of more than 1/(TASKS_A_WORKER x workers) of the `total`
    runs is cut into pieces of that size (in its runs' order): where most runs' first step
    leads to one place (12 monsters whose first draws mostly agree: half the runs), one task
    would otherwise hold half the work, and one core would play it while the other waited.
    The pieces each replay the steps they share, a small cost beside a core left idle."""
    most = max(least, math.ceil(total / (TASKS_A_WORKER * workers))) if workers > 1 else 0
    pieces = [runs[i:i + most] for runs in branches for i in range(0, len(runs), most)] \
        if most else list(branches)
    tasks: list[list[Stream]] = []
    for runs in sorted(pieces, key=len, reverse=True):
        if tasks and len(runs) < least and len(tasks[-1]) < least:
            tasks[-1].extend(runs)
        else:
            tasks.append(list(runs))
    return tasks


def _add_up(totals: list[list[int]], part: _Sums) -> None:
    """A task's sums into the totals (integers: the order could not matter)."""
    for row, more in zip(totals, part.rows, strict=True):
        for k, value in enumerate(more):
            row[k] += value


def _context(threaded: bool) -> Any:
    """fork where the system has it (the workers start with everything imported); for a
    threaded caller, forkserver (its server process imports this module once, then forks
    each worker from itself, a single thread); else spawn."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if threaded and "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")

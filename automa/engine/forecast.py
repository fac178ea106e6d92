"""Monte Carlo over the coming AI turn: how often each hero is targeted, the damage it can
expect, and the chance it dies, each with its 95 % interval.

Run i is a full turn seeded with word i of `SeedSequence(seed).generate_state(runs)`: its own
stream, whatever else runs. The runs are dealt into tasks, run on every core, and each task
returns only its sums (counts, damage and damage squared per hero), added up as integers: the
result is the same for any number of workers. Runs are played through an `OutcomeTree`, so an
activation that an earlier run already played from the same place with the same draws is not
played again. The runs are first sorted by where their first step leads (played once, here),
and each task is whole branches, the biggest first, played through a tree of its own: two
workers never play the same activation below the first, a worker that is done takes the next
branch, and a tree is dropped with its task (no later run comes back to its branch), so memory
stays within one bounded tree a worker.
"""

from __future__ import annotations

import gc
import math
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
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


def _run_task(job: _Job, seeds: Sequence[Stream]) -> list[list[int]]:
    """Per hero: [turns targeted, deaths, health lost, health lost squared], over `seeds`,
    played through a tree of their own. The tree is dropped before the collector runs again:
    it holds no cycles, so it is freed at once, where a collector woken with it still alive
    would first walk all of it."""
    with _collector_paused():
        tree = job.tree()
        sums = _sums(job, tree, seeds)
        del tree
        return sums


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


def _worker_task(seeds: Sequence[Stream]) -> list[list[int]]:
    assert _JOB is not None, "the worker was started without its job"
    return _run_task(_JOB, seeds)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def forecast(scenario: Scenario, catalog: Catalog, runs: int, seed: int,
             workers: int | None = None) -> dict[str, HeroForecast]:
    """`runs` turns from `scenario`, on `workers` processes (default: every core, or one for
    fewer than SERIAL_BELOW runs)."""
    unscripted = replace(scenario, chance=ChanceScript())  # every outcome drawn, none fixed
    heroes = tuple(p for p in scenario.pieces if p.side == Side.HEROES and p.kind != Kind.ANTIENT)
    job = _Job(unscripted, catalog, remembering(build_table(scenario.playmat)), heroes)
    streams = np.random.SeedSequence(seed).generate_state(runs)
    if workers is None:  # every core, unless starting them costs more than it saves
        wanted = 1 if runs < SERIAL_BELOW else default_workers()
    else:
        wanted = max(1, workers)
    wanted = min(wanted, math.ceil(runs / MIN_CHUNK))
    totals = [[0, 0, 0, 0] for _ in heroes]
    tasks = by_branch(branches(job, streams), MIN_CHUNK)
    if wanted == 1:
        _add_up(totals, (_run_task(job, task) for task in tasks))
    else:
        with ProcessPoolExecutor(max_workers=wanted, mp_context=_context(),
                                 initializer=_start_worker, initargs=(job,)) as pool:
            _add_up(totals, pool.map(_worker_task, tasks))
    return {hero.id: HeroForecast(
        targeted / runs, damage / runs, deaths / runs, wilson(targeted, runs),
        mean_interval(damage, squares, runs), wilson(deaths, runs))
        for hero, (targeted, deaths, damage, squares) in zip(heroes, totals, strict=True)}


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


def by_branch(branches: Sequence[list[Stream]], least: int) -> list[list[Stream]]:
    """Tasks of whole branches, the biggest first (so no worker is left with a big one at the
    end); branches smaller than `least` runs go together, so no task is too small to send."""
    tasks: list[list[Stream]] = []
    for runs in sorted(branches, key=len, reverse=True):
        if tasks and len(runs) < least and len(tasks[-1]) < least:
            tasks[-1].extend(runs)
        else:
            tasks.append(list(runs))
    return tasks


def _add_up(totals: list[list[int]], parts: Iterator[list[list[int]]]) -> None:
    """Each task's sums into the totals (integers: the order could not matter)."""
    for part in parts:
        for row, more in zip(totals, part, strict=True):
            for k, value in enumerate(more):
                row[k] += value


def _context() -> Any:
    """fork where the system has it (the workers start with everything imported), else spawn."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")

"""Many AI turns from one start, sharing the activations they have in common.

An activation does what the turn so far and its own draws (dice, tokens, shuffles) make it do:
from the same place, with the same draws, it does the same thing. So the turns a forecast plays
from one start form a tree. Below each point of the turn hang the draws the next activation
makes, one level per draw, branching on what came up, and at the bottom what it did and where
the turn stands after it. A run walks down the tree drawing from its own Generator exactly as
the activation would (the same call, so the stream advances the same way); only where no earlier
run went does the activation itself run, recorded into the tree as it goes. Every run's result is
the result of playing it out in full; only the time differs.

The tree keeps at most `KEPT_NODES` nodes; past that, runs still walk what is kept and play the
rest without keeping it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
from msgspec import Struct, field

from automa.catalog.load import Catalog
from automa.engine.battle import Battle, Table
from automa.engine.chance import Chance
from automa.engine.seeding import set_pcg64
from automa.engine.turn import TurnProgress, begin_turn, step_turn
from automa.errors import RulesError
from automa.geometry.table import TableGeometry
from automa.model.scenario import Scenario

KEPT_NODES = 60_000  # ~0.6 kB a node with the battles it holds (tracemalloc): ~36 MB at most

Raw = int | tuple[int, ...]  # what the Generator gave: an index, or a shuffle's order
# a run's stream: its seed, or the (state, increment) that seed gives PCG64 (engine/seeding.py:
# worked out for every run at once, and set in the Generator the runs share, not seeded)
Stream = int | tuple[int, int]


class Call(Struct, frozen=True):
    """One draw an activation made: an index into `options`, or (`order`) a shuffle of them."""

    options: tuple[object, ...]
    order: bool = False

    def draw(self, rng: np.random.Generator) -> Raw:
        """The draw from the run's own Generator, made exactly as `Chance` makes it."""
        if self.order:
            return tuple([int(i) for i in rng.permutation(len(self.options))])
        return int(rng.integers(len(self.options)))

    def outcome(self, raw: Raw) -> object:
        """What was drawn: two indices of equal tokens in a bag are the same outcome."""
        if isinstance(raw, tuple):
            return tuple(self.options[i] for i in raw)
        return self.options[raw]


class Place(Struct):
    """A point of the turn (`progress`; None once the turn is over) and, below it, the draws
    of the activation that comes next from there."""

    progress: TurnProgress | None
    next: Drawn | Acted | None = None


class Acted(Struct, frozen=True):
    """What one activation did (its Active Target) and the point of the turn it led to."""

    target: str | None
    then: Place


class Drawn(Struct):
    """The activation drew next with `call`; what followed, by what came up."""

    call: Call
    below: dict[object, Drawn | Acted] = field(default_factory=dict)


class PlaceKey:
    """A point of the turn as a dictionary key: equal exactly when every piece, bag, piece out
    of play, piece still to act and one queued is equal. Hashed on what tells places apart at
    little cost: how far the turn has gone, where the pieces stand, their health, how many
    are out of play and how many tokens lie on the discard piles. Without health and the
    piles, runs that missed or hit for other amounts from one spot shared a hash: 55,000 slow
    comparisons in a 10,000-turn forecast, against 1,700 now. Every piece's id, health and
    conditions hashed as tuples cost twice as much a place."""

    __slots__ = ("_hash", "progress")

    def __init__(self, progress: TurnProgress) -> None:
        self.progress = progress
        battle = progress.battle
        pieces = battle.pieces
        self._hash = hash((progress.count, progress.acted, len(progress.queue),
                           tuple([p.at for p in pieces]), tuple([p.health for p in pieces]),
                           len(battle.out), sum([len(b.discard) for b in battle.bags.values()])))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlaceKey):
            return NotImplemented
        mine, theirs = self.progress, other.progress
        return (mine.count == theirs.count and mine.acted == theirs.acted
                and mine.queue == theirs.queue
                and dict(mine.battle.out) == dict(theirs.battle.out)
                and dict(mine.battle.bags) == dict(theirs.battle.bags)  # not in the hash
                and mine.battle.pieces == theirs.battle.pieces)


class TurnEnd(Struct, frozen=True):
    """One run's turn: who was targeted, and the battle at its end."""

    aimed: frozenset[str]
    battle: Battle


class TracedChance(Chance):
    """Chance that answers first the draws this run already made on its way down the tree,
    then draws from the run's own Generator (`rng`, set to the run's stream), and records every
    draw."""

    given: list[Raw] = field(default_factory=list)
    calls: list[tuple[Call, Raw]] = field(default_factory=list)
    keeps_record = False  # a run's outcomes are read from the tree, not from `record`

    def begin(self, given: list[Raw]) -> None:
        self.given = given[::-1]  # popped from the end
        self.calls = []

    def _index(self, options: Sequence[object]) -> int:
        call = Call(tuple(options))
        raw = self.given.pop() if self.given else call.draw(self.rng)
        self.calls.append((call, raw))
        return cast(int, raw)

    def _permutation(self, items: Sequence[object]) -> list[int]:
        call = Call(tuple(items), order=True)
        raw = self.given.pop() if self.given else call.draw(self.rng)
        self.calls.append((call, raw))
        return list(cast(tuple[int, ...], raw))


class OutcomeTree:
    """The activations of every turn played from one start so far (see the module's text)."""

    def __init__(self, scenario: Scenario, catalog: Catalog, geometry: TableGeometry) -> None:
        if scenario.chance.d12 or scenario.chance.rune_die or scenario.chance.location_die \
                or scenario.chance.tokens:
            raise RulesError("a tree of outcomes needs every outcome drawn; this scenario "
                             "scripts some")  # a scripted outcome is not a draw of the stream
        self.scenario = scenario
        self.catalog = catalog
        self.geometry = geometry
        self.start = Place(begin_turn(Battle(scenario.pieces, scenario.bags, scenario.out)))
        self.places: dict[PlaceKey, Place] = {}
        self.over = Place(None)  # every turn ends here
        self.nodes = 0
        self._table: Table | None = None  # one for every run, its Generator set to the run's

    def play(self, stream: Stream) -> TurnEnd:
        """The turn seeded with `stream`, as `run_turn` would play it."""
        table, chance = self._start(stream)
        aimed: set[str] = set()
        place = self.start
        while place.progress is not None:
            reached, made = self._walk(place, chance.rng)
            acted = reached or self._act(place, made, table, chance)
            if acted.target is not None:
                aimed.add(acted.target)
            if acted.then.progress is None:
                return TurnEnd(frozenset(aimed), place.progress.battle)
            place = acted.then
        raise AssertionError("the start is never the end")  # pragma: no cover

    def branch(self, stream: Stream, steps: int) -> Place:
        """Where the turn seeded with `stream` stands after its first `steps` steps (played
        where no earlier run went): turns that reach one place share everything below it."""
        table, chance = self._start(stream)
        place = self.start
        for _ in range(steps):
            if place.progress is None:
                break
            reached, made = self._walk(place, chance.rng)
            place = (reached or self._act(place, made, table, chance)).then
        return place

    def _start(self, stream: Stream) -> tuple[Table, TracedChance]:
        """The table a run plays on, with a Chance drawing from the run's own stream (its
        Generator, the one the table already has, set to the stream's start)."""
        table = self._table
        if table is None:
            components = self.catalog.components
            chance = TracedChance(self.scenario.chance, np.random.Generator(np.random.PCG64(0)),
                                  components.rune_die, components.location_die)
            # quiet: a run's steps, trace and questions are never read, so they are not made
            table = self._table = Table(self.scenario, self.catalog, self.geometry, chance,
                                        quiet=True)
        # a run leaves nothing behind but its stream (no script: nothing else is used)
        table.judge.record.clear()
        chance = cast(TracedChance, table.chance)
        if isinstance(stream, tuple):
            set_pcg64(chance.rng, *stream)
        else:
            chance.rng = np.random.Generator(np.random.PCG64(stream))
        return table, chance

    @staticmethod
    def _walk(place: Place, rng: np.random.Generator) -> tuple[Acted | None, list[Raw]]:
        """Down the kept draws below `place`, drawing as the activation would: the activation
        reached (None where this run leaves what is kept), and the draws made on the way."""
        made: list[Raw] = []
        node = place.next
        while isinstance(node, Drawn):
            raw = node.call.draw(rng)
            made.append(raw)
            node = node.below.get(node.call.outcome(raw))
        return node, made

    def _act(self, place: Place, made: list[Raw], table: Table,
             chance: TracedChance) -> Acted:
        """Play the next activation from `place` (its first draws are those the walk made)
        and keep it in the tree while there is room."""
        assert place.progress is not None
        chance.begin(made)
        stepped = step_turn(table, place.progress)
        place.progress.battle.forget_indexes()  # kept in the tree: a third of its memory
        if stepped is None:
            acted = Acted(None, self.over)
        else:
            acted = Acted(stepped[1].target, self._place(stepped[0]))
        if self.nodes + len(chance.calls) + 1 <= KEPT_NODES:
            self._keep(place, chance.calls, acted)
        return acted

    def _place(self, progress: TurnProgress) -> Place:
        """The kept place equal to `progress`, or a new one (kept while there is room)."""
        key = PlaceKey(progress)
        place = Place(progress)
        if self.nodes >= KEPT_NODES:
            return self.places.get(key) or place
        found = self.places.setdefault(key, place)  # one look-up: found, or kept
        if found is place:
            self.nodes += 1
        return found

    def _keep(self, place: Place, calls: list[tuple[Call, Raw]], acted: Acted) -> None:
        """Hang `acted` below `place` by the path of `calls`, sharing the levels already kept."""
        if not calls:
            place.next = acted
            self.nodes += 1
            return
        if place.next is None:
            place.next = Drawn(calls[0][0])
            self.nodes += 1
        node = place.next
        for depth, (call, raw) in enumerate(calls):
            if not isinstance(node, Drawn) or node.call != call:
                raise AssertionError("an activation drew differently from the same place: it "
                                     "is not a function of the turn and its draws")
            value = call.outcome(raw)
            if depth == len(calls) - 1:
                node.below[value] = acted
                self.nodes += 1
            elif value in node.below:
                node = node.below[value]
            else:
                below = Drawn(calls[depth + 1][0])
                node.below[value] = below
                node = below
                self.nodes += 1

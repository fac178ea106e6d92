"""The changing state of a battle during a turn, and the fixed table it is played on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from automa.catalog.load import Catalog
from automa.engine.chance import Chance
from automa.engine.judge import Briefing, GeometryMode, Judge
from automa.engine.steps import Step
from automa.geometry.table import TableGeometry
from automa.model.pieces import Condition, Kind, Piece, Side
from automa.model.scenario import Bag, Scenario
from automa.rules.rulings import RulingKey, option, ruling

# kept for reading a battle (dropped by Battle.forget_indexes)
INDEXES = ("_by_id_kept", "_on_table_kept", "_on_table_ids_kept", "_places_kept",
           "_on_table_places_kept", "_plain_kept")
# the conditions of a piece off the mat
OFF_TABLE = frozenset({Condition.TELEPORTED, Condition.DEVOURED})


@dataclass(frozen=True)
class Battle:
    pieces: tuple[Piece, ...]
    bags: Mapping[int, Bag]
    out: Mapping[str, str]
    # the index by id once built, in the instance's dict (see `_by_id`); named here for the
    # type checker alone, never set on the class, so reading it before it is built fails
    _by_id_kept: ClassVar[dict[str, Piece]]

    @property
    def _by_id(self) -> dict[str, Piece]:
        """The pieces by id (the first, should two share one), built once per battle state
        (kept in the instance's dict: functools.cached_property takes a lock on every read)."""
        kept: dict[str, Piece] | None = self.__dict__.get("_by_id_kept")
        if kept is None:
            kept = self.__dict__["_by_id_kept"] = {p.id: p for p in reversed(self.pieces)}
        return kept

    @property
    def plain(self) -> bool:
        """No piece is part of another (Ulom's claw) and no two share an id: every piece is a
        character of its own (kept per battle state)."""
        kept: bool | None = self.__dict__.get("_plain_kept")
        if kept is None:
            kept = self.__dict__["_plain_kept"] = len(self._by_id) == len(self.pieces) and all(
                p.part_of is None for p in self.pieces)
        return kept

    def forget_indexes(self) -> None:
        """Drop the indexes built for reading (they are built again when next read): for
        battle states kept by the thousand, as a forecast's tree of outcomes keeps them."""
        mine = self.__dict__
        if len(mine) > 3:  # more than the three fields
            for name in INDEXES:
                mine.pop(name, None)

    def get(self, piece_id: str) -> Piece | None:
        """The piece of that id, or None. The index is read as an attribute (a turn reads some
        twenty pieces an activation; `__dict__.get` took three times as long)."""
        try:
            return self._by_id_kept.get(piece_id)
        except AttributeError:  # not built yet
            return self._by_id.get(piece_id)

    def piece(self, piece_id: str) -> Piece:
        """The piece of that id (KeyError when absent), read as `get` reads it."""
        try:
            return self._by_id_kept[piece_id]
        except AttributeError:
            return self._by_id[piece_id]

    def with_piece(self, piece: Piece) -> Battle:
        """The battle with `piece` in place of the piece(s) of its id. Where this battle's
        index by id is built and the ids are unique, the indexes are carried over (one piece
        differs) and the piece is put in by its place in the tuples, kept beside them
        (`_places_kept`, `_on_table_places_kept`: id -> position, in the tuples' order)."""
        mine = self.__dict__
        kept: dict[str, Piece] | None = mine.get("_by_id_kept")
        old = kept.get(piece.id) if kept is not None and len(kept) == len(self.pieces) else None
        if kept is None or old is None:  # no index to carry (none built, shared ids, new id)
            return Battle(tuple(piece if p.id == piece.id else p for p in self.pieces),
                          self.bags, self.out)
        places = _places(mine, "_places_kept", self.pieces)
        theirs: dict[str, object] = {  # the same ids in the same places
            "pieces": _put(self.pieces, places, piece), "bags": self.bags, "out": self.out,
            "_places_kept": places, "_by_id_kept": {**kept, piece.id: piece}}
        if old.part_of == piece.part_of and "_plain_kept" in mine:
            theirs["_plain_kept"] = mine["_plain_kept"]
        _carry_on_table(mine, theirs, old, piece)
        return _made(theirs)

    def without(self, piece_id: str, why: str) -> Battle:
        """The piece leaves play, and every part of it (Ulom's claw goes with Ulom)."""
        gone = (piece_id, *(p.id for p in self.pieces if p.part_of == piece_id))
        return Battle(tuple(p for p in self.pieces if p.id not in gone), self.bags,
                      {**self.out, **dict.fromkeys(gone, why)})

    def with_bag(self, level: int, bag: Bag) -> Battle:
        """The battle with `bag` as level `level`'s: the same pieces, so the same indexes."""
        return _made({**self.__dict__, "bags": {**self.bags, level: bag}})

    def on_table(self) -> tuple[Piece, ...]:
        """Pieces physically on the mat (not on the Teleported! or Devoured! card)."""
        kept: tuple[Piece, ...] | None = self.__dict__.get("_on_table_kept")
        return self._on_table if kept is None else kept

    @property
    def _on_table(self) -> tuple[Piece, ...]:
        kept: tuple[Piece, ...] | None = self.__dict__.get("_on_table_kept")
        if kept is None:
            kept = tuple(p for p in self.pieces if p.conditions.isdisjoint(OFF_TABLE))
            if len(kept) == len(self.pieces):  # all on the mat: the pieces themselves
                kept = self.pieces
            self.__dict__["_on_table_kept"] = kept
        return kept

    @property
    def _on_table_ids(self) -> dict[str, Piece]:
        kept: dict[str, Piece] | None = self.__dict__.get("_on_table_ids_kept")
        if kept is None:
            on_table = self._on_table
            kept = self.__dict__["_on_table_ids_kept"] = (
                self._by_id if on_table is self.pieces else {p.id: p for p in reversed(on_table)})
        return kept

    def placed(self, piece: Piece) -> bool:
        """`piece in self.on_table()`, by identity first (comparing pieces field by field is
        slow): a piece taken from this battle is found at once."""
        return self._on_table_ids.get(piece.id) is piece or piece in self._on_table

    def enemies_of_ai(self) -> list[Piece]:
        """The Heroic Forces the AI may target; Antients not under its control are ignored.

        A piece that is part of another (Ulom's claw) is seen and measured as part of its owner
        (engine/parts.py).
        """
        heroes, antient = Side.HEROES, Kind.ANTIENT  # read once (model/vocabulary.py)
        return [p for p in self.on_table() if p.side == heroes and p.kind != antient]

    def teammates_of(self, actor_id: str) -> list[Piece]:
        ai = Side.AI
        return [p for p in self.on_table() if p.side == ai and p.id != actor_id]


def _places(kept: dict[str, object], name: str, pieces: tuple[Piece, ...]) -> dict[str, int]:
    """Where each id stands in `pieces`, built once and kept under `name`."""
    places: dict[str, int] | None = kept.get(name)  # type: ignore[assignment]
    if places is None:
        places = kept[name] = {p.id: i for i, p in enumerate(pieces)}
    return places


def _put(pieces: tuple[Piece, ...], places: dict[str, int], piece: Piece) -> tuple[Piece, ...]:
    changed = list(pieces)
    changed[places[piece.id]] = piece
    return tuple(changed)


def _made(fields: dict[str, object]) -> Battle:
    """The battle whose instance dict is `fields` (its three fields and the indexes carried):
    what `Battle(...)` makes, without the frozen record's setter per field."""
    made = object.__new__(Battle)
    made.__dict__.update(fields)
    return made


def _carry_on_table(mine: dict[str, object], theirs: dict[str, object], old: Piece,
                    piece: Piece) -> None:
    """The on-the-mat indexes of a battle where `old` became `piece`: the same pieces on the
    mat but one when it stays on, the same ones when it stays off, none carried when it comes
    on or goes off (built again when read). With every piece on the mat they are the battle's
    own pieces and index by id, in both battles."""
    on_table: tuple[Piece, ...] | None = mine.get("_on_table_kept")  # type: ignore[assignment]
    if on_table is None:
        return
    was_on, is_on = old.conditions.isdisjoint(OFF_TABLE), piece.conditions.isdisjoint(OFF_TABLE)
    if was_on and is_on and on_table is mine["pieces"]:
        theirs["_on_table_kept"] = theirs["pieces"]
        if "_on_table_ids_kept" in mine:
            theirs["_on_table_ids_kept"] = theirs["_by_id_kept"]
    elif was_on and is_on:
        theirs["_on_table_kept"] = _put(on_table, _places(mine, "_on_table_places_kept",
                                                          on_table), piece)
        theirs["_on_table_places_kept"] = mine["_on_table_places_kept"]
        ids: dict[str, Piece] | None = mine.get("_on_table_ids_kept")  # type: ignore[assignment]
        if ids is not None:
            theirs["_on_table_ids_kept"] = {**ids, piece.id: piece}
    elif not was_on and not is_on:
        for name in ("_on_table_kept", "_on_table_ids_kept", "_on_table_places_kept"):
            if name in mine:
                theirs[name] = mine[name]


@dataclass(frozen=True)
class Table:
    """What stays fixed during a turn: the scenario's settings, the data, the mat, the dice."""

    scenario: Scenario
    catalog: Catalog
    geometry: TableGeometry
    chance: Chance
    judge: Judge = field(default_factory=Judge)
    # nobody reads what the turn says (its steps, explain trace, close calls, rulings, the
    # judge's record) and nobody is asked: a forecast's runs (engine/outcome_tree.py)
    quiet: bool = False
    # the explain trace is made (--explain, --json, a session's activations); without it the
    # printout's steps, close calls and rulings are made as ever
    explain: bool = True

    def __post_init__(self) -> None:
        if self.quiet and (self.judge.mode != GeometryMode.TRACKED or self.judge.asker is not None
                           or self.judge.script or self.chance.asker is not None):
            raise ValueError("a quiet table asks nobody: its geometry is tracked and its dice "
                             "are rolled by the program")

    def ruler(self, number: int) -> float:
        return self.scenario.templates.rulers[number]

    @property
    def close_call(self) -> float:
        return self.scenario.settings.close_call

    def option(self, key: RulingKey) -> str:
        """The option in force for switchable ruling `key` (the scenario's, else ours), looked
        up once per table (an activation asks several times; kept in the instance's dict)."""
        kept: dict[RulingKey, str] | None = self.__dict__.get("_options_kept")
        if kept is None:
            kept = self.__dict__["_options_kept"] = {}
        found = kept.get(key)
        if found is None:
            found = kept[key] = option(self.scenario.settings.rulings, key)
        return found


@dataclass
class StepLog:
    """The steps of one activation as they happen, what the table should double-check, and
    how many of the steps the players have been shown: before each question they see the ones
    they have not (engine/judge.py Briefs)."""

    loud: ClassVar[bool] = True  # False: nothing is kept (QuietLog), so text need not be made
    steps: list[Step] = field(default_factory=list)
    close_calls: list[str] = field(default_factory=list)
    rulings: list[Fired] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)  # --explain: every candidate, value, loser
    explaining: bool = True  # False: the trace is not asked for, so its lines need not be made
    actor: str = ""  # the acting piece's name, and why it acts now: a briefing's heading
    order: str = ""
    named: tuple[Piece, ...] = ()  # whose names a briefing may need (built only if asked)
    coordinates: bool = True  # positions are tracked: a briefing may give them
    shown: int = 0
    opened: bool = False
    unasked: list[str] = field(default_factory=list)  # enemies whose sight was not asked

    def add(self, step: Step) -> None:
        self.steps.append(step)

    def explain(self, *lines: str) -> None:
        if self.explaining:
            self.trace.extend(lines)

    def ruling(self, key: RulingKey, detail: str = "") -> None:
        """A decision rests on ruling `key` of the registry: it is marked where it fires."""
        entry = ruling(key)
        fired = Fired(entry.number, key, detail or entry.title)
        if fired not in self.rulings:
            self.rulings.append(fired)

    @property
    def names(self) -> dict[str, str]:
        return {p.id: p.label for p in self.named}

    def briefing(self) -> Briefing:
        """The steps so far, of which those not shown yet are marked shown now."""
        told = Briefing(self.actor, self.order, tuple(self.steps), self.shown, self.opened,
                        self.names, self.coordinates)
        self.shown, self.opened = len(self.steps), True
        return told


@dataclass(frozen=True)
class Fired:
    """A ruling that decided something in an activation, and what it decided there."""

    number: int
    key: RulingKey
    text: str

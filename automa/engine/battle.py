"""The changing state of a battle during a turn, and the fixed table it is played on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from msgspec import Struct, field
from msgspec.structs import force_setattr, replace

from automa.catalog.load import Catalog
from automa.engine.chance import Chance
from automa.engine.judge import Briefing, GeometryMode, Judge
from automa.engine.steps import MoveStep, Step
from automa.geometry.moves import stacked_with
from automa.geometry.table import TableGeometry
from automa.model.memo import Memo
from automa.model.pieces import Condition, Kind, Piece, Side
from automa.model.scenario import Bag, Scenario
from automa.rules.rulings import RulingKey, option, ruling

# the conditions of a piece off the mat
OFF_TABLE = frozenset({Condition.TELEPORTED, Condition.DEVOURED})


class BattleIndexes(Memo):
    """Indexes of one battle's pieces, each built when first read: a cache of values worked
    out from the battle's `pieces` alone, and the one part of a Battle that changes (it is
    not part of the battle's value: not compared, not printed). `Battle.with_piece` and
    `with_bag` hand the next battle state the indexes that still hold (one piece differs, or
    none), rather than building them again. None: not built (or forgotten)."""

    __slots__ = ("by_id", "on_table", "on_table_ids", "on_table_places", "places", "plain")

    def __init__(self) -> None:
        self.by_id: dict[str, Piece] | None = None  # the first piece of each id
        self.plain: bool | None = None  # no piece is part of another, no two share an id
        self.on_table: tuple[Piece, ...] | None = None  # the pieces on the mat
        self.on_table_ids: dict[str, Piece] | None = None  # those by id
        self.places: dict[str, int] | None = None  # where each id stands in `pieces`
        self.on_table_places: dict[str, int] | None = None  # and in `on_table`

    def forget(self) -> None:
        """Drop every index (each is built again when next read)."""
        self.by_id = self.plain = self.on_table = self.on_table_ids = None
        self.places = self.on_table_places = None

    def copy_from(self, other: BattleIndexes) -> None:
        """Take `other`'s indexes: for a battle of the very same pieces."""
        self.by_id, self.plain, self.on_table = other.by_id, other.plain, other.on_table
        self.on_table_ids, self.places = other.on_table_ids, other.places
        self.on_table_places = other.on_table_places


class Battle(Struct, frozen=True):
    """The pieces, the damage-token bags and the pieces out of play, as a turn changes them."""

    pieces: tuple[Piece, ...]
    bags: Mapping[int, Bag]
    out: Mapping[str, str]
    # read through `get`, `piece`, `on_table`, `placed` and `plain`; made empty with every
    # battle (`replace` too), filled as read, carried by `with_piece` and `with_bag`
    indexes: BattleIndexes = field(default_factory=BattleIndexes)

    def __post_init__(self) -> None:
        force_setattr(self, "indexes", BattleIndexes())  # its own, even when `replace`d

    def _by_id(self) -> dict[str, Piece]:
        """The pieces by id (the first, should two share one), built once per battle state."""
        kept = self.indexes.by_id
        if kept is None:
            kept = self.indexes.by_id = {p.id: p for p in reversed(self.pieces)}
        return kept

    @property
    def plain(self) -> bool:
        """No piece is part of another (Ulom's claw) and no two share an id: every piece is a
        character of its own (kept per battle state)."""
        kept = self.indexes.plain
        if kept is None:
            kept = self.indexes.plain = len(self._by_id()) == len(self.pieces) and all(
                p.part_of is None for p in self.pieces)
        return kept

    def forget_indexes(self) -> None:
        """Drop the indexes built for reading (they are built again when next read): for
        battle states kept by the thousand, as a forecast's tree of outcomes keeps them."""
        self.indexes.forget()

    def get(self, piece_id: str) -> Piece | None:
        """The piece of that id, or None (a turn reads some twenty pieces an activation)."""
        kept = self.indexes.by_id
        return (self._by_id() if kept is None else kept).get(piece_id)

    def piece(self, piece_id: str) -> Piece:
        """The piece of that id (KeyError when absent), read as `get` reads it."""
        kept = self.indexes.by_id
        return (self._by_id() if kept is None else kept)[piece_id]

    def with_piece(self, piece: Piece) -> Battle:
        """The battle with `piece` in place of the piece(s) of its id. Where this battle's
        index by id is built and the ids are unique, the indexes are carried over (one piece
        differs) and the piece is put in by its place in the tuples."""
        mine = self.indexes
        kept = mine.by_id
        old = kept.get(piece.id) if kept is not None and len(kept) == len(self.pieces) else None
        if kept is None or old is None:  # no index to carry (none built, shared ids, new id)
            return Battle(tuple(piece if p.id == piece.id else p for p in self.pieces),
                          self.bags, self.out)
        places = mine.places
        if places is None:
            places = mine.places = {p.id: i for i, p in enumerate(self.pieces)}
        made = Battle(_put(self.pieces, places, piece), self.bags, self.out)
        theirs = made.indexes  # the same ids in the same places
        theirs.places, theirs.by_id = places, {**kept, piece.id: piece}
        if old.part_of == piece.part_of:
            theirs.plain = mine.plain
        _carry_on_table(mine, theirs, self.pieces is mine.on_table, old, piece,
                        made.pieces)
        return made

    def without(self, piece_id: str, why: str) -> Battle:
        """The piece leaves play, and every part of it (Ulom's claw goes with Ulom); the piece
        it rode or carried stays where it stands, no longer ridden or riding (`_unstacked`), so
        a scenario saved after loads again."""
        gone = (piece_id, *(p.id for p in self.pieces if p.part_of == piece_id))
        pieces = _unstacked(self.pieces, gone)
        return Battle(tuple(p for p in pieces if p.id not in gone), self.bags,
                      {**self.out, **dict.fromkeys(gone, why)})

    def to_card(self, piece_id: str, card: Condition) -> Battle:
        """The character goes onto the Teleported! or Devoured! card (`card`: the condition it
        is then under), each of its pieces keeping its spot: a part named goes with its owner,
        and every part of the character goes with it (docs/rulings.md 73). The piece it rode or
        carried stays on the mat, and neither is riding or ridden any more (`_unstacked`)."""
        named = self.get(piece_id)
        owner = named.part_of if named is not None and named.part_of else piece_id
        going = tuple(p.id for p in self.pieces if p.id == owner or p.part_of == owner)
        return Battle(tuple(replace(p, conditions=p.conditions | {card}) if p.id in going else p
                            for p in _unstacked(self.pieces, going)), self.bags, self.out)

    def with_bag(self, level: int, bag: Bag) -> Battle:
        """The battle with `bag` as level `level`'s: the same pieces, so the same indexes."""
        made = Battle(self.pieces, {**self.bags, level: bag}, self.out)
        made.indexes.copy_from(self.indexes)
        return made

    def on_table(self) -> tuple[Piece, ...]:
        """Pieces physically on the mat (not on the Teleported! or Devoured! card)."""
        kept = self.indexes.on_table
        if kept is None:
            kept = tuple(p for p in self.pieces if p.conditions.isdisjoint(OFF_TABLE))
            if len(kept) == len(self.pieces):  # all on the mat: the pieces themselves
                kept = self.pieces
            self.indexes.on_table = kept
        return kept

    def _on_table_ids(self) -> dict[str, Piece]:
        kept = self.indexes.on_table_ids
        if kept is None:
            on_table = self.on_table()
            kept = self.indexes.on_table_ids = (
                self._by_id() if on_table is self.pieces
                else {p.id: p for p in reversed(on_table)})
        return kept

    def placed(self, piece: Piece) -> bool:
        """`piece in self.on_table()`, by identity first (comparing pieces field by field is
        slow): a piece taken from this battle is found at once."""
        return self._on_table_ids().get(piece.id) is piece or piece in self.on_table()

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


STACKED = frozenset({Condition.RIDING, Condition.RIDDEN})


def _unstacked(pieces: tuple[Piece, ...], leaving: Sequence[str]) -> tuple[Piece, ...]:
    """`pieces` as the ones `leaving` the mat (dying, going onto a card) leave them: a rider's
    mount, or a mount's rider, stays where it is, no longer ridden or riding; and what leaves
    rides nothing (docs/rulings.md 72)."""
    if all(p.id not in leaving or p.conditions.isdisjoint(STACKED) for p in pieces):
        return pieces
    on_table = [p for p in pieces if p.conditions.isdisjoint(OFF_TABLE)]
    apart = set(leaving)
    for piece in on_table:
        partner = stacked_with(piece, on_table) if piece.id in leaving else None
        if partner is not None:
            apart.add(partner.id)
    return tuple(replace(p, conditions=p.conditions - STACKED)
                 if p.id in apart and not p.conditions.isdisjoint(STACKED) else p
                 for p in pieces)


def _put(pieces: tuple[Piece, ...], places: dict[str, int], piece: Piece) -> tuple[Piece, ...]:
    changed = list(pieces)
    changed[places[piece.id]] = piece
    return tuple(changed)


def _carry_on_table(mine: BattleIndexes, theirs: BattleIndexes, all_on: bool, old: Piece,
                    piece: Piece, pieces: tuple[Piece, ...]) -> None:
    """The on-the-mat indexes of a battle where `old` became `piece`: the same pieces on the
    mat but one when it stays on, the same ones when it stays off, none carried when it comes
    on or goes off (built again when read). With every piece on the mat (`all_on`) they are
    the battle's own `pieces` and index by id, in both battles."""
    on_table = mine.on_table
    if on_table is None:
        return
    was_on, is_on = old.conditions.isdisjoint(OFF_TABLE), piece.conditions.isdisjoint(OFF_TABLE)
    if was_on and is_on and all_on:
        theirs.on_table = pieces
        if mine.on_table_ids is not None:
            theirs.on_table_ids = theirs.by_id
    elif was_on and is_on:
        places = mine.on_table_places
        if places is None:
            places = mine.on_table_places = {p.id: i for i, p in enumerate(on_table)}
        theirs.on_table, theirs.on_table_places = _put(on_table, places, piece), places
        ids = mine.on_table_ids
        if ids is not None:
            theirs.on_table_ids = {**ids, piece.id: piece}
    elif not was_on and not is_on:
        theirs.on_table, theirs.on_table_ids = on_table, mine.on_table_ids
        theirs.on_table_places = mine.on_table_places


class TableMemo(Memo):
    """What a turn works out from a table's fixed fields again and again, kept for the next
    reader: a cache, never part of the table's value, and the one part of a Table that
    changes."""

    __slots__ = ("acted", "options")

    def __init__(self) -> None:
        self.options: dict[RulingKey, str] = {}  # ruling -> the option in force
        # (who had acted, who acts) -> who has acted: one copy of each set (engine/turn.py)
        self.acted: dict[tuple[frozenset[str], str], frozenset[str]] = {}


class Table(Struct, frozen=True):
    """What stays fixed during a turn: the scenario's settings, the data, the mat, and where
    the answers come from. `chance` (the dice) and `judge` (geometric answers) are ordinary
    mutable objects, recording what they answer: the table never changes which ones it holds,
    and each question is handed what the players must be shown before it (engine/judge.py)."""

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
    memo: TableMemo = field(default_factory=TableMemo)

    def __post_init__(self) -> None:
        force_setattr(self, "memo", TableMemo())  # its own, even when `replace`d
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
        up once per table (an activation asks several times)."""
        options = self.memo.options
        found = options.get(key)
        if found is None:
            found = options[key] = option(self.scenario.settings.rulings, key)
        return found


class StepLog(Struct):
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
    actor_id: str = ""  # the acting piece's id
    target: str | None = None  # its Active Target, once chosen (`aimed`), and why
    target_reason: str = ""
    named: tuple[Piece, ...] = ()  # whose names a briefing may need (built only if asked)
    coordinates: bool = True  # positions are tracked: a briefing may give them
    shown: int = 0
    opened: bool = False
    unasked: list[str] = field(default_factory=list)  # enemies whose sight was not asked

    def add(self, step: Step) -> None:
        self.steps.append(step)

    @property
    def moves(self) -> int:
        """How many pieces this activation has slid, pushed or placed so far: an answer given
        before the last of them may no longer hold (engine/judge.py)."""
        return sum(1 for step in self.steps if isinstance(step, MoveStep))

    def explain(self, *lines: str) -> None:
        if self.explaining:
            self.trace.extend(lines)

    def ruling(self, key: RulingKey, detail: str = "") -> None:
        """A decision rests on ruling `key` of the registry: it is marked where it fires, once
        an activation. A ruling that decides several things in one activation keeps one mark
        (one `* ruling N` line, one number in the JSON) whose text gathers what it decided, in
        the order it decided it, each detail once."""
        said = detail or ruling(key).title
        for index, fired in enumerate(self.rulings):
            if fired.key == key:
                if said not in fired.details:
                    self.rulings[index] = Fired(fired.number, key, (*fired.details, said))
                return
        self.rulings.append(Fired(ruling(key).number, key, (said,)))

    def aimed(self, target: str | None, reason: str) -> None:
        """The Active Target is chosen: every briefing from now on names it, so the table
        knows at whom the piece acts before it draws a token or rolls a die."""
        self.target, self.target_reason = target, reason

    @property
    def names(self) -> dict[str, str]:
        return {p.id: p.label for p in self.named}

    def briefing(self) -> Briefing:
        """The steps so far, of which those not shown yet are marked shown now."""
        told = Briefing(self.actor, self.order, tuple(self.steps), self.shown, self.opened,
                        self.names, self.coordinates, self.actor_id, self.target,
                        self.target_reason)
        self.shown, self.opened = len(self.steps), True
        return told


class Fired(Struct, frozen=True):
    """A ruling that decided something in an activation, and what it decided there: each
    thing once, in the order it was decided."""

    number: int
    key: RulingKey
    details: tuple[str, ...]

    @property
    def text(self) -> str:
        return "; ".join(self.details)

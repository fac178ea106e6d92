"""Every player input of a battle, and every answer the table gives, as one typed command.

A command is a frozen record. Its JSON form is its line in the session's log (`to_json`), and
`command_from_json` reads a line back, refusing anything no battle can hold (a D12 of 13, a
move to 1e300) with one line saying what is wrong. The terminal, the board and a Python script
all speak these same records to `Session.do` (session/store.py); what a command does to a
battle, and why it may be refused there, is session/apply.py.

A command may carry answers given ahead (a Poison card's value, a D12, the dice and geometric
answers of an activation). Whatever it still needs is asked of the players, or drawn, when it is
done, and the command is logged with every answer in it: replaying the log asks nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import ClassVar, TypeVar

from msgspec import Struct

from automa.errors import InputError
from automa.model.modes import KrakenTie
from automa.model.pieces import Condition

Point = tuple[float, float]
Json = dict[str, object]

MAX_AMOUNT = 99  # more than any piece could have
MAX_COORDINATE = 10_000.0  # cm: far beyond any mat, so a typo is caught, not drawn
MAX_INPUTS = 10_000_000
MAX_NAME = 60  # a card's or an Antient's name
MAX_TEXT = 400  # the table words of a place


class BadCommand(InputError):
    """A command (or a log line) no battle can hold: one line saying why."""


class Counter(StrEnum):
    """The counters on a hero's board a report changes by a signed amount."""

    GOLD = "gold"
    ITEMS = "items"
    POISON = "poison"


class UsePeriod(StrEnum):
    """"A once-per-room box (Ability cards, items) ... a once-per-game box (Spells, items)"."""

    ROOM = "room"
    GAME = "game"


class Die(StrEnum):
    """The dice an activation may roll, by the name the log gives them."""

    D12 = "d12"
    RUNE_DIE = "rune_die"
    LOCATION_DIE = "location_die"


class Source(StrEnum):
    """Who gave an answer: the scenario's script, the program's Generator, the players at the
    table, the model of the mat, or (a geometric answer) the players' own earlier answer to the
    same question in the activation, nothing having moved since."""

    SCRIPT = "script"
    RNG = "rng"
    TABLE = "table"
    COMPUTED = "computed"
    REUSED = "reused"  # the table's earlier answer to the same question, nothing moved since


DIE_FACES = {Die.D12: 12, Die.RUNE_DIE: 99, Die.LOCATION_DIE: 99}  # the die's own faces:
# the rune and location dice are checked against the data when replayed


# ---------------------------------------------------------------------------------------------
# Reading a JSON object field by field, each problem one line.

class _Fields:
    """The fields of one JSON object, read with their types checked."""

    def __init__(self, data: Mapping[str, object]) -> None:
        self.data = data

    def has(self, key: str) -> bool:
        return key in self.data

    def text(self, key: str, limit: int = MAX_TEXT) -> str:
        value = self.data.get(key)
        if not isinstance(value, str) or not value.strip():
            raise BadCommand(f"{key} is not text")
        if len(value) > limit:
            raise BadCommand(f"{key} is longer than {limit} characters")
        return value

    def optional_text(self, key: str, limit: int = MAX_TEXT) -> str | None:
        return None if self.data.get(key) is None else self.text(key, limit)

    def whole(self, key: str, low: int, high: int, default: int | None = None) -> int:
        value = self.data.get(key, default)
        if not _whole(value) or not low <= value <= high:  # type: ignore[operator]
            raise BadCommand(f"{key} {value!r} is not a whole number from {low} to {high}")
        assert isinstance(value, int)
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise BadCommand(f"{key} is not true or false")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise BadCommand(f"{key} is not a list of names")
        return tuple(str(v) for v in value)

    def wholes(self, key: str, low: int, high: int) -> tuple[int, ...]:
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(_whole(v) and low <= v <= high
                                                  for v in value):
            raise BadCommand(f"{key} {value!r} is not a list of whole numbers from {low} to "
                             f"{high}")
        return tuple(int(v) for v in value)

    def objects(self, key: str) -> list[Mapping[str, object]]:
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise BadCommand(f"{key} is not a list of records")
        return list(value)

    def choice(self, key: str, kind: type[E], default: E | None = None) -> E:
        value = self.data.get(key, default)
        try:
            return kind(value if isinstance(value, str) else repr(value))
        except ValueError:
            known = ", ".join(kind)
            raise BadCommand(f"{key} {value!r} is not one of {known}") from None

    def point(self, key: str) -> Point:
        value = self.data.get(key)
        if not (isinstance(value, list) and len(value) == 2 and all(
                isinstance(v, int | float) and not isinstance(v, bool)
                and math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in value)):
            raise BadCommand(f"a move needs a position [x, y] on the table, not {value!r}")
        return float(value[0]), float(value[1])


E = TypeVar("E", bound=StrEnum)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _without_none(data: Json) -> Json:
    return {key: value for key, value in data.items() if value is not None}


# ---------------------------------------------------------------------------------------------
# The answers the table gives (or the Generator, or the model), kept in an activation's line.

class ChanceAnswer(Struct, frozen=True):
    """A die rolled or a damage token drawn: `kind` is a die's name or "token"; a token's
    `value` is LEVEL:FACE (like 2:1R)."""

    kind: str
    value: str
    source: Source

    def to_json(self) -> Json:
        return {"kind": self.kind, "value": self.value, "source": str(self.source)}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> ChanceAnswer:
        if not all(isinstance(data.get(k), str) for k in ("kind", "value", "source")):
            raise BadCommand("an outcome is not {kind, value, source} text")
        kind, value = str(data["kind"]), str(data["value"])
        if kind in DIE_FACES:
            if not value.isascii() or not value.isdigit() or \
                    not 1 <= int(value) <= DIE_FACES[Die(kind)]:
                raise BadCommand(f"{kind} {value!r} is not a face of the die")
        elif kind == "token":
            level, _, face = value.partition(":")
            body = face.upper().removesuffix("R")
            if not (level.isascii() and level.isdigit() and len(level) <= 2 and body.isascii()
                    and body.isdigit() and len(body) <= 2):
                raise BadCommand(f"token {value!r} is not LEVEL:FACE (like 2:1R)")
        source = _Fields(data).choice("source", Source)
        return cls(kind, value, source)


class GeometryAnswer(Struct, frozen=True):
    """A geometric question's answer (yes/no, or which piece), who gave it, and in which
    geometry mode it was asked (None: tracked)."""

    question: str
    answer: bool | str
    source: Source
    mode: str | None = None

    def to_json(self) -> Json:
        return _without_none({"q": self.question, "a": self.answer, "source": str(self.source),
                              "mode": self.mode})

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> GeometryAnswer:
        question, answer = data.get("q"), data.get("a")
        source, mode = data.get("source", Source.COMPUTED), data.get("mode")
        if not isinstance(question, str) or not isinstance(answer, bool | str) or \
                not isinstance(source, str) or not isinstance(mode, str | None):
            raise BadCommand("an answer is not {q, a, source}")
        try:
            return cls(question, answer, Source(source), mode)
        except ValueError:
            raise BadCommand(f"an answer's source {source!r} is not one of "
                             f"{', '.join(Source)}") from None

    @classmethod
    def from_record(cls, record: Mapping[str, object]) -> GeometryAnswer:
        """One entry of the engine's Judge record (engine/judge.py)."""
        return cls.from_json(record)


class CaveFight(Struct, frozen=True):
    """How a Kraken fight came out: the Kraken's strength (the D12), each red token drawn from
    the bag of `bag`'s level, who wins a tie, the item taken (None when no item was left beside
    the card) and the Antient won (None when the Kraken won)."""

    bag: int
    strength: int
    tokens: tuple[str, ...]
    tie: KrakenTie
    item: str | None
    antient: str | None


# ---------------------------------------------------------------------------------------------
# The commands.

class Move(Struct, frozen=True):
    """A piece now stands elsewhere: at `to` (cm, mat frame), or where the table `words` say
    (`rune 3`, `touching obstacle B on its north side`, `2 cm left of elf`), worked out when it
    is done and logged with both."""

    TYPE: ClassVar[str] = "move"
    piece: str
    to: Point | None = None
    words: str | None = None

    def to_json(self) -> Json:
        return _without_none({"type": self.TYPE, "piece": self.piece,
                              "to": list(self.to) if self.to is not None else None,
                              "words": self.words})

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Move:
        fields = _Fields(data)
        return cls(fields.text("piece"), fields.point("to"), fields.optional_text("words"))


class Damage(Struct, frozen=True):
    """Raw damage on any piece, no rules applied; `by`: the hero who dealt it (for the battle's
    summary)."""

    TYPE: ClassVar[str] = "damage"
    piece: str
    amount: int
    by: str | None = None

    def to_json(self) -> Json:
        return _without_none({"type": self.TYPE, "piece": self.piece, "amount": self.amount,
                              "by": self.by})

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Damage:
        fields = _Fields(data)
        return cls(fields.text("piece"), fields.whole("amount", -MAX_AMOUNT, MAX_AMOUNT),
                   fields.optional_text("by"))


class Heal(Struct, frozen=True):
    """Health back, never above the piece's starting health."""

    TYPE: ClassVar[str] = "heal"
    piece: str
    amount: int

    def to_json(self) -> Json:
        return {"type": self.TYPE, "piece": self.piece, "amount": self.amount}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Heal:
        fields = _Fields(data)
        return cls(fields.text("piece"), fields.whole("amount", -MAX_AMOUNT, MAX_AMOUNT))


class Adjust(Struct, frozen=True):
    """A hero's gold, items or Poison cards changed by `change` (signed)."""

    counter: Counter
    piece: str
    change: int

    @property
    def TYPE(self) -> str:  # the log's word, as every command's TYPE
        return str(self.counter)

    def to_json(self) -> Json:
        return {"type": self.TYPE, "piece": self.piece, "amount": self.change}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Adjust:
        fields = _Fields(data)
        return cls(fields.choice("type", Counter), fields.text("piece"),
                   fields.whole("amount", -MAX_AMOUNT, MAX_AMOUNT))


class Remove(Struct, frozen=True):
    """The piece leaves play (`why`: dead, or another reason the table gives)."""

    TYPE: ClassVar[str] = "remove"
    piece: str
    why: str = "dead"

    def to_json(self) -> Json:
        return {"type": self.TYPE, "piece": self.piece, "why": self.why}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Remove:
        fields = _Fields(data)
        return cls(fields.text("piece"), fields.optional_text("why") or "dead")


class SetCondition(Struct, frozen=True):
    """A condition put on a piece or taken off it."""

    TYPE: ClassVar[str] = "condition"
    piece: str
    condition: Condition
    on: bool

    def to_json(self) -> Json:
        return {"type": self.TYPE, "piece": self.piece, "condition": str(self.condition),
                "on": self.on}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> SetCondition:
        fields = _Fields(data)
        return cls(fields.text("piece"), fields.choice("condition", Condition),
                   fields.flag("on"))


class ReturnToMat(Struct, frozen=True):
    """A piece comes back on the mat from the Teleported! or Devoured! card, where it stood
    (then it is moved where it stands)."""

    TYPE: ClassVar[str] = "back"
    piece: str

    def to_json(self) -> Json:
        return {"type": self.TYPE, "piece": self.piece}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> ReturnToMat:
        return cls(_Fields(data).text("piece"))


class Hit(Struct, frozen=True):
    """A hero's hit on the AI's pieces, resolved by the rules (rules/hero_hits.py), or on a
    Yilleph piece, which flips (rules/yilleph.py): the pieces struck, the shot with its
    modifiers ("fireball+poison"), the hero who shot, whether it went through the Trilithon.
    Answers it needs: the Poison card's value for a poison shot, one D12 per piece for the
    Portal Trap; `last_damaged` (the chain modifier: what the hero's previous shot this turn
    damaged) is filled in from the log when it is done."""

    TYPE: ClassVar[str] = "hit"
    targets: tuple[str, ...]
    shot: str
    by: str | None = None
    trilithon: bool = False
    poison_card: int | None = None
    portal: tuple[int, ...] = ()
    last_damaged: tuple[str, ...] = ()

    @property
    def shot_name(self) -> str:
        return self.shot.split("+")[0]

    @property
    def modifiers(self) -> tuple[str, ...]:
        return tuple(m.split("(")[0] for m in self.shot.split("+")[1:])

    def to_json(self) -> Json:
        data: Json = {"type": self.TYPE, "targets": list(self.targets), "shot": self.shot}
        if self.by is not None:
            data["by"] = self.by
        if self.trilithon:
            data["trilithon"] = True
        if self.poison_card is not None:
            data["poison_card"] = self.poison_card
        if self.portal:
            data["portal"] = list(self.portal)
        if self.last_damaged:
            data["last_damaged"] = list(self.last_damaged)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Hit:
        fields = _Fields(data)
        targets = fields.texts("targets")
        poison = fields.whole("poison_card", 1, 9) if fields.has("poison_card") else None
        return cls(targets, fields.text("shot"), fields.optional_text("by"),
                   fields.flag("trilithon"), poison, fields.wholes("portal", 1, 12),
                   fields.texts("last_damaged"))


class UseCard(Struct, frozen=True):
    """A hero used an Ability, Item or Spell card, once per room or once per game."""

    TYPE: ClassVar[str] = "used"
    piece: str
    card: str
    per: UsePeriod

    def to_json(self) -> Json:
        return {"type": self.TYPE, "piece": self.piece, "card": self.card,
                "per": str(self.per)}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> UseCard:
        fields = _Fields(data)
        return cls(fields.text("piece"), fields.text("card", MAX_NAME),
                   fields.choice("per", UsePeriod))


class EnterCave(Struct, frozen=True):
    """The hero enters the Hidden Cave instead of their turn (or the Portal Trap sent them) and
    fights the Kraken at once. SHOTS: the damage-inflicting shot icons they bring. `fight` is
    how it came out, filled in when it is done."""

    TYPE: ClassVar[str] = "cave"
    piece: str
    shots: int
    portal: bool = False
    fight: CaveFight | None = None

    def to_json(self) -> Json:
        data: Json = {"type": self.TYPE, "piece": self.piece, "shots": self.shots}
        if self.fight is not None:
            fight = self.fight
            data.update({"bag": fight.bag, "strength": fight.strength,
                         "tokens": list(fight.tokens), "tie": str(fight.tie),
                         "item": fight.item, "antient": fight.antient})
        data["portal"] = self.portal
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> EnterCave:
        fields = _Fields(data)
        antient = data.get("antient")
        if antient is not None and (not isinstance(antient, str) or not antient.strip()
                                    or len(antient) > MAX_NAME):
            raise BadCommand(f"the antient needs a name, not {antient!r}")
        fight = CaveFight(fields.whole("bag", 1, 9), fields.whole("strength", 1, 12),
                          fields.texts("tokens"), fields.choice("tie", KrakenTie,
                                                                KrakenTie.KRAKEN),
                          fields.optional_text("item", MAX_NAME), antient)
        return cls(fields.text("piece"), fields.whole("shots", 0, 99), fields.flag("portal"),
                   fight)


class Summon(Struct, frozen=True):
    """An Antient the hero holds, summoned instead of their base shot sequence; `to`: where its
    piece was placed beside the hero (cm), worked out when it is done and logged (None: its
    piece was on the mat already, a heroes' Antient of the scenario)."""

    TYPE: ClassVar[str] = "summon"
    piece: str
    antient: str
    to: Point | None = None

    def to_json(self) -> Json:
        return _without_none({"type": self.TYPE, "piece": self.piece, "antient": self.antient,
                              "to": list(self.to) if self.to is not None else None})

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Summon:
        fields = _Fields(data)
        return cls(fields.text("piece"), fields.text("antient", MAX_NAME),
                   fields.point("to") if data.get("to") is not None else None)


class EndHeroesTurn(Struct, frozen=True):
    """The heroes are done: the AI turn begins."""

    TYPE: ClassVar[str] = "end-heroes-turn"

    def to_json(self) -> Json:
        return {"type": self.TYPE}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> EndHeroesTurn:
        return cls()


class NextActivation(Struct, frozen=True):
    """One AI activation. Its dice and tokens (`outcomes`) and its geometric `answers` are the
    ones given ahead (a replay gives all of them); the rest are drawn or asked, and the
    activation is logged with every one of them, a one-line `summary` and where each piece it
    moved or placed ended (`ends`, tracked geometry only: a replay keeps them, and reports a
    machine that computes otherwise)."""

    TYPE: ClassVar[str] = "activation"
    outcomes: tuple[ChanceAnswer, ...] = ()
    answers: tuple[GeometryAnswer, ...] = ()
    summary: str = ""
    answered: bool = False  # from the log: every answer is in it
    ends: tuple[tuple[str, Point], ...] | None = None  # None: logged before ends were kept

    def to_json(self) -> Json:
        data: Json = {"type": self.TYPE, "outcomes": [o.to_json() for o in self.outcomes],
                      "answers": [a.to_json() for a in self.answers]}
        if self.summary:
            data["summary"] = self.summary
        if self.ends is not None:
            data["ends"] = {piece: [at[0], at[1]] for piece, at in self.ends}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> NextActivation:
        fields = _Fields(data)
        outcomes = tuple(ChanceAnswer.from_json(o) for o in fields.objects("outcomes"))
        answers = tuple(GeometryAnswer.from_json(a) for a in fields.objects("answers"))
        summary = data.get("summary", "")
        if not isinstance(summary, str):
            raise BadCommand("summary is not text")
        ends = None
        if "ends" in data:
            table = data["ends"]
            if not isinstance(table, dict):
                raise BadCommand("ends is not a table of positions [x, y] on the table")
            places = _Fields({str(k): v for k, v in table.items()})
            ends = tuple((str(piece), places.point(str(piece))) for piece in table)
        return cls(outcomes, answers, summary, answered="answers" in data, ends=ends)


class Undo(Struct, frozen=True):
    """Take back the last input in force (the log keeps it; Redo puts it back)."""

    TYPE: ClassVar[str] = "undo"

    def to_json(self) -> Json:
        return {"type": self.TYPE}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Undo:
        return cls()


class Redo(Struct, frozen=True):
    """Put back the last input undone."""

    TYPE: ClassVar[str] = "redo"

    def to_json(self) -> Json:
        return {"type": self.TYPE}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Redo:
        return cls()


class Rollback(Struct, frozen=True):
    """Keep the first `keep` inputs in force; the rest can be redone."""

    TYPE: ClassVar[str] = "rollback"
    keep: int

    def to_json(self) -> Json:
        return {"type": self.TYPE, "to": self.keep}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Rollback:
        return cls(_Fields(data).whole("to", 0, MAX_INPUTS))


class Checkpoint(Struct, frozen=True):
    """Go on from a kept battle (`automa log --accept-data`, `--accept-recomputed`): the
    battle as it stood (`standing`, session/snapshot.py's JSON, read when it is applied), and
    the data and rulings the inputs after it are played under (`basis`: the data files'
    digests and the rulings in force, session/provenance.py). Never made by a player."""

    TYPE: ClassVar[str] = "checkpoint"
    why: str
    basis: Mapping[str, object]
    standing: Mapping[str, object]

    def to_json(self) -> Json:
        return {"type": self.TYPE, "why": self.why, **self.basis, "state": dict(self.standing)}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Checkpoint:
        standing = data.get("state")
        if not isinstance(standing, dict):
            raise BadCommand("a checkpoint without the battle it keeps")
        basis = {key: data[key] for key in BASIS_KEYS if key in data}
        if not all(isinstance(value, dict) for value in basis.values()):
            raise BadCommand("a checkpoint's record of the data or rulings is not a table")
        return cls(_Fields(data).optional_text("why") or "", basis, standing)


BASIS_KEYS = ("data", "data_files", "rulings")  # what a checkpoint records of the data


class Damaged(Struct, frozen=True):
    """The stand-in for a log line that cannot be an input: replaying it stops with
    `problem`, naming `line`. Never made by a player."""

    TYPE: ClassVar[str] = "damaged"
    problem: str
    line: int | None = None

    def to_json(self) -> Json:
        return _without_none({"type": self.TYPE, "problem": self.problem, "line": self.line})


TableCommand = Move | Damage | Heal | Adjust | Remove | SetCondition | ReturnToMat
HeroCommand = Hit | UseCard | EnterCave | Summon
Marker = Undo | Redo | Rollback
Command = (TableCommand | HeroCommand | EndHeroesTurn | NextActivation | Marker | Checkpoint
           | Damaged)

READERS: dict[str, Callable[[Mapping[str, object]], Command]] = {
    Move.TYPE: Move.from_json, Damage.TYPE: Damage.from_json, Heal.TYPE: Heal.from_json,
    **{str(counter): Adjust.from_json for counter in Counter},
    Remove.TYPE: Remove.from_json, SetCondition.TYPE: SetCondition.from_json,
    ReturnToMat.TYPE: ReturnToMat.from_json, Hit.TYPE: Hit.from_json,
    UseCard.TYPE: UseCard.from_json, EnterCave.TYPE: EnterCave.from_json,
    Summon.TYPE: Summon.from_json, EndHeroesTurn.TYPE: EndHeroesTurn.from_json,
    NextActivation.TYPE: NextActivation.from_json, Undo.TYPE: Undo.from_json,
    Redo.TYPE: Redo.from_json, Rollback.TYPE: Rollback.from_json,
    Checkpoint.TYPE: Checkpoint.from_json,
}


def command_from_json(data: object) -> Command:
    """The command a log line (or a request's body) holds; BadCommand says what is wrong."""
    if not isinstance(data, Mapping):
        raise BadCommand("not an input record")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise BadCommand("it has no type")
    reader = READERS.get(kind)
    if reader is None:
        raise BadCommand(f"unknown input {kind!r}")
    return reader(data)


def read_or_damaged(data: object, line: int | None = None) -> Command:
    """`command_from_json`, with a line that cannot be an input kept as `Damaged`."""
    try:
        return command_from_json(data)
    except BadCommand as bad:
        return Damaged(str(bad), line)


def describe_answers(outcomes: Sequence[ChanceAnswer]) -> str:
    return ", ".join(f"{o.kind} {o.value}" for o in outcomes)

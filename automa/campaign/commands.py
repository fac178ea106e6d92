"""The players' campaign steps as typed commands: starting a campaign, entering a room, ending
it, a purchase at a special room, the Alewife Tavern's bet, taking a step back.

A command is what the players decide; `Campaign.do` (campaign/store.py) fills in what the game
decides (the room's session, the boards afterwards, the draw) and logs it. Each command's
`to_json()` is its campaign log line, exactly as the campaign has always written it (a campaign
begun before these types replays the same), and `from_json()` reads a line back, refusing a bad
one with one line naming what is wrong. `check(state)` says in one line why the step cannot be
taken now (None: it can).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, Literal, get_args

from msgspec import Struct

from automa.campaign.log import CampaignError
from automa.campaign.model import (
    HERO_DEATH,
    AllyBoard,
    CampaignState,
    HeroBoard,
    HeroDeath,
    room_states,
)
from automa.campaign.tavern import TAVERN_RESULTS, TavernResult
from automa.errors import InputError
from automa.model.campaigns import BOARD_FIELDS, LAIR, LAIR_NAME, BoardField
from automa.rules.rulings import RulingKey, cite

AltheaCure = Literal["official", "fan"]  # ruling althea-cure: a Poison card's cure at Althea
ALTHEA_CURE: tuple[AltheaCure, ...] = get_args(AltheaCure)
ALTHEA_SETTING = "althea-cure"
VisitPool = Literal["own-gold", "pooled"]  # ruling visit-pool: who pays at a special room
VISIT_POOL: tuple[VisitPool, ...] = get_args(VisitPool)
POOL_SETTING = "visit-pool"
InnSleep = Literal["capped", "over"]  # ruling inn-sleep: the Amaranth Inn's +1 health
INN_SLEEP: tuple[InnSleep, ...] = get_args(InnSleep)
INN_SETTING = "inn-sleep"
Kind = Literal["enter", "end-room", "visit", "undo"]


class BadLine(CampaignError):
    """A campaign log line (or a command's JSON) that is not a step."""


class BadField(InputError):
    """A value given for one of a step's fields that cannot be taken: `field` names it as the
    command (or `TableAnswers`) does, for a front end to name it its own way."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field, self.reason = field, reason


class FieldConflict(CampaignError):
    """A field's value the campaign as it stands refuses (a dead hero's purchase, a monster
    kept twice)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field, self.reason = field, reason


class Refusal(Struct, frozen=True):
    """Why a step cannot be taken, and the field to blame when one is (a front end names it
    its own way)."""

    reason: str
    field: str | None = None

    def error(self) -> CampaignError:
        return CampaignError(self.reason) if self.field is None else FieldConflict(
            self.field, self.reason)


class Checked:
    """`check(state)`: the one line saying why the step cannot be taken now (None: it can)."""

    __slots__ = ()  # a mixin of records: they hold their fields alone

    def refusal(self, state: CampaignState) -> Refusal | None:
        raise NotImplementedError

    def check(self, state: CampaignState) -> str | None:
        refused = self.refusal(state)
        return None if refused is None else refused.reason


# Reading a JSON object field by field: each refusal names the field.

def _get(data: Mapping[str, object], key: str, what: str) -> object:
    if key not in data:
        raise BadLine(f"{what}: no {key!r}")
    return data[key]


def _text(data: Mapping[str, object], key: str, what: str) -> str:
    value = _get(data, key, what)
    if not isinstance(value, str) or not value:
        raise BadLine(f"{what}: {key!r} is not a name")
    return value


def _maybe_text(data: Mapping[str, object], key: str, what: str) -> str | None:
    value = data.get(key)
    if value is not None and (not isinstance(value, str) or not value):
        raise BadLine(f"{what}: {key!r} is neither a name nor null")
    return value


def _whole(value: object, where: str, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BadLine(f"{what}: {where} is not a whole number of {low} or more")
    return value


def _flag(value: object, where: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise BadLine(f"{what}: {where} is not true or false")
    return value


def _names(value: object, where: str, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise BadLine(f"{what}: {where} is not a list of names")
    return tuple(value)


def _list(value: object, where: str, what: str) -> list[object]:
    """A list the line may leave out (none)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadLine(f"{what}: {where} is not a list")
    return value


def _table(value: object, where: str, what: str) -> Mapping[str, object]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise BadLine(f"{what}: {where} is not an object")
    return value


def board_from_json(hero: str, data: object, what: str) -> HeroBoard:
    """A hero's board as the log holds it (`HeroBoard.as_json`)."""
    where = f"hero {hero!r}'s board"
    board = _table(data, where, what)
    number = {key: _whole(_get(board, key, f"{what}: {where}"), f"{where}.{key}", what)
              for key in ("starting_health", "health", "gold", "poison", "items", "spells")}
    allies = _whole(board.get("allies", 0), f"{where}.allies", what)
    used = _names(board.get("used", []), f"{where}.used", what)
    recruits = []
    for entry in _list(board.get("ally_boards"), f"{where}.ally_boards", what):
        ally = _table(entry, f"{where}.ally_boards", what)
        here = f"{what}: {where}.ally_boards"
        recruits.append(AllyBoard(
            _text(ally, "id", here), hero,
            _whole(_get(ally, "starting_health", here), f"{where}.ally_boards.starting_health",
                   what),
            _whole(_get(ally, "health", here), f"{where}.ally_boards.health", what),
            _flag(_get(ally, "alive", here), f"{where}.ally_boards.alive", what)))
    return HeroBoard(hero, number["starting_health"], number["health"], number["gold"],
                     number["poison"], number["items"], number["spells"],
                     _flag(_get(board, "alive", f"{what}: {where}"), f"{where}.alive", what),
                     allies, used, tuple(recruits))


def boards_from_json(data: object, what: str) -> tuple[HeroBoard, ...]:
    boards = _table(data, "heroes", what)
    if not boards:
        raise BadLine(f"{what}: no heroes")
    return tuple(board_from_json(hero, board, what) for hero, board in boards.items())


def boards_json(heroes: Iterable[HeroBoard]) -> dict[str, dict[str, object]]:
    return {board.id: board.as_json() for board in heroes}


def _pairs_json(pairs: Iterable[tuple[str, int]]) -> dict[str, int]:
    return dict(pairs)


def _pairs(value: object, where: str, what: str) -> tuple[tuple[str, int], ...]:
    table = _table(value, where, what)
    return tuple((hero, _whole(n, f"{where}.{hero}", what)) for hero, n in table.items())


def _heroes_in(state: CampaignState, boards: Iterable[HeroBoard] | None) -> Refusal | None:
    """The boards afterwards name exactly the campaign's heroes."""
    if boards is not None and [b.id for b in boards] != list(state.heroes):
        return Refusal(f"the boards name {', '.join(b.id for b in boards)}, not the campaign's "
                       f"heroes ({', '.join(state.heroes)})", "heroes")
    return None


# The header: line 1 -------------------------------------------------------------------------

class CaveSetup(Struct, frozen=True):
    """The Hidden Cave as drawn at the campaign's start."""

    needed: tuple[str, ...]  # the five level-1 monsters to collect
    items: tuple[str, ...]  # the four items beside the Hidden Cave card

    def to_json(self) -> dict[str, object]:
        return {"needed": list(self.needed), "items": list(self.items)}


class StartCampaign(Struct, frozen=True):
    """`campaign new`: the route, the heroes' boards, the Lord, the rules chosen. `lord`, `seed`
    and `cave` are filled in when the campaign starts (the route's start piece, a fresh seed,
    the five cave monsters drawn); the filled command is the log's first line."""

    campaign: str
    heroes: tuple[HeroBoard, ...]
    lord: str | None = None
    seed: int | None = None
    hidden_cave: bool = False
    cave: CaveSetup | None = None
    hero_death: HeroDeath = "returns"
    althea_cure: AltheaCure = "official"
    visit_pool: VisitPool = "own-gold"
    inn_sleep: InnSleep = "capped"

    def to_json(self) -> dict[str, object]:
        return {"campaign": self.campaign, "lord": self.lord, "seed": self.seed,
                "heroes": boards_json(self.heroes),
                "hidden_cave": None if self.cave is None else self.cave.to_json(),
                "hero_death": self.hero_death, "settings": self.settings}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> StartCampaign:
        """The header (`format` and `version` are the log's own). A header written before the
        campaign kept a rule's setting reads as that ruling's default."""
        what = "line 1"
        seed = _whole(_get(data, "seed", what), "seed", what)
        cave_data = data.get("hidden_cave")
        cave = None
        if cave_data is not None:
            table = _table(cave_data, "hidden_cave", what)
            cave = CaveSetup(_names(_get(table, "needed", what), "hidden_cave.needed", what),
                             _names(_get(table, "items", what), "hidden_cave.items", what))
        death = data.get("hero_death", HERO_DEATH[0])
        if death not in HERO_DEATH:
            raise BadLine(f"{what}: hero_death {death!r} is not one of {', '.join(HERO_DEATH)}")
        settings = _table(data.get("settings", {}), "settings", what)
        cure = settings.get(ALTHEA_SETTING, ALTHEA_CURE[0])
        if cure not in ALTHEA_CURE:
            raise BadLine(f"{what}: settings.{ALTHEA_SETTING} {cure!r} is not one of "
                          f"{', '.join(ALTHEA_CURE)}")
        pool = settings.get(POOL_SETTING, VISIT_POOL[0])
        if pool not in VISIT_POOL:
            raise BadLine(f"{what}: settings.{POOL_SETTING} {pool!r} is not one of "
                          f"{', '.join(VISIT_POOL)}")
        sleep = settings.get(INN_SETTING, INN_SLEEP[0])
        if sleep not in INN_SLEEP:
            raise BadLine(f"{what}: settings.{INN_SETTING} {sleep!r} is not one of "
                          f"{', '.join(INN_SLEEP)}")
        return cls(_text(data, "campaign", what), boards_from_json(_get(data, "heroes", what),
                                                                   what),
                   _text(data, "lord", what), seed, cave is not None, cave, death, cure, pool,
                   sleep)

    def refusal(self, routes: Iterable[str], lords: Iterable[str]) -> Refusal | None:
        known = sorted(routes)
        if self.campaign not in known:
            return Refusal(f"unknown campaign {self.campaign!r} (known: {', '.join(known)})",
                           "campaign")
        if not self.heroes:
            return Refusal("name at least one hero, e.g. elf=8", "heroes")
        ids = [b.id for b in self.heroes]
        if len(set(ids)) != len(ids):
            return Refusal(f"a hero is named twice ({', '.join(ids)})", "heroes")
        lords = sorted(lords)
        if self.lord is not None and self.lord not in lords:
            return Refusal(f"unknown Catacomb Lord {self.lord!r} (known: {', '.join(lords)})",
                           "lord")
        if self.cave is not None and not self.hidden_cave:
            return Refusal("the Hidden Cave's monsters are drawn only for a campaign played "
                           "with it", "cave")
        return None

    def check(self, routes: Iterable[str], lords: Iterable[str]) -> str | None:
        """Why this campaign cannot start (None: it can)."""
        refused = self.refusal(routes, lords)
        return None if refused is None else refused.reason

    @property
    def settings(self) -> dict[str, str]:
        return {ALTHEA_SETTING: self.althea_cure, POOL_SETTING: self.visit_pool,
                INN_SETTING: self.inn_sleep}


# The steps: every line after the first --------------------------------------------------------

class EnterRoom(Checked, Struct, frozen=True):
    """`campaign next ROOM`: the heroes enter one of the open rooms. A battle room's or the
    Lair's battle is a session in the campaign folder (`session`, filled in with its `playmat`
    when the room is set up); a special room is a visit (no session)."""

    room: str
    session: str | None = None  # relative to the campaign folder
    playmat: str | None = None

    kind: ClassVar[Kind] = "enter"

    def to_json(self) -> dict[str, object]:
        return {"type": "enter", "room": self.room, "session": self.session,
                "playmat": self.playmat}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> EnterRoom:
        what = "enter"
        return cls(_text(data, "room", what), _maybe_text(data, "session", what),
                   _maybe_text(data, "playmat", what))

    def refusal(self, state: CampaignState) -> Refusal | None:
        if state.over:
            listed = next((r for r in state.route.after_lair if r.id == self.room), None)
            if listed is not None and LAIR in state.done:
                return Refusal(f"the campaign is over: it ended with the {LAIR_NAME}, its last "
                               f"room, so {listed.name}, listed after the Lair, is not visited "
                               f"({cite(RulingKey.LAIR_LAST)})", "room")
            return Refusal("the campaign is over; see `automa campaign status`")
        if state.current is not None:
            return Refusal(f"the heroes are still in {state.current}: finish it with `automa "
                           f"campaign end-room` first")
        states = room_states(state)
        if self.room not in states:
            open_rooms = ", ".join(r for r, s in states.items() if s == "open")
            return Refusal(f"{self.room!r} is not on the {state.route.name} route (open: "
                           f"{open_rooms})", "room")
        if states[self.room] != "open":
            return Refusal(f"{self.room} is {states[self.room]}, not open", "room")
        entry = state.route.room(self.room)
        if entry is not None and entry.kind == "special" and self.session is not None:
            return Refusal(f"{entry.name} is a visit: no battle session", "session")
        return None


class RoomRewards(Struct, frozen=True):
    """The Room card's Room Level Rewards as given to the heroes, and where they came from."""

    gold: int
    spell: bool
    provenance: str


class Change(Struct, frozen=True):
    """A change the players made on a hero's board at the table (`--change elf.gold=-3`)."""

    hero: str
    field: BoardField
    amount: int

    def to_json(self) -> dict[str, object]:
        return {"hero": self.hero, "field": self.field, "amount": self.amount}


class EndRoom(Checked, Struct, frozen=True):
    """`campaign end-room`: the room is over. The players decide `spell_to` (who takes the
    Spell card), the Hidden Cave monsters to keep that the battle's log cannot tell
    (`collected`), the dead heroes resurrected at the table and their own changes; the rest is
    filled in: the room, the rewards given, the kill gold and the boards afterwards. Logged,
    `collected` holds every monster kept this room, the battle's kills first."""

    spell_to: str | None = None
    collected: tuple[tuple[str, str], ...] = ()  # (hero, monster)
    resurrected: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()
    room: str | None = None
    rewards: RoomRewards | None = None
    kill_gold: tuple[tuple[str, int], ...] | None = None  # a battle room's Resolution Phase
    heroes: tuple[HeroBoard, ...] | None = None

    kind: ClassVar[Kind] = "end-room"

    def to_json(self) -> dict[str, object]:
        line: dict[str, object] = {"type": "end-room", "room": self.room, "rewards": None if (
            self.rewards is None) else {"gold": self.rewards.gold, "spell": self.rewards.spell,
                                        "spell_to": self.spell_to,
                                        "provenance": self.rewards.provenance}}
        if self.kill_gold is not None:
            line["kill_gold"] = _pairs_json(self.kill_gold)
        if self.collected:
            line["collected"] = [list(pair) for pair in self.collected]
        if self.resurrected:
            line["resurrected"] = list(self.resurrected)
        if self.changes:
            line["changes"] = [c.to_json() for c in self.changes]
        line["heroes"] = None if self.heroes is None else boards_json(self.heroes)
        return line

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> EndRoom:
        what = "end-room"
        rewards, spell_to = None, None
        given = data.get("rewards")
        if given is not None:
            table = _table(given, "rewards", what)
            rewards = RoomRewards(_whole(_get(table, "gold", what), "rewards.gold", what),
                                  _flag(_get(table, "spell", what), "rewards.spell", what),
                                  _text(table, "provenance", what))
            spell_to = _maybe_text(table, "spell_to", what)
        kill_gold = None if data.get("kill_gold") is None else _pairs(data["kill_gold"],
                                                                      "kill_gold", what)
        collected = []
        for pair in _list(data.get("collected"), "collected", what):
            hero_monster = _names(pair, "collected", what)
            if len(hero_monster) != 2:
                raise BadLine(f"{what}: collected holds [HERO, MONSTER] pairs")
            collected.append((hero_monster[0], hero_monster[1]))
        changes = []
        for entry in _list(data.get("changes"), "changes", what):
            table = _table(entry, "changes", what)
            field = _get(table, "field", what)
            if field not in BOARD_FIELDS:
                raise BadLine(f"{what}: changes: {field!r} is not one of "
                              f"{', '.join(BOARD_FIELDS)}")
            amount = _get(table, "amount", what)
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise BadLine(f"{what}: changes: the amount is not a whole number")
            changes.append(Change(_text(table, "hero", what), field, amount))
        return cls(spell_to, tuple(collected),
                   _names(data.get("resurrected") or [], "resurrected", what), tuple(changes),
                   _text(data, "room", what), rewards, kill_gold,
                   boards_from_json(_get(data, "heroes", what), what))

    def refusal(self, state: CampaignState) -> Refusal | None:
        if state.current is None:
            return Refusal("no room is being played: choose one with `automa campaign next`")
        if self.room is not None and self.room != state.current:
            return Refusal(f"the heroes are in {state.current}, not {self.room}", "room")
        return _heroes_in(state, self.heroes)


class Share(Struct, frozen=True):
    """Who pays how much of a price; `gold` None: the whole price (one payer)."""

    hero: str
    gold: int | None = None


class Buy(Checked, Struct, frozen=True):
    """`campaign visit OFFER`: a purchase at the special room being visited (the Merchant, the
    Healer, the Inn, the Stables, the Crypt). `price` is the data's, or the card's when the
    data leaves it to the card; the boards afterwards are filled in."""

    offer: str
    hero: str | None = None  # the hero the purchase is for ("for" in the log)
    payers: tuple[Share, ...] | None = None  # None: the hero it is for, or the only living one
    price: int | None = None
    room: str | None = None
    heroes: tuple[HeroBoard, ...] | None = None
    ally_health: int | None = None  # an ally recruited: its starting health (None: its hero's)

    kind: ClassVar[Kind] = "visit"

    def _line(self) -> dict[str, object]:
        return {"type": "visit", "room": self.room, "offer": self.offer, "price": self.price,
                "payers": None if self.payers is None else {s.hero: s.gold for s in self.payers},
                "for": self.hero}

    def to_json(self) -> dict[str, object]:
        return {**self._line(), "heroes": None if self.heroes is None else boards_json(
            self.heroes)}

    @staticmethod
    def _fields(data: Mapping[str, object], what: str) -> tuple[str, str | None,
                                                                 tuple[Share, ...], int, str,
                                                                 tuple[HeroBoard, ...]]:
        payers = tuple(Share(hero, gold) for hero, gold in _pairs(_get(data, "payers", what),
                                                                  "payers", what))
        return (_text(data, "offer", what), _maybe_text(data, "for", what), payers,
                _whole(_get(data, "price", what), "price", what), _text(data, "room", what),
                boards_from_json(_get(data, "heroes", what), what))

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Buy:
        return cls(*cls._fields(data, "visit"))

    def refusal(self, state: CampaignState) -> Refusal | None:
        room = state.route.room(state.current) if state.current else None
        if room is None or room.kind != "special":
            return Refusal("no special room is being visited: enter one with `automa campaign "
                           "next ROOM`")
        if self.room is not None and self.room != room.id:
            return Refusal(f"the heroes are visiting {room.id}, not {self.room}", "room")
        return _heroes_in(state, self.heroes)


class Bet(Buy, frozen=True):
    """The Alewife Tavern's bet: three pieces drawn from the bag (`drawn`: at the table; None:
    by the dice mode), what they make and the reward taken (`reward` None in the command: the
    best the draw wins; in the log: nothing won)."""

    drawn: tuple[str, ...] | None = None
    result: TavernResult | None = None
    reward: str | None = None

    def to_json(self) -> dict[str, object]:
        return {**self._line(), "drawn": None if self.drawn is None else list(self.drawn),
                "result": self.result, "reward": self.reward,
                "heroes": None if self.heroes is None else boards_json(self.heroes)}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Bet:
        what = "visit"
        result = data.get("result")
        if result is not None and result not in TAVERN_RESULTS:
            raise BadLine(f"{what}: result {result!r} is not one of {', '.join(TAVERN_RESULTS)}")
        return cls(*cls._fields(data, what), drawn=_names(_get(data, "drawn", what), "drawn",
                                                          what),
                   result=result, reward=_maybe_text(data, "reward", what))


class Undo(Checked, Struct, frozen=True):
    """`campaign undo`: take back the last step in force (the log keeps it)."""

    kind: ClassVar[Kind] = "undo"

    def to_json(self) -> dict[str, object]:
        return {"type": "undo"}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Undo:
        return cls()

    def refusal(self, state: CampaignState) -> Refusal | None:
        return Refusal("nothing to undo: the campaign has just begun") if state.steps == 0 \
            else None


Step = EnterRoom | EndRoom | Buy | Bet | Undo


def step_from_json(data: object) -> Step:
    """A campaign log line after the first. Keys a step does not know are left alone (the log
    may carry its own, such as a line's place in the chain)."""
    if not isinstance(data, dict):
        raise BadLine("not a JSON object")
    kind = data.get("type")
    if kind == "enter":
        return EnterRoom.from_json(data)
    if kind == "end-room":
        return EndRoom.from_json(data)
    if kind == "visit":
        return Bet.from_json(data) if "drawn" in data else Buy.from_json(data)
    if kind == "undo":
        return Undo.from_json(data)
    raise BadLine(f"unknown step {kind!r}")

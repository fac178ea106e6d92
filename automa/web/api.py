"""The board's endpoints, as functions over one session (no HTTP here: server.py is the
plumbing). Each action's JSON is read into the same typed command the terminal makes of its
words (session/commands.py) and done through `Session.do`, so the log is the only state and the
page can do nothing the terminal cannot.

Each endpoint takes the request's JSON body (None for a GET) and returns (status, payload);
a request it refuses raises `ApiError` with the status and one line."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct, field

from automa.errors import InputError, RulesError
from automa.model.pieces import CONDITIONS, Condition
from automa.session.apply import Applied, NumberAsked
from automa.session.commands import (
    Command,
    Damage,
    EndHeroesTurn,
    Heal,
    Hit,
    Move,
    NextActivation,
    Redo,
    SetCondition,
    Undo,
)
from automa.session.log import SessionError
from automa.session.store import Session
from automa.web.pending import OpenQuestion

if TYPE_CHECKING:
    from automa.catalog.load import Catalog
    from automa.engine.forecast import Forecast
    from automa.engine.threat import SightMemo, ThreatMap
    from automa.session.state import SessionState

Json = dict[str, object]  # a request's body, or a reply's
Payload = object  # what a reply carries: JSON values
Result = tuple[int, Payload]
MAX_TEXT = 400  # characters in one string field (a command line, a position in words)
STATE_COMMANDS = (EndHeroesTurn, Undo, Redo)  # refused for the battle's state, not their words
THREAT_MAPS_KEPT = 8  # a map at 0.5 cm on a large mat is a few MB: the board keeps a handful
ThreatKey = tuple[str, str, float]  # the log's version, the hero, the step
ASKING_ABOUT = ("actor", "actor_name", "target", "target_name")  # a question's, for other pages


class ApiError(Exception):
    """A refused request: the HTTP status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Board(Struct):
    """What the server shows: one battle (`automa serve --session BATTLE`), or a campaign
    folder (`campaign`), whose current room's battle it follows from room to room (`battle`
    None between rooms). The data folder its catalog came from, and the lock that lets one
    request at a time read or write (the session object is not shared safely)."""

    battle: Session | None
    data_dir: Path | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    campaign: Path | None = None  # the campaign folder followed, or None: one battle
    _view: tuple[str, Json] | None = None
    # threat maps, newest last, at most THREAT_MAPS_KEPT (a map is the same for any `by`), and
    # the lock one computation at a time holds (not `lock`: the page's polling goes on)
    _threats: OrderedDict[ThreatKey, ThreatMap] = field(default_factory=OrderedDict)
    threat_lock: threading.Lock = field(default_factory=threading.Lock)
    # the mat's sight kept from map to map (engine/threat.py SightMemo: a second hero's map
    # asks only the squares not yet known), and how far the map being computed has got
    # (AI pieces mapped, AI pieces in all), for the page to show
    _sight: SightMemo | None = None
    threat_progress: tuple[int, int] | None = None
    # the forecast of the coming AI turn (web/forecast.py): the newest, with the log's version
    # it is of; one computed at a time, outside `lock`, and the turns it has played so far
    _forecast: tuple[str, Forecast] | None = None
    forecast_lock: threading.Lock = field(default_factory=threading.Lock)
    forecast_progress: int | None = None
    # the question Next last put to a device, with the answers given so far, kept on disk in
    # the session folder (web/pending.py) until the log moves on or the table drops it
    _open: OpenQuestion | None = None
    _followed: tuple[str, Path | None] | None = None  # the campaign log's digest, its room
    announced: list[str] = field(default_factory=list)  # by the last
    # the Photo button (web/photo.py): one photo read at a time, outside `lock`, and how far
    # its reading has got (step, fraction), for the page to show
    photo_lock: threading.Lock = field(default_factory=threading.Lock)
    photo_progress: tuple[str, float] | None = None

    @property
    def session(self) -> Session:
        """The battle shown; between two rooms of a campaign there is none (409)."""
        if self.battle is None:
            raise ApiError(409, "no battle is being played: the campaign is between rooms "
                                "(start the next room from the campaign panel)")
        return self.battle

    def version(self) -> str:
        """The log's SHA-256 (a battle); for a campaign, the campaign log's and its current
        battle's, so a step of either moves it."""
        from automa.web.view import version

        here = version(self.battle) if self.battle is not None else "-"
        if self.campaign is None:
            return here
        followed = self._followed[0] if self._followed is not None else "-"
        return f"{followed}:{here}"

    def follow(self) -> None:
        """Read the session again (and, for a campaign, its log: a room entered or ended in
        a terminal is followed here at once)."""
        if self.campaign is not None:
            self._follow_campaign()
        if self.battle is not None:
            try:
                self.battle.refresh()
            except SessionError as error:
                raise ApiError(409, str(error)) from None

    def _follow_campaign(self) -> None:
        from automa.campaign.battles import open_room
        from automa.errors import AutomaError
        from automa.web.following import current_room, log_digest

        assert self.campaign is not None
        try:
            digest = log_digest(self.campaign)
            if self._followed is not None and self._followed[0] == digest:
                return
            room = current_room(self.campaign, self.catalog(), self.data_dir)
        except AutomaError as error:
            raise ApiError(409, str(error)) from None
        self._followed = (digest, room)
        if room is None:
            self.battle = None
        elif self.battle is None or self.battle.folder.resolve() != room.resolve():
            try:
                self.battle = open_room(room, self.catalog())
            except SessionError as error:
                raise ApiError(409, str(error)) from None
        self._view, self._open = None, None  # threat maps are keyed by the battle's version

    def catalog(self) -> Catalog:
        """The data as the data folder holds it now (a room's card told at a step is known at
        the next)."""
        from automa.catalog.load import load_catalog

        return load_catalog(self.data_dir)

    def asked(self, question: Json, answers: Sequence[str]) -> None:
        """Next asked a device `question` after `answers`: kept (on disk) until the log moves
        on, so a reloaded page or another device can take it over or drop it."""
        from automa.storage import WriteError
        from automa.web.pending import OpenQuestion, keep

        self._open = OpenQuestion(self.version(), tuple(answers), question)
        try:
            keep(self.session.folder, self._open)
        except WriteError as error:  # a read-only folder: kept in memory, the question asked
            sys.stderr.write(f"automa serve: {error}\n")

    def open_question(self) -> OpenQuestion | None:
        """The question open on the log as it is now, if a device was asked one (answering
        it, or any other input, moves the log on and closes it)."""
        from automa.web.pending import read

        if self.battle is None:
            return None
        if self._open is None:
            self._open = read(self.battle.folder)
        if self._open is None or self._open.version != self.version():
            return None
        return self._open

    def drop_question(self) -> None:
        from automa.web.pending import drop

        self._open = None
        if self.battle is not None:
            drop(self.battle.folder)

    def asking(self) -> str | None:
        """The prompt of the open question, if any."""
        found = self.open_question()
        return None if found is None else str(found.question.get("prompt", ""))

    def asking_about(self) -> Json | None:
        """Whom the open question is about: the acting piece and its target, as it names
        them."""
        found = self.open_question()
        return None if found is None else {key: found.question.get(key) for key in ASKING_ABOUT}

    def view(self) -> Json:
        """The view, built again only when the log has changed (the campaign's status, kept in
        another log, is read each time)."""
        from automa.errors import AutomaError
        from automa.web.following import between_rooms_view, live_campaign
        from automa.web.view import build_view, version

        try:
            if self.battle is None:
                assert self.campaign is not None
                return between_rooms_view(self.campaign, self.catalog(), self.data_dir,
                                          self.version())
            campaign = live_campaign(self.battle, self.data_dir)
        except AutomaError as error:
            raise ApiError(409, str(error)) from None
        now = version(self.battle)
        if self._view is None or self._view[0] != now:
            self._view = (now, build_view(self.battle))
        return {**self._view[1], "version": self.version(), "campaign": campaign}

    def threat_map(self, key: ThreatKey, state: SessionState) -> ThreatMap:
        """The hero's map for the battle in `state` (the log's version `key[0]`): computed
        once, one computation at a time, the newest THREAT_MAPS_KEPT kept; called without
        `lock` held, so the page's polling and writes go on while it computes. The mat's
        sight is kept across maps and versions (`_sight`, while the mat is the same), and
        `threat_progress` says how far the map has got."""
        from automa.web.threat import compute_map, sight_memo

        with self.threat_lock:
            found = self._threats.get(key)
            if found is None:
                _, hero, step = key
                self._sight = sight_memo(self._sight, state.scenario.playmat,
                                         self.session.geometry)
                self.threat_progress = (0, 1)

                def told(done: int, total: int) -> None:
                    self.threat_progress = (done, total)

                try:
                    found = compute_map(state, self.session.catalog, hero, step, self._sight,
                                        told)
                finally:
                    self.threat_progress = None
                self._threats[key] = found
                while len(self._threats) > THREAT_MAPS_KEPT:
                    self._threats.popitem(last=False)
            self._threats.move_to_end(key)
            return found


# ---------------------------------------------------------------------------------------------
# Checking the body: every field named, typed and bounded; unknown fields refused by name.

def _fields(body: object, required: Sequence[str], optional: Sequence[str] = ()) -> Json:
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise ApiError(400, "the body must be a JSON object")
    unknown = sorted(set(body) - {*required, *optional})
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r} (fields: "
                            f"{', '.join([*required, *optional]) or 'none'})")
    missing = [name for name in required if name not in body]
    if missing:
        raise ApiError(400, f"missing field {missing[0]!r}")
    return body


def _text(body: Json, name: str) -> str:
    value = body[name]
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"{name}: expected a non-empty string, got {_shown(value)}")
    if len(value) > MAX_TEXT:
        raise ApiError(400, f"{name}: longer than {MAX_TEXT} characters")
    if not value.isprintable():
        raise ApiError(400, f"{name}: holds a control character")
    return value.strip()


def _word(body: Json, name: str) -> str:
    """One word: a piece id, a shot, a condition (no spaces: it goes into a command line)."""
    value = _text(body, name)
    if len(value.split()) != 1 or "," in value:
        raise ApiError(400, f"{name}: expected one word, got {value!r}")
    return value


def _integer(body: Json, name: str, low: int, high: int) -> int:
    value = body[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, f"{name}: expected a whole number, got {_shown(value)}")
    if not low <= value <= high:
        raise ApiError(400, f"{name}: expected {low} to {high}, got {value}")
    return value


def _flag(body: Json, name: str) -> bool:
    value = body[name]
    if not isinstance(value, bool):
        raise ApiError(400, f"{name}: expected true or false, got {_shown(value)}")
    return value


def _shown(value: object) -> str:
    kind = {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "an object", type(None): "null"}.get(type(value), "?")
    return kind


def _answers(fields: Json) -> list[str]:
    """The players' answers given so far (`answers`: short lines of text), as `POST /api/next`
    and the campaign's steps take them."""
    from automa.web.questions import MAX_ANSWER_LENGTH, MAX_ANSWERS

    answers = fields.get("answers", [])
    if not isinstance(answers, list):
        raise ApiError(400, f"answers: expected a list of strings, got {_shown(answers)}")
    if len(answers) > MAX_ANSWERS:
        raise ApiError(400, f"answers: more than {MAX_ANSWERS}")
    for number, answer in enumerate(answers, start=1):
        if not isinstance(answer, str):
            raise ApiError(400, f"answers: answer {number} is {_shown(answer)}, not a string")
        if len(answer) > MAX_ANSWER_LENGTH or not answer.isprintable():
            raise ApiError(400, f"answers: answer {number} is not a short line of text")
    return answers


def _piece(session: Session, piece_id: str) -> str:
    """A piece the battle knows: in play (404 when no piece ever had that id, 409 when it has
    left play)."""
    battle = session.state.battle
    if battle.get(piece_id) is not None:
        return piece_id
    if piece_id in battle.out:
        raise ApiError(409, f"{piece_id} is out of play ({battle.out[piece_id]})")
    ids = ", ".join(p.id for p in battle.pieces)
    raise ApiError(404, f"no piece {piece_id!r} (pieces in play: {ids})")


# ---------------------------------------------------------------------------------------------
# Doing a command through the session.

def do(board: Board, command: Command, answers: Sequence[str] = (), word: str = "") -> Applied:
    """One command through `Session.do`, the players' `answers` given ahead (a hit's dice, an
    activation's rolls and geometry): a refusal for the state the battle is in (another turn,
    nothing to undo, a log that moved on) is 409, one for how it was asked 400; an answer
    still missing is 400 naming the question."""
    from automa.session.apply import NotThisTurn
    from automa.web.questions import BadAnswer, NeedsAnswer, ScriptedAsker

    asker = ScriptedAsker(answers)
    try:
        applied = board.session.do(command, asker)
    except NeedsAnswer as need:
        prompt = str(need.question.get("prompt", "")).strip().rstrip(":")
        raise ApiError(400, f"{word or command.TYPE}: needs an answer: {prompt}") from None
    except BadAnswer as bad:
        raise ApiError(400, str(bad)) from None
    except (SessionError, RulesError, NotThisTurn) as error:
        raise ApiError(409, str(error)) from None
    except InputError as error:
        refused_for_the_state = isinstance(command, STATE_COMMANDS)
        raise ApiError(409 if refused_for_the_state else 400, str(error)) from None
    board.announced = list(asker.announced)
    return applied


def _acted(board: Board, applied: Applied) -> Result:
    """The view after a command, with what it did as the terminal prints it."""
    from automa.render.session_out import applied_lines

    lines = [*board.announced, *applied_lines(applied, announced=bool(board.announced))]
    return 200, {**board.view(), "output": "".join(f"{line}\n" for line in lines)}


# ---------------------------------------------------------------------------------------------
# The endpoints.

def get_state(board: Board, body: object) -> Result:
    from automa.render.session_out import session_status_json

    return 200, session_status_json(board.session)


def get_version(board: Board, body: object) -> Result:
    return 200, {"version": board.version(), "asking": board.asking(),
                 "asking_about": board.asking_about()}


def get_view(board: Board, body: object) -> Result:
    return 200, board.view()


def get_threat(board: Board, body: object) -> Result:
    """A hero's threat map (`?hero=ID&step=CM&by=PIECE`), as `automa threat --json` with the
    log's version and the colour bands the page shades the squares with. The session is read
    under the board's lock; the map is computed outside it (see `Board.threat_map`)."""
    from automa.web.threat import QueryError, refuse_guesses, threat_json, threat_key
    from automa.web.view import version

    try:
        hero, step, by = threat_key(body if isinstance(body, dict) else {})
        with board.lock:
            _read_again(board)
            refuse_guesses(board.session, hero)
            now, state = version(board.session), board.session.state
            shown = board.version()  # the page's version: a campaign's carries its log's too
        return 200, {**threat_json(board.threat_map((now, hero, step), state), by),
                     "version": shown}
    except QueryError as error:
        raise ApiError(400, str(error)) from None


def get_threat_progress(board: Board, body: object) -> Result:
    """How far the threat map being worked out has got: `{"working": false}`, or the AI
    pieces mapped of those in all and the share done (the page shows "Working... N %")."""
    now = board.threat_progress
    if now is None:
        return 200, {"working": False, "done": None, "of": None, "fraction": None}
    done, total = now
    return 200, {"working": True, "done": done, "of": total,
                 "fraction": round(done / max(total, 1), 3)}


def post_next(board: Board, body: object) -> Result:
    """One AI activation, exactly as `automa next --json`; or the next question it needs."""
    from automa.engine.judge import GeometryMode
    from automa.render.json_out import activation_json
    from automa.session.apply import NotThisTurn
    from automa.web.questions import BadAnswer, NeedsAnswer, ScriptedAsker

    answers = _answers(_fields(body, (), ("answers",)))
    session = board.session
    if answers and not session.setting.asks:
        raise ApiError(400, "answers: this session asks nothing (virtual dice, computed "
                            "geometry)")
    asker = ScriptedAsker(answers)
    try:
        applied = session.do(NextActivation(), asker)
    except NeedsAnswer as need:
        board.asked(need.question, answers[:asker.used])
        return 200, {"question": need.question, "answers": answers[:asker.used]}
    except BadAnswer as bad:
        raise ApiError(400, str(bad)) from None
    except (SessionError, RulesError, NotThisTurn) as error:
        raise ApiError(409, str(error)) from None
    except InputError as error:
        raise ApiError(400, str(error)) from None
    board.drop_question()
    activation = applied.activation
    asked = session.geometry_mode == GeometryMode.ASKED
    return 200, None if activation is None else activation_json(activation, asked=asked)


def post_move(board: Board, body: object) -> Result:
    fields = _fields(body, ("piece",), ("at", "words"))
    piece = _piece(board.session, _word(fields, "piece"))
    if ("at" in fields) == ("words" in fields):
        raise ApiError(400, "give the place as 'at': [x, y] or as 'words', one of them")
    if "words" in fields:
        return _acted(board, do(board, Move(piece, words=_text(fields, "words"))))
    at = fields["at"]
    if not (isinstance(at, list) and len(at) == 2 and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in at)):
        raise ApiError(400, f"at: expected [x, y] in cm, got {_shown(at)}")
    if not all(abs(v) < 10_000 for v in at):  # NaN and an int too big for a float fail too
        raise ApiError(400, "at: expected [x, y] in cm on the mat")
    to = (round(float(at[0]), 3), round(float(at[1]), 3))
    return _acted(board, do(board, Move(piece, to)))


def post_damage(board: Board, body: object) -> Result:
    fields = _fields(body, ("piece", "amount"), ("by",))
    piece = _piece(board.session, _word(fields, "piece"))
    by = _word(fields, "by") if "by" in fields else None
    return _acted(board, do(board, Damage(piece, _integer(fields, "amount", 1, 999), by)))


def post_heal(board: Board, body: object) -> Result:
    fields = _fields(body, ("piece", "amount"))
    piece = _piece(board.session, _word(fields, "piece"))
    return _acted(board, do(board, Heal(piece, _integer(fields, "amount", 1, 999))))


def post_condition(board: Board, body: object) -> Result:
    fields = _fields(body, ("piece", "condition", "on"))
    piece = _piece(board.session, _word(fields, "piece"))
    name = _word(fields, "condition").lower()
    if name not in CONDITIONS:
        raise ApiError(400, f"unknown condition {name!r} (known: {', '.join(CONDITIONS)})")
    return _acted(board, do(board, SetCondition(piece, Condition(name), _flag(fields, "on"))))


HIT_FIELDS = ("by", "trilithon")  # a hit's optional fields, besides its dice


def _hit(board: Board, fields: Json) -> Hit:
    """The hit a body names (`targets`, `shot`, `by`, `trilithon`), each field checked."""
    targets = fields["targets"]
    if not isinstance(targets, list) or not targets or len(targets) > 50:
        raise ApiError(400, f"targets: expected a list of piece ids, got {_shown(targets)}")
    ids = tuple(_piece(board.session, _word({"targets": t}, "targets")) for t in targets)
    shot = _word(fields, "shot").lower()
    by = _word(fields, "by") if "by" in fields else None
    trilithon = "trilithon" in fields and _flag(fields, "trilithon")
    return Hit(ids, shot, by, trilithon)


def _asked_json(question: NumberAsked) -> Json:
    return {"name": question.name, "prompt": question.prompt, "low": question.low,
            "high": question.high,
            "options": [str(n) for n in range(question.low, question.high + 1)]}


def post_hit_questions(board: Board, body: object) -> Result:
    """What `play`'s `hit` would ask the table for this hit, in order (the Poison card drawn,
    then in physical mode a D12 per target of a Portal Trap): the `dice` POST /api/hit takes.
    Nothing is logged."""
    from automa.session.apply import hit_questions

    command = _hit(board, _fields(body, ("targets", "shot"), HIT_FIELDS))
    asked = hit_questions(command, board.session.physical)
    return 200, {"questions": [_asked_json(q) for q in asked]}


def post_hit(board: Board, body: object) -> Result:
    """`play`'s `hit`: the numbers it asks (the Poison card drawn, 1-9, then in physical mode
    a D12 per target of a Portal Trap) are the `dice`, in that order."""
    from automa.session.apply import hit_questions

    fields = _fields(body, ("targets", "shot"), (*HIT_FIELDS, "dice"))
    command = _hit(board, fields)
    asked = hit_questions(command, board.session.physical)
    dice = fields.get("dice", [])
    if not isinstance(dice, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in dice):
        raise ApiError(400, f"dice: expected a list of whole numbers, got {_shown(dice)}")
    if len(dice) != len(asked):
        wanted = "; ".join(f"{q.name} ({q.low}-{q.high})" for q in asked) or "none"
        raise ApiError(400, f"dice: this hit needs {len(asked)}: {wanted}")
    for value, question in zip(dice, asked, strict=True):
        if not question.low <= value <= question.high:
            raise ApiError(400, f"dice: {question.name}: {value} is not "
                                f"{question.low}-{question.high}")
    return _acted(board, do(board, command, [str(d) for d in dice], "hit"))


def post_command(board: Board, body: object) -> Result:
    """Any line of `automa play`, read as the terminal reads it."""
    from automa.render.session_out import answer_text
    from automa.session.words import Asked, NotNow, Query, parse_line

    fields = _fields(body, ("line",))
    line = _text(fields, "line")
    try:
        parsed = parse_line(line, board.session.state.phase)
    except NotNow as error:
        raise ApiError(409, str(error)) from None
    except InputError as error:
        raise ApiError(400, str(error)) from None
    if parsed is None:
        raise ApiError(400, "line: empty")
    if isinstance(parsed, Asked):
        if parsed.query == Query.QUIT:
            raise ApiError(400, f"{line.split()[0]!r} means nothing on the board (everything "
                                f"is saved); close the page")
        try:
            return 200, {**board.view(), "output": answer_text(board.session, parsed)}
        except InputError as error:
            raise ApiError(400, str(error)) from None
    return _acted(board, do(board, parsed, word=line.split()[0].lower()))


def post_done(board: Board, body: object) -> Result:
    _fields(body, ())
    return _acted(board, do(board, EndHeroesTurn(), word="done"))


def post_undo(board: Board, body: object) -> Result:
    _fields(body, ())
    return _acted(board, do(board, Undo()))


def post_redo(board: Board, body: object) -> Result:
    _fields(body, ())
    return _acted(board, do(board, Redo()))


def post_rollback(board: Board, body: object) -> Result:
    """As `automa rollback`: the marker goes into the log first (so it works on a log that no
    longer replays), then the session is read again."""
    from automa.session.store import rollback_log

    fields = _fields(body, ("keep",))
    keep = _integer(fields, "keep", 0, 10**9)
    try:
        rollback_log(board.session.folder, keep)
    except SessionError as error:
        raise ApiError(409, str(error)) from None
    except InputError as error:
        raise ApiError(409, str(error)) from None
    try:
        board.session.refresh()
    except SessionError as error:
        raise ApiError(409, f"rolled back to input {keep}, but the inputs kept do not replay "
                            f"either: {error}") from None
    return 200, {**board.view(), "output": f"Rolled back to input {keep}\n"}


def post_accept_recomputed(board: Board, body: object) -> Result:
    """As `automa log --accept-recomputed`: a checkpoint goes on with the battle as this
    machine computes it, and the session is read again."""
    from automa.render.session_out import accepted_lines
    from automa.session.accept import accept_recomputed
    from automa.session.store import LOG

    _fields(body, ())
    try:
        settled = accept_recomputed(board.session.folder, board.session.catalog)
    except (SessionError, InputError) as error:
        raise ApiError(409, str(error)) from None
    board.session.refresh()
    lines = accepted_lines(board.session.state, [c.text(Path(LOG)) for c in settled], False)
    return 200, {**board.view(), "output": "".join(f"{line}\n" for line in lines)}


GET = "GET"
POST = "POST"
ENDPOINTS: dict[str, tuple[str, Callable[[Board, object], Result]]] = {
    "/api/state": (GET, get_state),
    "/api/version": (GET, get_version),
    "/api/view": (GET, get_view),
    "/api/threat": (GET, get_threat),
    "/api/threat/progress": (GET, get_threat_progress),
    "/api/next": (POST, post_next),
    "/api/move": (POST, post_move),
    "/api/damage": (POST, post_damage),
    "/api/heal": (POST, post_heal),
    "/api/condition": (POST, post_condition),
    "/api/hit": (POST, post_hit),
    "/api/hit-questions": (POST, post_hit_questions),
    "/api/command": (POST, post_command),
    "/api/done": (POST, post_done),
    "/api/undo": (POST, post_undo),
    "/api/redo": (POST, post_redo),
    "/api/rollback": (POST, post_rollback),
    "/api/accept-recomputed": (POST, post_accept_recomputed),
}


# endpoints that take the board's lock themselves: a threat map and a photo take seconds
UNLOCKED = frozenset({"/api/threat", "/api/threat/progress", "/api/forecast",
                      "/api/forecast/progress", "/api/photo", "/api/photo/empty",
                      "/api/photo/progress"})


def call(board: Board, path: str, body: object,
         routes: Mapping[str, tuple[str, Callable[[Board, object], Result]]] = ENDPOINTS
         ) -> Result:
    """One request to an API path of `routes` (its method checked by the caller), the session
    read again first so another window's input shows."""
    method, endpoint = routes[path]
    if path in UNLOCKED:
        return endpoint(board, body)
    expected = None
    if method == "POST" and isinstance(body, dict) and "version" in body:
        body = dict(body)
        expected = body.pop("version")
        if not isinstance(expected, str):
            raise ApiError(400, f"version: expected the string /api/version gave, got "
                                f"{_shown(expected)}")
    with board.lock:
        if path != "/api/rollback" or expected is not None:  # a rollback must work on a log
            _read_again(board)                                # that no longer replays
        if expected is not None and expected != board.version():
            raise ApiError(409, "the battle changed since the page last read it (another "
                                "window, or the same request twice); nothing was done")
        return endpoint(board, body)


def _read_again(board: Board) -> None:
    """The session read again (another window may have written; a campaign's log too: a room
    entered or ended elsewhere is followed); a log that no longer replays is a 409."""
    board.follow()

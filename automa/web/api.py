"""The board's endpoints, as functions over one session (no HTTP here: server.py is the
plumbing). Every action goes through `automa play`'s own command handlers or the session's own
methods, so the log is the only state and the page can do nothing the terminal cannot.

Each endpoint takes the request's JSON body (None for a GET) and returns (status, payload);
a request it refuses raises `ApiError` with the status and one line."""

from __future__ import annotations

import contextlib
import io
import math
import shlex
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automa.errors import AutomaError, InputError, RulesError
from automa.session.log import SessionError
from automa.session.store import Session

Payload = Any
Result = tuple[int, Payload]
MAX_TEXT = 400  # characters in one string field (a command line, a position in words)
STATE_COMMANDS = ("done", "undo", "redo")  # refused for the battle's state, not their wording


class ApiError(Exception):
    """A refused request: the HTTP status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Board:
    """The session the server shows, the data folder its catalog came from, and the lock that
    lets one request at a time read or write it (the session object is not shared safely)."""

    session: Session
    data_dir: Path | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    _view: tuple[str, dict[str, Any]] | None = field(default=None, init=False, repr=False)
    _threats: dict[tuple[str, str, float, tuple[str, ...]], dict[str, Any]] = field(
        default_factory=dict, init=False, repr=False)
    # the question a device was last asked by Next, and the log's version then: other pages
    # show it while the log has not moved (not kept on disk: a question is not an input)
    _asking: tuple[str, str] | None = field(default=None, init=False, repr=False)

    def asked(self, prompt: str) -> None:
        """Next asked a device `prompt`: other pages show it until the log moves on."""
        from automa.web.view import version

        self._asking = (version(self.session), prompt)

    def asking(self) -> str | None:
        """The prompt of the question open on the log as it is now, if a device was asked one
        (answering it, or any other input, moves the log on and closes it)."""
        from automa.web.view import version

        if self._asking is None or self._asking[0] != version(self.session):
            return None
        return self._asking[1]

    def view(self) -> dict[str, Any]:
        """The view, built again only when the log has changed (the campaign's status, kept in
        another log, is read each time)."""
        from automa.web.view import build_view, campaign_view, version

        now = version(self.session)
        if self._view is None or self._view[0] != now:
            self._view = (now, build_view(self.session))
        return {**self._view[1], "campaign": campaign_view(self.session.folder, self.data_dir)}

    def threat(self, hero: str, step: float, by: tuple[str, ...]) -> dict[str, Any]:
        """A hero's threat map over the battle now, kept until the log changes (only the
        current version's maps are kept)."""
        from automa.web.threat import threat_json
        from automa.web.view import version

        now = version(self.session)
        key = (now, hero, step, by)
        if key not in self._threats:
            found = threat_json(self.session, hero, step, by)
            self._threats = {k: v for k, v in self._threats.items() if k[0] == now}
            self._threats[key] = {**found, "version": now}
        return self._threats[key]


# ---------------------------------------------------------------------------------------------
# Checking the body: every field named, typed and bounded; unknown fields refused by name.

def _fields(body: Any, required: Sequence[str], optional: Sequence[str] = ()) -> dict[str, Any]:
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


def _text(body: dict[str, Any], name: str) -> str:
    value = body[name]
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"{name}: expected a non-empty string, got {_shown(value)}")
    if len(value) > MAX_TEXT:
        raise ApiError(400, f"{name}: longer than {MAX_TEXT} characters")
    if not value.isprintable():
        raise ApiError(400, f"{name}: holds a control character")
    return value.strip()


def _word(body: dict[str, Any], name: str) -> str:
    """One word: a piece id, a shot, a condition (no spaces: it goes into a command line)."""
    value = _text(body, name)
    if len(value.split()) != 1 or "," in value:
        raise ApiError(400, f"{name}: expected one word, got {value!r}")
    return value


def _integer(body: dict[str, Any], name: str, low: int, high: int) -> int:
    value = body[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, f"{name}: expected a whole number, got {_shown(value)}")
    if not low <= value <= high:
        raise ApiError(400, f"{name}: expected {low} to {high}, got {value}")
    return value


def _flag(body: dict[str, Any], name: str) -> bool:
    value = body[name]
    if not isinstance(value, bool):
        raise ApiError(400, f"{name}: expected true or false, got {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    kind = {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "an object", type(None): "null"}.get(type(value), "?")
    return kind


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
# Running a line of `automa play`.

@contextlib.contextmanager
def _console(lines: Sequence[str]) -> Iterator[io.StringIO]:
    """What a handler prints, captured; what it would read at a prompt, from `lines`."""
    import sys

    said = io.StringIO()
    given = io.StringIO("".join(f"{line}\n" for line in lines))
    stdin = sys.stdin
    sys.stdin = given
    try:
        with contextlib.redirect_stdout(said):
            yield said
    finally:
        sys.stdin = stdin


def run_command(board: Board, words: list[str], state_status: int = 400,
                lines: Sequence[str] = ()) -> str:
    """One line of `automa play` through its own handler table (the heroes' or the AI turn's,
    as the battle stands); its printed text. `state_status`: the status of an InputError (409
    where the input is refused for the state the battle is in, not for how it was written)."""
    from automa.cli import play

    session = board.session
    command, args = words[0].lower(), words[1:]
    ai_turn = session.state.phase == "ai"
    handlers = play.AI_HANDLERS if ai_turn else play.HANDLERS
    if command in ("quit", "exit"):
        raise ApiError(400, f"{command!r} means nothing on the board (everything is saved); "
                            f"close the page")
    handler = handlers.get(command)
    if handler is None:
        if command in play.HANDLERS or command in play.AI_HANDLERS:
            turn = "the AI turn" if ai_turn else "the heroes' turn"
            raise ApiError(409, f"{command!r} cannot be done in {turn}")
        raise ApiError(400, f"unknown command {command!r}")
    with _console(lines) as said:
        try:
            handler(session, args)
        except play.Quit:  # a prompt found no answer among `lines`
            asked = said.getvalue().rstrip().splitlines()
            prompt = asked[-1].strip().rstrip(":") if asked else "a number"
            raise ApiError(400, f"{command}: needs an answer: {prompt}") from None
        except (SessionError, RulesError) as error:
            raise ApiError(409, str(error)) from None
        except InputError as error:
            raise ApiError(state_status, str(error)) from None
        except AutomaError as error:
            raise ApiError(400, str(error)) from None
    return said.getvalue()


def _acted(board: Board, words: list[str], state_status: int = 400,
           lines: Sequence[str] = ()) -> Result:
    said = run_command(board, words, state_status, lines)
    return 200, {**board.view(), "output": said}


# ---------------------------------------------------------------------------------------------
# The endpoints.

def get_state(board: Board, body: Any) -> Result:
    from automa.cli.play_cave import session_status_json

    return 200, session_status_json(board.session)


def get_version(board: Board, body: Any) -> Result:
    from automa.web.view import version

    return 200, {"version": version(board.session), "asking": board.asking()}


def get_view(board: Board, body: Any) -> Result:
    return 200, board.view()


def get_threat(board: Board, body: Any) -> Result:
    """A hero's threat map (`?hero=ID&step=CM&by=PIECE`), as `automa threat --json` with the
    log's version and the colour bands the page shades the squares with."""
    from automa.web.threat import QueryError, threat_key

    try:
        hero, step, by = threat_key(body if isinstance(body, dict) else {})
        return 200, board.threat(hero, step, by)
    except QueryError as error:
        raise ApiError(400, str(error)) from None


def post_next(board: Board, body: Any) -> Result:
    """One AI activation, exactly as `automa next --json`; or the next question it needs."""
    from automa.render.json_out import activation_json
    from automa.web.questions import (
        MAX_ANSWER_LENGTH,
        MAX_ANSWERS,
        BadAnswer,
        NeedsAnswer,
        ScriptedAsker,
    )

    fields = _fields(body, (), ("answers",))
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
    session = board.session
    if answers and not (session.physical or session.geometry_mode != "tracked"):
        raise ApiError(400, "answers: this session asks nothing (virtual dice, computed "
                            "geometry)")
    asker = ScriptedAsker(answers)
    try:
        activation = session.next(asker)
    except NeedsAnswer as need:
        board.asked(str(need.question.get("prompt", "")))
        return 200, {"question": need.question, "answers": answers[:asker.used]}
    except BadAnswer as bad:
        raise ApiError(400, str(bad)) from None
    except (SessionError, RulesError) as error:
        raise ApiError(409, str(error)) from None
    except InputError as error:
        raise ApiError(400, str(error)) from None
    return 200, None if activation is None else activation_json(activation)


def _number_in(value: float) -> str:
    return f"{value:.3f}"


def post_move(board: Board, body: Any) -> Result:
    fields = _fields(body, ("piece",), ("at", "words"))
    piece = _piece(board.session, _word(fields, "piece"))
    if ("at" in fields) == ("words" in fields):
        raise ApiError(400, "give the place as 'at': [x, y] or as 'words', one of them")
    if "words" in fields:
        where = _text(fields, "words").split()
    else:
        at = fields["at"]
        if not (isinstance(at, list) and len(at) == 2 and all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in at)):
            raise ApiError(400, f"at: expected [x, y] in cm, got {_shown(at)}")
        if not all(math.isfinite(v) and abs(v) < 10_000 for v in at):
            raise ApiError(400, "at: expected [x, y] in cm on the mat")
        where = [f"{_number_in(at[0])},{_number_in(at[1])}"]
    return _acted(board, ["move", piece, *where])


def _amount_action(kind: str) -> Callable[[Board, Any], Result]:
    def endpoint(board: Board, body: Any) -> Result:
        fields = _fields(body, ("piece", "amount"), ("by",) if kind == "damage" else ())
        piece = _piece(board.session, _word(fields, "piece"))
        amount = _integer(fields, "amount", 1, 999)
        by = ["by", _word(fields, "by")] if "by" in fields else []
        return _acted(board, [kind, piece, str(amount), *by])
    return endpoint


post_damage = _amount_action("damage")
post_heal = _amount_action("heal")


def post_condition(board: Board, body: Any) -> Result:
    fields = _fields(body, ("piece", "condition", "on"))
    piece = _piece(board.session, _word(fields, "piece"))
    condition = _word(fields, "condition").lower()
    on = _flag(fields, "on")
    return _acted(board, ["condition", piece, condition, "on" if on else "off"])


def post_hit(board: Board, body: Any) -> Result:
    """`play`'s `hit`: the Poison card drawn (1-9), then in physical mode a D12 per target of a
    Portal Trap, are the `dice`, in that order."""
    fields = _fields(body, ("targets", "shot"), ("by", "trilithon", "dice"))
    targets = fields["targets"]
    if not isinstance(targets, list) or not targets or len(targets) > 50:
        raise ApiError(400, f"targets: expected a list of piece ids, got {_shown(targets)}")
    ids = [_piece(board.session, _word({"targets": t}, "targets")) for t in targets]
    shot = _word(fields, "shot").lower()
    words = ["hit", *(f"{t}," for t in ids[:-1]), ids[-1], shot]
    if "by" in fields:
        words += ["by", _word(fields, "by")]
    if "trilithon" in fields and _flag(fields, "trilithon"):
        words.append("trilithon")
    asked = _dice_asked(board.session, shot, len(ids))
    dice = fields.get("dice", [])
    if not isinstance(dice, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in dice):
        raise ApiError(400, f"dice: expected a list of whole numbers, got {_shown(dice)}")
    if len(dice) != len(asked):
        wanted = "; ".join(f"{what} ({low}-{high})" for what, low, high in asked) or "none"
        raise ApiError(400, f"dice: this hit needs {len(asked)}: {wanted}")
    for value, (what, low, high) in zip(dice, asked, strict=True):
        if not low <= value <= high:
            raise ApiError(400, f"dice: {what}: {value} is not {low}-{high}")
    return _acted(board, words, lines=[str(d) for d in dice])


def _dice_asked(session: Session, shot: str, targets: int) -> list[tuple[str, int, int]]:
    """What `play`'s `hit` asks at the table for this shot (cli/play.py `_hit`)."""
    asked = []
    if any(m.split("(")[0] == "poison" for m in shot.split("+")[1:]):
        asked.append(("the Poison card drawn", 1, 9))
    if shot.split("+")[0] == "portal-trap" and session.physical:
        asked += [(f"the D12 for the Portal Trap on target {n}", 1, 12)
                  for n in range(1, targets + 1)]
    return asked


def post_command(board: Board, body: Any) -> Result:
    fields = _fields(body, ("line",))
    line = _text(fields, "line")
    try:
        words = shlex.split(line)
    except ValueError:
        raise ApiError(400, "line: unbalanced quotes") from None
    if not words:
        raise ApiError(400, "line: empty")
    refused_for_the_state = 409 if words[0].lower() in STATE_COMMANDS else 400
    return _acted(board, words, refused_for_the_state)


def _plain(command: str) -> Callable[[Board, Any], Result]:
    def endpoint(board: Board, body: Any) -> Result:
        _fields(body, ())
        return _acted(board, [command], state_status=409 if command in STATE_COMMANDS else 400)
    return endpoint


post_done = _plain("done")
post_undo = _plain("undo")
post_redo = _plain("redo")


def post_rollback(board: Board, body: Any) -> Result:
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


GET = "GET"
POST = "POST"
ENDPOINTS: dict[str, tuple[str, Callable[[Board, Any], Result]]] = {
    "/api/state": (GET, get_state),
    "/api/version": (GET, get_version),
    "/api/view": (GET, get_view),
    "/api/threat": (GET, get_threat),
    "/api/next": (POST, post_next),
    "/api/move": (POST, post_move),
    "/api/damage": (POST, post_damage),
    "/api/heal": (POST, post_heal),
    "/api/condition": (POST, post_condition),
    "/api/hit": (POST, post_hit),
    "/api/command": (POST, post_command),
    "/api/done": (POST, post_done),
    "/api/undo": (POST, post_undo),
    "/api/redo": (POST, post_redo),
    "/api/rollback": (POST, post_rollback),
}


def call(board: Board, path: str, body: Any) -> Result:
    """One request to an API path (its method checked by the caller), the session read again
    first so another window's input shows."""
    from automa.web.view import version

    method, endpoint = ENDPOINTS[path]
    expected = None
    if method == "POST" and isinstance(body, dict) and "version" in body:
        body = dict(body)
        expected = body.pop("version")
        if not isinstance(expected, str):
            raise ApiError(400, f"version: expected the string /api/version gave, got "
                                f"{_shown(expected)}")
    with board.lock:
        if path != "/api/rollback" or expected is not None:  # a rollback must work on a log
            try:                                              # that no longer replays
                board.session.refresh()
            except SessionError as error:
                raise ApiError(409, str(error)) from None
        if expected is not None and expected != version(board.session):
            raise ApiError(409, "the battle changed since the page last read it (another "
                                "window, or the same request twice); nothing was done")
        return endpoint(board, body)

"""The whole evening on the board: `automa serve --session CAMPAIGN` follows a campaign folder
from room to room. Between rooms the page shows the campaign and its buttons; each button is
one of the campaign's typed steps (campaign/commands.py) taken through `Campaign.do`, exactly
as `automa campaign next / end-room / visit / undo` take them, with the same checks and one-line
refusals. What the terminal would ask (a Room card's monsters our data lacks, the Room Level
Rewards, physical dice at a room's setup) is asked here one question at a time, as
`POST /api/next` asks an activation's: the page posts the answers given so far, the step is run
again from its start with them, and nothing is logged until the last one.

Also the session's (or campaign's) export and import, and the open question a closed tab left."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from automa.engine.judge import GeometryMode
from automa.errors import AutomaError, InputError
from automa.model.modes import DiceMode
from automa.web.api import ApiError, Board, Json, Result, _answers, _fields, _shown, _word
from automa.web.following import between_rooms_view, live_campaign, opened
from automa.web.questions import BadAnswer, NeedsAnswer, ScriptedAsker

if TYPE_CHECKING:
    from automa.campaign.asking import Question
    from automa.campaign.store import Campaign

T = TypeVar("T")
# A step's field as the core names it, and the body's field that gives it here.
FIELD_OF = {"ally_health": "ally_health", "drawn": "answers", "hero": "for", "payers": "pay",
            "resurrected": "resurrect", "changes": "changes", "collected": "collected",
            "spell_to": "spell_to", "room": "room", "offer": "offer", "price": "price",
            "reward": "reward"}
CHANGE_FIELDS = ("hero", "field", "amount")  # a change made at the table: end-room's changes
IMPORT_LIMIT = 16 * 1024 * 1024  # bytes an uploaded export may have (POST /api/import)


class Download:
    """A reply that is a file to save, not JSON (`GET /api/export`)."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name, self.data = name, data


def _campaign(board: Board) -> Campaign:
    if board.campaign is None:
        raise ApiError(404, "this board shows one battle, not a campaign (start it with "
                            "`automa serve --session CAMPAIGN-FOLDER`)")
    try:
        return opened(board.campaign, board.catalog(), board.data_dir)
    except AutomaError as error:
        raise ApiError(409, str(error)) from None


def get_campaign(board: Board, body: object) -> Result:
    """The campaign as the panel shows it: the status (health live during a battle), the
    status as `automa campaign status` prints it, the rooms open next, and what the room
    being visited offers."""
    from automa.campaign.model import room_states
    from automa.render.campaign_out import menu_json, status_text

    if board.campaign is None:
        return 200, None
    campaign = _campaign(board)
    state = campaign.state
    try:
        status = (live_campaign(board.battle, board.data_dir) if board.battle is not None
                  else None) or between_rooms_view(campaign.folder, campaign.catalog,
                                                   board.data_dir, "")["campaign"]
    except AutomaError as error:
        raise ApiError(409, str(error)) from None
    room = state.route.room(state.current) if state.current else None
    menu = None
    if room is not None and room.kind == "special":
        try:
            menu = menu_json(campaign.visit()[1], state)
        except AutomaError:
            menu = None
    states = room_states(state)
    return 200, {
        "version": board.version(),
        "status": status, "text": status_text(state),
        "open": [] if state.over or state.current else [
            {"id": r.id, "name": r.name, "level": r.level, "kind": r.kind}
            for r in state.route.rooms if states[r.id] == "open"],
        "current": state.current,
        "kind": None if room is None else room.kind,
        "battle": state.current_session,
        "menu": menu, "over": state.over, "victory": state.victory if state.over else None,
        "undo": state.steps > 0,
    }


# ---------------------------------------------------------------------------------------------
# The board's players, asked one question at a time.

class CampaignScriptedAsker(ScriptedAsker):
    """The campaign's asker (campaign/asking.py) over a list of answers: the engine's dice
    and tiles as `POST /api/next` reads them, and what the players' cards show as text,
    parsed as the terminal parses a typed answer."""

    def text(self, question: Question, parse: Callable[[str], T]) -> T:
        answer = self._next({"kind": "text", "topic": question.topic,
                             "prompt": question.prompt, "lacking": question.lacking,
                             "options": []})
        try:
            return parse(answer)
        except ValueError as error:
            raise self._refuse(answer, str(error)) from None

    def tell(self, line: str) -> None:
        self.briefing.append(line)
        self.briefed.append(line)


def _dice(fields: Json) -> DiceMode:
    given = _word(fields, "dice").lower() if "dice" in fields else DiceMode.VIRTUAL.value
    try:
        return DiceMode(given)
    except ValueError:
        raise ApiError(400, f"dice: expected virtual or physical, got {given!r}") from None


def _geometry(fields: Json) -> GeometryMode:
    """The room's battle geometry, as `campaign next --geometry` takes it (tracked: computed)."""
    given = _word(fields, "geometry").lower() if "geometry" in fields else "tracked"
    try:
        return GeometryMode(given)
    except ValueError:
        raise ApiError(400, f"geometry: expected tracked, asked or hybrid, got {given!r}"
                       ) from None


def _step(board: Board, run: Callable[[Campaign, CampaignScriptedAsker], T],
          answers: Sequence[str]) -> T | Json:
    """A campaign step through `Campaign.do` with the answers given so far: what it did, or
    the next question (200, nothing logged)."""
    from automa.campaign.commands import BadField, FieldConflict
    from automa.campaign.log import CampaignError
    from automa.errors import RulesError
    from automa.session.log import SessionError

    campaign = _campaign(board)
    asker = CampaignScriptedAsker(answers)
    try:
        done = run(campaign, asker)
    except NeedsAnswer as need:
        return {"question": need.question, "answers": list(answers[:asker.used])}
    except BadAnswer as bad:
        raise ApiError(400, str(bad)) from None
    except (BadField, FieldConflict) as error:
        status = 400 if isinstance(error, BadField) else 409
        raise ApiError(status, f"{FIELD_OF.get(error.field, error.field)}: {error.reason}"
                       ) from None
    except InputError as error:
        raise ApiError(400, str(error)) from None
    except (CampaignError, SessionError, RulesError) as error:
        raise ApiError(409, str(error)) from None
    except AutomaError as error:
        raise ApiError(409, str(error)) from None
    board.follow()  # the room entered (or left) is the board's battle now
    return done


def post_campaign_next(board: Board, body: object) -> Result:
    """`automa campaign next ROOM [--dice physical] [--geometry asked]`: the room entered,
    its setup as the terminal prints it; a battle room's battle is the board's at once."""
    from automa.campaign.asking import TableAnswers
    from automa.campaign.commands import EnterRoom
    from automa.campaign.store import Entered
    from automa.render.campaign_out import entered_json, entered_text

    fields = _fields(body, ("room",), ("dice", "geometry", "answers"))
    room, dice, answers = _word(fields, "room"), _dice(fields), _answers(fields)
    table = TableAnswers(dice, _geometry(fields))
    done = _step(board, lambda c, a: c.do(EnterRoom(room), a, table=table), answers)
    if not isinstance(done, Entered):
        return 200, done
    assert board.campaign is not None
    tiles = board.catalog().components.tiles
    return 200, {**entered_json(done, board.campaign),
                 "text": entered_text(done, board.campaign, tiles)}


def _changes(value: object) -> tuple[Any, ...]:
    from automa.campaign.commands import Change
    from automa.model.campaigns import BOARD_FIELDS

    if not isinstance(value, list) or len(value) > 50:
        raise ApiError(400, f"changes: expected a list of {{hero, field, amount}}, got "
                            f"{_shown(value)}")
    found = []
    for entry in value:
        if not isinstance(entry, dict):
            raise ApiError(400, "changes: each is {\"hero\", \"field\", \"amount\"}")
        _fields(entry, CHANGE_FIELDS)
        field = entry["field"]
        if field not in BOARD_FIELDS:
            raise ApiError(400, f"changes: field {str(field)[:40]!r} is not one of "
                                f"{', '.join(BOARD_FIELDS)}")
        amount = entry["amount"]
        if not isinstance(amount, int) or isinstance(amount, bool) or abs(amount) > 999:
            raise ApiError(400, "changes: amount is a whole number, -999 to 999")
        found.append(Change(_word(entry, "hero"), field, amount))
    return tuple(found)


def _names(fields: Json, name: str) -> tuple[str, ...]:
    value = fields.get(name, [])
    if not isinstance(value, list) or len(value) > 50:
        raise ApiError(400, f"{name}: expected a list, got {_shown(value)}")
    return tuple(_word({name: v}, name) for v in value)


def post_campaign_end_room(board: Board, body: object) -> Result:
    """`automa campaign end-room`: the heroes' boards carried back from the room's battle and
    the Room Level Rewards given (asked when our data lacks the card's)."""
    from automa.campaign.asking import TableAnswers
    from automa.campaign.commands import EndRoom
    from automa.campaign.store import RoomEnded
    from automa.render.campaign_out import ended_json, ended_text

    fields = _fields(body, (), ("spell_to", "changes", "collected", "resurrect", "answers"))
    spell_to = _word(fields, "spell_to") if "spell_to" in fields else None
    collected = tuple(tuple(p.partition("=")[::2]) for p in _names(fields, "collected"))
    command = EndRoom(spell_to, tuple((h, m) for h, m in collected), _names(fields, "resurrect"),
                      _changes(fields.get("changes", [])))
    done = _step(board, lambda c, a: c.do(command, a, table=TableAnswers()), _answers(fields))
    if not isinstance(done, RoomEnded):
        return 200, done
    return 200, {**ended_json(done), "text": ended_text(done)}


def post_campaign_visit(board: Board, body: object) -> Result:
    """`automa campaign visit OFFER --for HERO [--pay HERO] [--price N] [--ally-health N]`:
    a purchase at the special room being visited (the Tavern's bet too)."""
    from automa.campaign.asking import TableAnswers
    from automa.campaign.commands import Share
    from automa.campaign.store import Bought, purchase
    from automa.render.campaign_out import bought_json, bought_text

    fields = _fields(body, ("offer",), ("for", "pay", "price", "ally_health", "reward",
                                        "dice", "answers"))
    offer = _word(fields, "offer")
    hero = _word(fields, "for") if "for" in fields else None
    payers = (Share(_word(fields, "pay")),) if "pay" in fields else None
    price = _number(fields, "price", 0, 99)
    ally = _number(fields, "ally_health", 1, 99)
    reward = _word(fields, "reward") if "reward" in fields else None
    table = TableAnswers(_dice(fields))

    def run(campaign: Campaign, asker: CampaignScriptedAsker) -> Bought:
        command = purchase(campaign.visit()[1], offer, campaign.state.settings, hero, payers,
                           price, ally, None, reward)
        return campaign.do(command, asker, table=table)

    done = _step(board, run, _answers(fields))
    if not isinstance(done, Bought):
        return 200, done
    return 200, {**bought_json(done), "text": bought_text(done)}


def _number(fields: Json, name: str, low: int, high: int) -> int | None:
    if name not in fields:
        return None
    value = fields[name]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ApiError(400, f"{name}: expected a whole number {low} to {high}")
    return value


def post_campaign_undo(board: Board, body: object) -> Result:
    """`automa campaign undo`: the last campaign step taken back (the log keeps it)."""
    from automa.campaign.commands import Undo
    from automa.campaign.store import Undone
    from automa.render.campaign_out import undone_json, undone_text

    _fields(body, ())
    done = _step(board, lambda c, a: c.do(Undo()), ())
    assert isinstance(done, Undone)
    return 200, {**undone_json(done), "text": undone_text(done)}


# ---------------------------------------------------------------------------------------------
# Export, import, and the question a closed tab left open.

def get_export(board: Board, body: object) -> Result:
    """The campaign (or the battle) as one file, as `automa export` writes it."""
    from automa.campaign.bundle import export_bytes, export_name
    from automa.session.log import SessionError

    folder = board.campaign if board.campaign is not None else board.session.folder
    try:
        name = re.sub(r"[^A-Za-z0-9._-]", "_", export_name(folder))  # a header's safe word
        return 200, Download(name, export_bytes(folder))
    except (SessionError, InputError) as error:
        raise ApiError(409, str(error)) from None


def post_import(board: Board, body: object) -> Result:
    """`{"export": <the file's JSON>}`: an export brought back beside the folder this board
    shows, under its own name (or the first free `NAME-2`...): where it was put, and the
    command that serves it."""
    from automa.campaign.bundle import BadBundle, bundle_of, free_place, import_bundle

    fields = _fields(body, ("export",))
    folder = board.campaign if board.campaign is not None else board.session.folder
    try:
        bundle = bundle_of(fields["export"], "the file")
        made = import_bundle(bundle, free_place(folder.resolve().parent, bundle.name),
                             board.catalog())
    except BadBundle as error:
        raise ApiError(400, str(error)) from None
    except InputError as error:
        raise ApiError(409, str(error)) from None
    return 200, {"kind": bundle.kind.value, "folder": str(made),
                 "text": f"Imported the {bundle.kind.value} {bundle.name!r} into {made}; "
                         f"`automa serve --session {made}` shows it"}


def get_open_question(board: Board, body: object) -> Result:
    """The question Next put to a device and the answers given to it, while the log has not
    moved since: `{"answers": [...], "question": {...}}`, or null."""
    found = board.open_question()
    return 200, None if found is None else found.as_json()


def post_drop_question(board: Board, body: object) -> Result:
    """The open question dropped: its answers forgotten (nothing was logged)."""
    _fields(body, ())
    board.drop_question()
    return 200, {"dropped": True}


ENDPOINTS: dict[str, tuple[str, Callable[[Board, object], Result]]] = {
    "/api/campaign": ("GET", get_campaign),
    "/api/campaign/next": ("POST", post_campaign_next),
    "/api/campaign/end-room": ("POST", post_campaign_end_room),
    "/api/campaign/visit": ("POST", post_campaign_visit),
    "/api/campaign/undo": ("POST", post_campaign_undo),
    "/api/export": ("GET", get_export),
    "/api/import": ("POST", post_import),
    "/api/open-question": ("GET", get_open_question),
    "/api/open-question/drop": ("POST", post_drop_question),
}
BODY_LIMITS = {"/api/import": IMPORT_LIMIT}

"""The board's Photo button (docs/serve.md, "Positions from a photo"): a phone photo of the mat
uploaded to this server only, read against the battle as it stands, the moves it proposes
shown over the mat, and recorded on Confirm as the players' own `move` inputs, one each, so
each is undone on its own.

Reading a photo takes seconds: it is done outside the board's lock (the page's polling and
other windows' writes go on meanwhile), one photo at a time, with the battle's pieces taken
under the lock first. A photo is never written anywhere: only the empty mat side's top view is
kept, in the data folder, as `automa capture --empty` keeps it. OpenCV is imported only when a
photo comes (automa/photo), so the board starts as fast as before."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from automa.catalog.capture import load_capture_settings
from automa.errors import InputError, RulesError
from automa.safe_text import one_line
from automa.session.commands import Move
from automa.session.log import SessionError
from automa.web.api import ApiError, Board, Json, Result, _fields, _piece, _shown, _word, do

if TYPE_CHECKING:
    import numpy as np

    from automa.catalog.load import Catalog
    from automa.model.capture import CaptureSettings, Point
    from automa.model.pieces import Piece
    from automa.model.playmat import Playmat
    from automa.photo.model import Capture
    from automa.session.apply import Applied
    from automa.session.store import Session

PHOTO_LIMIT = 40 * 1024 * 1024  # bytes: a 48-megapixel phone JPEG is some 20 MB
PHOTO_PATH = "/api/photo"
EMPTY_PATH = "/api/photo/empty"
PROGRESS_PATH = "/api/photo/progress"
CONFIRM_PATH = "/api/photo/confirm"
IMAGE_BODIES = frozenset({PHOTO_PATH, EMPTY_PATH})  # raw image bytes, not JSON
BODY_LIMITS = {PHOTO_PATH: PHOTO_LIMIT, EMPTY_PATH: PHOTO_LIMIT}
MAX_MOVES = 60  # moves in one confirmation: more than a battle has pieces
WHERE = "the photo"  # how a message names the upload (it has no file name on the server)
MISSING_EXTRA = 501  # the server cannot read photos until the extra is installed
Read = TypeVar("Read")


@dataclass(frozen=True)
class ImageBody:
    """A POST's body that is an image (its bytes as sent, and the Content-Type it said)."""

    data: bytes
    kind: str


@dataclass(frozen=True)
class Snapshot:
    """What a photo is read against, taken under the board's lock: the pieces as they stand,
    those an asked battle never measured (id -> last measured spot), the mat, the data, and
    the log's version (a confirmation sent with it is refused if the battle moved since)."""

    pieces: tuple[Piece, ...]
    unmeasured: dict[str, Point | None]
    playmat: Playmat
    catalog: Catalog
    version: str


# ---------------------------------------------------------------------------------------------
# Reading a photo.

def _image(body: object) -> bytes:
    if not isinstance(body, ImageBody):  # server.py makes one of every body sent here
        raise ApiError(415, "send the photo itself as the body (Content-Type: image/jpeg or "
                            "image/png)")
    if not body.data:
        raise ApiError(400, "the body holds no photo")
    return body.data


def _snapshot(board: Board) -> Snapshot:
    """The battle as it stands, read again under the board's lock."""
    from automa.render.measured import unmeasured_now

    with board.lock:
        board.follow()
        session = board.session
        return Snapshot(session.state.battle.pieces, dict(unmeasured_now(session)),
                        session.scenario.playmat, session.catalog, board.version())


def _reading(board: Board, read: Callable[[Callable[[str, float], None]], Read]) -> Read:
    """`read` run with a progress callback the page can poll, one photo at a time; the photo
    errors as one line (400), the missing extra as 501 saying how to install it."""
    from automa.photo.extra import PhotoExtraMissing, require_photo_extra

    if not board.photo_lock.acquire(blocking=False):
        raise ApiError(409, "another photo is being read on this board; wait for it")
    try:
        board.photo_progress = ("starting", 0.0)

        def progress(step: str, fraction: float) -> None:
            board.photo_progress = (step, min(1.0, max(0.0, float(fraction))))

        require_photo_extra()
        return read(progress)
    except PhotoExtraMissing as missing:
        raise ApiError(MISSING_EXTRA, str(missing)) from None
    except InputError as error:  # PhotoError and a bad data file alike: one line
        raise ApiError(400, str(error)) from None
    finally:
        board.photo_progress = None
        board.photo_lock.release()


def post_photo(board: Board, body: object) -> Result:
    """The photo read against the battle as it stands: CONTRACT.md's capture object, each
    piece with `from` (where it stood, null when nobody measured it), `move` (Confirm records
    it: it moved at least the still bar, or its place was not known) and `check` (named with
    less confidence than the bar); the bars themselves and the log's version."""
    from automa.photo.battle import capture_pieces

    photo = _image(body)
    snap = _snapshot(board)
    try:
        settings = load_capture_settings(snap.catalog.data_dir)
    except InputError as error:
        raise ApiError(400, str(error)) from None

    def read(progress: Callable[[str, float], None]) -> Capture:
        return capture_pieces(photo, WHERE, snap.pieces, snap.catalog, snap.playmat, settings,
                              _empty_kept(snap, settings), snap.unmeasured, progress)

    return 200, proposal_json(_reading(board, read), snap, settings)


def _empty_kept(snap: Snapshot, settings: CaptureSettings) -> np.ndarray:
    """The empty mat side's kept view, if it fits the mat and the cards; else one short line
    in the board's words (the vision's own, naming the folder and the terminal's command, goes
    to the server's terminal)."""
    from automa.photo.battle import kept_empty
    from automa.photo.model import PhotoError

    try:
        return kept_empty(snap.playmat, settings, snap.catalog)
    except PhotoError as error:
        sys.stderr.write(f"automa serve: {one_line(str(error))}\n")
        raise PhotoError(f"no usable photo of the empty {snap.playmat.name} side is kept: lay "
                         f"the mat side bare, the four cards in place, press Empty mat, then "
                         f"Photo again") from None


def proposal_json(capture: Capture, snap: Snapshot, settings: CaptureSettings) -> Json:
    """The capture as `automa capture --json` prints it, with what the page draws and asks."""
    from automa.photo.battle import battle_pieces, capture_json, capture_moves, doubtful

    before = {p.id: p.at for p in battle_pieces(snap.pieces, snap.catalog, snap.unmeasured)}
    moving = {move.piece for move in capture_moves(capture, settings)}
    checked = {found.id for found in doubtful(capture, settings)}
    found = capture_json(capture)
    pieces = found["pieces"]
    assert isinstance(pieces, list)
    for piece in pieces:
        stood = before.get(piece["id"])
        piece["from"] = None if stood is None else [round(stood[0], 2), round(stood[1], 2)]
        piece["move"] = piece["id"] in moving
        piece["check"] = piece["id"] in checked
    return {**found, "confident": settings.confident, "still": settings.still,
            "version": snap.version}


def post_photo_empty(board: Board, body: object) -> Result:
    """A photo of the battle's mat side without pieces, kept (as its top view) in the data
    folder for the captures to come, as `automa capture --empty PHOTO --playmat ID` keeps it."""
    from automa.photo.battle import keep_empty

    photo = _image(body)
    snap = _snapshot(board)
    kept = _reading(board, lambda progress: keep_empty(photo, WHERE, snap.playmat,
                                                       snap.catalog))
    return 200, {"kept": str(kept), "playmat": snap.playmat.id,
                 "output": f"The empty {snap.playmat.name} side is kept for the photos to "
                           f"come ({kept})\n"}


def get_photo_progress(board: Board, body: object) -> Result:
    """How far the photo being read has got: `{"reading": false}`, or its step and fraction."""
    now = board.photo_progress
    if now is None:
        return 200, {"reading": False, "step": None, "fraction": None}
    return 200, {"reading": True, "step": now[0], "fraction": round(now[1], 3)}


# ---------------------------------------------------------------------------------------------
# Confirming the moves.

def _spot(value: object, number: int) -> tuple[float, float]:
    if not (isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        raise ApiError(400, f"moves: move {number}: at: expected [x, y] in cm, got "
                            f"{_shown(value)}")
    if not all(abs(v) < 10_000 for v in value):  # NaN and an int too big for a float fail too
        raise ApiError(400, f"moves: move {number}: at: expected [x, y] in cm on the mat")
    return (round(float(value[0]), 3), round(float(value[1]), 3))


def read_moves(session: Session, value: object) -> list[Move]:
    """The body's `moves`: each `{"piece": ID, "at": [x, y]}`, a piece in play at most once."""
    if not isinstance(value, list) or not value:
        raise ApiError(400, f"moves: expected a list of {{\"piece\", \"at\"}}, got "
                            f"{_shown(value)}" + (" (empty)" if value == [] else ""))
    if len(value) > MAX_MOVES:
        raise ApiError(400, f"moves: more than {MAX_MOVES}")
    moves: list[Move] = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            raise ApiError(400, f"moves: move {number} is {_shown(item)}, not an object")
        try:
            fields = _fields(item, ("piece", "at"))
            piece = _piece(session, _word(fields, "piece"))
        except ApiError as error:
            raise ApiError(error.status, f"moves: move {number}: {error}") from None
        if any(move.piece == piece for move in moves):
            raise ApiError(400, f"moves: {piece} is moved twice")
        moves.append(Move(piece, _spot(fields["at"], number)))
    return moves


def in_order(session: Session, moves: Sequence[Move]) -> list[Move]:
    """The moves in an order in which each can be done after the ones before it (a hero may
    take the spot another left), every one checked on a copy of the battle before anything is
    recorded; the first that cannot be done in any order is refused (409 when the battle's
    state refuses it, 400 for the place) and nothing is recorded."""
    from automa.session.apply import NotThisTurn, apply_command

    state, setting, done = session.state, session.setting, list(session.effective()[0])
    left, ordered = list(moves), []
    while left:
        refusal: ApiError | None = None
        for move in left:
            try:
                after = apply_command(state, move, setting, done).after
            except (SessionError, RulesError, NotThisTurn) as error:
                refusal = refusal or ApiError(409, f"move {move.piece}: {error}")
                continue
            except InputError as error:
                refusal = refusal or ApiError(400, f"move {move.piece}: {error}")
                continue
            state = after
            done.append(move)
            ordered.append(move)
            left.remove(move)
            break
        else:
            assert refusal is not None
            raise ApiError(refusal.status, f"{refusal}; nothing was recorded")
    return ordered


def post_photo_confirm(board: Board, body: object) -> Result:
    """The moves the players confirmed (the photo's places, or where they dragged a ring):
    all checked first, then each done as its own `move` input, so `undo` takes back one at a
    time. The answer is the new view, as `/api/move`'s, its `output` every move's lines."""
    from automa.render.session_out import applied_lines

    fields = _fields(body, ("moves",))
    session = board.session
    moves = in_order(session, read_moves(session, fields["moves"]))
    applied: list[Applied] = []
    for move in moves:
        try:
            applied.append(do(board, move, word="move"))
        except ApiError as error:  # checked a moment ago: only another window can cause it
            done = len(applied)
            raise ApiError(error.status, f"{error} ({done} of {len(moves)} moves recorded "
                                         f"before it; undo takes them back)") from None
    lines = [line for one in applied for line in applied_lines(one)]
    return 200, {**board.view(), "output": "".join(f"{line}\n" for line in lines),
                 "recorded": len(applied)}


ENDPOINTS: dict[str, tuple[str, Callable[[Board, object], Result]]] = {
    PHOTO_PATH: ("POST", post_photo),
    EMPTY_PATH: ("POST", post_photo_empty),
    PROGRESS_PATH: ("GET", get_photo_progress),
    CONFIRM_PATH: ("POST", post_photo_confirm),
}

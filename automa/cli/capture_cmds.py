"""`automa capture`: where every disc stands, read from a phone photo of the mat; and `automa
capture --empty PHOTO --playmat ID`, which keeps a photo of an empty mat side for later."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from automa.cli.main import _catalog, cli, emit_json, reports_errors

if TYPE_CHECKING:
    import numpy as np

    from automa.catalog.load import Catalog
    from automa.model.capture import CaptureSettings
    from automa.model.pieces import Piece
    from automa.model.playmat import Playmat
    from automa.model.scenario import Scenario
    from automa.photo.model import Capture
    from automa.session.commands import Move
    from automa.session.store import Session

Progress = Callable[[str, float], None]
STAGE_STEPS = 100


def _read(path: Path, what: str) -> bytes:
    from automa.photo.model import PhotoError

    try:
        return path.read_bytes()
    except OSError as error:
        raise PhotoError(f"{what} {path}: cannot be read ({error.strerror})") from None


@contextmanager
def _progress(shown: bool) -> Iterator[Progress | None]:
    """A bar on stderr while a photo is read (cli/progress.py: a terminal, not --json, over a
    second), moved by the pipeline's share of the work done."""
    from automa.cli.progress import progress_bar

    with progress_bar("Reading the photo", STAGE_STEPS, shown) as told:
        if told is None:
            yield None
            return
        tell = told

        def step(stage: str, fraction: float) -> None:
            tell(min(STAGE_STEPS, round(fraction * STAGE_STEPS)))

        yield step


def _label(piece_id: str, pieces: Sequence[Piece]) -> str:
    return next((p.label for p in pieces if p.id == piece_id), piece_id)


def _report(capture: Capture, pieces: Sequence[Piece], settings: CaptureSettings) -> None:
    """The capture in words: each piece found (where, how far it moved, how sure), the pieces
    not found and the discs no piece fits."""
    click.echo(f"Markers seen: {', '.join(map(str, capture.markers))}.")
    looked_for = len(capture.pieces) + len(capture.missing)
    click.echo(f"Found {len(capture.pieces)} of {looked_for} pieces:")
    width = max((len(_label(p.id, pieces)) for p in capture.pieces), default=0)
    for found in capture.pieces:
        moved = ("place before not measured" if found.moved is None
                 else "not moved" if found.moved < settings.still
                 else f"moved {found.moved:.1f} cm")
        check = "  check it" if found.confidence < settings.confident else ""
        click.echo(f"  {_label(found.id, pieces):<{width}}  at ({found.at[0]:.1f}, "
                   f"{found.at[1]:.1f})  {moved}, sure {found.confidence:.2f}{check}")
    if capture.missing:
        click.echo("Not found (hidden, touching another disc, or off the mat?): "
                   + ", ".join(_label(m, pieces) for m in capture.missing))
    for disc in capture.unknown:
        click.echo(f"A disc {2 * disc.radius:.1f} cm across at ({disc.at[0]:.1f}, "
                   f"{disc.at[1]:.1f}) fits no piece.")


@cli.command()
@click.argument("photo", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.argument("scenario", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--session", "folder", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="The session whose pieces the photo shows.")
@click.option("--empty", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A photo of the same mat side without pieces (default: the one kept).")
@click.option("--playmat", default=None,
              help="With --empty alone: keep that photo as this mat side's empty view.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (CONTRACT.md).")
@click.option("--apply", "apply_", is_flag=True,
              help="Record the moves in the session, asking about what is in doubt.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the scenario with the pieces where the photo shows them.")
@click.pass_context
@reports_errors
def capture(ctx: click.Context, photo: Path | None, scenario: Path | None, folder: Path | None,
            empty: Path | None, playmat: str | None, as_json: bool, apply_: bool,
            out: Path | None) -> None:
    """Read where every disc stands from a phone photo of the mat.

    Lay the four cards of `automa markers` beside the mat's corners, photograph the empty mat
    side once (`automa capture --empty EMPTY.jpg --playmat ID`), then photograph the table
    after each heroes' turn. Nothing is recorded unless --apply is given.

    \b
    Examples:
      automa capture --empty empty.jpg --playmat mausoleum
      automa capture photo.jpg --session my-battle
      automa capture photo.jpg --session my-battle --apply
      automa capture photo.jpg battle.toml --out after.toml
    """
    from automa.errors import InputError
    from automa.photo.extra import require_photo_extra

    if playmat is not None or (photo is None and empty is not None):
        if photo is not None or scenario is not None or folder or apply_ or out or as_json:
            raise InputError("to keep an empty mat side: automa capture --empty PHOTO "
                             "--playmat ID, and nothing else")
        if empty is None or playmat is None:
            raise InputError("to keep an empty mat side, give both --empty PHOTO and "
                             "--playmat ID")
        require_photo_extra()
        _keep(ctx, empty, playmat)
        return
    if photo is None:
        raise InputError("give the PHOTO to read, and --session DIR or a SCENARIO file")
    if (folder is None) == (scenario is None):
        raise InputError("give the pieces' battle: --session DIR or a SCENARIO file, one of "
                         "them")
    if apply_ and out is not None:
        raise InputError("--apply records in the session, --out writes a scenario: one of them")
    if apply_ and folder is None:
        raise InputError("--apply records the moves in a session: give --session DIR (or "
                         "--out NEW.toml for a scenario)")
    require_photo_extra()
    if folder is not None:
        _capture_session(ctx, photo, folder, empty, as_json, apply_, out)
    else:
        assert scenario is not None
        _capture_scenario(ctx, photo, scenario, empty, as_json, out)


def _keep(ctx: click.Context, empty: Path, playmat_id: str) -> None:
    from automa.errors import InputError
    from automa.photo.battle import keep_empty

    catalog = _catalog(ctx)
    playmat = catalog.playmats.get(playmat_id)
    if playmat is None:
        raise InputError(f"--playmat {playmat_id}: no such playmat (known: "
                         f"{', '.join(catalog.playmats)})")
    kept = keep_empty(_read(empty, "--empty"), str(empty), playmat, catalog)
    click.echo(f"Kept the empty {playmat.name} side: {kept}. `automa capture PHOTO --session "
               f"DIR` reads photos of this side against it.")


def _capture_scenario(ctx: click.Context, photo: Path, scenario_path: Path, empty: Path | None,
                      as_json: bool, out: Path | None) -> None:
    from automa.catalog.capture import load_capture_settings
    from automa.cli.main import _scenario
    from automa.photo.battle import capture_json, capture_pieces

    scenario = _scenario(ctx, scenario_path)
    catalog = _catalog(ctx)
    settings = load_capture_settings(catalog.data_dir)
    taken = _read(photo, "photo")  # a photo that is not there is said first
    empty_top = _empty_view(scenario.playmat, settings, catalog, empty)
    with _progress(not as_json) as progress:
        found = capture_pieces(taken, str(photo), scenario.pieces, catalog,
                               scenario.playmat, settings, empty_top, progress=progress)
    if out is not None:
        _write_photographed(scenario, found, out, photo, str(scenario_path))
    if as_json:
        emit_json(capture_json(found))
        return
    _report(found, scenario.pieces, settings)
    if out is not None:
        kept = f"; not found, kept where they stood: {', '.join(found.missing)}" \
            if found.missing else ""
        click.echo(f"Wrote {out}{kept}.")


def _empty_view(playmat: Playmat, settings: CaptureSettings, catalog: Catalog,
                empty: Path | None) -> np.ndarray:
    from automa.photo.battle import empty_view

    if empty is None:
        return empty_view(playmat, settings, catalog)
    return empty_view(playmat, settings, catalog, _read(empty, "--empty"), str(empty))


def _write_photographed(scenario: Scenario, found: Capture, out: Path, photo: Path,
                        source: str) -> None:
    """The scenario with each piece found where the photo shows it (those not found where
    they stood); refused, nothing written, while a disc no piece fits is in the photo."""
    from msgspec.structs import replace

    from automa.photo.model import PhotoError
    from automa.scenario.save import save_scenario

    if found.unknown:
        disc = found.unknown[0]
        raise PhotoError(f"{photo}: a disc {2 * disc.radius:.1f} cm across at "
                         f"({disc.at[0]:.1f}, {disc.at[1]:.1f}) fits no piece of {source}; "
                         f"nothing was written")
    places = {p.id: p.at for p in found.pieces}
    save_scenario(replace(scenario, pieces=tuple(
        p.moved(places[p.id]) if p.id in places else p for p in scenario.pieces)), out)


def _capture_session(ctx: click.Context, photo: Path, folder: Path, empty: Path | None,
                     as_json: bool, apply_: bool, out: Path | None) -> None:
    from automa.catalog.capture import load_capture_settings
    from automa.cli.session_cmds import open_session
    from automa.photo.battle import capture_battle, capture_json

    session = open_session(ctx, folder)
    settings = load_capture_settings(session.catalog.data_dir)
    taken = _read(photo, "photo")  # a photo that is not there is said first
    empty_top = _empty_view(session.scenario.playmat, settings, session.catalog, empty)
    with _progress(not as_json) as progress:
        found = capture_battle(taken, str(photo), session, settings, empty_top, progress)
    pieces = session.state.battle.pieces
    if out is not None:
        _write_photographed(session.state.as_scenario(), found, out, photo, str(folder))
    if as_json and not apply_:
        emit_json(capture_json(found))
        return
    if not as_json:
        _report(found, pieces, settings)
    if apply_:
        moves = _settled(found, settings, session, pieces)
        _record(session, moves, as_json)
        if as_json:
            emit_json({**capture_json(found), "recorded": [
                {"piece": m.piece, "to": list(m.to) if m.to else None, "words": m.words}
                for m in moves]})


def _settled(found: Capture, settings: CaptureSettings, session: Session,
             pieces: Sequence[Piece]) -> list[Move]:
    """The moves to record: those the photo proposes, with every doubt asked first (a piece
    not found, a piece named with little confidence, a disc no piece fits)."""
    from automa.photo.battle import capture_moves, doubtful
    from automa.session.commands import Move

    moves = {m.piece: m for m in capture_moves(found, settings)}
    for missing in found.missing:
        said = _place(session, missing, f"{_label(missing, pieces)} was not found. Enter "
                      f"leaves it where it stood; or say where it is (x,y or table words)")
        if said is not None:
            moves[missing] = said
    for piece in doubtful(found, settings):
        said = _place(session, piece.id, f"{_label(piece.id, pieces)}: found at "
                      f"({piece.at[0]:.1f}, {piece.at[1]:.1f}) but not surely (sure "
                      f"{piece.confidence:.2f}). Enter takes it; or say where it is (x,y or "
                      f"table words)")
        if said is not None:
            moves[piece.id] = said
    for disc in found.unknown:
        piece_id = _which(f"A disc {2 * disc.radius:.1f} cm across at ({disc.at[0]:.1f}, "
                          f"{disc.at[1]:.1f}) fits no piece. Which piece is it? (Enter: none, "
                          f"leave it out)", pieces)
        if piece_id is not None:
            moves[piece_id] = Move(piece_id, (round(disc.at[0], 2), round(disc.at[1], 2)))
    return list(moves.values())


def _place(session: Session, piece_id: str, question: str) -> Move | None:
    """A place the players give for a piece (None: Enter), asked again until it can be done."""
    from automa.session.commands import Move

    while True:
        answer = _ask(question)
        if not answer:
            return None
        move = Move(piece_id, words=answer)
        problem = session.check(move)
        if problem is None:
            return move
        click.echo(f"  {problem}; try again", err=True)


def _which(question: str, pieces: Sequence[Piece]) -> str | None:
    """A piece the players name (None: Enter), asked again until it names one."""
    from automa.errors import InputError
    from automa.session.names import piece_named

    while True:
        answer = _ask(question)
        if not answer or answer.lower() == "none":
            return None
        try:
            return piece_named(answer, [p.id for p in pieces])
        except InputError as error:
            click.echo(f"  {error}; try again", err=True)


def _ask(text: str) -> str:
    from automa.errors import InputError

    try:
        return str(click.prompt(text, default="", show_default=False, prompt_suffix=": ",
                                err=True)).strip()
    except click.Abort:
        click.echo(err=True)
        raise InputError("the input ended before every doubt was settled; nothing was "
                         "recorded") from None


def _record(session: Session, moves: Sequence[Move], as_json: bool) -> None:
    """Each move as its own input (undone one by one), after all were checked."""
    from automa.errors import InputError

    for move in moves:
        problem = session.check(move)
        if problem is not None:
            raise InputError(f"move {move.piece}: {problem}; nothing was recorded")
    for move in moves:
        session.do(move)
    if not as_json:
        said = "no piece moved" if not moves else \
            f"{len(moves)} move{'s' if len(moves) > 1 else ''}"
        click.echo(f"Recorded {said} (`automa undo` takes them back one at a time).")

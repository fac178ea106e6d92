"""`automa calibrate`: measure your rulers, templates, discs and mat into a data folder, and
draw the 1:1 check sheet of the sizes in force."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from automa.cli.main import _catalog, cli, reports_errors

PHOTO_SIZES = ("extra-small", "small", "medium", "large", "extra-large")  # the distinct discs
WALK_INTRO = ("Measure each piece with a tape or a ruler, in cm, edge to edge. The value in force "
              "(or your answer) is shown in [brackets]: Enter keeps it. `back` goes back one "
              "question.")


def _complain(text: str) -> None:
    click.echo(f"  {text}; try again", err=True)


def _prompt(text: str) -> str:
    from automa.errors import InputError

    try:
        return str(click.prompt(text, default="", show_default=False, prompt_suffix=": ",
                                err=True))
    except click.Abort:
        click.echo(err=True)
        raise InputError("the input ended before every measurement was given; nothing was "
                         "written (--no-ask keeps what is not given as it is)") from None


def _walk(asked: tuple[Any, ...], answers: dict[str, float],
          defaults: Mapping[str, float]) -> None:
    """Ask each question in turn; a bad answer is asked again, `back` reopens the last one
    (showing the answer given, which Enter keeps)."""
    from automa.catalog.measure import parse_length, zone_problem

    click.echo(WALK_INTRO, err=True)
    i, shown = 0, -1
    while i < len(asked):
        question = asked[i]
        if shown != i:
            click.echo(f"\n({i + 1}/{len(asked)}) {question.how}", err=True)
            shown = i
        shown_value = answers.get(question.key, question.default)
        text = _prompt(f"{question.label}, cm [{shown_value:g}]")
        if text.strip().lower() == "back":
            if i == 0:
                _complain("nothing to go back to: this is the first question")
                continue
            i -= 1
            continue
        if not text.strip() and question.key in answers:  # reopened by `back`: kept as typed
            i += 1
            continue
        if not text.strip():
            problem = zone_problem(question.key, question.default, answers, defaults)
            if problem is not None:
                _complain(f"the value in force no longer fits: {problem}")
                continue
            i += 1
            continue
        try:
            value = parse_length(text, question)
        except ValueError as exc:
            _complain(str(exc))
            continue
        problem = zone_problem(question.key, value, answers, defaults)
        if problem is not None:
            _complain(problem)
            continue
        answers[question.key] = value
        i += 1


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, object]:
    flat: dict[str, object] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _given(answers_file: Path | None, settings: tuple[str, ...]) -> list[tuple[str, str, object]]:
    """(where, key, value) from the answers file, then from --set (a later one wins)."""
    from automa.catalog.locate import read_toml
    from automa.errors import InputError

    given: list[tuple[str, str, object]] = []
    if answers_file is not None:
        given += [(str(answers_file), k, v) for k, v in _flatten(read_toml(answers_file)).items()]
    for setting in settings:
        key, sep, value = setting.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set: write KEY=CM (ruler.1=6.1), not {setting!r}")
        given.append(("--set", key.strip(), value))
    return given


def _checked(given: list[tuple[str, str, object]], by_key: Mapping[str, Any],
             defaults: Mapping[str, float]) -> dict[str, float]:
    """The given values, checked in question order as if typed; one line names the bad one."""
    import difflib

    from automa.catalog.measure import check_length, parse_length, zone_problem
    from automa.errors import InputError

    latest: dict[str, tuple[str, object]] = {}
    for where, key, value in given:
        if key not in by_key:
            close = difflib.get_close_matches(key, list(by_key), n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise InputError(f"{where}: {key}: no such measurement; {hint}`automa calibrate "
                             f"--keys` lists them")
        latest[key] = (where, value)
    answers: dict[str, float] = {}
    for key in (k for k in by_key if k in latest):
        where, value = latest[key]
        try:
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ValueError(f"expected a number of cm, got {value!r}")
            length = (parse_length(value, by_key[key]) if isinstance(value, str)
                      else check_length(float(value), by_key[key]))
        except ValueError as exc:
            raise InputError(f"{where}: {key}: {exc}") from None
        problem = zone_problem(key, length, answers, defaults)
        if problem is not None:
            raise InputError(f"{where}: {key}: {problem}")
        answers[key] = length
    return answers


def _write(folder: Path, texts: Mapping[str, str]) -> None:
    """Check the folder as it will be, in a scratch copy; then write each file atomically."""
    from automa.catalog.load import check_catalog
    from automa.catalog.locate import DATA_FILES
    from automa.errors import DataError
    from automa.storage import atomic_write_text

    with tempfile.TemporaryDirectory() as scratch:
        trial = Path(scratch)
        for name in DATA_FILES:
            if (folder / name).is_file():
                shutil.copyfile(folder / name, trial / name)
        for name, text in texts.items():
            (trial / name).write_text(text, encoding="utf-8")
        ours = [p for p in check_catalog(trial)
                if Path(p.file).name in texts and p.file.startswith(scratch)]
        if ours:
            first = ours[0]
            raise DataError(str(folder / Path(first.file).name), first.record, first.field,
                            f"{first.problem} (nothing was written)")
    for name, text in texts.items():
        atomic_write_text(folder / name, text)  # a failure is one line, exit 5


def _photo_diameters(catalog: Any, in_force: Any, photo: Path, empty: Path | None,
                     playmat_id: str, sizes_text: str) -> list[tuple[str, str, object]]:
    """Each laid disc's diameter from the photo, to 0.5 mm, as a given measurement: the discs
    found, smallest first, are the sizes named, smallest (as the data has them) first.
    `catalog`: the folder written's data; `in_force`: --data-dir's, where the empty mat side
    was kept and the cards' places are read."""
    from automa.catalog.capture import load_capture_settings
    from automa.errors import InputError
    from automa.photo.extra import require_photo_extra

    require_photo_extra()
    from automa.photo.battle import empty_view
    from automa.photo.model import PhotoError
    from automa.photo.pipeline import measure_discs

    radii = catalog.components.disc_radius
    sizes = [s.strip() for s in sizes_text.split(",") if s.strip()]
    unknown = [s for s in sizes if s not in radii]
    if unknown or not sizes or len(set(sizes)) != len(sizes):
        raise InputError(f"--sizes {sizes_text}: name each disc size once, of "
                         f"{', '.join(radii)}")
    playmat = catalog.playmats[playmat_id]
    settings = load_capture_settings(in_force.data_dir)
    try:
        data = photo.read_bytes()
        empty_data = None if empty is None else empty.read_bytes()
    except OSError as error:
        raise PhotoError(f"{error.filename}: cannot be read ({error.strerror})") from None
    empty_top = empty_view(playmat, settings, in_force, empty_data, str(empty))
    thickness = max(catalog.components.disc_thickness.get(s, 1.0) for s in sizes)
    found = sorted(measure_discs(data, str(photo), empty_top, settings, playmat.width,
                                 playmat.length, thickness), key=lambda disc: disc[1])
    if len(found) != len(sizes):
        raise PhotoError(f"{photo}: found {len(found)} disc{'s' if len(found) != 1 else ''}, "
                         f"expected {len(sizes)} (one each of {', '.join(sizes)}); lay them "
                         f"apart, not touching, between the cards")
    ordered = sorted(sizes, key=lambda s: (radii[s], sizes.index(s)))
    return [(str(photo), f"disc.{size}", round(2 * radius * 20) / 20)
            for size, (_, radius) in zip(ordered, found, strict=True)]


def _sheet(ctx: click.Context, sheet: Path, paper: str) -> None:
    from automa.catalog.load import load_catalog
    from automa.catalog.locate import load_data_file, user_data_dir
    from automa.cli.sheets import check_sheet_name, write_pages
    from automa.render.check_sheet import check_sheet

    check_sheet_name(sheet, "--sheet")
    folder = user_data_dir(ctx.obj["data_dir"])
    catalog = load_catalog(folder)
    shipped, _ = load_data_file("components.toml", None)
    now, _ = load_data_file("components.toml", folder)
    names = [*(f"{g}.{k}" for g in ("ruler", "disc") for k in now.get(g, {})),
             "attack-template", "clock-template"]

    def record(tables: Mapping[str, Any], name: str) -> object:
        group, _, key = name.partition(".")
        return tables.get(group, {}).get(key) if key else tables.get(group)

    yours = frozenset(n for n in names if record(now, n) != record(shipped, n))
    source = f"your data folder {folder.name[:40]!r}" if folder else "our shipped data"
    mats: dict[tuple[float, float], list[str]] = {}
    for mat in catalog.playmats.values():
        mats.setdefault((mat.width, mat.length), []).append(mat.name)
    notes = tuple(f"Mats, not drawn (too large), check with a tape: {w:g} x {length:g} cm: "
                  f"{', '.join(n)}." for (w, length), n in mats.items())
    pages = check_sheet(catalog.components, paper, source, yours, notes)
    click.echo(f"Wrote the check sheet: {write_pages(sheet, pages, paper)}")
    click.echo("Print at 100 % / actual size, no fit-to-page; the 10 cm bar on each page "
               "checks it. Lay each real ruler, template and disc on its drawing.")


@cli.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The data folder to write (default: --data-dir, else AUTOMA_DATA_DIR, else "
                   "~/.local/share/catacombs-automa).")
@click.option("--set", "settings", multiple=True, metavar="KEY=CM",
              help="A measurement given, not asked, e.g. ruler.1=6.1 or disc.medium=2.6 "
                   "(repeat it; `automa calibrate --keys` lists the keys).")
@click.option("--answers", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A TOML file of measurements by key (ruler.1 = 6.1).")
@click.option("--playmat", "playmats", multiple=True,
              help="A mat side to measure (repeat it; default: the six Red Box sides).")
@click.option("--no-ask", is_flag=True,
              help="Ask nothing: every measurement not given keeps the value in force.")
@click.option("--keys", is_flag=True, help="List the measurement keys and values in force.")
@click.option("--sheet", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Draw the 1:1 check sheet of the sizes in force to FILE.pdf, or FILE.svg "
                   "(one file per page); asks nothing.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="The check sheet's paper.")
@click.option("--photo", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Measure your discs from a photo: one disc of each size laid on the mat "
                   "between the four marker cards (asks nothing else).")
@click.option("--empty", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="With --photo: the same mat side without discs (default: the one kept for "
                   "--playmat).")
@click.option("--sizes", default=",".join(PHOTO_SIZES), show_default=True,
              help="With --photo: the disc sizes laid, one disc each.")
@click.pass_context
@reports_errors
def calibrate(ctx: click.Context, out: Path | None, settings: tuple[str, ...],
              answers: Path | None, playmats: tuple[str, ...], no_ask: bool, keys: bool,
              sheet: Path | None, paper: str, photo: Path | None, empty: Path | None,
              sizes: str) -> None:
    """Measure your rulers, templates, discs and mat, one question at a time, into a data folder.

    The shipped sizes are placeholders (no source prints them). Each answer is checked as you
    type it; the folder gets only the records you measured (provenance house, with a note),
    merged with what it holds, and is checked before anything is written.

    \b
    Examples:
      automa calibrate --out my-data
      automa calibrate --out my-data --set ruler.1=6.1 --set disc.medium=2.6 --no-ask
      automa --data-dir my-data calibrate --sheet check.pdf
      automa calibrate --out my-data --photo discs.jpg --playmat mausoleum
    """
    from automa.catalog.cards import toml_value
    from automa.catalog.load import load_catalog
    from automa.catalog.locate import load_data_file, read_toml, shipped_data_dir
    from automa.catalog.measure import (
        component_records,
        merged_text,
        playmat_records,
        questions,
        red_box_mats,
    )
    from automa.cli.data_cmds import default_folder
    from automa.errors import InputError

    if sheet is not None:
        if out or settings or answers or playmats or no_ask or keys or photo or empty:
            raise InputError("--sheet draws the sizes in force and asks nothing: measure first, "
                             "then `automa --data-dir DIR calibrate --sheet FILE.pdf`")
        _sheet(ctx, sheet, paper)
        return
    chosen = out or ctx.obj["data_dir"]
    folder = Path(chosen) if chosen else default_folder()
    existing = folder if folder.is_dir() else None
    catalog = load_catalog(existing)
    for mat_id in playmats:
        if mat_id not in catalog.playmats:
            raise InputError(f"--playmat {mat_id}: no such playmat (known: "
                             f"{', '.join(catalog.playmats)})")
    mats = tuple(dict.fromkeys(playmats)) or red_box_mats(catalog)
    asked = questions(catalog, mats)
    by_key = {q.key: q for q in asked}
    defaults = {q.key: q.default for q in asked}
    if keys:
        for q in asked:
            click.echo(f"{q.key:<28} {q.default:g}  {q.label}")
        return
    given = _given(answers, settings)
    if photo is not None:
        if len(mats) != 1 or (empty is None and not playmats):
            raise InputError("--photo: name the mat side the discs lie on with one --playmat "
                             "ID (its kept empty view is used, or give --empty PHOTO)")
        given += _photo_diameters(catalog, _catalog(ctx), photo, empty, mats[0], sizes)
        no_ask = True
    elif empty is not None:
        raise InputError("--empty goes with --photo")
    measured = _checked(given, by_key, defaults)
    if not no_ask:
        _walk(tuple(q for q in asked if q.key not in measured), measured, defaults)
    if not measured:
        click.echo("Nothing measured: every size stays as it is; nothing was written.")
        return
    texts = {}
    raw_components, _ = load_data_file("components.toml", existing)
    records = component_records(raw_components, measured)
    if records:
        path = folder / "components.toml"
        texts["components.toml"] = merged_text(read_toml(path) if path.is_file() else {},
                                               records)
    shipped_mats, _ = load_data_file("playmats.toml", None)
    raw_mats, _ = load_data_file("playmats.toml", existing)
    ours = frozenset(m for m in mats if raw_mats[m] == shipped_mats.get(m))
    mat_records = playmat_records(raw_mats, ours, mats, measured)
    if mat_records:
        path = folder / "playmats.toml"
        texts["playmats.toml"] = merged_text(read_toml(path) if path.is_file() else {},
                                             mat_records)
    _write(folder, texts)
    click.echo(f"Measured ({len(measured)}):")
    for key, value in measured.items():
        click.echo(f"  {key:<28} {defaults[key]:g} -> {toml_value(value)} cm")
    click.echo(f"Wrote {', '.join(str(folder / n) for n in texts)} (provenance house); "
               f"automa data check {folder}: ok")
    if shipped_data_dir() != folder:
        click.echo(f"Use it with --data-dir {folder} or AUTOMA_DATA_DIR={folder}; print the "
                   f"check sheet with `automa --data-dir {folder} calibrate --sheet check.pdf`")

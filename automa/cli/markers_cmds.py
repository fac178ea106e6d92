"""`automa markers`: the four marker cards of the photo capture, printed at true size."""

from __future__ import annotations

from pathlib import Path

import click

from automa.cli.main import cli, reports_errors


@cli.command()
@click.option("-o", "--out", "out", type=click.Path(dir_okay=False, path_type=Path),
              required=True,
              help="FILE.pdf (one document), or FILE.svg (one file per page: FILE.svg, "
                   "FILE-2.svg, ...).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="The paper you print on.")
@click.option("--playmat", default=None, metavar="ID",
              help="Also give each card's centre in this mat's centimetres.")
@click.pass_context
@reports_errors
def markers(ctx: click.Context, out: Path, paper: str, playmat: str | None) -> None:
    """Print the four marker cards a photo of the mat is read by (the photo extra).

    Each card says which mat corner it lies beside and where its centre goes from that corner,
    from the data in force (data/capture.toml, or the copy in your data folder if you lay the
    cards elsewhere). Print at 100 %: each black square must measure 5 cm (the data's size).

    \b
    Examples:
      automa markers -o markers.pdf
      automa markers -o markers.pdf --paper letter --playmat crypt-a
      automa --data-dir my-data markers -o my-markers.pdf
    """
    from automa.photo.extra import require_photo_extra

    require_photo_extra()
    from automa.catalog.capture import load_capture_settings
    from automa.catalog.locate import user_data_dir
    from automa.cli.sheets import check_sheet_name, write_pages
    from automa.errors import InputError
    from automa.photo.cards import marker_bits
    from automa.render.marker_cards import Mat, marker_card_pages

    check_sheet_name(out, "-o")
    folder = user_data_dir(ctx.obj["data_dir"])
    settings = load_capture_settings(folder)
    mat = None
    if playmat is not None:
        from automa.catalog.load import load_catalog

        mats = load_catalog(folder).playmats
        if playmat not in mats:
            raise InputError(f"--playmat {playmat}: no such playmat (known: "
                             f"{', '.join(mats)})")
        found = mats[playmat]
        mat = Mat(found.name, found.width, found.length)
    bits = {card.id: marker_bits(settings.dictionary, card.id).tolist()
            for card in settings.cards}
    source = f"your data folder {folder.name[:40]!r}" if folder else "our shipped data"
    pages, _ = marker_card_pages(settings, bits, paper, source, mat)
    click.echo(f"Wrote the marker cards: {write_pages(out, pages, paper)}")
    click.echo(f"Print at 100 % / actual size, no fit-to-page; each black square must measure "
               f"{settings.marker_size:.1f} cm a side. docs/capture.md says how to lay them.")

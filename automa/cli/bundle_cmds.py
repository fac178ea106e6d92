"""`automa export` and `automa import`: a session or a campaign folder as one self-checking
file, and back (automa/campaign/bundle.py says what the file holds)."""

from __future__ import annotations

from pathlib import Path

import click

from automa.cli.main import cli, reports_errors


@cli.command("export")
@click.option("--session", "folder", required=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="The session or campaign folder.")
@click.option("-o", "--output", "output", required=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="The file to write (e.g. evening.automa.json); never written over.")
@click.pass_context
@reports_errors
def export(ctx: click.Context, folder: Path, output: Path) -> None:
    """A session or a whole campaign (its log, its rooms' battles) as one file, for another
    machine or a safe place; `automa import FILE` brings it back.

    \b
    Example:
      automa export --session evening -o evening.automa.json
    """
    from automa.campaign.bundle import export_bytes
    from automa.errors import InputError
    from automa.storage import atomic_write_bytes

    if output.exists():
        raise InputError(f"{output}: already exists; nothing is written over")
    data = export_bytes(folder)
    atomic_write_bytes(output, data)
    click.echo(f"Exported {folder} to {output} ({len(data) // 1024 + 1} KB); `automa import "
               f"{output}` brings it back")


@cli.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--to", "target", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="The folder to make (default: the exported folder's name, here); it must "
                   "not exist.")
@click.pass_context
@reports_errors
def import_(ctx: click.Context, file: Path, target: Path | None) -> None:
    """Bring back a session or campaign exported with `automa export`: every file's digest and
    every log's hash chain are checked, and the folder appears whole or not at all.

    \b
    Example:
      automa import evening.automa.json --to evening-copy
    """
    from automa.campaign.bundle import MAX_BYTES, import_bundle, read_bundle
    from automa.cli.main import _catalog
    from automa.errors import InputError

    try:
        with file.open("rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{file}: cannot be read ({exc.strerror})") from None
    bundle = read_bundle(data, str(file))
    made = import_bundle(bundle, target if target is not None else Path(bundle.name),
                         _catalog(ctx))
    verb = "play" if bundle.kind == "session" else "campaign status"
    click.echo(f"Imported the {bundle.kind} {bundle.name!r} into {made}; `automa {verb} "
               f"--session {made}` goes on")

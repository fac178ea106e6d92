"""`automa data todo` (the card fields our data lacks) and `automa data card` (type one card)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from automa.cli.main import data, emit_json, reports_errors

ROLE_NOTE = {"stand-in": "a medium disc until entered", "setup": "for automa setup"}
data_dir_option = click.option(
    "--data-dir", "local_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Your data folder (default: the main --data-dir, else AUTOMA_DATA_DIR).")


def _folder(ctx: click.Context, local_dir: Path | None) -> Path | None:
    root = ctx.find_root()
    chosen = local_dir or (root.obj or {}).get("data_dir")
    return Path(chosen) if chosen else None


@data.command("todo")
@data_dir_option
@click.option("--all", "every", is_flag=True,
              help="Also the card fields a battle does not use (gold, nullify, reflect).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
@reports_errors
def data_todo(ctx: click.Context, local_dir: Path | None, every: bool, as_json: bool) -> None:
    """List every card field our data lacks that a battle (or a setup) needs, by record.

    \b
    Example:
      automa data todo --data-dir my-data
    """
    from automa.catalog.load import load_catalog
    from automa.catalog.todo import todo

    entries = todo(load_catalog(_folder(ctx, local_dir)), every)
    if as_json:
        emit_json({"records": [{
            "id": e.id, "name": e.name, "kind": e.kind, "file": e.file,
            "provenance": e.provenance, "fields": list(e.fields),
            "roles": {f: e.role(f) for f in e.fields}} for e in entries],
            "fields": sum(len(e.fields) for e in entries)})
        return
    if not entries:
        click.echo("Nothing to enter: every card field a battle needs is in the data.")
        return
    click.echo("Card fields our data lacks (enter a card with `automa data card ID`):")
    width = max(len(e.id) for e in entries)
    file = ""
    for entry in entries:
        if entry.file != file:
            file = entry.file
            click.echo(f"\n{file}")
        fields = ", ".join(f"{f} ({ROLE_NOTE[entry.role(f)]})" if entry.role(f) in ROLE_NOTE
                           else f for f in entry.fields)
        click.echo(f"  {entry.id:<{width}}  {entry.name} [{entry.kind}, {entry.provenance}]: "
                   f"{fields}")
    total = sum(len(e.fields) for e in entries)
    click.echo(f"\n{len(entries)} records, {total} fields")


def default_folder() -> Path:
    from automa.catalog.locate import default_data_folder

    return default_data_folder()


def _ask(field: str, catalog: Any, parse: Any, prompt: str = "") -> Any:
    from automa.catalog.cards import prompt_for
    from automa.cli.asker import CLEAR, line_editing
    from automa.errors import InputError

    line_editing()  # on a terminal: arrows, Ctrl-U, Up for the answers typed before
    while True:
        try:
            text = click.prompt(prompt or prompt_for(field, catalog), default="",
                                show_default=False,
                                prompt_suffix=": ", err=True)
        except click.Abort:
            raise InputError("the input ended before the card was complete; nothing was "
                             "written") from None
        if str(text).strip().lower() == CLEAR:
            click.clear()
            continue
        try:
            return parse(field, str(text))
        except ValueError as exc:
            click.echo(f"  {exc}; try again", err=True)


def _ask_sequences(catalog: Any, named: tuple[str, ...]) -> list[str]:
    from automa.catalog.cards import parse_sequence_answer

    if named:
        click.echo(f"  (our sources name these shots on this card: {', '.join(named)})", err=True)
    click.echo("  One shot sequence per line (each Or is its own line); an empty line ends.",
               err=True)
    sequences: list[str] = []
    while True:
        def parse(_: str, text: str) -> str:
            if not text.strip():
                if sequences:
                    return ""
                raise ValueError("the card has at least one sequence")
            return parse_sequence_answer(text, catalog)

        number = len(sequences) + 1
        answer = _ask("sequences", catalog, parse, f"Shot sequence {number}, e.g. 'rush then "
                      f"melee+poison'" + (" (empty line: done)" if sequences else ""))
        if not answer:
            return sequences
        sequences.append(answer)


def _given(options: dict[str, Any]) -> dict[str, str | list[str]]:
    """The card fields given as options, by field name."""
    given: dict[str, str | list[str]] = {k: v for k, v in options.items()
                                         if v is not None and k != "sequences"}
    if options["sequences"]:
        given["sequences"] = list(options["sequences"])
    return given


@data.command("card")
@click.argument("record_id", metavar="ID")
@data_dir_option
@click.option("--provenance", type=click.Choice(["house", "fan"]), default="house",
              show_default=True,
              help="house: you copied it from your own card; fan: from a community transcription.")
@click.option("--all", "every", is_flag=True, help="Ask every field of the card, known or not.")
@click.option("--ask", is_flag=True,
              help="Ask for missing fields even when stdin is not a terminal (piped answers).")
@click.option("--family", default=None, help="Family or metre colour (zombie, purple, ...).")
@click.option("--level", default=None, help="Level 1-4.")
@click.option("--health", default=None, help="Health 1-99, or 'shadow'.")
@click.option("--gold", default=None, help="Gold reward.")
@click.option("--size", default=None, help="Size class (small, large, ...).")
@click.option("--nullifies", default=None, help="Shots the Nullifies box lists, comma-separated.")
@click.option("--reflects", default=None, help="Shots the Reflects box lists, comma-separated.")
@click.option("--sequence", "sequences", multiple=True,
              help="One shot sequence, e.g. 'rush then melee+poison'; repeat for each Or.")
@click.option("--minions", default=None, help="A Lord's minions: 'zombie x4, troll x2, a|b x2'.")
@click.option("--mercenary", default=None, help="A Lord's mercenary id, or a|b.")
@click.pass_context
@reports_errors
def data_card(ctx: click.Context, /, record_id: str, local_dir: Path | None, provenance: str,
              every: bool, ask: bool, **options: Any) -> None:
    """Type one card's fields (those our data lacks) into your data folder, checked as typed.

    Fields given as options are not asked. Without a terminal (or --ask), every field still
    missing must be given as an option. The record is written to monsters.toml or lords.toml
    in the folder (--data-dir, else AUTOMA_DATA_DIR, else ~/.local/share/catacombs-automa),
    merged with what is there, and the folder is checked.

    \b
    Examples:
      automa data card husk-zombie --data-dir my-data
      automa data card husk-zombie --level 1 --health 2 --gold 1 --nullifies none \\
          --reflects none --sequence "rush then melee"
    """
    from automa.catalog.cards import (
        check_record,
        entered_record,
        parse_answer,
        raw_record,
        toml_value,
        write_record,
    )
    from automa.catalog.fields import CARD, kind_of, needed
    from automa.catalog.load import check_catalog, load_catalog
    from automa.catalog.pieces import lookup
    from automa.errors import InputError
    from automa.safe_text import one_line

    chosen = _folder(ctx, local_dir)
    folder = chosen or default_folder()
    existing = folder if folder.is_dir() else None
    catalog = load_catalog(existing)
    spec = lookup(catalog, record_id)
    if spec is None:
        import difflib

        close = difflib.get_close_matches(record_id, [*catalog.monsters, *catalog.lords], n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise InputError(f"no monster, Antient or Catacomb Lord {record_id!r} in the data; "
                         f"{hint}`automa data todo` lists the cards to enter")
    kind = kind_of(spec)
    given = _given(options)
    foreign = [f for f in given if f not in CARD[kind]]
    if foreign:
        raise InputError(f"{record_id} ({kind}): its card has no {foreign[0]} "
                         f"(its fields: {', '.join(CARD[kind])})")
    wanted = CARD[kind] if every else needed(spec, every=True)
    fields = [f for f in CARD[kind] if f in wanted or f in given]
    if not fields:
        click.echo(f"{spec.name}: every field of its card is in the data already "
                   f"(--all asks them again)")
        return
    values: dict[str, Any] = {}
    wrong: list[str] = []
    for field, answer in given.items():
        try:
            values[field] = ([parse_answer(field, a, catalog) for a in answer]
                             if isinstance(answer, list) else parse_answer(field, answer, catalog))
        except ValueError as exc:
            wrong.append(f"{'--sequence' if field == 'sequences' else f'--{field}'}: {exc}")
    if wrong:  # every option's typo at once, not one per run
        raise InputError("; ".join(wrong))
    missing = [f for f in fields if f not in values]
    if missing and not (ask or sys.stdin.isatty()):
        flags = ", ".join("--sequence" if f == "sequences" else f"--{f}" for f in missing)
        raise InputError(f"{record_id}: not given: {flags} (stdin is not a terminal, so "
                         f"nothing is asked; give them as options or pass --ask)")
    if missing:
        click.echo(f"{spec.name} ({kind}, {catalog.files.get(record_id, 'data')}): "
                   f"{len(missing)} field(s) to type from the card", err=True)
    for field in missing:
        named = getattr(spec, "named_shots", ())
        values[field] = (_ask_sequences(catalog, named) if field == "sequences"
                         else _ask(field, catalog, lambda f, t: parse_answer(f, t, catalog)))
    values = {f: values[f] for f in CARD[kind] if f in values}
    record = entered_record(raw_record(record_id, kind, existing), values, provenance)
    check_record(record_id, kind, record, str(folder))
    path = write_record(folder, kind, record_id, record)
    typed = ", ".join(f"{k} = {toml_value(v)}" for k, v in values.items())
    click.echo(f"Wrote [{record_id}] to {path} (provenance {provenance}): {typed}")
    problems = check_catalog(folder)
    for problem in problems:
        click.echo(one_line(str(problem)), err=True)
    if problems:
        raise InputError(f"{folder}: the folder has {len(problems)} problem(s) (listed above); "
                         f"`automa data check {folder}` shows them again")
    click.echo(f"automa data check {folder}: ok")
    if chosen is None:
        click.echo(f"This is the default folder: use it with --data-dir {folder} or "
                   f"AUTOMA_DATA_DIR={folder}")

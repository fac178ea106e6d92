"""What a campaign room needs and our data lacks, asked once at the table and remembered in the
user's data folder: a Room card's monsters (rooms.toml, provenance "asked") and the start
piece's or Lord's card (lords.toml, through `automa data card`)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

import click

from automa.errors import InputError

LORD_FIELDS = {"health": "health", "size": "size", "sequence": "sequences",
               "minions": "minions", "mercenary": "mercenary"}  # --lord-card FIELD -> card field


def _folder(ctx: click.Context, what: str) -> Path:
    from automa.catalog.locate import user_data_dir

    folder = user_data_dir(ctx.obj["data_dir"])
    if folder is None:
        raise InputError(f"{what} not in our data and no data folder remembers it: give one "
                         f"(automa --data-dir DIR campaign ..., or AUTOMA_DATA_DIR)")
    return folder


def _asking(ask: bool) -> bool:
    return ask or sys.stdin.isatty()


def _icons(given: str, catalog: Any) -> Any:
    from automa.campaign.cards import parse_icons

    try:
        return parse_icons(given, catalog)
    except ValueError as exc:
        raise InputError(f"--monsters: {exc}") from None


def room_icons(ctx: click.Context, catalog: Any, room_id: str, given: str | None,
               ask: bool) -> Any:
    """The Room card's icons when our data lacks them (None when it has them): from
    --monsters, else asked (stdin a terminal, or --ask). Nothing is written yet."""
    from automa.campaign.cards import EXAMPLE, RoomIcons, parse_icons
    from automa.cli.data_cmds import _ask

    room = catalog.rooms[room_id]
    if room.known:
        if given is not None and _icons(given, catalog) != RoomIcons(
                room.monsters, room.metres, room.mercenaries or 0):
            raise InputError(f"--monsters: {room.name}'s monsters in the data "
                             f"({room.provenance}) differ; correct them in your rooms.toml")
        return None
    _folder(ctx, f"{room.name}'s monsters are")
    if given is not None:
        return _icons(given, catalog)
    if _asking(ask):
        return _ask("monsters", catalog, lambda _, text: parse_icons(text, catalog),
                    f"The {room.name} Room card: its monsters, e.g. {EXAMPLE}")
    raise InputError(f"{room.name}'s Room card monsters are not in our data: pass "
                     f"--monsters 'KIND=COUNT,...' (e.g. {EXAMPLE}), or --ask to answer "
                     f"on stdin")


def remember_icons(ctx: click.Context, room_id: str, icons: Any) -> Any:
    """The answer written to the data folder's rooms.toml; the catalog read again."""
    from automa.campaign.cards import remember_room
    from automa.catalog.load import load_catalog

    folder = _folder(ctx, "the room is")
    path = remember_room(folder, room_id, icons)
    catalog = load_catalog(folder)
    click.echo(f"Remembered {catalog.rooms[room_id].name}'s monsters ({icons.as_text()}) in "
               f"{path}", err=True)
    return catalog


def lord_fields(lord: Any, lair: bool, mercenaries: int) -> list[str]:
    """The Lord's card fields this room's setup and battle need that our data lacks."""
    if lair:  # the Lord's piece fights (health, sequences) with its minions; a size defaults
        return [f for f in ("health", "sequences", "minions") if f in lord.unknown]
    return ["mercenary"] if mercenaries and "mercenary" in lord.unknown else []


def lord_options(lord: Any, lair: bool, mercenaries: int, given: tuple[str, ...],
                 ask: bool) -> dict[str, Any] | None:
    """`automa data card`'s options for the Lord's card from --lord-card (None: the room needs
    nothing more of it); refused in one line when fields are missing and nothing can be asked."""
    from automa.catalog.fields import needed

    if not lord_fields(lord, lair, mercenaries):
        return None
    options: dict[str, Any] = {"sequences": []}
    for text in given:
        field, sep, value = text.partition("=")
        if not sep or field.strip() not in LORD_FIELDS:
            raise InputError(f"--lord-card: write FIELD=VALUE with FIELD one of "
                             f"{', '.join(LORD_FIELDS)}, not {text!r}")
        name = LORD_FIELDS[field.strip()]
        if name == "sequences":
            options["sequences"].append(value.strip())
        else:
            options[name] = value.strip()
    missing = [f for f in needed(lord, every=True)
               if not (options["sequences"] if f == "sequences" else f in options)]
    if missing and not _asking(ask):
        flags = ", ".join(next(k for k, v in LORD_FIELDS.items() if v == f) for f in missing)
        raise InputError(f"{lord.name}'s card is not in our data: pass --lord-card FIELD=VALUE "
                         f"for {flags} (e.g. --lord-card health=30), or --ask to answer on stdin")
    return {**options, "sequences": tuple(options["sequences"])}


def lord_card(ctx: click.Context, lord_id: str, options: dict[str, Any]) -> Any:
    """The Lord's card typed once through `automa data card` and remembered; the catalog read
    again."""
    from automa.catalog.load import load_catalog
    from automa.cli.data_cmds import data_card

    folder = _folder(ctx, "the Lord's card is")
    with contextlib.redirect_stdout(sys.stderr):  # stdout keeps the room's setup (or --json)
        ctx.invoke(data_card, record_id=lord_id, local_dir=folder, provenance="asked",
                   every=False, ask=True, **options)
    return load_catalog(folder)

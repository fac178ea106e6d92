"""The terminal's side of the campaign commands: the options every one of them takes, and the
options parsed into the core's typed steps and answers (the players are asked at the terminal
by cli/campaign_prompts.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from automa.errors import InputError

if TYPE_CHECKING:
    from automa.campaign.asking import LordCard
    from automa.campaign.cards import RoomIcons
    from automa.campaign.commands import Change, Share
    from automa.campaign.store import Campaign
    from automa.catalog.load import Catalog
    from automa.model.campaigns import Offer

T = TypeVar("T")
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print one JSON object instead of text.")
folder_option = click.option("--session", "folder", required=True,
                             type=click.Path(file_okay=False, path_type=Path),
                             help="The campaign folder.")
PLAIN_GOLD = re.compile(r"[0-9]{1,6}", re.ASCII)  # plain digits: no superscript or full-width ones
LORD_FIELDS = {"health": "health", "size": "size", "sequence": "sequences",
               "minions": "minions", "mercenary": "mercenary"}  # --lord-card FIELD -> card field


# A step's field, as the core names it, and the option (or argument) that gives it here.
OPTION_OF = {"campaign": "NAME", "heroes": "--heroes", "lord": "--lord", "room": "ROOM",
             "offer": "OFFER", "price": "--price", "hero": "--for", "payers": "--pay",
             "reward": "--reward", "drawn": "--drawn", "ally_health": "--ally-health",
             "monsters": "--monsters", "offers": "--offers", "bag": "--bag",
             "lord_card": "--lord-card", "spell_to": "--spell-to", "changes": "--change",
             "collected": "--collect", "resurrected": "--resurrect"}


@contextmanager
def in_option_words() -> Iterator[None]:
    """A refused field named by its option, as the players typed it."""
    from automa.campaign.commands import BadField, FieldConflict

    try:
        yield
    except (BadField, FieldConflict) as exc:
        raise type(exc)(OPTION_OF.get(exc.field, exc.field), exc.reason) from None


def open_campaign(ctx: click.Context, folder: Path) -> Campaign:
    from automa.campaign.store import open_campaign as opened
    from automa.cli.main import _catalog

    return opened(folder, _catalog(ctx), ctx.obj["data_dir"])


# Options parsed into the core's answers --------------------------------------------------------

def parsed(option: str, parse: Callable[[str], T], text: str) -> T:
    """`parse(text)`, its ValueError one line naming the option."""
    try:
        return parse(text)
    except ValueError as exc:
        raise InputError(f"{option}: {exc}") from None


def room_icons(text: str, catalog: Catalog) -> RoomIcons:
    from automa.campaign.cards import parse_icons

    return parsed("--monsters", lambda t: parse_icons(t, catalog), text)


def lord_card(given: tuple[str, ...]) -> LordCard:
    """`--lord-card FIELD=VALUE`, repeated (`sequence=` once for each Or)."""
    from automa.campaign.asking import LordCard

    fields: dict[str, str] = {}
    sequences: list[str] = []
    wrong = [text for text in given
             if not (parts := text.partition("="))[1] or parts[0].strip() not in LORD_FIELDS]
    if wrong:  # every one at once
        raise InputError(f"--lord-card: write FIELD=VALUE with FIELD one of "
                         f"{', '.join(LORD_FIELDS)}, not {', '.join(map(repr, wrong))}")
    for text in given:
        field, _, value = text.partition("=")
        name = LORD_FIELDS[field.strip()]
        if name == "sequences":
            sequences.append(value.strip())
        else:
            fields[name] = value.strip()
    return LordCard(fields.get("health"), fields.get("size"), tuple(sequences),
                    fields.get("minions"), fields.get("mercenary"))


def offers(text: str) -> tuple[Offer, ...]:
    from automa.catalog.campaigns import parse_offers_answer

    return parsed("--offers", parse_offers_answer, text)


def change(text: str) -> Change:
    """`elf.gold=-3`: a change the players made on a hero's board (a visit's purchase)."""
    from automa.campaign.commands import Change
    from automa.model.campaigns import BOARD_FIELDS

    target, _, amount = text.partition("=")
    hero, _, field = target.partition(".")
    digits = amount[1:] if amount[:1] in "+-" else amount
    for known in BOARD_FIELDS:
        if field == known and hero and digits.isascii() and digits.isdigit():
            return Change(hero, known, int(amount))
    raise InputError(f"--change: write HERO.FIELD=+N or -N (FIELD one of "
                     f"{', '.join(BOARD_FIELDS)}), not {text!r}")


def shares(text: str | None) -> tuple[Share, ...] | None:
    """--pay HERO (the whole price) or HERO=N,... (where the room lets gold be pooled)."""
    from automa.campaign.commands import Share

    if text is None:
        return None
    if "=" not in text:
        return (Share(text.strip()),)
    found: list[Share] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        hero, _, amount = part.partition("=")
        digits = amount.strip()
        if (not hero.strip() or not PLAIN_GOLD.fullmatch(digits)
                or hero.strip() in {s.hero for s in found}):
            raise InputError(f"--pay: write HERO=N,... (each hero once), not {part!r}")
        found.append(Share(hero.strip(), int(digits)))
    return tuple(found)


def drawn(text: str) -> tuple[str, ...]:
    from automa.campaign.log import CampaignError
    from automa.campaign.tavern import parse_drawn

    try:
        return tuple(parse_drawn(text))
    except CampaignError as exc:
        raise InputError(f"--drawn: {exc}") from None


def bag(text: str) -> dict[str, int]:
    from automa.campaign.answers import parse_bag
    from automa.model.campaigns import BAG_KINDS

    return parsed("--bag", lambda t: parse_bag(t, BAG_KINDS), text)

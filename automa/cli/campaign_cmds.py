"""`automa campaign`: new, status, next, end-room, undo, log (CONTRACT.md "Campaigns"), and
visit (cli/campaign_visit.py). Each parses its options into a typed step, takes it through
automa/campaign/store.py's `Campaign.do`, and prints what render/campaign_out.py makes of it."""

from __future__ import annotations

from pathlib import Path

import click

from automa.cli.campaign_ask import (
    folder_option,
    in_option_words,
    json_option,
    open_campaign,
)
from automa.cli.campaign_visit import campaign_visit
from automa.cli.main import cli, emit_json, reports_errors
from automa.model.modes import DICE_WORDS, DiceMode

GEOMETRY_WORDS = ("tracked", "asked", "hybrid")  # `automa new --geometry`'s words


@cli.group()
def campaign() -> None:
    """Play a Red Box campaign: Monstrosity or Pharaoh, room after room."""


campaign.add_command(campaign_visit)


def _notes(lines: tuple[str, ...]) -> None:
    """What was remembered in the data folder: stderr, keeping stdout for the result."""
    for line in lines:
        click.echo(line, err=True)


@campaign.command("new")
@click.argument("name")
@folder_option
@click.option("--heroes", required=True, metavar="ID=HEALTH,...",
              help="The heroes and their starting health, e.g. elf=8,barbarian=12.")
@click.option("--lord", default=None,
              help="The campaign's Catacomb Lord (default: the campaign's start piece).")
@click.option("--hidden-cave", is_flag=True, help="Play with the Hidden Cave.")
@click.option("--hero-death", type=click.Choice(["returns", "stays-dead", "keeps-board"]),
              default="returns",
              help="A fallen hero (ruling campaign-hero-death): the official rule (back at the "
                   "next setup with half health), the advanced rule, or the FAQ's.")
@click.option("--althea-cure", type=click.Choice(["official", "fan"]), default="official",
              help="Althea the Healer's price to cure a Poison card (ruling althea-cure): "
                   "20 gold (official) or 2 (fan).")
@click.option("--visit-pool", type=click.Choice(["own-gold", "pooled"]), default="own-gold",
              help="Who pays at a special room (ruling visit-pool): one hero from their own "
                   "gold (\"Catacomb heroes cannot share their gold\"), or pooled where the "
                   "room's text allows it (the Merchant).")
@click.option("--inn-sleep", type=click.Choice(["capped", "over"]), default="capped",
              help="The Amaranth Inn's sleep (ruling inn-sleep): +1 health up to the starting "
                   "health (the official rule on healing), or past it (the fan transcription).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None)
@json_option
@click.pass_context
@reports_errors
def campaign_new(ctx: click.Context, name: str, folder: Path, heroes: str, lord: str | None,
                 hidden_cave: bool, hero_death: str, althea_cure: str, visit_pool: str,
                 inn_sleep: str, seed: int | None, as_json: bool) -> None:
    """Start a campaign in a folder that keeps it all.

    \b
    Example:
      automa campaign new monstrosity --session evening --heroes elf=8,dwarf=9 --lord hmotha
    """
    from automa.campaign.commands import ALTHEA_CURE, INN_SLEEP, VISIT_POOL, StartCampaign
    from automa.campaign.model import HERO_DEATH
    from automa.campaign.rules import new_heroes
    from automa.campaign.store import Campaign
    from automa.catalog.locate import user_data_dir
    from automa.cli.main import _catalog
    from automa.cli.setup_cmds import parse_heroes
    from automa.render.campaign_out import status_json, status_text

    death = next(d for d in HERO_DEATH if d == hero_death)  # click.Choice checked it
    cure = next(c for c in ALTHEA_CURE if c == althea_cure)
    pool = next(p for p in VISIT_POOL if p == visit_pool)
    sleep = next(s for s in INN_SLEEP if s == inn_sleep)
    command = StartCampaign(name, new_heroes(parse_heroes(heroes)), lord, seed, hidden_cave,
                            hero_death=death, althea_cure=cure, visit_pool=pool,
                            inn_sleep=sleep)
    with in_option_words():
        started = Campaign.new(folder, command, _catalog(ctx),
                               user_data_dir(ctx.obj["data_dir"]))
    if as_json:
        emit_json(status_json(started.state))
        return
    click.echo(status_text(started.state))


@campaign.command("status")
@folder_option
@json_option
@click.pass_context
@reports_errors
def campaign_status(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """The route (done, current, open, skipped rooms), the heroes' boards, the Hidden Cave."""
    from automa.render.campaign_out import status_json, status_text

    state = open_campaign(ctx, folder).state
    if as_json:
        emit_json(status_json(state))
        return
    click.echo(status_text(state))


@campaign.command("next")
@click.argument("room")
@folder_option
@click.option("--dice", type=click.Choice(DICE_WORDS), default=DiceMode.VIRTUAL.value,
              help="physical: you roll and draw at the table and type what came up.")
@click.option("--geometry", type=click.Choice(GEOMETRY_WORDS), default="tracked",
              help="The room's battle, as `automa new --geometry`: tracked (computed from the "
                   "positions), asked (yes/no and which-one questions you answer with the real "
                   "rulers and templates) or hybrid (computed, asked only on close calls).")
@click.option("--monsters", default=None, metavar="KIND=N,...",
              help="The Room card's monsters when our data lacks them, e.g. "
                   "'sewer-rat=2,metre-1=1,mercenary=2' (remembered in your data folder).")
@click.option("--lord-card", "lord_card_values", multiple=True, metavar="FIELD=VALUE",
              help="The Lord's card when our data lacks it (the Monstrosity, the Pharaoh): "
                   "health=, sequence= (repeat for each Or), minions=, mercenary=, size=.")
@click.option("--offers", default=None, metavar="ID=PRICE:EFFECT;...",
              help="A special room's offers when our sources lack them (the Hearthshire "
                   "Stables, the Crypt of Shaurath), e.g. 'rest=2:health+1' (remembered).")
@click.option("--ask", is_flag=True,
              help="Ask what our data lacks even when stdin is not a terminal (piped answers).")
@json_option
@click.pass_context
@reports_errors
def campaign_next(ctx: click.Context, room: str, folder: Path, dice: str, geometry: str,
                  monsters: str | None, lord_card_values: tuple[str, ...],
                  offers: str | None, ask: bool, as_json: bool) -> None:
    """Enter ROOM, one of the open rooms: a battle room is set up with the campaign's heroes and
    Lord, and its battle is a session in the campaign folder (`automa play --session ...`).

    A Room card's monsters or a Lord's card our data lacks is asked once (or given with
    --monsters / --lord-card) and remembered in your data folder."""
    from automa.campaign.asking import TableAnswers
    from automa.campaign.commands import EnterRoom
    from automa.cli import campaign_ask as options
    from automa.cli.campaign_prompts import prompts
    from automa.engine.judge import GeometryMode
    from automa.render.campaign_out import entered_json, entered_text

    campaign = open_campaign(ctx, folder)
    table = TableAnswers(
        DiceMode(dice), GeometryMode(geometry),
        monsters=None if monsters is None else options.room_icons(monsters, campaign.catalog),
        lord_card=options.lord_card(lord_card_values) if lord_card_values else None,
        offers=None if offers is None else options.offers(offers))
    with in_option_words():
        entered = campaign.do(EnterRoom(room), prompts(ask), table=table)
    _notes(entered.notes)
    if as_json:
        emit_json(entered_json(entered, folder))
        return
    click.echo(entered_text(entered, folder, campaign.catalog.components.tiles))


@campaign.command("end-room")
@folder_option
@click.option("--gold", "gold", type=click.IntRange(0, 99), default=None,
              help="The room card's gold icon, when our data lacks it (0: none).")
@click.option("--spell/--no-spell", default=None,
              help="Whether the room card shows the Spell card icon, when our data lacks it.")
@click.option("--spell-to", default=None, help="The hero who takes the Spell card.")
@click.option("--change", "changes", multiple=True, metavar="HERO.FIELD=+N",
              help="A change made at the table, e.g. a purchase: elf.gold=-3 elf.items=+1 "
                   "(fields: health, gold, poison, items, spells). Repeatable.")
@click.option("--collect", "collected", multiple=True, metavar="HERO=MONSTER",
              help="A Hidden Cave monster the hero destroyed in this room (kept on their "
                   "board). Repeatable.")
@click.option("--resurrect", "raised", multiple=True, metavar="HERO",
              help="A dead hero resurrected at the table (Althea: with 2 health).")
@click.option("--ask", is_flag=True,
              help="Ask the card's rewards even when stdin is not a terminal (piped answers).")
@json_option
@click.pass_context
@reports_errors
def campaign_end_room(ctx: click.Context, folder: Path, gold: int | None, spell: bool | None,
                      spell_to: str | None, changes: tuple[str, ...], collected: tuple[str, ...],
                      raised: tuple[str, ...], ask: bool, as_json: bool) -> None:
    """End the current room: carry the heroes' boards back from its session and give the Room
    Level Rewards to every surviving hero."""
    from automa.campaign.asking import TableAnswers
    from automa.campaign.commands import EndRoom
    from automa.cli.campaign_ask import change
    from automa.cli.campaign_prompts import prompts
    from automa.render.campaign_out import ended_json, ended_text

    command = EndRoom(spell_to, tuple((hero, monster) for hero, _, monster
                                      in (text.partition("=") for text in collected)),
                      raised, tuple(change(text) for text in changes))
    campaign = open_campaign(ctx, folder)
    with in_option_words():
        ended = campaign.do(command, prompts(ask),
                            table=TableAnswers(gold=gold, spell=spell))
    _notes(ended.notes)
    if as_json:
        emit_json(ended_json(ended))
        return
    click.echo(ended_text(ended))


@campaign.command("undo")
@folder_option
@json_option
@click.pass_context
@reports_errors
def campaign_undo(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Take back the last campaign step (entering a room, a purchase, ending a room); the log
    keeps it."""
    from automa.campaign.commands import Undo
    from automa.render.campaign_out import undone_json, undone_text

    undone = open_campaign(ctx, folder).do(Undo())
    if as_json:
        emit_json(undone_json(undone))
        return
    click.echo(undone_text(undone))


@campaign.command("log")
@folder_option
@json_option
@click.option("--verify", is_flag=True,
              help="Check every line against its hash and the one before, and that the "
                   "campaign replays; one line per problem, exit 5 if there is any.")
@click.option("--repair", is_flag=True,
              help="Keep the steps before the first damaged or missing line (lines moved put "
                   "back, a line copied twice kept once) and leave the rest out; the file as "
                   "it was stays beside it.")
@click.pass_context
@reports_errors
def campaign_log_cmd(ctx: click.Context, folder: Path, as_json: bool, verify: bool,
                     repair: bool) -> None:
    """Every campaign step in order, the undone ones marked; or check or mend the log."""
    from automa.campaign import log as campaign_log
    from automa.render.campaign_out import log_json, log_text

    if verify and repair:
        from automa.errors import InputError

        raise InputError("--verify and --repair: give one at a time")
    if verify:
        _verify_campaign_log(ctx, folder, as_json)
        return
    if repair:
        _repair_campaign_log(folder, as_json)
        return
    campaign = open_campaign(ctx, folder)
    if as_json:
        emit_json(log_json(campaign.steps, campaign.undone()))
        return
    if campaign_log.read(folder).torn:
        click.echo(f"automa: note: {campaign_log.CUT_OFF}", err=True)
    if campaign.steps:
        click.echo(log_text(campaign.steps, campaign.undone()))


def _verify_campaign_log(ctx: click.Context, folder: Path, as_json: bool) -> None:
    from automa.campaign import log as campaign_log
    from automa.errors import AutomaError
    from automa.safe_text import one_line

    problems, notes = campaign_log.check(folder)
    if not problems:
        try:
            open_campaign(ctx, folder)
        except AutomaError as error:
            problems.append(str(error))
    if as_json:
        emit_json({"sound": not problems, "problems": problems, "notes": notes})
    else:
        for line in (*problems, *notes):
            click.echo(one_line(line))
        if not problems:
            click.echo(f"{folder / campaign_log.LOG}: sound: each line matches its hash and "
                       f"follows the one before, and the campaign replays")
    if problems:
        ctx.exit(5)


def _repair_campaign_log(folder: Path, as_json: bool) -> None:
    from automa.campaign import log as campaign_log
    from automa.safe_text import one_line
    from automa.session.lock import session_lock

    with session_lock(folder):
        copy, left_out = campaign_log.repair(folder)
    if as_json:
        emit_json({"copy": None if copy is None else str(copy), "left_out": left_out})
        return
    if copy is None:
        click.echo(f"{folder / campaign_log.LOG}: sound, nothing to mend")
        return
    for line in left_out:
        click.echo(one_line(line))
    click.echo(f"Kept every step before the first damage; the file as it was is {copy}")

"""`automa campaign visit`: a special room's menu (data/visits.toml) and what the heroes buy
there, at the data's prices, recorded on their boards as a campaign step (undone by
`automa campaign undo`)."""

from __future__ import annotations

from pathlib import Path

import click

from automa.cli.campaign_ask import (
    folder_option,
    in_option_words,
    json_option,
    open_campaign,
)
from automa.cli.main import AutomaCommand, emit_json, reports_errors
from automa.model.modes import DICE_WORDS, DiceMode


@click.command("visit", cls=AutomaCommand)
@click.argument("offer", required=False)
@folder_option
@click.option("--for", "target", default=None, help="The hero the purchase is for.")
@click.option("--pay", default=None, metavar="HERO|HERO=N,...",
              help="Who pays: one hero (ruling visit-pool); HERO=N,... splits the price, only "
                   "in a campaign begun with --visit-pool pooled, where the room allows it.")
@click.option("--price", type=click.IntRange(0, 99), default=None,
              help="The price printed on the card bought (an Item card at the Merchant).")
@click.option("--ally-health", type=click.IntRange(1, 99), default=None,
              help="The Amaranth Inn's ally: the health on the Hero Portrait drawn (default: "
                   "the hero's own starting health).")
@click.option("--reward", default=None, help="The Tavern: the reward taken (a lower one may be "
                                             "taken instead).")
@click.option("--drawn", default=None, metavar="A,B,C",
              help="The Tavern: the three pieces drawn at the table (orc, fire-spirit, "
                   "centaur, hero).")
@click.option("--bag", default=None, metavar="KIND=N,...",
              help="The Tavern: the bag's pieces your box holds, when our data lacks them.")
@click.option("--dice", type=click.Choice(DICE_WORDS), default=DiceMode.VIRTUAL.value,
              help="The Tavern: physical: draw at the table and type the pieces.")
@click.option("--ask", is_flag=True, help="Ask what is missing even on a pipe.")
@json_option
@click.pass_context
@reports_errors
def campaign_visit(ctx: click.Context, offer: str | None, folder: Path, target: str | None,
                   pay: str | None, price: int | None, ally_health: int | None,
                   reward: str | None, drawn: str | None,
                   bag: str | None, dice: str, ask: bool, as_json: bool) -> None:
    """At a special room: without OFFER, what can be bought and at what price; with OFFER, buy
    it (recorded on the heroes' boards; `automa campaign undo` takes it back).

    \b
    Examples:
      automa campaign visit --session evening
      automa campaign visit heal --for elf --session evening
      automa campaign visit map --pay dwarf --session evening
      automa campaign visit bet --pay dwarf --for elf --session evening
      automa campaign visit ally --for elf --ally-health 6 --session evening
    """
    from automa.campaign.asking import TableAnswers
    from automa.campaign.store import purchase
    from automa.cli import campaign_ask as options
    from automa.cli.campaign_prompts import prompts
    from automa.render.campaign_out import bought_json, bought_text, menu_json, menu_text

    campaign = open_campaign(ctx, folder)
    _, visit = campaign.visit()
    if offer is None:
        if as_json:
            emit_json(menu_json(visit, campaign.state))
            return
        click.echo(menu_text(visit, campaign.state, folder))
        return
    table = TableAnswers(DiceMode(dice),
                         bag=None if bag is None else options.bag(bag))
    with in_option_words():
        command = purchase(visit, offer, campaign.state.settings, target, options.shares(pay),
                           price, ally_health, None if drawn is None else options.drawn(drawn),
                           reward)
        bought = campaign.do(command, prompts(ask), table=table)
    for line in bought.notes:
        click.echo(line, err=True)
    if as_json:
        emit_json(bought_json(bought))
        return
    click.echo(bought_text(bought))

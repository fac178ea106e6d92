"""`automa hidden-cave fight`: the Kraken fight of the Hidden Cave, on its own (CONTRACT.md)."""

from __future__ import annotations

import click

from automa.cli.main import cli, emit_json, reports_errors
from automa.model.modes import DICE_WORDS, DiceMode, KrakenTie


@cli.group("hidden-cave")
def hidden_cave() -> None:
    """The Red Box's optional Hidden Cave."""


def _count(option: str, text: str) -> int:
    from automa.errors import InputError
    from automa.session.answers import plain_number

    value = plain_number(text)
    if value is None:
        raise InputError(f"{option}: expected a whole number of 0 or more (plain digits), "
                         f"not {text!r}")
    return value


@hidden_cave.command("fight")
@click.option("--health", required=True, metavar="H", help="The hero's current health.")
@click.option("--shots", required=True, metavar="N",
              help="Damage-inflicting shot icons on the hero's base sequence, Ability and Item "
                   "cards (used ones too) and up to five Spell cards.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Seed for the virtual D12 and tokens (default: a fresh one, printed).")
@click.option("--dice", type=click.Choice(DICE_WORDS), default=DiceMode.VIRTUAL.value,
              help="physical: roll the D12 and draw the red tokens at the table, type each.")
@click.option("--tie", type=click.Choice(["kraken", "hero"]), default=None,
              help="Who wins a tie (ruling kraken-tie; default: the Kraken).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (CONTRACT.md).")
@click.pass_context
@reports_errors
def fight(ctx: click.Context, health: str, shots: str, seed: int | None, dice: str,
          tie: str | None, as_json: bool) -> None:
    """The Kraken fight: the D12 is the Kraken's strength; the hero draws one red Damage token
    for every 4 health (rounded down) and one for each damage-inflicting shot icon (N).

    \b
    Examples:
      automa hidden-cave fight --health 9 --shots 4 --seed 7
      automa hidden-cave fight --health 12 --shots 5 --dice physical
    """
    from automa.campaign.cave import FightKraken, fight_kraken
    from automa.catalog.load import load_catalog
    from automa.render.kraken_out import kraken_json, kraken_text

    command = FightKraken(_count("--health", health), _count("--shots", shots), seed,
                          DiceMode(dice), None if tie is None else KrakenTie(tie))
    asker = None
    if command.dice == DiceMode.PHYSICAL:  # the players roll and draw at the table: they are asked
        from automa.cli.campaign_prompts import CampaignPrompts

        asker = CampaignPrompts(may_ask=True)
    fought = fight_kraken(command, load_catalog(ctx.obj["data_dir"]), asker)
    if as_json:
        emit_json(kraken_json(fought))
        return
    click.echo(kraken_text(fought))

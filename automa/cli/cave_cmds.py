"""`automa hidden-cave fight`: the Kraken fight of the Hidden Cave, on its own (CONTRACT.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from automa.cli.main import cli, emit_json, reports_errors

if TYPE_CHECKING:
    from automa.model.components import DamageToken


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
@click.option("--dice", type=click.Choice(["virtual", "physical"]), default="virtual",
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
    import numpy as np

    from automa.catalog.load import load_catalog
    from automa.cli.asker import PromptAsker
    from automa.engine.chance import Chance
    from automa.model.scenario import Bag, ChanceScript
    from automa.rules.kraken import fight as kraken_fight
    from automa.rules.kraken import reward, token_count
    from automa.rules.rulings import cite, ruling

    hero_health, icons = _count("--health", health), _count("--shots", shots)
    catalog = load_catalog(ctx.obj["data_dir"])
    components = catalog.components
    level = components.red_bag
    used_seed = seed if seed is not None else int(np.random.SeedSequence().generate_state(1)[0])
    physical = dice == "physical"
    chance = Chance(ChanceScript(), np.random.default_rng(used_seed),
                    asker=PromptAsker() if physical else None)
    count = token_count(hero_health, icons)
    if physical:
        click.echo(f"The hero draws {count} red Damage tokens (level {level} bag, "
                   f"{cite('kraken-bag')}), one at a time, keeping each out of the bag.",
                   err=True)
    drawn = [0]

    def draw(bag: Bag, hand: Sequence[DamageToken]) -> DamageToken:
        if physical and drawn[0] and not hand:  # ruling kraken-draw: every token was in hand
            click.echo(f"The bag is empty: note the {drawn[0]} tokens drawn so far and put them "
                       f"all back into the bag ({cite('kraken-draw')})", err=True)
        drawn[0] = len(hand) + 1
        return chance.token(level, bag, "against the Kraken", hand)

    result = kraken_fight(hero_health, icons, Bag(components.bags[level]),
                          lambda: chance.d12("the Kraken's strength"), draw,
                          tie or ruling("kraken-tie").default or "kraken")
    if as_json:
        emit_json({"strength": result.strength,
                   "tokens": [t.label() for t in result.tokens],
                   "total": result.total, "hero_wins": result.hero_wins})
        return
    click.echo(f"The Kraken's strength (D12): {result.strength}")
    faces = " ".join(t.label() for t in result.tokens) or "none"
    click.echo(f"The hero's {count} red tokens ({hero_health // 4} for health, {icons} for shot "
               f"icons): {faces} = {result.total}")
    if result.refilled:
        click.echo(f"  the bag ran out: the tokens in hand were counted and put back "
                   f"({cite('kraken-draw')})")
    if result.tie:
        winner = "the hero" if result.hero_wins else "the Kraken"
        click.echo(f"A tie: {winner} wins ({cite('kraken-tie')}, kraken-tie)")
    items = catalog.setup.hidden_cave_items
    if result.hero_wins:
        click.echo("The hero evades the Kraken: 1 platinum coin from the Treasury, 2 health, "
                   "1 of the items of their choice and 1 unused Antient of their choice.")
        click.echo(f"  the items beside the Hidden Cave card: {', '.join(items)}")
    else:
        click.echo("The Kraken wins: the hero may discard one Poison card (if they have one) "
                   "and takes one of the four items, at random.")
        if not physical and items:
            taken = reward(False, 0, items, lambda left: chance.pick(left, "the item")).item
            click.echo(f"  the item, drawn at random: {taken}")
    if not physical:
        click.echo(f"(seed {used_seed})")

"""`automa setup`: a Battle Room (or a Lord's lair) set up by the Red Box rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from automa.cli.main import PathValue, _catalog, cli, emit_json, reports_errors
from automa.model.modes import DICE_WORDS, DiceMode

if TYPE_CHECKING:
    from pathlib import Path


def parse_heroes(text: str | None, option: str = "--heroes", what: str = "hero",
                 form: str = "ID=HEALTH", example: str = "elf=8"
                 ) -> tuple[tuple[str, int], ...]:
    """`ID=HEALTH,...` as --heroes (and --allies, --familiars: HERO=HEALTH) take them."""
    from automa.errors import InputError
    from automa.session.answers import plain_number

    heroes = []
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, _, health = part.partition("=")
        value = plain_number(health)
        if not name.strip() or value is None or value < 1:
            raise InputError(f"{option}: write each {what} as {form} ({example}, plain "
                             f"digits), not {part!r}")
        heroes.append((name.strip(), value))
    if len({h for h, _ in heroes}) != len(heroes):
        raise InputError(f"{option}: a {what} is named twice")
    return tuple(heroes)


def _campaign_last(path: Path | None) -> str | None:
    from automa.catalog.reader import parse_toml, read_file_text
    from automa.errors import DataError, InputError

    if path is None or not path.exists():
        return None
    try:  # read as every TOML file is: bounded, UTF-8, no number of 5000 digits
        value = parse_toml(read_file_text(path), str(path)).get("last_playmat")
    except DataError as exc:
        raise InputError(f"{path}: not a campaign file ({exc.problem})") from None
    if value is not None and not isinstance(value, str):
        raise InputError(f"{path}: last_playmat: expected a playmat id")
    return value


@cli.command()
@click.argument("room")
@click.option("--lord", default=None, help="The campaign's Catacomb Lord (needed for a lair "
              "and for Mercenary icons).")
@click.option("--playmat", default=None, help="Use this playmat instead of rolling.")
@click.option("--heroes", default=None, metavar="ID=HEALTH,...",
              help="The heroes and their health, e.g. elf=8,barbarian=12.")
@click.option("--allies", default=None, metavar="ID=HEALTH,...",
              help="The heroes' allies and their health, e.g. squire=6.")
@click.option("--familiars", default=None, metavar="HERO=HEALTH,...",
              help="A familiar beside each hero named, and its health, e.g. elf=2 (piece "
                   "elf-familiar).")
@click.option("--expansions", default="", metavar="MAT,...",
              help="Expansion playmats you own (then the D12 chart is used).")
@click.option("--last-playmat", default=None, help="The mat just played (rolled again).")
@click.option("--campaign", type=click.Path(dir_okay=False, path_type=PathValue), default=None,
              help="A small file remembering the last playmat across setups.")
@click.option("--los-blocked", is_flag=True, help="Line of sight blocked by obstacles.")
@click.option("--trilithon", is_flag=True, help="The heroes chose to use the Trilithon.")
@click.option("--hidden-cave", is_flag=True, help="Set up the Hidden Cave too.")
@click.option("--dice", type=click.Choice(DICE_WORDS), default=DiceMode.VIRTUAL.value,
              help="physical: you roll, shuffle and draw at the table and type the results.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (CONTRACT.md).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=PathValue), default=None,
              help="Write the scenario for `automa turn`.")
@click.pass_context
@reports_errors
def setup(ctx: click.Context, room: str, lord: str | None, playmat: str | None,
          heroes: str | None, allies: str | None, familiars: str | None, expansions: str,
          last_playmat: str | None,
          campaign: Path | None, los_blocked: bool, trilithon: bool, hidden_cave: bool,
          dice: str, seed: int | None, as_json: bool, out: Path | None) -> None:
    """Set up a Battle Room (or ROOM 'lair' with --lord) by the Red Box rules.

    \b
    Examples:
      automa setup chagnars-lair --heroes elf=8,barbarian=12 --out battle.toml
      automa setup moghath --lord vasesak --heroes elf=8 --familiars elf=2 --allies squire=6
      automa setup lair --lord hmotha --heroes elf=8 --seed 3 --json
      automa setup moghath --lord vasesak --dice physical
    """
    import numpy as np

    from automa.cli.asker import PromptAsker
    from automa.engine.chance import Chance
    from automa.engine.setup import SetupOptions, run_setup
    from automa.model.scenario import ChanceScript
    from automa.render.setup_out import setup_json, setup_text
    from automa.scenario.save import save_scenario
    from automa.storage import atomic_write_text

    catalog = _catalog(ctx)
    options = SetupOptions(
        room=room, lord=lord, playmat=playmat, heroes=parse_heroes(heroes),
        allies=parse_heroes(allies, "--allies", "ally", example="squire=6"),
        familiars=parse_heroes(familiars, "--familiars", "familiar", "HERO=HEALTH", "elf=2"),
        expansion_mats=tuple(m.strip() for m in expansions.split(",") if m.strip()),
        last_playmat=last_playmat or _campaign_last(campaign), los_blocked=los_blocked,
        trilithon=trilithon, hidden_cave=hidden_cave)
    used_seed = seed if seed is not None else int(np.random.SeedSequence().generate_state(1)[0])
    chance = Chance(ChanceScript(), np.random.default_rng(used_seed),
                    catalog.components.rune_die, catalog.components.location_die,
                    asker=PromptAsker() if dice == DiceMode.PHYSICAL else None)
    result = run_setup(catalog, options, chance)
    if out is not None:
        save_scenario(result.scenario, out)
    if campaign is not None:
        atomic_write_text(campaign, f'last_playmat = "{result.playmat}"\n')
    if as_json:
        emit_json({**setup_json(result), "seed": used_seed if dice == DiceMode.VIRTUAL else None})
        return
    click.echo(setup_text(result, catalog.components.tiles), nl=False)
    if out is not None and dice == DiceMode.PHYSICAL:  # a session keeps the table's dice and tokens
        click.echo(f"Saved the scenario to {out}. Play it with your own dice and tokens: "
                   f"`automa new {out} --session BATTLE --dice physical`, then "
                   f"`automa play --session BATTLE`")
    elif out is not None:
        click.echo(f"Saved the scenario to {out}: run `automa turn {out}` for the AI's turn, "
                   f"or `automa new {out} --session BATTLE` for a whole battle")

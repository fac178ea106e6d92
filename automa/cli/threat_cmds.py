"""`automa threat`: where on the mat a hero would draw the AI's attention."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from automa.cli.main import _catalog, _scenario_or_session, cli, emit_json, reports_errors

if TYPE_CHECKING:
    from automa.engine.threat import ThreatMap
    from automa.model.pieces import Piece
    from automa.model.scenario import Scenario


@cli.command()
@click.argument("scenario", type=click.Path(path_type=Path))
@click.argument("hero")
@click.option("--step", type=float, default=1.0, show_default=True, metavar="CM",
              help="The grid's step in cm (0.25 to 50).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (CONTRACT.md).")
@click.option("--by", "by", multiple=True, metavar="PIECE",
              help="Only these AI pieces (repeat for several): where does PIECE choose HERO?")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the map over the mat as an .svg file.")
@click.pass_context
@reports_errors
def threat(ctx: click.Context, scenario: Path, hero: str, step: float, by: tuple[str, ...],
           as_json: bool, output: Path | None) -> None:
    """Which AI pieces would choose HERO as their Active Target at the start of the coming AI
    turn, for every free spot of a grid over the mat (sight, the behaviour rows' columns and
    the Direction tiles; no piece is moved first). SCENARIO is a scenario or a session
    folder (its battle as it stands now).

    \b
    Examples:
      automa threat battle.toml elf                 where the Elf draws whom, in short
      automa threat evening/ elf                    the same in a session, now
      automa threat battle.toml elf -o elf.svg      the map over the mat
      automa threat battle.toml elf --by minotaur -o elf.svg   the Minotaur alone
      automa threat battle.toml elf --step 2 --json
    """
    import numpy as np

    from automa.cli.progress import progress_bar
    from automa.engine.threat import threat_at, threat_map

    if output is not None:
        from automa.render.png import output_kind

        output_kind(output, ("svg",), "-o")
    table = _scenario_or_session(ctx, scenario)
    catalog = _catalog(ctx)
    with progress_bar(f"Threat map of {hero}", shown=not as_json) as told:
        found = threat_map(table, catalog, hero, step, progress=told)
    if by:
        found = found.only(tuple(dict.fromkeys(by)))
    if output is not None:
        from automa.render.threat_svg import threat_picture
        from automa.storage import atomic_write_text

        title = f"Threat map: {_label(table, hero)}" + (
            f" (by {', '.join(_label(table, a) for a in found.actors)})" if by else "")
        atomic_write_text(output, threat_picture(table, list(_on_mat(table)), found, title))
    if as_json:
        emit_json(found.json())
        return
    now = threat_at(table, catalog, hero, np.array([found.hero_at]))
    if by:
        now = now.only(found.actors)
    click.echo(summary(table, found, now))
    if output is not None:
        click.echo(f"Wrote {output}")


def _label(scenario: Scenario, piece_id: str) -> str:
    return next(p.label for p in scenario.pieces if p.id == piece_id)


def _on_mat(scenario: Scenario) -> list[Piece]:
    from automa.model.pieces import Condition

    off = {Condition.TELEPORTED, Condition.DEVOURED}  # on the Teleported! or Devoured! card
    return [p for p in scenario.pieces if not p.conditions & off]


def summary(scenario: Scenario, found: ThreatMap, now: ThreatMap) -> str:
    """A few lines: the grid, where the hero stands now, each AI piece's share of the mat and
    the nearest spot out of its choice, and the safest spot near the hero."""
    hero = _label(scenario, found.hero)
    n = len(found.spots)
    settings = scenario.settings
    sight = f"sight blocked ({settings.los_test} test)" if settings.los_blocked else \
        "sight not blocked by obstacles"
    lines = [f"Threat map of {hero}: {n} free spots on a {found.step:g} cm grid, {sight}."]
    drawn = now.cell(0).targeted_by
    x, y = (round(v, 1) for v in found.hero_at)  # to a millimetre, as the printout says it
    lines.append(f"{hero} now at ({x:g}, {y:g}): "
                 + (f"chosen by {', '.join(drawn)}." if drawn else "chosen by no AI piece."))
    if found.actors:
        lines.append("Share of the free spots where each AI piece would choose " + hero + ":")
        width = max(len(_label(scenario, a)) + len(a) + 3 for a in found.actors)
        chosen_now = set(drawn)
        for actor in found.actors:
            name = f"{_label(scenario, actor)} ({actor})"
            clear = found.nearest_clear_of(actor)
            if found.share(actor) == 0:
                where = f"never chooses {hero}"
            elif actor not in chosen_now:
                where = f"does not choose {hero} where {hero} stands"
            elif clear is None:
                where = f"chooses {hero} on every free spot"
            else:
                where = (f"out of its choice nearest at ({clear[0][0]:g}, {clear[0][1]:g}), "
                         f"{clear[1]:.1f} cm away")
            lines.append(f"  {name:<{width}} {100 * found.share(actor):5.1f} %   {where}")
    safest = found.safest_near()
    if safest is not None:
        (x, y), p, gap = safest
        if p == 0:
            untouched = 100 * float((found.p_targeted == 0).mean())
            nearest = f", where {hero} stands now among them" if not drawn else \
                f"; the nearest: ({x:g}, {y:g}), {gap:.1f} cm away"
            lines.append(f"No AI piece would choose {hero} on {untouched:.1f} % of the "
                         f"spots{nearest}.")
        else:
            lines.append(f"Every spot draws someone; the least exposed near {hero}: "
                         f"({x:g}, {y:g}), {gap:.1f} cm away, chance {p:.2f}.")
    for actor, why in found.unmapped:
        lines.append(f"Not mapped: {_label(scenario, actor)} ({actor}) {why}.")
    return "\n".join(lines)

"""How a sighting is printed, by `automa los` and by `los` in `automa play`: one function, so the
two say "sees" and "hidden" the same way."""

from __future__ import annotations

from automa.geometry.sight import Sighting
from automa.session.game import Game


def sight_line(s: Sighting, close_call: float | None = None) -> str:
    """One piece as the viewer sees it: `sees  ` or `hidden`, its id and the distance. Without
    `close_call` (play's quick look) that is all; with it (`automa los`) the columns line up,
    the blocking obstacles are named, and so is the margin, flagged when it is a close call."""
    seen = "sees  " if s.visible else "hidden"
    if close_call is None:
        return f"  {seen} {s.target} {s.distance:.1f} cm"
    behind = f" behind obstacle {', '.join(s.blockers)}" if s.blockers else ""
    margin = "" if s.margin == float("inf") else f" (margin {s.margin:.1f} cm)"
    if s.margin < close_call:
        margin += " close call: check with a ruler edge"
    return f"  {seen} {s.target:<16} {s.distance:6.1f} cm{behind}{margin}"


def los_lines(game: Game, viewer_id: str) -> list[str]:
    """Play's `los ID`: whom the piece sees now, those nobody measured (asked geometry) read at
    the table instead."""
    from automa.geometry.sight import look_around
    from automa.render.measured import unmeasured_now
    from automa.session.names import piece_named

    battle = game.state.battle
    in_play = [p.id for p in battle.pieces]
    viewer = battle.piece(piece_named(viewer_id, in_play, in_play))  # `rat-1` will do
    unknown = unmeasured_now(game)
    if viewer.id in unknown:
        return [f"  {viewer.id} stands where nobody measured: sight is read at the table (a "
                f"ruler edge from centre to centre), or report it with `move` first"]
    settings = game.state.scenario.settings
    others = [p for p in battle.on_table() if p.side != viewer.side and p.id not in unknown]
    lines = [sight_line(s) for s in look_around(game.geometry, viewer, others,
                                                settings.los_blocked, settings.los_test)]
    if unmeasured := sorted(p.id for p in battle.on_table()
                            if p.side != viewer.side and p.id in unknown):
        lines.append(f"  not measured, read at the table: {', '.join(unmeasured)}")
    return lines

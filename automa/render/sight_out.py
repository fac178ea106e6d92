"""How a sighting is printed, by `automa los` and by `los` in `automa play`: one function, so the
two say "sees" and "hidden" the same way."""

from __future__ import annotations

from automa.geometry.sight import Sighting


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

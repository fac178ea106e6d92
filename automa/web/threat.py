"""`GET /api/threat`: a hero's threat map (engine/threat.py) over the battle as it stands in the
session, for the page to draw under the pieces. The query is checked as `automa threat` checks
its options (the same engine checks and one-line refusals), except that the board draws its
squares at a few fixed sizes only, so a page cannot ask it for unbounded work; the squares
carry the colour band of render/threat_svg.py's scale, so the page and the `.svg` shade
alike. `GET /api/threat/progress` (api.py) says how far the map being worked out has got, for the
page to show while it waits; the mat's sight is kept from map to map (engine/threat.py SightMemo),
so a second toggle is immediate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from automa.errors import AutomaError

if TYPE_CHECKING:
    from automa.catalog.load import Catalog
    from automa.engine.threat import Progress, SightMemo, ThreatMap
    from automa.geometry.table import TableGeometry
    from automa.model.playmat import Playmat
    from automa.session.state import SessionState
    from automa.session.store import Session

QUERY_FIELDS = ("hero", "step", "by")
MAX_BY = 50  # AI pieces named in one request
DEFAULT_STEP = 1.0  # cm, as `automa threat`
BOARD_STEPS = (0.5, 1.0, 2.0, 5.0)  # cm: the squares the board draws (the CLI takes any)


class QueryError(Exception):
    """A query the endpoint refuses (one line); api.py answers it with a 400."""


def threat_key(query: dict[str, list[str]]) -> tuple[str, float, tuple[str, ...]]:
    """The hero, the grid step and the AI pieces (`by`, in the order first named) the query
    asks for; a field missing, repeated, unknown or not a number refused by name, and a step
    the board does not draw refused with the ones it does."""
    unknown = sorted(set(query) - set(QUERY_FIELDS))
    if unknown:
        raise QueryError(f"unknown query field {unknown[0]!r} (fields: {', '.join(QUERY_FIELDS)})")
    for name in ("hero", "step"):
        if len(query.get(name, [])) > 1:
            raise QueryError(f"{name}: given more than once")
    hero = query.get("hero", [""])[0].strip()
    if not hero:
        raise QueryError("missing query field 'hero' (the id of a hero on the mat)")
    step_text = query.get("step", [str(DEFAULT_STEP)])[0].strip()
    try:
        step = float(step_text)
    except ValueError:
        raise QueryError(f"step: expected a number of cm, got {step_text[:40]!r}") from None
    if step not in BOARD_STEPS:
        raise QueryError(f"step {step_text[:40]}: the board draws squares of "
                         f"{', '.join(f'{s:g}' for s in BOARD_STEPS)} cm")
    by = [name.strip() for value in query.get("by", []) for name in value.split(",")]
    if any(not name for name in by):
        raise QueryError("by: an empty piece id")
    if len(by) > MAX_BY:
        raise QueryError(f"by: more than {MAX_BY} pieces")
    return hero, step, tuple(dict.fromkeys(by))


def refuse_guesses(session: Session, hero: str) -> None:
    """A QueryError when the map would rest on pieces whose place nobody measured (asked
    geometry: the AI moved them and the table has not said where they stand)."""
    from automa.render.measured import unmeasured_now

    unknown = sorted(set(unmeasured_now(session)) - {hero})
    if unknown:
        raise QueryError(f"asked geometry: nobody measured where {', '.join(unknown)} "
                         f"stand(s), so no map can be drawn from them; report each with move")


def sight_memo(kept: SightMemo | None, playmat: Playmat, geometry: TableGeometry) -> SightMemo:
    """The memo of sight for maps of `playmat`: the one kept while the mat is the same (the
    pieces may move: sight is keyed by where each stands), else a new one over `geometry`."""
    from automa.engine.threat import SightMemo

    if kept is not None and kept.geometry.playmat == playmat:
        return kept
    return SightMemo(geometry)


def compute_map(state: SessionState, catalog: Catalog, hero: str, step: float,
                memo: SightMemo, progress: Progress | None = None) -> ThreatMap:
    """The hero's map over every AI piece for the battle in `state`, its sight asked of
    `memo` (the mat's); an engine refusal (no such hero, a hero off the mat) is a
    QueryError. `progress` is told (AI pieces mapped, AI pieces in all)."""
    from automa.engine.threat import threat_map

    try:
        return threat_map((state.scenario, state.battle), catalog, hero, step,
                          progress=progress, memo=memo)
    except AutomaError as error:
        raise QueryError(str(error).removeprefix("--")) from None  # `--step 0.1: ...`


def threat_json(found: ThreatMap, by: tuple[str, ...]) -> dict[str, Any]:
    """The map as `automa threat --json` gives it, kept to the AI pieces `by` (all when
    empty), with each square's expected number of AI pieces, its band on the legend's scale
    and the legend. A `by` that is no mapped AI piece is a QueryError."""
    from automa.render.threat_svg import OPACITY, band_text, levels

    try:
        if by:
            found = found.only(by)
    except AutomaError as error:
        raise QueryError(str(error).removeprefix("--")) from None  # `--by elf: ...`
    payload = found.json()
    bands, colours = levels(found)
    band = _bands(found.expected.tolist(), bands)
    for cell, expected, index in zip(payload["cells"], found.expected.tolist(), band,
                                     strict=True):
        cell["expected"] = round(float(expected), 12)
        cell["band"] = index
    payload["by"] = list(by)
    payload["opacity"] = OPACITY
    payload["legend"] = [{"low": low, "high": high, "colour": colour,
                          "text": band_text(low, high, "none")}
                         for (low, high), colour in zip(bands, colours, strict=True)]
    return payload


def _bands(expected: list[float], bands: list[tuple[float, float]]) -> list[int]:
    """Each square's band, as threat_svg shades it: exactly none, else (low, high], the last
    band open above."""
    found = []
    for value in expected:
        index = 0
        if value > 1e-9:
            index = next((i for i, (low, high) in enumerate(bands) if high > 0 and
                          value > low + 1e-9 and value <= high + 1e-9), len(bands) - 1)
        found.append(index)
    return found


"""`GET /api/forecast`: the forecast of the coming AI turn for the battle as it stands in the
session (docs/serve.md, "The forecast"), as `automa forecast --precision 0.02 --n 10000` gives it
on the session folder: each hero's chance to be targeted, expected damage and chance to die, each
with its 95 % interval, and how many turns it took.

A forecast takes seconds: it is worked out outside the board's lock (the page's polling and
other windows' writes go on meanwhile), one at a time, from the battle taken under the lock, and
the newest is kept with the log's version it is of, so asking again before the battle moves on
answers at once. `GET /api/forecast/progress` says how many turns it has played, for the page
to show while it waits. Refused in one line where the CLI refuses: an asked-geometry battle
whose pieces' places are guesses."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from automa.errors import AutomaError
from automa.web.api import ApiError, Board, Json, Result, _read_again

if TYPE_CHECKING:
    from automa.catalog.load import Catalog
    from automa.engine.forecast import Forecast
    from automa.model.scenario import Scenario

FORECAST_PATH = "/api/forecast"
PROGRESS_PATH = "/api/forecast/progress"
PRECISION = 0.02  # every share's 95 % interval within +-0.02 (the figure)
CAP = 10_000  # turns at most, as `--n 10000`
SEED = 0  # `automa forecast`'s default: the board's figures are the terminal's


def forecast_of(scenario: Scenario, catalog: Catalog,
                progress: Callable[[int], None] | None = None) -> Forecast:
    """The forecast the board shows: PRECISION, at most CAP turns, SEED, every core (the result
    is the same for any number of workers)."""
    from automa.engine.forecast import forecast_runs

    return forecast_runs(scenario, catalog, CAP, SEED, precision=PRECISION, progress=progress,
                         threaded=True)


def forecast_json(found: Forecast) -> Json:
    """As `automa forecast --json --precision` prints it: the turns played, the precision, the
    cap, whether the precision was reached, and each hero's figures with their intervals."""
    def interval(pair: tuple[float, float]) -> list[float]:
        return [round(pair[0], 4), round(pair[1], 4)]

    heroes: dict[str, Any] = {
        hero: {"targeted": round(f.targeted, 4), "expected_damage": round(f.expected_damage, 4),
               "death": round(f.death, 4), "targeted_ci95": interval(f.targeted_ci95),
               "expected_damage_ci95": interval(f.expected_damage_ci95),
               "death_ci95": interval(f.death_ci95)} for hero, f in found.heroes.items()}
    return {"n": found.runs, "precision": PRECISION, "cap": CAP, "precise": found.precise,
            "seed": SEED, "heroes": heroes}


def _battle(board: Board) -> tuple[str, str, Scenario]:
    """Under the board's lock: the log's version, the page's version (a campaign's carries its
    log's too) and the battle as a scenario; refused while pieces' places are guesses."""
    from automa.render.measured import unmeasured_now
    from automa.web.view import version

    with board.lock:
        _read_again(board)
        session = board.session
        unknown = sorted(unmeasured_now(session))
        if unknown:
            raise ApiError(400, f"asked geometry: nobody measured where {', '.join(unknown)} "
                                f"stand(s), so their spots would be guesses; report each with "
                                f"move first")
        return version(session), board.version(), session.state.as_scenario()


def kept_forecast(board: Board, now: str, scenario: Scenario, catalog: Catalog) -> Forecast:
    """The forecast of the battle at log version `now`: the kept one if it is of that version,
    else worked out (one at a time; a request that waited finds the one just made)."""
    with board.forecast_lock:
        kept = board._forecast
        if kept is not None and kept[0] == now:
            return kept[1]
        board.forecast_progress = 0

        def told(done: int) -> None:
            board.forecast_progress = done

        try:
            found = forecast_of(scenario, catalog, told)
        except AutomaError as error:
            raise ApiError(400, str(error)) from None
        finally:
            board.forecast_progress = None
        board._forecast = (now, found)
        return found


def get_forecast(board: Board, body: object) -> Result:
    """The forecast of the coming AI turn (no query fields), with the page's version."""
    if isinstance(body, dict) and body:
        raise ApiError(400, f"unknown query field {sorted(body)[0]!r} (the forecast takes none)")
    now, shown, scenario = _battle(board)
    found = kept_forecast(board, now, scenario, board.session.catalog)
    return 200, {**forecast_json(found), "version": shown}


def get_forecast_progress(board: Board, body: object) -> Result:
    """How far the forecast being worked out has got: `{"working": false}`, or the turns
    played, the cap, and the share done of the turns it plays at most (`most_runs`: the
    precision stops it by then, often sooner)."""
    from automa.engine.forecast import most_runs

    done = board.forecast_progress
    if done is None:
        return 200, {"working": False, "turns": None, "cap": CAP, "fraction": None}
    most = most_runs(CAP, PRECISION)
    return 200, {"working": True, "turns": done, "cap": CAP,
                 "fraction": round(min(done, most) / most, 3)}


ENDPOINTS: dict[str, tuple[str, Callable[[Board, object], Result]]] = {
    FORECAST_PATH: ("GET", get_forecast),
    PROGRESS_PATH: ("GET", get_forecast_progress),
}

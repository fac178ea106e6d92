"""The Python surface: the same core the terminal and the board speak, for a script.

    from automa import api

    game = api.open_scenario("examples/demo-battle.toml", seed=1)
    game.do(api.EndHeroesTurn())
    activation = game.next_activation()          # one AI activation, or None
    game.do(api.Damage("rat-1", 1, by="elf"))    # refused in one line if it cannot be

A game from a scenario lives in memory (`Game`); a session folder (`open_session`,
`new_session`) is the same game with every input appended to its log the moment it is done,
shared with the terminal and the board. Every player input is a command of
`automa.session.commands`, re-exported here; `do` returns what it did (`Applied`).
docs/api.md says more, with an example the test suite runs.
"""

from __future__ import annotations

from pathlib import Path

from automa.catalog.load import Catalog, load_catalog
from automa.engine.activation import Activation
from automa.engine.judge import GeometryMode
from automa.errors import InputError
from automa.model.modes import DiceMode
from automa.model.pieces import Condition, Kind, Side
from automa.scenario.load import load_scenario
from automa.session.apply import Applied, TableAsker
from automa.session.commands import (
    Adjust,
    BadCommand,
    ChanceAnswer,
    Command,
    Counter,
    Damage,
    EndHeroesTurn,
    EnterCave,
    GeometryAnswer,
    Heal,
    Hit,
    Move,
    NextActivation,
    Redo,
    Remove,
    ReturnToMat,
    Rollback,
    SetCondition,
    Summon,
    Undo,
    UseCard,
    UsePeriod,
    command_from_json,
)
from automa.session.game import Game
from automa.session.store import Session

__all__ = [
    "Activation", "Adjust", "Applied", "BadCommand", "ChanceAnswer", "Command", "Condition",
    "Counter", "Damage", "EndHeroesTurn", "EnterCave", "Game", "GeometryAnswer", "GeometryMode",
    "Heal", "Hit", "InputError", "Kind", "Move", "NextActivation", "Redo", "Remove", "ReturnToMat",
    "Rollback", "Session", "SetCondition", "Side", "Summon", "TableAsker", "Undo", "UseCard",
    "UsePeriod", "command_from_json", "load_data", "new_session", "open_scenario", "open_session",
]


def load_data(data_dir: str | Path | None = None) -> Catalog:
    """The rules data: the shipped files, overridden by the user's folder (`data_dir`, else
    AUTOMA_DATA_DIR)."""
    return load_catalog(data_dir)


def open_scenario(path: str | Path, seed: int = 0, *, data_dir: str | Path | None = None,
                  physical: bool = False,
                  geometry: GeometryMode | str = GeometryMode.TRACKED) -> Game:
    """A game in memory from a scenario file: the dice drawn from `seed` (each input its own
    stream of it, as a session draws them), or rolled by the players through the asker given
    to `do` (`physical`); geometry computed, or asked (`geometry`)."""
    catalog = load_catalog(data_dir)
    return Game(load_scenario(path, catalog), catalog, seed, physical, GeometryMode(geometry))


def open_session(folder: str | Path, *, data_dir: str | Path | None = None) -> Session:
    """A session folder (`automa new`, `automa campaign next`), with what its campaign says
    when it is a campaign's room."""
    from automa.campaign.battles import open_room

    return open_room(Path(folder), load_catalog(data_dir))


def new_session(folder: str | Path, scenario: str | Path, seed: int | None = None, *,
                data_dir: str | Path | None = None, physical: bool = False,
                geometry: GeometryMode | str = GeometryMode.TRACKED) -> Session:
    """A new session in `folder` from a scenario file, as `automa new` makes it."""
    return Session.create(Path(folder), Path(scenario), load_catalog(data_dir), seed,
                          DiceMode.PHYSICAL if physical else DiceMode.VIRTUAL,
                          GeometryMode(geometry))

"""What a campaign writes to and reads from its rooms' battles: each battle room's (and the
Lair's) battle is a session folder, CAMPAIGN/rooms/NN-room. Every use of the session's API by
the campaign is here, so the campaign follows the session's inputs as they change: a room's
battle started, its outcome read, and what a battle learns from its campaign (the Hidden Cave,
the other rooms' inputs: `room_context`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct

from automa.campaign.log import LOG
from automa.campaign.model import CaveVisit
from automa.catalog.load import Catalog
from automa.engine.judge import GeometryMode
from automa.model.modes import DiceMode
from automa.model.pieces import Piece
from automa.model.scenario import Scenario
from automa.session.cave import NO_ANTIENT, RoomContext
from automa.session.commands import Command

if TYPE_CHECKING:
    from automa.session.store import Session

ROOMS_DIR = "rooms"


def campaign_folder(session_folder: Path) -> Path | None:
    """The campaign folder holding this room's session (CAMPAIGN/rooms/NN-room), if any."""
    parent = session_folder.resolve().parent
    if parent.name == ROOMS_DIR and (parent.parent / LOG).is_file():
        return parent.parent
    return None


def room_folder(campaign: Path, number: int, room: str) -> str:
    """A room's session folder, relative to the campaign folder; a folder a crash left before
    the campaign logged it (an orphan) is never reused."""
    while (campaign / f"{ROOMS_DIR}/{number:02d}-{room}").exists():
        number += 1
    return f"{ROOMS_DIR}/{number:02d}-{room}"


def start_battle(folder: Path, scenario: Scenario, catalog: Catalog, seed: int,
                 physical: bool, geometry: GeometryMode,
                 used: Mapping[str, tuple[str, ...]]) -> None:
    """The room's battle as a new session in `geometry` (kept in its log's first line, as
    `automa new --geometry` keeps it): its scenario saved, and the cards each hero used earlier
    in the game logged first (they stay used)."""
    from automa.scenario.save import save_scenario
    from automa.session.commands import UseCard, UsePeriod
    from automa.session.store import SCENARIO, Session

    folder.mkdir(parents=True, exist_ok=True)
    save_scenario(scenario, folder / SCENARIO)
    session = Session.create(folder, folder / SCENARIO, catalog, seed,
                             DiceMode.PHYSICAL if physical else DiceMode.VIRTUAL, geometry)
    for hero, cards in used.items():
        for card in cards:
            session.do(UseCard(hero, card, UsePeriod.GAME))


class BattleOutcome(Struct, frozen=True):
    """A room's battle as its session leaves it."""

    started: tuple[Piece, ...]  # the pieces it began with
    pieces: tuple[Piece, ...]  # those in play now
    out: Mapping[str, str]  # piece id -> why it left play ("dead", "killed by elf", ...)
    cleared: str | None  # why the room is cleared (rules/battle_end.py), or None
    frozen_by: Mapping[str, str | None]  # cleared with frozen monsters: who froze each

    @property
    def kinds(self) -> dict[str, str | None]:
        """Each piece the battle began with: its monster kind."""
        return {p.id: p.monster for p in self.started}


def battle_outcome(folder: Path, catalog: Catalog) -> BattleOutcome:
    from automa.rules.battle_end import FROZEN_CLEAR, room_cleared
    from automa.session.replay import frozen_by
    from automa.session.store import Session

    session = Session.open(folder, catalog)
    started, battle = session.state.scenario.pieces, session.state.battle
    cleared = room_cleared(started, battle.pieces)
    froze = frozen_by(session) if cleared == FROZEN_CLEAR else {}
    return BattleOutcome(tuple(started), tuple(battle.pieces), dict(battle.out), cleared, froze)




def cave_visits(campaign: Path, rooms: Iterable[tuple[str, str]]) -> tuple[CaveVisit, ...]:
    """The Kraken fights in force in the battles of `rooms` ((room, session folder relative to
    the campaign), in the order entered), as the rooms' own cave views count them
    (session/cave.py `cave_now`). A room whose session log is missing or cannot be read adds
    none: the session's own commands name what is wrong with it."""
    from automa.model.components import DamageToken
    from automa.rules.kraken import hero_wins
    from automa.session.commands import EnterCave
    from automa.session.log import SessionError, read_log
    from automa.session.state import in_force
    from automa.session.store import LOG as SESSION_LOG
    from automa.session.store import commands_of

    visits: list[CaveVisit] = []
    for room, session in rooms:
        path = campaign / session / SESSION_LOG
        if not path.is_file():
            continue
        try:
            done, _ = in_force(commands_of(read_log(path)))
        except SessionError:
            continue
        for command in done:
            if not isinstance(command, EnterCave) or command.fight is None:
                continue
            fight = command.fight
            try:
                total = sum(DamageToken.parse(t).value for t in fight.tokens)
            except ValueError:
                continue  # not a fight the room's battle replays
            won = hero_wins(fight.strength, total, fight.tie)
            antient = fight.antient if won and fight.antient != NO_ANTIENT else None
            visits.append(CaveVisit(command.piece, room, command.portal, won, fight.item,
                                    antient))
    return tuple(visits)


def room_context(session_folder: Path, catalog: Catalog) -> RoomContext | None:
    """What the campaign's log and its other rooms say to the battle in `session_folder`: the
    Hidden Cave as the log has it, and the inputs in force of the other rooms' sessions (for
    the cave's items and visits and the Antients won and summoned there). None outside a
    campaign."""
    from automa.campaign import log as campaign_log
    from automa.campaign.rules import in_force
    from automa.rules.hidden_cave import HiddenCave
    from automa.session.store import Session

    home = campaign_folder(session_folder)
    if home is None:
        return None
    contents = campaign_log.read(home)
    steps = in_force(contents.steps)
    data = contents.header.get("hidden_cave")
    cave = None
    if isinstance(data, dict):
        collected: dict[str, tuple[str, ...]] = {}
        for step in steps:
            pairs = step.get("collected") or () if step.get("type") == "end-room" else ()
            for hero, monster in pairs:
                collected[str(hero)] = (*collected.get(str(hero), ()), str(monster))
        cave = HiddenCave(tuple(map(str, data.get("needed", ()))),
                          tuple(map(str, data.get("items", ()))), tuple(collected.items()))
    others: list[Command] = []
    for step in steps:
        room = step.get("session") if step.get("type") == "enter" else None
        if not isinstance(room, str) or (home / room).resolve() == session_folder.resolve():
            continue
        others.extend(Session.open(home / room, catalog).effective()[0])
    return RoomContext(cave, tuple(others))


def open_room(session_folder: Path, catalog: Catalog) -> Session:
    """A session, with what its campaign says when it is a campaign's room."""
    from automa.session.store import Session

    return Session.open(session_folder, catalog, room_context(session_folder, catalog))

"""What a battle learns from the campaign it is a room of: the Hidden Cave as the campaign log
has it, and the inputs in force of the campaign's other rooms' sessions (for the cave's items
and visits and the Antients won and summoned there). A session inside a campaign folder is
`CAMPAIGN/rooms/NN-room/`; anywhere else there is no campaign and no Hidden Cave."""

from __future__ import annotations

from pathlib import Path

from automa.campaign import log as campaign_log
from automa.campaign.rules import in_force
from automa.catalog.load import Catalog
from automa.rules.hidden_cave import HiddenCave
from automa.session.cave import RoomContext
from automa.session.commands import Command
from automa.session.store import Session

ROOMS = "rooms"


def campaign_home(session_folder: Path) -> Path | None:
    """The campaign folder holding this session folder, if any."""
    parent = session_folder.resolve().parent
    if parent.name == ROOMS and (parent.parent / campaign_log.LOG).is_file():
        return parent.parent
    return None


def room_context(session_folder: Path, catalog: Catalog) -> RoomContext | None:
    """What the campaign's log and its other rooms say, or None outside a campaign."""
    home = campaign_home(session_folder)
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
    return Session.open(session_folder, catalog, room_context(session_folder, catalog))

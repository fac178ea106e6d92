"""What the board follows in a campaign folder: the room being played (its battle), the
campaign's status with the battle's live health, and the campaign alone between rooms. Errors
are the campaign's own (the endpoints make them 4xx)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automa.campaign.log import CampaignError

if TYPE_CHECKING:
    from automa.campaign.store import Campaign
    from automa.catalog.load import Catalog
    from automa.session.store import Session

Json = dict[str, object]


def log_digest(folder: Path) -> str:
    """The SHA-256 of the campaign log's bytes: it moves with every step."""
    from automa.campaign.log import LOG

    try:
        return hashlib.sha256((folder / LOG).read_bytes()).hexdigest()
    except OSError as error:
        raise CampaignError(f"{folder / LOG}: cannot be read ({error.strerror})") from None


def opened(folder: Path, catalog: Catalog, data_dir: Path | None) -> Campaign:
    from automa.campaign.store import open_campaign

    return open_campaign(folder, catalog, data_dir)


def current_room(folder: Path, catalog: Catalog, data_dir: Path | None) -> Path | None:
    """The battle being played in the campaign (its session folder), or None between rooms
    and at a visit."""
    current = opened(folder, catalog, data_dir).state.current_session
    return None if current is None else folder / current


def live_campaign(session: Session, data_dir: Path | None) -> Json | None:
    """`automa campaign status --json` of the campaign holding the battle, with each hero's
    health as the battle has it now when it is the campaign's current room (the mat's
    numbers: the boards take a room's health only when it ends). None outside a campaign."""
    from automa.campaign.battles import campaign_folder
    from automa.render.campaign_out import status_json

    home = campaign_folder(session.folder)
    if home is None:
        return None
    state = opened(home, session.catalog, data_dir).state
    status = status_json(state)
    current = state.current_session
    if current is None or (home / current).resolve() != session.folder.resolve():
        return status
    battle = session.state.battle
    heroes: dict[str, Any] = dict(status["heroes"])  # type: ignore[call-overload]
    for hero, board in heroes.items():
        piece = battle.get(hero)
        if piece is not None and piece.health is not None:
            heroes[hero] = {**board, "health": piece.health}
        elif hero in battle.out:
            heroes[hero] = {**board, "health": 0}
    return {**status, "heroes": heroes}


def between_rooms_view(folder: Path, catalog: Catalog, data_dir: Path | None,
                       version: str) -> Json:
    """`/api/view` while no battle is being played: the campaign alone."""
    from automa.render.campaign_out import status_json

    return {"version": version, "session": None, "battle": False, "phase": "campaign",
            "campaign": status_json(opened(folder, catalog, data_dir).state)}

"""What a campaign writes to and reads from its rooms' battles: each battle room's (and the
Lair's) battle is a session folder, CAMPAIGN/rooms/NN-room. Every use of the session's API by
the campaign is here, in two functions, so the campaign follows the session's inputs as they
change."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from automa.campaign.log import LOG
from automa.catalog.load import Catalog
from automa.model.pieces import Piece
from automa.model.records import dataclass
from automa.model.scenario import Scenario

ROOMS_DIR = "rooms"
PER_GAME = "game"  # a card used once per game (`used HERO CARD game`)


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
                 physical: bool, used: Mapping[str, tuple[str, ...]]) -> None:
    """The room's battle as a new session: its scenario saved, and the cards each hero used
    earlier in the game logged first (they stay used)."""
    from automa.scenario.save import save_scenario
    from automa.session.store import SCENARIO, Session

    folder.mkdir(parents=True, exist_ok=True)
    save_scenario(scenario, folder / SCENARIO)
    session = Session.create(folder, folder / SCENARIO, catalog, seed,
                             "physical" if physical else "virtual")
    for hero, cards in used.items():
        for card in cards:
            session.report_used({"type": "used", "piece": hero, "card": card, "per": PER_GAME})


@dataclass(frozen=True)
class BattleOutcome:
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

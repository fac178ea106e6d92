"""Checks across the data files: every id a record names exists, every AI piece has its
behaviour row, and no file in a data folder is a misspelt name the program would never read."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from automa.catalog.locate import DATA_FILES
from automa.catalog.problems import Problems, Records, raise_
from automa.errors import DataError
from automa.model.components import FAMILIES
from automa.model.monsters import BehaviourRow, LordSpec, MonsterSpec
from automa.model.pieces import Kind
from automa.model.playmat import Playmat

if TYPE_CHECKING:  # a turn never reads the rooms: their model is imported when they are
    from automa.model.rooms import RoomSpec


def cross_check(monsters: Records[MonsterSpec], lords: Records[LordSpec],
                 playmats: Records[Playmat], rooms: Records[RoomSpec],
                 problems: Problems) -> None:
    """Every id one record names must exist: monsters in rooms, lords and summons; playmats."""
    cross_check_rooms(monsters, playmats, rooms, problems)
    cross_check_pieces(monsters, lords, playmats, problems)


def _need(problems: Problems, file: str, record: str, field: str, wanted: str,
          known: Mapping[str, object], what: str = "monster") -> None:
    if known and wanted not in known:  # none known: their file is broken, said already
        problems.attempt(lambda: raise_(DataError(file, record, field,
                                                   f"unknown {what} {wanted!r}")))


def _units(monsters: Records[MonsterSpec]) -> dict[str, MonsterSpec]:
    # setup places the monsters a room, a Lord's minions and its mercenary name: monster cards
    # only (not a Lord, not an Antient)
    return {k: m for k, m in monsters.by_id.items() if m.kind == Kind.MONSTER}


def cross_check_rooms(monsters: Records[MonsterSpec], playmats: Records[Playmat],
                      rooms: Records[RoomSpec], problems: Problems) -> None:
    """Every monster and playmat a room names exists."""
    units = _units(monsters)
    for room in rooms.by_id.values():
        for i, (monster_id, _) in enumerate(room.monsters):
            _need(problems, rooms.file_of(room.id), room.id, f"monsters[{i}].monster",
                  monster_id, units)
        if room.playmat is not None:
            _need(problems, rooms.file_of(room.id), room.id, "playmat", room.playmat,
                  playmats.by_id, "playmat")


def cross_check_pieces(monsters: Records[MonsterSpec], lords: Records[LordSpec],
                       playmats: Records[Playmat], problems: Problems) -> None:
    """Every monster, Lord and playmat a Lord or a shot sequence names exists."""
    def need(file: str, record: str, field: str, wanted: str, known: Mapping[str, object],
             what: str = "monster") -> None:
        _need(problems, file, record, field, wanted, known, what)

    # no monster at all: monsters.toml is broken, said already; do not flood every reference
    pieces = {**monsters.by_id, **lords.by_id} if monsters.by_id else {}
    units = _units(monsters)
    for lord in lords.by_id.values():
        file = lords.file_of(lord.id)
        for i, slot in enumerate(lord.minions):
            for choice in slot.choices:
                need(file, lord.id, f"minions[{i}]", choice, units)
        for merc in lord.mercenary:
            need(file, lord.id, "mercenary", merc, units)
        for choice in lord.summon_choices:
            need(file, lord.id, "summon_choices", choice, pieces)
        for mat in lord.playmats:
            need(file, lord.id, "playmats", mat, playmats.by_id, "playmat")
    for source in (monsters, lords):
        for spec in source.by_id.values():
            for i, sequence in enumerate(spec.sequences):
                for shot in sequence.shots:
                    if shot.argument is not None:
                        need(source.file_of(spec.id), spec.id, f"sequences[{i}]", shot.argument,
                             pieces)


def check_behaviour(behaviour: Records[BehaviourRow], monsters: Records[MonsterSpec],
                     lords: Records[LordSpec], problems: Problems) -> None:
    """Each family has one behaviour row, and Lords and Antients theirs: an AI piece without
    its row cannot act (`turn` would stop at it)."""
    file = next(iter(behaviour.origins.values()), "data/behaviour.toml")
    if not behaviour.by_id:
        return  # the file itself is broken: reported already
    for family in FAMILIES:
        rows = [r.id for r in behaviour.by_id.values() if family in r.families]
        if len(rows) > 1:
            problems.report(DataError(
                behaviour.file_of(rows[1]), rows[1], "families",
                f"family {family!r} is covered by row {rows[0]!r} already"))
        if not rows:
            users = sorted(m.id for m in monsters.by_id.values() if m.family == family)
            who = f" (monsters {', '.join(users[:3])}{', ...' if len(users) > 3 else ''})" \
                if users else ""
            problems.report(DataError(
                file, "", "families", f"no behaviour row covers family {family!r}{who}: "
                                      f"its monsters cannot act"))
    needed = {"catacomb-lord": bool(lords.by_id),
              "antient": any(m.kind == Kind.ANTIENT for m in monsters.by_id.values())}
    for row_id, used in needed.items():
        if used and row_id not in behaviour.by_id:
            problems.report(DataError(
                file, row_id, "", "missing: this behaviour row is needed by the "
                                  f"{row_id.replace('-', ' ')}s in the data"))


SETUP_CAMPAIGN_FILE = "campaign.toml"  # `setup --campaign`'s file, not campaigns.toml


def check_folder(user_dir: Path | None, problems: Problems) -> None:
    """Files in the user's data folder that the program would never read (a misspelt name)."""
    import difflib

    if user_dir is None:
        return
    for path in sorted(user_dir.iterdir()):
        name = path.name
        if name in DATA_FILES or name == SETUP_CAMPAIGN_FILE:
            continue
        close = difflib.get_close_matches(name.lower(), DATA_FILES, n=1, cutoff=0.75)
        if close:  # other files (notes, a campaign file) may live there
            problems.found.append(DataError(str(path), "", "",
                                            f"unknown file, did you mean {close[0]}?"))

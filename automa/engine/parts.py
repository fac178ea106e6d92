"""Characters of more than one piece (Ulom and his claw, docs/rulings.md 27).

A part (a piece with `part_of`) is no character of its own: it is seen, measured and hit as its
owner ("Damage may be inflicted on either piece"). This module answers which physical piece the
AI measures to and moves toward, which character a hit on a piece counts against, and puts a
part back beside its owner when a hit separates them.
"""

from __future__ import annotations

from msgspec.structs import replace

from automa.engine.battle import OFF_TABLE, Battle, StepLog, Table
from automa.engine.riders import note_left
from automa.engine.steps import MoveStep, NoteStep
from automa.geometry.moves import overlap_with, spot_beside
from automa.geometry.sight import Sighting, look_around
from automa.geometry.table import PLACEMENT_TOLERANCE, TableGeometry, edge_distance
from automa.model.pieces import Condition, Piece
from automa.rules.rulings import RulingKey

TOGETHER = 2.5  # cm edge to edge: "within 2.5cm (1") of the hero piece"
Vec = tuple[float, float]
PUT_BACK_GAP = 1.0  # cm: where the AI puts a separated part back (any gap within 2.5 cm will do)


def character_of(battle: Battle, piece_id: str) -> str:
    """The character a piece belongs to: its owner for a part, else the piece itself."""
    piece = battle.get(piece_id)
    return piece.part_of if piece is not None and piece.part_of else piece_id


def parts_of(battle: Battle, character_id: str) -> tuple[Piece, ...]:
    """The parts of a character that are on the mat."""
    if battle.plain:
        return ()
    return tuple(p for p in battle.on_table() if p.part_of == character_id)


def merge_sightings(battle: Battle, sightings: list[Sighting]) -> list[Sighting]:
    """A part is no target of its own: its owner is seen if either piece is, measured to the
    piece that is seen, or to the nearer one if both are (the sighting keeps it as `via`)."""
    if battle.plain:  # no parts, one sighting a target: nothing to merge
        return sorted(sightings, key=lambda s: (s.distance, s.target))
    by_target = {s.target: s for s in sightings}
    for s in sightings:
        owner = battle.piece(s.target).part_of
        if owner is None or owner not in by_target:
            continue
        held = by_target[owner]
        if (s.visible, -s.distance) > (held.visible, -held.distance):
            by_target[owner] = replace(s, target=owner, via=s.target)
    kept = [s for t, s in by_target.items() if battle.piece(t).part_of is None]
    return sorted(kept, key=lambda s: (s.distance, s.target))


def aim_piece(table: Table, battle: Battle, actor_id: str, target_id: str,
              by_sight: bool = True) -> str:
    """The physical piece of the target that the actor measures to, moves toward and hits: the
    target's own piece, or a part of it when the part is seen and the piece is not, or the part
    is nearer (as `merge_sightings` measures; ties keep the target's own piece). Without
    `by_sight`, the nearer piece whatever is seen (a range, not a sighting)."""
    target, actor = battle.get(target_id), battle.get(actor_id)
    parts = parts_of(battle, target_id)
    if not parts or target is None or actor is None or not battle.placed(target):
        return target_id
    if not by_sight:
        return min((target, *parts),
                   key=lambda p: (edge_distance(actor, p), p.id != target_id)).id
    settings = table.scenario.settings
    seen = merge_sightings(battle, look_around(table.geometry, actor, (target, *parts),
                                               settings.los_blocked, settings.los_test))
    return seen[0].via or target_id


def measured_to(sightings: tuple[Sighting, ...], target_id: str | None) -> str | None:
    """The part a target was measured to, if it was seen through one."""
    return next((s.via for s in sightings if s.target == target_id), None)


def note_part_hit(battle: Battle, log: StepLog, piece_id: str) -> None:
    """A hit on a part counts against its owner; an invulnerable part's says so itself (it
    damages neither piece)."""
    piece = battle.get(piece_id)
    if piece is not None and piece.part_of is not None and not piece.invulnerable:
        owner = battle.piece(piece.part_of)
        log.ruling(RulingKey.PARTS, f"a hit on {piece.label} counts against {owner.label}")
        log.add(NoteStep(f"{piece.label} is part of {owner.label}: the hit counts against "
                         f"{owner.label}"))


def note_measured_parts(battle: Battle, log: StepLog, sightings: tuple[Sighting, ...]) -> None:
    """Ruling 27 where it decides what the AI measures to: an enemy seen (or nearer) through a
    part of it."""
    for s in sightings:
        if s.via:
            log.ruling(RulingKey.PARTS, f"{battle.piece(s.target).label} is measured to "
                                        f"{battle.piece(s.via).label}, a part of it")


def leave_play(battle: Battle, log: StepLog, piece_id: str, why: str) -> Battle:
    """A character leaves play with every part of it (Battle.without removes them); the piece
    it rode or carried stays."""
    for part in (p for p in battle.pieces if p.part_of == piece_id):
        log.ruling(RulingKey.PARTS, f"{battle.piece(piece_id).label} leaves play with "
                                    f"{part.label}, a part of it")
        log.add(NoteStep(f"remove {part.label} too: it is part of {battle.piece(piece_id).label}"))
    note_left(battle, log, piece_id, "leaves play")
    return battle.without(piece_id, why)


CARDS = {Condition.TELEPORTED: "Teleported!", Condition.DEVOURED: "Devoured!"}


def onto_card(battle: Battle, log: StepLog, piece_id: str, card: Condition) -> Battle:
    """The character goes onto the Teleported! or Devoured! card (`card`) with every part of
    it, which comes back with it (`back_from_card`); the piece it rode or carried stays on the
    mat (`Battle.to_card`)."""
    owner = battle.piece(character_of(battle, piece_id))
    name = CARDS[card]
    for part in parts_of(battle, owner.id):
        log.ruling(RulingKey.PARTS_ON_CARDS, f"{part.label} goes onto the {name} card with "
                                             f"{owner.label}")
        log.add(NoteStep(f"put {part.label} on the {name} card too: it is part of "
                         f"{owner.label}"))
    note_left(battle, log, owner.id, f"goes onto the {name} card")
    return battle.to_card(owner.id, card)


def back_from_card(geometry: TableGeometry, battle: Battle, owner_id: str,
                   log: StepLog | None = None) -> Battle:
    """The parts of a character back on the mat come back from the card with it: each on its
    own spot if that is free and within 2.5 cm of the owner, else put back beside the owner
    as a hit that separates them puts it (`keep_together`)."""
    owner = battle.piece(owner_id)
    for part in [p for p in battle.pieces if p.part_of == owner_id and not battle.placed(p)]:
        back = replace(part, conditions=part.conditions - OFF_TABLE)
        spot = back.at
        if edge_distance(owner, back) > TOGETHER or overlap_with(
                geometry, battle.on_table(), back, spot, PLACEMENT_TOLERANCE) is not None:
            spot = _beside(geometry, battle, owner, back)
        if log is not None:
            log.ruling(RulingKey.PARTS_ON_CARDS, f"{part.label} comes back with {owner.label}, "
                                                 f"within {TOGETHER:g} cm of it")
            log.add(MoveStep(part.id, part.at, spot, f"back on the mat with {owner.label}",
                             "by hand", f"within {TOGETHER:g} cm of {owner.label}"))
        battle = battle.with_piece(back.moved(spot))
    return battle


def keep_together(table: Table, before: Battle, battle: Battle, log: StepLog,
                  moved_id: str) -> Battle:
    """"If the two pieces are hit ... resulting in them being separated, the claw piece is
    immediately moved back to within 2.5cm (1") of the hero piece": after `moved_id` was moved
    by a hit, a part that was within 2.5 cm of its owner and no longer is goes back beside it,
    on the side where it now lies. Ulom's rule (l.318): Yilleph's pieces (with a colour) are
    never put back together."""
    owner_id = character_of(battle, moved_id)
    owner = battle.get(owner_id)
    if owner is None or not battle.placed(owner) or owner.colour is not None:
        return battle
    for part in parts_of(battle, owner_id):
        if part.colour is not None:
            continue
        was_owner, was_part = before.get(owner_id), before.get(part.id)
        if was_owner is None or was_part is None or edge_distance(was_owner, was_part) > TOGETHER:
            continue  # apart before the hit: the hit did not separate them
        if edge_distance(owner, part) <= TOGETHER:
            continue
        spot = _beside(table.geometry, battle, owner, part)
        log.ruling(RulingKey.PART_REJOIN,
                   f"a hit that separates a part (Ulom's claw) from its owner "
                   f"puts it back {PUT_BACK_GAP:g} cm from the owner's edge, on "
                   f"the side where it lies")
        log.add(MoveStep(part.id, part.at, spot, f"separated from {owner.label}", "by hand",
                         f"back within {TOGETHER:g} cm of {owner.label}"))
        battle = battle.with_piece(part.moved(spot))
    return battle


def _beside(geometry: TableGeometry, battle: Battle, owner: Piece, part: Piece) -> Vec:
    """Where a part is put back by its owner: PUT_BACK_GAP from the owner's edge on the side
    where the part lies, or the nearest free spot within 2.5 cm of the owner."""
    toward = (part.at[0] - owner.at[0], part.at[1] - owner.at[1])
    return spot_beside(geometry, battle.on_table(), owner, part, toward, PUT_BACK_GAP, TOGETHER)

"""Moves the AI makes with rulers and templates: rush, push, random rune, no-target moves."""

from __future__ import annotations

import math
from collections.abc import Sequence

from msgspec.structs import replace
from shapely.geometry import Point
from shapely.ops import nearest_points

from automa.engine.battle import Battle, StepLog, Table
from automa.engine.parts import keep_together
from automa.engine.riders import carry, stack_mover
from automa.engine.steps import MoveStep, NoteStep, RollStep
from automa.geometry.moves import (
    Move,
    closest_obstacle,
    mount_under,
    nearest_legal_spot,
    overlap_with,
    ruler_toward,
    rune_occupant,
    sweep,
)
from automa.geometry.table import edge_distance
from automa.geometry.templates import (
    TOWARD_HERO_ZONE,
    TOWARD_MONSTER_ZONE,
    ClockReading,
    clock_direction,
    half_clock_direction,
    rotate_clockwise,
)
from automa.geometry.zones import Rune, runes_of
from automa.model.pieces import Condition, Piece, Side
from automa.rules.rulings import RulingKey

HERO_RULER = 3  # the Heroic Forces always use Ruler 3


def moving_ruler(table: Table, piece: Piece) -> int:
    """The line-of-sight / movement ruler of a piece: Ruler 3 for the Heroic Forces."""
    if piece.side == Side.HEROES:
        return HERO_RULER
    return table.catalog.behaviour_for(piece).ruler


def _apply(battle: Battle, log: StepLog, table: Table, move: Move, why: str, tool: str,
           toward: str = "", clock: int | None = None, close: bool = False,
           goal: Piece | None = None) -> Battle:
    """The move made, and said; the piece stacked with the mover (a rider's mount, a mount's
    rider) goes along."""
    return carry(battle, _moved(battle, log, table, move, why, tool, toward, clock, close, goal),
                 log, move.piece)


def _moved(battle: Battle, log: StepLog, table: Table, move: Move, why: str, tool: str,
           toward: str, clock: int | None, close: bool, goal: Piece | None) -> Battle:
    piece = battle.piece(move.piece)
    if not log.loud:  # nothing is said: only where it ends
        return battle.with_piece(piece.moved(move.end))
    short_by = None
    if goal is not None:  # the gap the mover's disc leaves (a rider's: its mount's, if wider)
        gap = edge_distance(stack_mover(battle, piece)[0].moved(move.end), goal)
        short_by = gap if gap > 0.01 else None
    if table.judge.asked:  # no positions: nothing here was measured
        log.add(MoveStep(move.piece, move.start, move.end, why, tool, toward, clock=clock))
        log.explain(f"{why} ({tool}): done at the table; no positions are tracked")
        return battle.with_piece(piece.moved(move.end))
    if close:
        log.close_calls.append(f"{piece.label}'s {why}: within {table.close_call} cm of a "
                               f"different result; check with the real {tool.split(' + ')[-1]}")
    log.add(MoveStep(move.piece, move.start, move.end, why, tool, toward, move.stopped_by,
                     move.adjusted, clock, close, short_by))
    if log.explaining:
        log.explain(_move_detail(move, why, tool))
    return battle.with_piece(piece.moved(move.end))


def _move_detail(move: Move, why: str, tool: str) -> str:
    """The explain trace's line for a move: how far, where it ended, how close a call."""
    detail = f"{why} ({tool}): {move.travelled:.2f} cm"
    if move.stopped_by:
        detail += f", ends {move.stopped_by}"
    if move.margin != float("inf"):
        detail += f"; {move.margin:.2f} cm from a different stop"
    if move.adjusted:
        detail += (f"; the spot ({move.intended[0]:.2f}, {move.intended[1]:.2f}) was taken, "
                   f"so the nearest legal spot")
    return detail


def rush_toward(table: Table, battle: Battle, log: StepLog, actor_id: str, target_id: str,
                why: str = "rush") -> Battle:
    """Lay the actor's ruler toward the target and slide it; it stops touching the target."""
    actor, target = battle.piece(actor_id), battle.get(target_id)
    if target is None or not battle.placed(target):
        log.add(NoteStep(f"{target_id} is out of play: nothing to rush toward"))
        return battle
    ruler = moving_ruler(table, actor)
    mover, others = stack_mover(battle, actor)
    move = ruler_toward(table.geometry, others, mover, target.at, target.radius,
                        table.ruler(ruler), goal_piece=target, goal_name=target.label)
    if log.loud and move.adjusted and not table.judge.asked:
        log.ruling(RulingKey.RUSH_STOP, _rush_stop(table, battle, mover, others, target, move))
    close = move.margin < table.close_call and move.travelled > 0
    return _apply(battle, log, table, move, why, f"Ruler {ruler}", target.label, close=close,
                  goal=target)


def _rush_stop(table: Table, battle: Battle, actor: Piece, others: Sequence[Piece],
               target: Piece, move: Move) -> str:
    """What ruling 8 decided where a rush's ruler ends on a spot the piece may not take."""
    taken = overlap_with(table.geometry, others, actor, move.intended)
    where = ("off the mat" if taken == "the mat edge" else
             f"on {taken}" if taken is not None and taken.startswith("obstacle ") else
             f"on {battle.piece(taken).label}" if taken is not None and battle.get(taken)
             else "on a taken spot")
    touching = move.stopped_by == f"touching {target.label}"
    return (f"the ruler's end would put {actor.label} {where}: it goes to the nearest legal "
            f"spot{f', still touching {target.label}' if touching else ''}")


def push(table: Table, battle: Battle, log: StepLog, piece_id: str, why: str = "push") -> Battle:
    """Clock template on the piece, D12 for the face, its ruler for the distance (a sweep)."""
    piece = battle.get(piece_id)
    if piece is None or not battle.placed(piece):
        return battle
    if Condition.ALOFT in piece.conditions:
        log.ruling(RulingKey.STUN_AND_ALOFT,
                   "a piece on top of an obstacle is not moved by the Clock "
                   "template (it is safe from all template attacks)")
        log.add(NoteStep(f"{piece.label} stands on top of an obstacle: the Clock template "
                         f"cannot move it"))
        return battle
    mount = mount_under(piece, battle.on_table())
    if Condition.RIDING in piece.conditions:
        battle, piece = _knock_off(battle, log, piece, mount)
    others: Sequence[Piece]
    if mount is not None:  # the rider slides off the top of its mount: no bar to the sweep
        mover, others = piece, [p for p in battle.on_table() if p.id != mount.id]
    else:  # a pushed mount carries its rider: the two move as the wider disc
        mover, others = stack_mover(battle, piece)
    face = table.chance.d12(f"{why} direction for {piece.label}" if log.loud else "", log)
    reading = clock_reading(table, log, mover, face)
    if log.loud:
        log.add(RollStep("d12", face, f"{why} direction", f"{reading.side} side, {face} o'clock"))
    ruler = moving_ruler(table, piece)
    move = sweep(table.geometry, others, mover, reading.direction, table.ruler(ruler))
    if mount is not None:
        move = replace(move, end=nearest_legal_spot(table.geometry, battle.on_table(), piece,
                                                    move.end))
    close = move.stopped_by is not None and move.margin < table.close_call
    pushed = _apply(battle, log, table, move, why,
                    f"Clock template ({reading.side}) + Ruler {ruler}", clock=face, close=close)
    return keep_together(table, battle, pushed, log, piece_id)


def clock_reading(table: Table, log: StepLog, piece: Piece, face: int) -> ClockReading:
    """The Clock template on `piece`: front or reverse side by ruling 9, marked where the two
    readings of "at the edge" disagree."""
    rule = table.option(RulingKey.CLOCK_EDGE)
    reading = clock_direction(table.geometry, table.catalog.components.clock,
                              table.scenario.templates.clock_radius, piece.at, face,
                              piece.radius, rule)
    if table.judge.asked:  # no positions: the players see whether it is at the edge
        return _asked_side(table, log, piece, face, rule, reading)
    if reading.disputed:
        log.ruling(RulingKey.CLOCK_EDGE,
                   f"{piece.label} is near the edge: the {reading.side} side of "
                   f"the Clock template ({table.option(RulingKey.CLOCK_EDGE)} reading)")
    return reading


def _asked_side(table: Table, log: StepLog, piece: Piece, face: int, rule: str,
                computed: ClockReading) -> ClockReading:
    """Front or reverse side, as the players see the real template at the mat edge."""
    question = (f"Centre the Clock template on {piece.label}: does it hang over the mat edge?"
                if rule == "overhang" else f"Does {piece.label} touch the mat edge?")
    at_edge = table.judge.confirm(question, computed.side == "reverse", math.inf, log)
    if at_edge:
        log.ruling(RulingKey.CLOCK_EDGE,
                   f"{piece.label} is at the edge, as the table answered: the "
                   f"reverse side of the Clock template ({rule} reading)")
    clock = table.catalog.components.clock
    if not at_edge:
        return ClockReading("front", face, rotate_clockwise(TOWARD_HERO_ZONE,
                                                            clock.front[face - 1]), False)
    mid = table.geometry.playmat.centre
    dx, dy = mid[0] - piece.at[0], mid[1] - piece.at[1]
    norm = math.hypot(dx, dy)
    twelve = (dx / norm, dy / norm) if norm > 1e-9 else TOWARD_HERO_ZONE
    return ClockReading("reverse", face, rotate_clockwise(twelve, clock.reverse[face - 1]), False)


def _knock_off(battle: Battle, log: StepLog, rider: Piece, mount: Piece | None
               ) -> tuple[Battle, Piece]:
    """A pushed rider is knocked off: it is no longer riding, its mount no longer ridden."""
    name = mount.label if mount is not None else "the mount"
    log.ruling(RulingKey.STUN_AND_ALOFT,
               "a pushed rider is knocked off: only the rider moves, the mount stays and is "
               "free to ride again")
    log.add(NoteStep(f"{rider.label} is knocked off {name}: only the rider moves; {name} "
                     f"stays in place"))
    rider = replace(rider, conditions=rider.conditions - {Condition.RIDING})
    battle = battle.with_piece(rider)
    if mount is not None:
        battle = battle.with_piece(replace(mount, conditions=mount.conditions - {Condition.RIDDEN}))
    return battle, rider


def retreat_to_monster_zone(table: Table, battle: Battle, log: StepLog, actor_id: str,
                            ruler: int) -> Battle:
    actor = battle.piece(actor_id)
    face = table.chance.d12("retreat direction", log)
    direction = half_clock_direction(table.catalog.components.clock, TOWARD_MONSTER_ZONE, face)
    offset = table.catalog.components.clock.half[face - 1]
    if "clock-template.half" in table.catalog.components.placeholders:
        log.ruling(RulingKey.HALF_CLOCK,
                   "the half Clock template's twelve faces spread evenly over the half circle "
                   "toward the Monster Start Zone")
    log.add(RollStep("d12", face, "retreat direction",
                     f"half Clock template face {face}: {abs(offset):.1f}° "
                     f"{'right' if offset > 0 else 'left'} of straight toward the Monster Start "
                     f"Zone, seen from above"))
    mover, others = stack_mover(battle, actor)
    move = sweep(table.geometry, others, mover, direction, table.ruler(ruler))
    return _apply(battle, log, table, move, "retreat toward the Monster Start Zone",
                  f"half Clock template + Ruler {ruler}", clock=face)


def toward_closest_obstacle(table: Table, battle: Battle, log: StepLog, actor_id: str,
                            ruler: int) -> Battle:
    actor = battle.piece(actor_id)
    found = closest_obstacle(table.geometry, actor.at)
    if found is None:
        log.add(NoteStep("this mat has no obstacles: it stays where it is"))
        return battle
    obstacle_id, point, _ = found
    if table.judge.asked and len(table.geometry.obstacles) > 1:  # no positions: the table says
        ids = [o.id for o in table.geometry.obstacles]
        obstacle_id = table.judge.pick(f"Which obstacle is closest to {actor.label}, edge to "
                                       f"edge?", ids, obstacle_id, math.inf, log)
        shape = next(o.polygon for o in table.geometry.obstacles if o.id == obstacle_id)
        near = nearest_points(shape.exterior, Point(actor.at))[0]
        point = (float(near.x), float(near.y))
    mover, others = stack_mover(battle, actor)
    move = ruler_toward(table.geometry, others, mover, point, 0.0, table.ruler(ruler),
                        goal_name=f"obstacle {obstacle_id}")
    return _apply(battle, log, table, move, "move toward the closest obstacle",
                  f"Ruler {ruler}", f"obstacle {obstacle_id}")


def toward_closest_enemy(table: Table, battle: Battle, log: StepLog, actor_id: str,
                         ruler: int) -> Battle:
    actor = battle.piece(actor_id)
    enemies = battle.enemies_of_ai()
    if not enemies:
        log.add(NoteStep("no enemy is left on the mat: it stays where it is"))
        return battle
    enemy = min(enemies, key=lambda e: (edge_distance(actor, e), e.id))
    if table.judge.asked and len(enemies) > 1:  # no positions: the table measures
        ranked = sorted(enemies, key=lambda e: e.label)
        chosen = table.judge.pick(f"Which enemy is closest to {actor.label}, edge to edge, "
                                  f"whether it sees it or not?", [e.id for e in ranked],
                                  enemy.id, math.inf, log)
        enemy = battle.piece(chosen)
    mover, others = stack_mover(battle, actor)
    move = ruler_toward(table.geometry, others, mover, enemy.at, enemy.radius,
                        table.ruler(ruler), goal_piece=enemy, goal_name=enemy.label)
    return _apply(battle, log, table, move, "move toward the closest enemy (sight ignored)",
                  f"Ruler {ruler}", enemy.label, goal=enemy)


def toward_hero_zone(table: Table, battle: Battle, log: StepLog, actor_id: str,
                     ruler: int) -> Battle:
    actor = battle.piece(actor_id)
    goal = (actor.at[0], 0.0)
    mover, others = stack_mover(battle, actor)
    move = ruler_toward(table.geometry, others, mover, goal, 0.0, table.ruler(ruler),
                        goal_name="the Hero Start Zone edge")
    return _apply(battle, log, table, move, "move toward the Hero Start Zone", f"Ruler {ruler}",
                  "the Hero Start Zone")


def _rune_choice(table: Table, log: StepLog, runes: dict[int, Rune], faces: list[int],
                 battle: Battle, actor: Piece, rune_radius: float
                 ) -> tuple[Rune | None, list[str]]:
    """The first rolled rune the piece may move to, and why each other one was passed over.
    A rider and its mount move as one (`stack_mover`): neither takes the other's rune."""
    passed = []
    mover, near = stack_mover(battle, actor)
    others = [p for p in near if p.id != actor.id]
    for face in faces:
        rune = runes.get(face)
        if rune is None:
            log.ruling(RulingKey.RANDOM_RUNE,
                       f"rune {face}, which the mat does not print, is passed over")
            passed.append(f"rune {face} is not on this mat")
        elif rune.on_obstacle and not mover.flying:
            passed.append(f"rune {face} is on obstacle {rune.on_obstacle}: only fliers go there")
        elif table.judge.asked:  # no positions: the players look at the rune
            if table.judge.confirm(f"Is rune {face} free (no piece on its icon, and "
                                   f"{actor.label} not already on it)?", True, float("inf"),
                                   log):
                return rune, passed
            passed.append(f"rune {face} is taken")
        elif rune_occupant([mover], rune.at, rune_radius) and battle.placed(actor):
            passed.append(f"already on rune {face}")
        elif (occupant := rune_occupant(others, rune.at, rune_radius)) is not None:
            passed.append(f"rune {face} is occupied by {battle.piece(occupant).label}")
        else:
            return rune, passed
    return None, passed


def _stays_on_its_rune(table: Table, log: StepLog, actor: Piece, runes: dict[int, Rune],
                       rolled: Rune) -> bool:
    """Ruling 41: a piece on one rune that rolls another, free one moves (or, by the other
    reading, stays). Marked whenever the question arises."""
    if table.judge.asked:  # no positions: the players see it; ours is the default
        return False
    radius = table.geometry.playmat.rune_radius
    current = next((r.number for r in runes.values()
                    if r.number != rolled.number and rune_occupant([actor], r.at, radius)), None)
    if current is None:
        return False
    if table.option(RulingKey.RUNE_WHEN_ON_RUNE) == "stays":
        log.ruling(RulingKey.RUNE_WHEN_ON_RUNE, f"{actor.label} is on rune {current}: it stays "
                                                f"(your table's reading)")
        return True
    log.ruling(RulingKey.RUNE_WHEN_ON_RUNE, f"{actor.label} leaves rune {current} for rune "
                                            f"{rolled.number}")
    return False


def _log_two_dice(table: Table, log: StepLog, why: str, faces: list[int], rune: Rune | None,
                  passed: list[str], outcome: str, battle: Battle, actor: Piece,
                  runes: dict[int, Rune]) -> None:
    """Both dice on the table: the Rune Die, then the Location Die with the rune it comes to.
    The house choice between two free runes is marked only when there was a choice."""
    log.add(RollStep("rune", faces[0], why, "then roll the Location Die too"))
    if rune is None:
        result = f"{'; '.join(passed)}: {outcome}"
    elif rune.number != faces[0]:
        result = f"{'; '.join(passed)}: rune {rune.number}"
    else:
        other, _ = (None, []) if table.judge.asked else _rune_choice(
            table, log, runes, faces[1:], battle, actor, table.geometry.playmat.rune_radius)
        if table.judge.asked or other is not None:
            log.ruling(RulingKey.TWO_ROLLED_RUNES,
                       "of two free rolled runes the AI takes the Rune Die's")
        result = (f"both runes are free: the Rune Die's, rune {rune.number}"
                  if other is not None else f"rune {rune.number}")
    log.add(RollStep("location", faces[1], why, result))


def rolls_both_rune_dice(table: Table, actor: Piece) -> bool:
    """A move to a random rune rolls the Rune Die and the Location Die on a mat printing all
    twelve runes (the Cave of the Keystone), and for a flying character; else the Rune Die."""
    return table.geometry.playmat.prints_all_runes or actor.flying


def to_random_rune(table: Table, battle: Battle, log: StepLog, actor_id: str,
                   why: str = "move to random rune", must_land: bool = False) -> Battle:
    """Roll the Rune Die; an occupied rune, or the one it is on, means nothing happens.

    On a mat printing all twelve runes (the Cave of the Keystone), and for a flying character,
    both the Rune Die and the Location Die are rolled: the Rune Die's rune is taken if it can be,
    else the Location Die's. With `must_land` (back from the Teleported! card) it rolls until a
    rune is free.
    """
    playmat = table.geometry.playmat
    runes = runes_of(table.geometry)
    actor = battle.piece(actor_id)
    two_dice = rolls_both_rune_dice(table, actor)
    for _ in range(12 if must_land else 1):
        faces = [table.chance.rune_die(why, log)]
        if two_dice:
            faces.append(table.chance.location_die(why, log))
        rune, passed = _rune_choice(table, log, runes, faces, battle, actor,
                                    playmat.rune_radius)
        if rune is not None and not must_land and _stays_on_its_rune(table, log, actor, runes,
                                                                     rune):
            rune, passed = None, [*passed, "already on a rune: it stays"]
        if rune is None and must_land:
            log.ruling(RulingKey.RANDOM_RUNE,
                       "coming back from the Teleported! card, a taken rune is rolled again")
        outcome = "roll again" if must_land else "nothing happens"
        if not two_dice:
            log.add(RollStep("rune", faces[0], why, f"rune {rune.number}" if rune is not None
                             else f"{'; '.join(passed)}: {outcome}"))
        else:
            _log_two_dice(table, log, why, faces, rune, passed, outcome, battle, actor, runes)
        if rune is None:
            continue
        if rune.on_obstacle:
            aloft = replace(actor, at=rune.at, conditions=actor.conditions | {Condition.ALOFT})
            log.add(MoveStep(actor_id, actor.at, rune.at, why, "Rune Die",
                             f"rune {rune.number} on top of obstacle {rune.on_obstacle}"))
            return battle.with_piece(aloft)
        mover, others = stack_mover(battle, actor)
        spot = nearest_legal_spot(table.geometry, others, mover, rune.at)
        move = Move(actor_id, actor.at, spot, rune.at, None)
        return _apply(battle, log, table, move, why, "Rune Die", f"rune {rune.number}")
    if must_land:  # every roll came up taken: the free rune nearest the mat centre
        actor = battle.piece(actor_id)
        free = [r for r in runes.values() if r.on_obstacle is None
                and rune_occupant(battle.on_table(), r.at, playmat.rune_radius) is None]
        mid = playmat.centre
        chosen = min(free, key=lambda r: (r.at[0] - mid[0]) ** 2 + (r.at[1] - mid[1]) ** 2,
                     default=None)
        goal = chosen.at if chosen else mid
        mover, others = stack_mover(battle, actor)
        spot = nearest_legal_spot(table.geometry, others, mover, goal)
        log.ruling(RulingKey.TELEPORT_LANDING,
                   "a piece that must land on a rune and rolls only taken "
                   "ones takes the free rune nearest the mat centre")
        where = f"rune {chosen.number}" if chosen else "the mat centre (no rune is free)"
        return _apply(battle, log, table, Move(actor_id, actor.at, spot, goal, None), why,
                      "Rune Die", where)
    return battle


def climb_down(table: Table, battle: Battle, log: StepLog, actor_id: str) -> Battle:
    """A flier on top of an obstacle starts its turn by climbing down beside it (within 2.5 cm)."""
    actor = battle.piece(actor_id)
    grounded = replace(actor, conditions=actor.conditions - {Condition.ALOFT})
    spot = nearest_legal_spot(table.geometry, battle.on_table(), grounded, actor.at)
    log.add(MoveStep(actor_id, actor.at, spot, "climb down from the obstacle", "by hand",
                     "on the nearest free spot beside it"))
    return battle.with_piece(grounded.moved(spot))

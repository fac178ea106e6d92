"""One AI character's activation, as the Red Box's AI Player Behaviour section orders it."""

from __future__ import annotations

import math
from collections.abc import Callable

from msgspec import Struct
from msgspec.structs import replace

from automa.catalog.fields import card_hint, missing_for_battle
from automa.catalog.pieces import lookup, monster_piece
from automa.engine.battle import Battle, Fired, StepLog, Table
from automa.engine.movement import (
    climb_down,
    clock_reading,
    retreat_to_monster_zone,
    rolls_both_rune_dice,
    rush_toward,
    to_random_rune,
    toward_closest_enemy,
    toward_closest_obstacle,
    toward_hero_zone,
)
from automa.engine.parts import (
    aim_piece,
    back_from_card,
    merge_sightings,
    note_measured_parts,
    onto_card,
)
from automa.engine.riders import wyverns_to_ride
from automa.engine.shots import (
    KEPT_TARGET,
    ShotContext,
    contact_shot,
    ranged_shot,
    reach_friend,
)
from automa.engine.steps import MoveStep, NoteStep, RollStep, ShotStep, Step
from automa.errors import RulesError
from automa.geometry.moves import nearest_legal_spot
from automa.geometry.sight import CORRIDOR_WIDTH, Sighting, look_around
from automa.model.monsters import BehaviourRow
from automa.model.pieces import Condition, Kind, Piece, Side
from automa.model.provenance import Provenance
from automa.model.shots import Modifier, ModifierName, Sequence, Shot, ShotName
from automa.rules.rulings import RulingKey
from automa.rules.sequences import (
    SequencePlan,
    band_text,
    d12_band,
    has_preferred_shot,
    plan_repeat,
    plan_sequence,
)
from automa.rules.targeting import Candidate, TargetChoice, preference_key, select_target
from automa.rules.tiles import DIRECTION_WORDS, TILE_NAMES

SUMMON_RULER = 1
RUSH_SHOTS = frozenset({ShotName.RUSH, ShotName.OPEN_PORTAL})  # the AI opens no portal: a rush
TARGET_RULINGS = {  # what each ruling a target choice rests on decided there
    RulingKey.CLOSEST_EDGE: "\"closest\" is measured edge to edge",
    RulingKey.NON_HERO_WEALTH: "familiars, allies and mounts hold no gold or items of their own",
    RulingKey.MOST_POISON: "pieces other than heroes count no Poison cards",
    RulingKey.DIRECTION_FRAME: "the Direction tiles are read from the Monster Start Zone",
}


class Activation(Struct, frozen=True):
    """What one AI character's activation did and why: its sight, target, shots and steps."""

    character: str
    label: str
    order_reason: str
    row: str
    row_provenance: str
    visible: tuple[Sighting, ...]
    hidden: tuple[Sighting, ...]
    target: str | None
    reason: str
    sequence: tuple[str, ...]
    sequence_reason: str
    steps: tuple[Step, ...]
    close_calls: tuple[str, ...]
    rulings: tuple[Fired, ...]
    summoned: tuple[str, ...] = ()
    repeat: str | None = None
    explain: tuple[str, ...] = ()
    resume: Resume | None = None  # the shots still to come after a summoned piece acts
    continued: bool = False  # this activation finishes a sequence a summon interrupted
    shown: int = 0  # steps shown to the players before they were asked (engine/judge.py)
    unasked: tuple[str, ...] = ()  # enemies whose sight could not change the target: not asked


class QuietLog(StepLog):
    """The log of a quiet table (`Table.quiet`, a forecast's runs): nobody reads the steps, the
    trace or the rulings, so none is kept, and the hot paths do not make their text. It keeps
    nothing, so one serves every quiet activation (`QUIET_LOG`; the tests check it stays
    empty)."""

    loud = False

    def add(self, step: Step) -> None:
        pass

    def explain(self, *lines: str) -> None:
        pass

    def ruling(self, key: RulingKey, detail: str = "") -> None:
        pass

    def aimed(self, target: str | None, reason: str) -> None:
        pass


QUIET_LOG = QuietLog(explaining=False)


class Resume(Struct, frozen=True):
    """A sequence interrupted by a summon: the summoned piece acts at once, then this."""

    shots: tuple[Shot, ...]
    target: str | None
    friendly: bool
    reason: str


class Aim(Struct, frozen=True):
    """Whom the activation is aimed at, why, and a sequence the choice forces, if any."""

    target: str | None
    reason: str
    friendly: bool = False
    sequence: Sequence | None = None
    sequence_reason: str = ""


ORDER_RULINGS = {  # what each ruling a turn's order rests on decided there
    RulingKey.DIRECTION_FRAME: "the Direction tiles are read from the Monster Start Zone (turn "
                               "order)",
    RulingKey.SUMMONED_TURN: "this is its turn of the round",
}


def activate(table: Table, battle: Battle, actor_id: str, order_reason: str,
             repeated: bool = False, resume: Resume | None = None,
             order_rulings: tuple[RulingKey, ...] = (), away: bool = False
             ) -> tuple[Battle, Activation]:
    """One activation; `repeated` when a repeat shot gave this character its turn again;
    `resume` to finish a sequence a summon interrupted; `order_rulings`: the rulings its turn
    order rested on; `away`: the heroes put it on the Teleported! card this round, so its turn
    passes there (ruling 64)."""
    actor = battle.piece(actor_id)
    row = table.catalog.behaviour_for(actor)
    log = QUIET_LOG if table.quiet else StepLog(
        explaining=table.explain, actor=actor.label, order=order_reason, actor_id=actor_id,
        named=(*table.scenario.pieces, *battle.pieces), coordinates=not table.judge.asked)
    for key in order_rulings:
        log.ruling(key, ORDER_RULINGS[key])
    if log.explaining:
        log.explain(f"acts now: {order_reason}",
                    f"behaviour row {row.id} ({row.provenance}): Ruler {row.ruler}; shot "
                    f"preference {row.shot_preference or 'none'}; {row.primary} / "
                    f"{row.secondary} / {row.tie_breaker}; no target: {row.no_target}")
    if resume is not None:
        log.ruling(RulingKey.SUMMON_PLACEMENT,
                   f"after the summoned piece has acted, {actor.label} finishes its sequence "
                   f"against the same Active Target")
        log.aimed(resume.target, resume.reason)
        return _shoot(table, battle, log, actor_id, row, order_reason, (), (),
                      Aim(resume.target, resume.reason, resume.friendly),
                      Sequence(resume.shots), "the rest of its sequence", repeated,
                      continued=True)
    if row.provenance == Provenance.HOUSE:
        log.ruling(RulingKey.HOUSE_ROWS, f"the {row.id} row of the behaviour table is ours")
    if away and Condition.TELEPORTED in actor.conditions:
        log.ruling(RulingKey.TELEPORTED_BY_HEROES, "teleported by the heroes: back next round")
        log.add(NoteStep(f"{actor.label} is on the Teleported! card since the heroes' turn: it "
                         f"stays there this round and comes back in the next"))
        return battle, _finish(actor_id, battle, row, order_reason, log, (), (),
                               Aim(None, "on the Teleported! card: back next round"), (), "")
    if Condition.FROZEN in actor.conditions:
        log.ruling(RulingKey.FROZEN_TURN, "its turn passes while it is frozen")
        log.add(NoteStep(f"{actor.label} is frozen by ice: it cannot act"))
        return battle, _finish(actor_id, battle, row, order_reason, log, (), (),
                               Aim(None, "frozen by ice: it cannot act"), (), "")
    if Condition.STUNNED in actor.conditions:
        log.ruling(RulingKey.STUN_AND_ALOFT,
                   "a stunned AI character loses its next turn, then the stun ends")
        log.add(NoteStep(f"{actor.label} is stunned: it loses this turn; remove its Stunned! "
                         f"card"))
        battle = battle.with_piece(replace(actor,
                                           conditions=actor.conditions - {Condition.STUNNED}))
        return battle, _finish(actor_id, battle, row, order_reason, log, (), (),
                               Aim(None, "stunned: it cannot act"), (), "")
    battle, returning = _before_sight(table, battle, log, actor)
    visible, hidden, advanced = _look(table, battle, log, actor_id, row)
    if advanced is None and not visible:
        battle = _pass_antient(_no_target(table, battle, log, actor_id, row), log, actor_id)
        return battle, _finish(actor_id, battle, row, order_reason, log, visible, hidden,
                               Aim(None, "nobody in sight: No Target Action"), (), "")
    aim = advanced or _enemy_aim(table, battle, log, row, visible)
    log.aimed(aim.target, aim.reason)
    if returning:
        sequence = Sequence((Shot(ShotName.MELEE),))
        sequence_reason = "back from the Teleported! card: one melee shot"
    elif aim.sequence is not None:
        sequence, sequence_reason = aim.sequence, aim.sequence_reason
    else:
        sequence, sequence_reason = _choose_sequence(table, log, battle.piece(actor_id), row)
    return _shoot(table, battle, log, actor_id, row, order_reason, visible, hidden, aim,
                  sequence, sequence_reason, repeated)


def _look(table: Table, battle: Battle, log: StepLog, actor_id: str, row: BehaviourRow
          ) -> tuple[tuple[Sighting, ...], tuple[Sighting, ...], Aim | None]:
    """The enemies in sight, and an advanced target. Asked geometry looks for the advanced
    target first: when there is one, no enemy's sight can matter, so none is asked."""
    advanced_targeting = table.scenario.settings.advanced_targeting
    if table.judge.asked and advanced_targeting:
        advanced = _advanced_aim(table, battle, log, actor_id)
        if advanced is not None:
            log.explain("sight of the enemies: not asked; the advanced target comes first")
            return (), (), advanced
        return (*_sight(table, battle, actor_id, log, row), None)
    visible, hidden = _sight(table, battle, actor_id, log, row)
    advanced = _advanced_aim(table, battle, log, actor_id) if advanced_targeting else None
    return visible, hidden, advanced


def _shoot(table: Table, battle: Battle, log: StepLog, actor_id: str, row: BehaviourRow,
           order_reason: str, visible: tuple[Sighting, ...], hidden: tuple[Sighting, ...],
           aim: Aim, sequence: Sequence, sequence_reason: str, repeated: bool,
           continued: bool = False) -> tuple[Battle, Activation]:
    """Perform the shots in order; a summon hands over at once to the summoned piece."""
    ctx = ShotContext(actor_id, aim.target, friendly=aim.friendly, in_repeat=repeated)
    resume = None
    for i, shot in enumerate(sequence.shots):
        if battle.get(actor_id) is None or ctx.stop:
            break
        battle = perform(table, battle, log, ctx, shot)
        rest = sequence.shots[i + 1:]
        if ctx.summoned and rest and battle.get(actor_id) is not None:
            resume = Resume(rest, ctx.target, ctx.friendly, aim.reason)
            log.ruling(RulingKey.SUMMON_PLACEMENT,
                       f"the summoned piece acts at once, before "
                       f"{battle.piece(actor_id).label}'s remaining shots")
            log.add(NoteStep(f"the summoned piece acts now; then {battle.piece(actor_id).label} "
                             f"goes on with {' then '.join(s.notation() for s in rest)}"))
            break
    if resume is None:
        battle = _pass_antient(battle, log, actor_id)
    return battle, _finish(actor_id, battle, row, order_reason, log, visible, hidden, aim,
                           tuple(sequence.shot_names()), sequence_reason, tuple(ctx.summoned),
                           ctx.repeat, resume, continued)


def _pass_antient(battle: Battle, log: StepLog, actor_id: str) -> Battle:
    """Control of an Antient alternates: after the AI uses it, the heroes have it."""
    actor = battle.get(actor_id)
    if actor is None or actor.kind != Kind.ANTIENT:
        return battle
    log.ruling(RulingKey.ANTIENT_CONTROL,
               f"after the AI uses {actor.label}, its card passes back to the heroes")
    log.add(NoteStep(f"pass the {actor.label} card back to the heroes: they control it next, "
                     f"until their turn is over"))
    return battle.with_piece(replace(actor, side=Side.HEROES))


def _before_sight(table: Table, battle: Battle, log: StepLog, actor: Piece
                  ) -> tuple[Battle, bool]:
    """Climbing down, coming back from the Teleported! card, an Antient's rune move."""
    if Condition.ALOFT in actor.conditions:
        battle = climb_down(table, battle, log, actor.id)
    returning = Condition.TELEPORTED in actor.conditions
    if returning:
        battle = _return_from_teleport(table, battle, log, actor.id)
    elif actor.kind == Kind.ANTIENT:
        log.ruling(RulingKey.ANTIENT_TURNS, "the Overseer holds every Antient in the AI turn")
        battle = to_random_rune(table, battle, log, actor.id,
                                "an Antient moves to a random rune first")
    return battle, returning


def _enemy_aim(table: Table, battle: Battle, log: StepLog, row: BehaviourRow,
               visible: tuple[Sighting, ...]) -> Aim:
    """The row's columns over the enemies in sight. Asked geometry measures only when a
    `closest` column is reached, and only the enemies still in play there; a tie the Direction
    tiles would break on positions is put to the table too."""
    actor = battle.piece(visible[0].viewer)
    candidates = [Candidate(battle.piece(s.target), s.distance) for s in visible]
    wealth, tiles = table.option(RulingKey.NON_HERO_WEALTH), table.scenario.tiles
    asked = table.judge.asked
    if not asked and not table.quiet and "closest" in _columns(row) and len(candidates) > 1:
        # whether the choice reaches its `closest` column only sets the margin of a question
        # the players may be asked: with nobody to ask, it is not worked out (a quiet table
        # records no question: the computed closest stands)
        needed = table.judge.may_ask and _reaches_closest(
            select_target(candidates, row, tiles, table.close_call, wealth), row)
        candidates = _judge_closest(table, log, actor, candidates, needed=needed)

    def measured(remaining: list[Candidate]) -> list[Candidate]:
        return _judge_closest(table, log, actor, remaining, needed=True)

    choice = select_target(candidates, row, tiles, table.close_call, wealth,
                           closest=measured if asked else None, explain=log.explaining,
                           reasoned=log.loud)
    if asked and choice.tied:
        choice = _ask_tie(table, log, battle, actor, choice)
    if not log.loud:  # nothing is said, and nobody reads why: only whom
        return Aim(choice.target, "")
    if not battle.plain:
        note_measured_parts(battle, log, visible)
    column_field = COLUMN_FIELDS.get(choice.column)
    reason = f"{row.id} {choice.column}: {choice.reason}" if column_field else choice.reason
    log.explain(*(f"target {line}" for line in choice.trace))
    for key in choice.rulings:
        log.ruling(key, TARGET_RULINGS.get(key, ""))
    if choice.close_call:
        measured_by = "distance" if choice.criterion == "closest" else f"the {choice.column}"
        log.close_calls.append(f"target choice by {measured_by}: the runner-up is within "
                               f"{table.close_call} cm; measure both")
    if column_field and row.is_house(column_field):
        log.ruling(RulingKey.HOUSE_ROWS, f"{_whose(row)} {choice.column} column is ours")
    return Aim(choice.target, reason)


def _whose(row: BehaviourRow) -> str:
    """How a mark of ruling 13 names the row a column or action belongs to: "its" after the
    mark of a whole row that is ours (made first in the activation), else the row by name."""
    return "its" if row.provenance == Provenance.HOUSE else f"the {row.id} row's"


COLUMN_FIELDS = {"Primary": "primary", "Secondary": "secondary", "Tie Breaker": "tie_breaker"}


def _columns(row: BehaviourRow) -> tuple[str, str, str]:
    return row.primary, row.secondary, row.tie_breaker


def _reaches_closest(choice: TargetChoice, row: BehaviourRow) -> bool:
    """Whether the choice read a `closest` column (else no distance could change it)."""
    decided = list(COLUMN_FIELDS).index(choice.column) if choice.column in COLUMN_FIELDS else 3
    return decided >= _columns(row).index("closest")


def _judge_closest(table: Table, log: StepLog, actor: Piece, candidates: list[Candidate],
                   needed: bool) -> list[Candidate]:
    """Who is closest, as measured or as the players see it with a ruler. Asked geometry
    ranks them by the table's answer alone (no centimetres); a question whose answer cannot
    change the target (`needed` False) is computed, never put to the table."""
    ranked = sorted(candidates, key=lambda c: (c.distance, c.piece.id))
    margin = ranked[1].distance - ranked[0].distance if needed else math.inf
    # asked geometry: the model's distances are guesses, so the options are not in their order
    offered = sorted(ranked, key=lambda c: c.piece.label) if table.judge.asked else ranked
    closest = table.judge.pick(f"Which enemy is closest to {actor.label}, edge to edge?",
                               [c.piece.id for c in offered], ranked[0].piece.id, margin, log)
    if table.judge.asked or table.judge.last_asked:  # ranked by the table, no centimetres
        return [replace(c, distance=0.0 if c.piece.id == closest else 1.0, measured=False)
                for c in candidates]
    if closest == ranked[0].piece.id:
        return candidates
    log.explain(f"the table measured {closest} as the closest")
    nearest = ranked[0].distance
    return [replace(c, distance=nearest - 0.01) if c.piece.id == closest else c
            for c in candidates]


def read_direction_tiles(table: Table, briefs: StepLog | None, tied: list[Piece], tie: str,
                         computed: str, then: str = "") -> str:
    """Pieces tied `tie` are ranked by the Direction tiles, on positions the table never gave:
    the players read the tiles on the real mat. `computed` is the model's own reading;
    `briefs`: the activation under way (None: none has begun)."""
    green, blue = (DIRECTION_WORDS[t] for t in table.scenario.tiles.direction)
    return table.judge.pick(
        f"{', '.join(p.label for p in tied)} tie {tie}: which is {green} (the green Direction "
        f"tile; if they are level there, the {blue}: the blue tile)?{then}",
        [p.id for p in sorted(tied, key=lambda p: p.label)], computed, math.inf, briefs)


def _ask_tie(table: Table, log: StepLog, battle: Battle, actor: Piece, choice: TargetChoice
             ) -> TargetChoice:
    """A tie on every column, broken by the Direction tiles: on positions the table never
    gave, so the players read the tiles on the real mat."""
    picked = read_direction_tiles(table, log, [battle.piece(t) for t in choice.tied],
                                  f"on every column for {actor.label}", choice.target)
    label = battle.piece(picked).label
    log.explain(f"the table read the Direction tiles: {label}")
    return replace(choice, target=picked, column="Direction tiles", close_call=False,
                   trace=tuple(line for line in choice.trace if not line.startswith(TILE_NAMES)),
                   reason=f"tied on every column; the Direction tiles, read at the table -> "
                          f"{label}")


def _advanced_aim(table: Table, battle: Battle, log: StepLog, actor_id: str) -> Aim | None:
    """Advanced Target Selection, in order: a frozen teammate to rescue, a teammate to repeat,
    a wild wyvern to ride. None: normal enemy target selection."""
    actor = battle.piece(actor_id)
    settings = table.scenario.settings

    def nearest_in_sight(pieces: list[Piece], what: str) -> str | None:
        seen = [s for s in look_around(table.geometry, actor, pieces, settings.los_blocked,
                                       settings.los_test) if s.visible]
        if table.judge.asked and pieces:  # no positions: the players look and measure
            return _asked_nearest(table, log, actor, pieces, seen[0].target if seen else None,
                                  what)
        return seen[0].target if seen else None

    teammates = battle.teammates_of(actor_id)
    frozen = nearest_in_sight([p for p in teammates if Condition.FROZEN in p.conditions],
                              "frozen teammate")
    if frozen is not None:
        log.explain(f"advanced 1: {frozen} is the nearest frozen teammate in sight")
        return Aim(frozen, f"advanced target 1: rescue the frozen {battle.piece(frozen).label}",
                   friendly=True)
    if any(has_preferred_shot(s, "repeat") for s in actor.sequences):
        mate = nearest_in_sight([p for p in teammates if Condition.FROZEN not in p.conditions],
                                "teammate")
        if mate is not None:
            log.explain(f"advanced 2: {mate} is the nearest teammate in sight to repeat")
            plan = plan_repeat(actor.sequences, actor.kind == Kind.CATACOMB_LORD,
                               table.option(RulingKey.PREFERRED_SEQUENCE))
            sequence, why = _follow_plan(table, log, actor, plan)
            return Aim(mate, f"advanced target 2: {battle.piece(mate).label} will repeat its "
                             f"turn", friendly=True, sequence=sequence, sequence_reason=why)
    wyvern = nearest_in_sight(wyverns_to_ride(battle, actor, log), "wild wyvern (not ridden)")
    if wyvern is not None:
        log.explain(f"advanced 3: {wyvern} is the nearest wild wyvern in sight")
        return Aim(wyvern, f"advanced target 3: ride the wild wyvern "
                           f"{battle.piece(wyvern).label}", friendly=True)
    log.explain("advanced targets: none in sight; normal enemy target selection")
    return None


def _finish(actor_id: str, battle: Battle, row: BehaviourRow, order_reason: str, log: StepLog,
            visible: tuple[Sighting, ...], hidden: tuple[Sighting, ...], aim: Aim,
            sequence: tuple[str, ...], sequence_reason: str,
            summoned: tuple[str, ...] = (), repeat: str | None = None,
            resume: Resume | None = None, continued: bool = False) -> Activation:
    piece = battle.get(actor_id)
    label = piece.label if piece else actor_id
    if not log.loud:  # a quiet log kept nothing
        return Activation(actor_id, label, order_reason, row.id, row.provenance, visible, hidden,
                          aim.target, aim.reason, sequence, sequence_reason, (), (), (),
                          summoned, repeat, (), resume, continued)
    return Activation(actor_id, label, order_reason, row.id, row.provenance, visible, hidden,
                      aim.target, aim.reason, sequence, sequence_reason, tuple(log.steps),
                      tuple(log.close_calls), tuple(log.rulings), summoned, repeat,
                      tuple(log.trace), resume, continued, log.shown, tuple(log.unasked))


def _sight(table: Table, battle: Battle, actor_id: str, log: StepLog, row: BehaviourRow
           ) -> tuple[tuple[Sighting, ...], tuple[Sighting, ...]]:
    """Who the actor sees. Only sight that can change the target is put to the players: asked
    geometry looks at the enemies in the order the row's columns prefer them (those a ruler
    must rank, together), and stops at the first group with one in sight; hybrid asks a close
    call only when its answer would change the target."""
    settings = table.scenario.settings
    actor = battle.piece(actor_id)
    # a quiet table reads who is seen and how far, never a margin: none is worked out
    sightings = merge_sightings(battle, look_around(table.geometry, actor, battle.enemies_of_ai(),
                                                    settings.los_blocked, settings.los_test,
                                                    margins=not table.quiet))
    if table.quiet:  # nobody is asked, nothing is said: the computed answers as they are
        return (tuple(s for s in sightings if s.visible),
                tuple(s for s in sightings if not s.visible))
    asked = settings.los_blocked and table.judge.asked
    wealth = table.option(RulingKey.NON_HERO_WEALTH)

    def rank(s: Sighting) -> tuple[float, ...]:
        return preference_key(Candidate(battle.piece(s.target), s.distance), row, wealth)

    if asked:
        sightings = sorted(sightings, key=lambda s: (rank(s), battle.piece(s.target).label))
    judged: list[Sighting] = []
    found: tuple[float, ...] | None = None
    for s in sightings:
        if found is not None and rank(s) != found:
            log.unasked.append(s.target)
            log.explain(f"sight {s.target}: not asked; an enemy the {row.id} row prefers is in "
                        f"sight")
            continue
        if settings.los_blocked:
            target = battle.piece(s.via or s.target)  # the piece measured (Ulom's claw)
            needed = asked or not table.judge.would_ask(s.margin) \
                or _sight_matters(table, battle, row, s, sightings)
            margin = s.margin if needed else math.inf
            seen = table.judge.confirm(f"Can {actor.label} see {target.label}? (a line from "
                                       f"centre to centre clear of obstacles)", s.visible,
                                       margin, log)
            if table.judge.last_asked:
                s = replace(s, visible=seen, blockers=(), margin=float("inf"))
            if asked and seen:
                found = rank(s)
        judged.append(s)
        _note_sight(table, log, actor_id, s)
    if settings.los_blocked and any(not s.visible or s.margin < CORRIDOR_WIDTH / 2
                                    for s in judged):
        log.ruling(RulingKey.LOS_TEST, f"blocked sight by the {settings.los_test} test")
    return (tuple(s for s in judged if s.visible), tuple(s for s in judged if not s.visible))


def _note_sight(table: Table, log: StepLog, actor_id: str, s: Sighting) -> None:
    """A sighting's line in the explain trace (when it is made), and its close call."""
    if log.explaining:
        log.explain(_sight_line(table, s))
    if not table.judge.asked and table.scenario.settings.los_blocked \
            and s.margin < table.close_call:
        seen_word = "sees" if s.visible else "does not see"
        log.close_calls.append(f"line of sight: {actor_id} {seen_word} {s.via or s.target} by "
                               f"{s.margin:.1f} cm; check with a ruler edge")


def _sight_line(table: Table, s: Sighting) -> str:
    via = f" (measured to {s.via})" if s.via else ""
    seen = "visible" if s.visible else "hidden"
    if table.judge.asked:  # no positions: only what the table answered
        return (f"sight {s.target}{via}: {seen}"
                + (", as the table answered" if table.scenario.settings.los_blocked else ""))
    blockers = f", blocked by {', '.join(s.blockers)}" if s.blockers else ""
    margin = "" if s.margin == float("inf") else f", margin {s.margin:.2f} cm"
    return f"sight {s.target}{via}: {seen}, {s.distance:.2f} cm edge to edge{margin}{blockers}"


def _sight_matters(table: Table, battle: Battle, row: BehaviourRow, sighting: Sighting,
                   sightings: list[Sighting]) -> bool:
    """Whether seeing this enemy or not changes the target, the others as computed."""
    others = [Candidate(battle.piece(s.target), s.distance) for s in sightings
              if s.visible and s.target != sighting.target]
    this = Candidate(battle.piece(sighting.target), sighting.distance)
    tiles, wealth = table.scenario.tiles, table.option(RulingKey.NON_HERO_WEALTH)
    with_it = select_target([*others, this], row, tiles, table.close_call, wealth).target
    without = select_target(others, row, tiles, table.close_call, wealth).target \
        if others else None
    return with_it != without


def _choose_sequence(table: Table, log: StepLog, actor: Piece, row: BehaviourRow
                     ) -> tuple[Sequence, str]:
    if not actor.sequences:
        raise RulesError(f"{actor.id} has no shot sequence in our data; give `sequences` for it "
                         f"in the scenario")
    by_health = _lord_by_health(table, log, actor)
    if by_health is not None:
        return by_health
    spec = table.catalog.monsters.get(actor.monster or "")
    if spec is not None and spec.rotating_modifiers and len(actor.sequences) == 1:
        sequence, why = _rotated(actor.sequences[0], spec.rotating_modifiers,
                                 table.scenario.round)
        log.ruling(RulingKey.CARD_RULES,
                   f"{spec.name}'s last melee carries the round's modifier in rotation "
                   f"({', '.join(spec.rotating_modifiers)}; {spec.provenance} data)")
        return sequence, why
    plan = plan_sequence(actor.sequences, row.shot_preference, actor.kind == Kind.CATACOMB_LORD,
                         table.option(RulingKey.PREFERRED_SEQUENCE), explain=log.explaining)
    if plan.index is not None and plan.count > 1 and row.is_house("shot_preference"):
        log.ruling(RulingKey.HOUSE_ROWS, f"{_whose(row)} shot preference is ours")
    return _follow_plan(table, log, actor, plan)


def _follow_plan(table: Table, log: StepLog, actor: Piece, plan: SequencePlan
                 ) -> tuple[Sequence, str]:
    """The planned sequence, rolling the D12 when the plan splits it over several."""
    if log.loud:
        log.explain(*(f"shots {line}" for line in plan.trace))
        for key in plan.rulings:
            log.ruling(key, plan.reason)
    if plan.index is not None:
        return actor.sequences[plan.index], plan.reason
    face = table.chance.d12("shot sequence", log)
    band = d12_band(len(plan.split), face)
    index = plan.split[band]
    if log.loud:
        split = "" if len(plan.split) == plan.count else \
            ", split over sequences " + " and ".join(str(i + 1) for i in plan.split)
        log.add(RollStep("d12", face, "shot sequence",
                         f"{band_text(len(plan.split), band)} -> sequence {index + 1} of "
                         f"{plan.count}{split}"))
    return actor.sequences[index], f"{plan.reason}: D12 {face} -> sequence {index + 1}"


def _lord_by_health(table: Table, log: StepLog, actor: Piece) -> tuple[Sequence, str] | None:
    """A Lord card that picks its sequence by health (Kaulaurn's transcription): followed only
    when the data is the rulebook's or the table chose the card's reading (ruling 37)."""
    if actor.kind != Kind.CATACOMB_LORD:
        return None
    lord = table.catalog.lords.get(actor.monster or "")
    if lord is None or len(lord.health_bands) != len(actor.sequences) or actor.health is None:
        return None
    if lord.provenance != Provenance.RULEBOOK and table.option(RulingKey.LORD_SEQUENCE) != "card":
        log.ruling(RulingKey.LORD_SEQUENCE,
                   f"the printed D12, not {lord.name}'s card's health bands "
                   f"({lord.provenance} data)")
        return None
    for index, (low, high) in enumerate(lord.health_bands):
        if low <= actor.health <= high:
            if lord.provenance != Provenance.RULEBOOK:
                log.ruling(RulingKey.LORD_SEQUENCE,
                           f"{lord.name}'s card picks its sequence by health "
                           f"({lord.provenance} data), not the printed D12")
            return actor.sequences[index], (f"{lord.name} picks by health: {actor.health} "
                                            f"is in {low}-{high}")
    return None


def _rotated(sequence: Sequence, modifiers: tuple[ModifierName, ...], round_number: int
             ) -> tuple[Sequence, str]:
    """The Gelatinous Cube: its last melee carries this round's modifier, in rotation."""
    modifier = modifiers[(round_number - 1) % len(modifiers)]
    *first, last = sequence.shots
    turned = replace(last, modifiers=(Modifier(modifier),))
    return Sequence((*first, turned)), f"round {round_number}: the cube turns to {modifier}"


def _no_target(table: Table, battle: Battle, log: StepLog, actor_id: str,
               row: BehaviourRow) -> Battle:
    if row.is_house("no_target"):
        log.ruling(RulingKey.HOUSE_ROWS, f"{_whose(row)} No Target Action is ours")
    actions: dict[str, Callable[[Table, Battle, StepLog, str, int], Battle]] = {
        "retreat-to-monster-zone": retreat_to_monster_zone,
        "move-toward-closest-obstacle": toward_closest_obstacle,
        "move-toward-closest-enemy": toward_closest_enemy,
        "move-toward-hero-zone": toward_hero_zone,
        "move-to-random-rune": lambda t, b, lg, a, _r: to_random_rune(t, b, lg, a),
        "stay": _stay,
    }
    return actions[row.no_target](table, battle, log, actor_id, row.no_target_ruler)


def _stay(table: Table, battle: Battle, log: StepLog, actor_id: str, ruler: int) -> Battle:
    log.add(NoteStep(f"{battle.piece(actor_id).label} stays where it is"))
    return battle


def perform(table: Table, battle: Battle, log: StepLog, ctx: ShotContext, shot: Shot) -> Battle:
    """One shot of the chosen sequence, as the AI performs it."""
    name = shot.name
    loud = log.loud
    if name in RUSH_SHOTS:
        as_ = "rush"
        if loud:
            log.add(ShotStep(shot.notation(), as_, "the AI opens no portal: a rush instead"
                             if name == ShotName.OPEN_PORTAL else ""))
        if ctx.target is None:
            return battle
        rushed_at = battle.get(ctx.target)
        if rushed_at is None or not battle.placed(rushed_at):
            log.ruling(RulingKey.KEEP_TARGET, KEPT_TARGET)
        battle = rush_toward(table, battle, log, ctx.actor,
                             aim_piece(table, battle, ctx.actor, ctx.target))
        return reach_friend(battle, log, ctx) if ctx.friendly else battle
    if shot.damages_by_contact:
        if loud:
            log.add(ShotStep(shot.notation(), shot.notation()))
        return contact_shot(table, battle, log, ctx, shot)
    if shot.is_ranged:
        if loud:
            log.add(ShotStep(shot.notation(), shot.notation()))
        return ranged_shot(table, battle, log, ctx, shot)
    if name == ShotName.MOVE_TO_RUNE:
        dice = ("the Rune Die and the Location Die"
                if rolls_both_rune_dice(table, battle.piece(ctx.actor)) else "the Rune Die")
        log.add(ShotStep(shot.notation(), "move-to-random-rune", f"the AI rolls {dice}"))
        return to_random_rune(table, battle, log, ctx.actor)
    if name == ShotName.RUNIC_SHIFT:
        log.add(ShotStep(shot.notation(), "move-to-random-rune then melee",
                         "the AI always takes the optional melee"))
        battle = to_random_rune(table, battle, log, ctx.actor, "runic shift")
        return contact_shot(table, battle, log, ctx, Shot(ShotName.MELEE))
    if name == ShotName.TELEPORT:
        log.add(ShotStep(shot.notation(), "teleport"))
        return _teleport(battle, log, ctx)
    if name == ShotName.REPEAT:
        log.add(ShotStep(shot.notation(), "repeat"))
        return _repeat(table, battle, log, ctx)
    if name == ShotName.SUMMON:
        log.add(ShotStep(shot.notation(), shot.notation()))
        return _summon(table, battle, log, ctx, shot.argument or "")
    log.add(ShotStep(shot.notation(), "nothing", "the AI has no rule for this shot"))
    log.ruling(RulingKey.NO_AI_RULE, f"the AI skips the {name} shot (no AI rule for it)")
    return battle


def _teleport(battle: Battle, log: StepLog, ctx: ShotContext) -> Battle:
    actor = battle.piece(ctx.actor)
    log.add(NoteStep(f"put {actor.label} on the Teleported! card; it returns next round on a "
                     f"random rune and makes a melee shot"))
    ctx.stop = True
    return onto_card(battle, log, actor.id, Condition.TELEPORTED)


def _return_from_teleport(table: Table, battle: Battle, log: StepLog, actor_id: str) -> Battle:
    """Onto a random rune; every part of it comes back beside it."""
    actor = battle.piece(actor_id)
    battle = battle.with_piece(replace(actor, conditions=actor.conditions - {Condition.TELEPORTED}))
    log.add(NoteStep(f"{actor.label} returns from the Teleported! card onto a random rune"))
    battle = to_random_rune(table, battle, log, actor_id, "back from the Teleported! card",
                            must_land=True)
    return back_from_card(table.geometry, battle, actor_id, log)


def _repeat(table: Table, battle: Battle, log: StepLog, ctx: ShotContext) -> Battle:
    """The nearest friendly character in sight (not itself, not frozen) acts again."""
    actor = battle.piece(ctx.actor)
    if ctx.in_repeat:
        log.ruling(RulingKey.REPEAT, "a repeated turn grants no further repeat")
        log.add(NoteStep("repeat: this turn is itself a repeat, so nobody acts again"))
        return battle
    if ctx.friendly and ctx.target is not None and battle.get(ctx.target) is not None \
            and battle.piece(ctx.target).side == Side.AI:
        ctx.repeat = ctx.target
        log.add(NoteStep(f"repeat: {battle.piece(ctx.target).label} (the advanced target) acts "
                         f"again at once"))
        return battle
    settings = table.scenario.settings
    friends = [p for p in battle.on_table()
               if p.side == Side.AI and p.id != actor.id and Condition.FROZEN not in p.conditions]
    seen = [s for s in look_around(table.geometry, actor, friends, settings.los_blocked,
                                   settings.los_test) if s.visible]
    if table.judge.asked and friends and table.option(RulingKey.REPEAT) == "nearest":
        chosen = _asked_nearest(table, log, actor, friends, seen[0].target if seen else None)
        if chosen is not None:
            if len(friends) > 1:
                log.ruling(RulingKey.REPEAT,
                           "the repeat's friend is chosen by nearest friend in sight")
            ctx.repeat = chosen
            log.add(NoteStep(f"repeat: {battle.piece(chosen).label} (the nearest friend in "
                             f"sight, as the table says) acts again at once"))
            return battle
        seen = []
    if not seen:
        log.add(NoteStep("repeat: no friendly character in sight; nothing happens"))
        return battle
    by = "nearest friend in sight"
    ctx.repeat, how = seen[0].target, by
    if len(seen) > 1 and table.option(RulingKey.REPEAT) == "columns":
        row = table.catalog.behaviour_for(actor)
        choice = select_target([Candidate(battle.piece(s.target), s.distance) for s in seen],
                               row, table.scenario.tiles, table.close_call,
                               table.option(RulingKey.NON_HERO_WEALTH))
        by = f"the {row.id} row's columns"
        ctx.repeat, how = choice.target, f"{by}: {choice.reason}"
    if len(seen) > 1:
        log.ruling(RulingKey.REPEAT, f"the repeat's friend is chosen by {by}")
    log.add(NoteStep(f"repeat: {battle.piece(ctx.repeat).label} ({how}) acts again at once"))
    return battle


NOBODY = "nobody"


def _asked_nearest(table: Table, log: StepLog, actor: Piece, pieces: list[Piece],
                   computed: str | None, what: str = "teammate") -> str | None:
    """Asked geometry: the players say which of these in sight is nearest (or that none is)."""
    ranked = sorted(pieces, key=lambda p: p.label)
    chosen = table.judge.pick(f"Which {what} that {actor.label} can see is nearest to it, "
                              f"edge to edge ({NOBODY}: none in sight)?",
                              [*(p.id for p in ranked), NOBODY], computed or NOBODY, math.inf,
                              log)
    return None if chosen == NOBODY else chosen


def _summon(table: Table, battle: Battle, log: StepLog, ctx: ShotContext,
            monster_id: str) -> Battle:
    """Clock template on the summoner, D12 face, Ruler 1; the new piece acts at once."""
    summoner = battle.piece(ctx.actor)
    lord = table.catalog.lords.get(summoner.monster or "")
    if lord is not None and monster_id in lord.summon_choices:
        face = table.chance.d12(f"which monster {lord.name} summons", log)
        monster_id = lord.summon_choices[d12_band(len(lord.summon_choices), face)]
        log.add(RollStep("d12", face, "summon choice", f"-> {monster_id}"))
        log.ruling(RulingKey.CARD_RULES,
                   f"{lord.name}'s summon is one of its {len(lord.summon_choices)} monsters by "
                   f"the D12 split ({lord.provenance} data)")
    spec = lookup(table.catalog, monster_id)
    if spec is None:
        raise RulesError(f"summon: unknown monster {monster_id!r}")
    missing = missing_for_battle(spec)
    if missing:
        raise RulesError(f"summon {monster_id}: {', '.join(missing)} not in our data; "
                         f"{card_hint(monster_id)}")
    face = table.chance.d12(f"summon {monster_id}", log)
    reading = clock_reading(table, log, summoner, face)
    log.add(RollStep("d12", face, "summon placement", f"{reading.side} side, {face} o'clock"))
    existing = {p.id for p in battle.pieces} | set(battle.out)
    number = 1 + sum(1 for p in existing if p.startswith(f"{monster_id}-"))
    while f"{monster_id}-{number}" in existing:
        number += 1
    new_id = f"{monster_id}-{number}"
    reach = summoner.radius + table.ruler(SUMMON_RULER)
    desired = (summoner.at[0] + reading.direction[0] * reach,
               summoner.at[1] + reading.direction[1] * reach)
    piece = monster_piece(table.catalog, spec, new_id, desired, f"{spec.name} #{number}")
    spot = nearest_legal_spot(table.geometry, battle.on_table(), piece, desired)
    log.ruling(RulingKey.SUMMON_PLACEMENT,
               f"{piece.label}'s centre goes at the end of Ruler {SUMMON_RULER} laid from "
               f"{summoner.label}'s edge" + (", at the nearest legal spot (that one is taken)"
                                             if spot != desired and not table.judge.asked
                                             else ""))
    battle = replace(battle, pieces=(*battle.pieces, piece.moved(spot)))
    log.add(MoveStep(new_id, summoner.at, spot, "summoned", f"Clock template ({reading.side}) + "
                     f"Ruler {SUMMON_RULER}", summoner.label, None, spot != desired, face))
    ctx.summoned.append(new_id)
    return battle



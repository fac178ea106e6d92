"""The step-by-step printout for the table (PRINTOUT.md): short imperative lines, the tool named,
the rule that decided named, coordinates where they help, close calls and house rules marked."""

from __future__ import annotations

import re
import string
import textwrap
from collections.abc import Callable, Iterable, Mapping

from automa.engine.activation import Activation
from automa.engine.battle import Fired
from automa.engine.judge import Briefing
from automa.engine.parts import measured_to
from automa.engine.steps import (
    AttackStep,
    DamageStep,
    DiscardStep,
    EffectStep,
    MoveStep,
    NoteStep,
    RollStep,
    ShotStep,
    Step,
    TokenStep,
)
from automa.engine.turn import TurnResult
from automa.geometry.sight import Sighting
from automa.model.pieces import Kind, Piece

WIDTH = 100
RULE = "─" * WIDTH
Names = Mapping[str, str]


def labelled(*groups: Iterable[Piece]) -> tuple[dict[str, Piece], dict[str, str]]:
    """Every piece a printout may name (later groups win) and how it is named."""
    pieces = {p.id: p for group in groups for p in group}
    return pieces, {piece_id: p.label for piece_id, p in pieces.items()}


def _at(point: tuple[float, float]) -> str:
    return f"({point[0]:.1f}, {point[1]:.1f})"


LANDMARK = re.compile(r"\b(?:rune \d+|obstacle [A-Za-z0-9])")  # a rune or obstacle named


def _landmarked(text: str, end: tuple[float, float]) -> str:
    """A tracked move's line, with where it ends only when the line names a rune or an
    obstacle: a player with a real mat has no grid, so bare coordinates do not help them, but
    beside a landmark they say where to look."""
    return f"{text} → {_at(end)}" if LANDMARK.search(text) else text


def _wrap(text: str, first: str, rest: str) -> list[str]:
    if len(first) + len(text) <= WIDTH and text and not text[-1].isspace() \
            and not _UNUSUAL_SPACE.intersection(text):
        return [first + text]  # what textwrap gives a line that fits, without its regexes
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False) or [first.rstrip()]


_UNUSUAL_SPACE = frozenset("\t\n\x0b\x0c\r")  # textwrap turns these into spaces first


def _laid(text: str, first: str, rest: str, wrap: bool) -> list[str]:
    """`_wrap` for a terminal; one line whole for a page, which wraps it itself."""
    return _wrap(text, first, rest) if wrap else [first + text]


def describe_piece(piece: Piece) -> str:
    if piece.kind == Kind.MONSTER and piece.family:
        return f"{piece.label} ({piece.family.replace('-', ' ').title()}, level {piece.level})"
    if piece.kind == Kind.CATACOMB_LORD:
        return f"{piece.label} (Catacomb Lord)"
    return f"{piece.label} ({piece.kind})"


def sight_line(activation: Activation, names: Names, blocked: bool,
               coordinates: bool = True) -> str:
    def seen(s: Sighting) -> str:
        name = _measured(s.target, s.via, names)
        return f"{name} {s.distance:.1f} cm" if coordinates else name

    if not activation.visible and not activation.hidden:
        if activation.continued:
            return "keeps the Active Target it chose before the summon"
        if activation.target is None and activation.reason.endswith("it cannot act"):
            return "does not look: it cannot act"
        if activation.reason.startswith("advanced target"):
            return "no enemy's sight asked: an advanced target comes first"
        return "no enemy on the mat"
    parts = []
    if activation.visible:
        prefix = "sees " if blocked else "sees (sight not blocked) "
        parts.append(prefix + ", ".join(seen(s) for s in activation.visible))
    for s in activation.hidden:
        behind = f" behind obstacle {', '.join(s.blockers)}" if s.blockers else ""
        parts.append(f"{_measured(s.target, s.via, names)} hidden{behind}")
    if activation.unasked:
        parts.append(f"{', '.join(names.get(t, t) for t in activation.unasked)} not asked "
                     f"(the row prefers the one in sight)")
    return "; ".join(parts)


def _measured(target: str, via: str | None, names: Names) -> str:
    """A character, and the part it is measured to when that is not its own piece."""
    name = names.get(target, target)
    return f"{name} (measure to {names.get(via, via)})" if via else name


def _move(step: MoveStep, names: Names, coordinates: bool = True) -> str:
    """One move as the table makes it: where the ruler starts, what it points at, where the
    disc stops; with tracked positions, where that is."""
    who = names.get(step.piece, step.piece)
    if step.tool == "Rune Die":
        head = f"Move {who} onto {step.toward}, centred on its icon"
        return (_landmarked(head, step.end) if coordinates else head) + _adjusted(step)
    if step.tool == "by hand":
        head = f"{step.why[:1].upper()}{step.why[1:]}: put {who} {step.toward} by hand"
        return _landmarked(head, step.end) if coordinates else head
    if step.why == "summoned":
        return _summoned(step, who, coordinates)
    head = f"{step.why[:1].upper()}{step.why[1:]}: " + _lay(step, who)
    if not coordinates:
        return f"{head}; {_stop_rule(step)}"
    if step.start == step.end and step.stopped_by:
        return f"{head}: it does not move, {_blocked(step.stopped_by, names)}"
    if step.adjusted:  # the end of the ruler was no place for it
        return _landmarked(f"{head}; it would end on something, so it goes to the nearest spot "
                           f"where it lies flat{_still(step, names)}", step.end)
    return _landmarked(f"{head}; {_stopped(step, names)}", step.end)


def _still(step: MoveStep, names: Names) -> str:
    if step.stopped_by is not None and step.stopped_by.startswith("touching"):
        return f", still {step.stopped_by}"
    if step.short_by is not None and step.toward:
        return f", {step.short_by:.1f} cm short of {step.toward}"
    return ""


def _clock(step: MoveStep, on: str) -> str:
    """The Clock template laid on a piece: which side, and where its 12 points."""
    if "reverse" in step.tool:
        return f"Clock template on {on}, reverse side up, 12 toward the centre of the mat"
    return f"Clock template on {on}, front side up, 12 toward the Hero Start Zone edge"


def _lay(step: MoveStep, who: str) -> str:
    """Where the ruler starts and what it points at."""
    ruler = step.tool.split(" + ")[-1]
    if step.clock is not None and step.tool.startswith("half Clock"):
        return (f"half Clock template on {who}, its arc toward the Monster Start Zone edge; "
                f"{ruler} from its edge toward face {step.clock}, slide it along")
    if step.clock is not None:
        return (f"{_clock(step, who)}; {ruler} from its edge toward {step.clock} o'clock, "
                f"slide it along")
    if step.toward.startswith("obstacle"):
        aim = f"the nearest point of {step.toward}"
    elif step.toward == "the Hero Start Zone":
        aim = "the Hero Start Zone edge, square to it"
    else:
        aim = f"the centre of {step.toward}"
    return (f"lay {ruler} from {who}'s edge pointing at {aim}, slide it along (through "
            f"obstacles)")


def _stop_rule(step: MoveStep) -> str:
    """Where the disc stops, in words (asked geometry: nothing is tracked)."""
    end = "its front edge stops at the far end of the ruler"
    if step.clock is not None:
        return (f"{end}, or earlier touching the first piece or obstacle in the way, or at the "
                f"mat edge")
    goal = step.toward if step.toward and not step.toward.startswith("the Hero") else ""
    touching = f", or earlier touching {goal} if it reaches it" if goal else ""
    return (f"{end}{touching}; if it would end on something, put it in the nearest spot where "
            f"it lies flat")


def _stopped(step: MoveStep, names: Names) -> str:
    """Where the disc stopped on the tracked mat."""
    if step.stopped_by is None:
        short = (f", {step.short_by:.1f} cm short of {step.toward}"
                 if step.short_by is not None and step.toward else "")
        return f"its front edge stops at the far end of the ruler{short}"
    if step.stopped_by.startswith("touching"):
        return f"it stops {step.stopped_by}"
    if step.stopped_by == "the mat edge":
        return "it stops at the mat edge"
    return f"it stops touching {names.get(step.stopped_by, step.stopped_by)}"


def _blocked(stopped_by: str, names: Names) -> str:
    """Why a disc cannot move at all."""
    if stopped_by.startswith("already"):
        return stopped_by
    if stopped_by == "the mat edge":
        return "already at the mat edge"
    return f"already touching {names.get(stopped_by, stopped_by)} that way"


def _adjusted(step: MoveStep) -> str:
    return " (that spot is taken: the nearest free spot)" if step.adjusted else ""


def _summoned(step: MoveStep, who: str, coordinates: bool) -> str:
    ruler = step.tool.split(" + ")[-1]
    text = (f"Place {who}: {_clock(step, step.toward)}; {ruler} from its edge toward "
            f"{step.clock} o'clock; {who}'s centre goes at the far end of the ruler")
    if not coordinates:
        return text + "; if the spot is taken, the nearest free spot"
    return _landmarked(text, step.end) + _adjusted(step)


def step_text(step: Step, names: Names, coordinates: bool = True) -> str:
    def name(piece_id: str) -> str:
        return names.get(piece_id, piece_id)

    match step:
        case RollStep():
            die = {"d12": "D12", "rune": "Rune Die", "location": "Location Die"}[step.die]
            return f"Roll the {die} ({step.why}) → {step.value}: {step.result}"
        case MoveStep():
            return _move(step, names, coordinates)
        case AttackStep():
            return _attack(step, name)
        case TokenStep():
            return _token(step)
        case DiscardStep():
            return _discard(step)
        case DamageStep():
            return _damage(step, name)
        case EffectStep() | NoteStep():
            return step.text
        case ShotStep():
            return f"{step.shot}" + (f" — {step.note}" if step.note else "")


def _attack(step: AttackStep, name: Callable[[str], str]) -> str:
    head = f"Centre the Attack template on {name(step.piece)}"
    if not step.measured:  # the players answered: no margin to give
        return (f"{head}: it covers {name(step.target)}" if step.covers else
                f"{head}: it does not reach {name(step.target)}: the shot misses")
    if step.covers:
        text = f"{head}: it covers {name(step.target)} (overlap {step.margin:.1f} cm)"
    else:
        text = (f"{head}: it does not reach {name(step.target)} ({step.margin:.1f} cm short): "
                f"the shot misses")
    return text + (" — close call: check with the real template" if step.close_call else "")


def _token(step: TokenStep) -> str:
    refill = (f"The level {step.level} bag is empty: put its discard pile back in"
              + (" (the tokens in hand stay in hand). " if step.draw > 1 else ". "))
    text = refill if step.refilled else ""
    if step.of == 1:
        text += f"Draw a level {step.level} damage token → {step.value}"
    elif step.draw == 1:
        text += (f"Draw {step.of} level {step.level} damage tokens, keeping each in hand until "
                 f"the shot is resolved: the first → {step.value}")
    else:
        text += f"Draw the {_ORDINAL.get(step.draw, 'next')} → {step.value}"
    if step.reset:
        text += " (reset icon: the discard pile goes back into the bag once the shot is resolved)"
    return text


_ORDINAL = {2: "second", 3: "third", 4: "fourth"}


def _discard(step: DiscardStep) -> str:
    count = len(step.tokens)
    which = (f"the level {step.level} token" if count == 1 else
             f"both level {step.level} tokens" if count == 2 else
             f"the {count} level {step.level} tokens")
    text = f"Put {which} ({', '.join(step.tokens)}) face up on the level {step.level} discard pile"
    if step.reset:
        text += (f"; reset icon: now put the whole level {step.level} discard pile, "
                 f"{'this token' if count == 1 else 'these tokens'} included, face down back "
                 f"into the bag")
    return text + f" ({step.bag} in the bag, {step.discard} discarded)"


def _damage(step: DamageStep, name: Callable[[str], str]) -> str:
    text = (f"{name(step.piece)} takes {step.amount}: "
            f"health {step.health_before} → {step.health_after}")
    return text + (" — dead: remove the piece" if step.died else "")


def ruling_text(fired: Fired) -> str:
    return f"ruling {fired.number}: {fired.text}"


def step_lines(steps: tuple[Step, ...], names: Names, coordinates: bool, first: int = 0,
               wrap: bool = True) -> list[str]:
    """The steps from number `first` on, lettered as in the whole activation; each one line
    whole without `wrap` (a page's list, which wraps them itself)."""
    lines: list[str] = []
    letters = iter(string.ascii_lowercase * 4)
    for index, step in enumerate(steps):
        if isinstance(step, ShotStep):
            if index >= first:
                note = f" — {step.note}" if step.note else ""
                lines.append(f"   ▸ {step.shot}{note}")
            continue
        letter = next(letters)
        if index >= first:
            lines += _laid(step_text(step, names, coordinates), f"   {letter}) ", " " * 6, wrap)
    return lines


def _shown_above(shown: tuple[Step, ...]) -> list[str]:
    """Steps the players were shown before a question: pointed at, not printed again."""
    count = sum(1 for step in shown if not isinstance(step, ShotStep))
    shots = [f"▸ {step.shot}" for step in shown if isinstance(step, ShotStep)]
    if count:
        shots.append("a)" if count == 1 else
                     f"a) to {string.ascii_lowercase[(count - 1) % 26]})")
    return [f"   {', '.join(shots)}: as shown above"] if shots else []


def briefing_lines(briefing: Briefing, wrap: bool = True) -> list[str]:
    """What the players are shown before a question: the acting piece (once), then the steps
    they have not seen, lettered as in the printout that follows the activation (each one line
    whole without `wrap`, for a page)."""
    lines = [] if briefing.opened else _laid(f"{briefing.actor} acts — {briefing.order}", "",
                                             "   ", wrap)
    return lines + step_lines(briefing.steps, briefing.names, briefing.coordinates,
                              briefing.shown, wrap)


MOVE_CLOSE_CALL = "of a different result"  # engine/movement.py's words for a move's close call


def close_call_fixes(activation: Activation, names: Names) -> list[str]:
    """For each close call of the activation, what to type at `automa play` (or the board's
    command line) if the real ruler or template says otherwise: a move that ended near another
    result is put where the real ruler leaves it (`move ID touching ID`, or a gap from the
    piece it touched); a decision taken near its margin is undone, the pieces put where they
    really stand, and the activation played again."""
    steps = activation.steps
    moves = iter(i for i, s in enumerate(steps) if isinstance(s, MoveStep) and s.close_call)
    fixes = []
    for call in activation.close_calls:
        index = next(moves, None) if MOVE_CLOSE_CALL in call else None
        fix = None
        if index is not None:
            step = steps[index]
            assert isinstance(step, MoveStep)
            moved_later = {s.piece for s in steps[index + 1:] if isinstance(s, MoveStep)}
            fix = _move_fix(step, names, moved_later)
        fixes.append(fix or _undo_fix(call))
    return fixes


def _undo_fix(call: str) -> str:
    """A decision near its margin: undone, the pieces put where they stand, played again."""
    tool = "template" if "template" in call else "ruler edge" if "ruler edge" in call else \
        "ruler"
    return (f"if the real {tool} says otherwise: `undo`, move the pieces where they really stand, "
            f"then Enter to play it again")


def _move_fix(step: MoveStep, names: Names, moved_later: set[str]) -> str | None:
    """The command that puts a close-call move's piece where the real ruler leaves it, when
    the other result is a piece or obstacle touched, or a gap left to one (else None: so too
    when either piece moves again later in the activation, which the move would not mend)."""
    ruler = step.tool.split(" + ")[-1]
    touched = _piece_named(step.stopped_by or "", names)
    goal = _piece_named(step.toward, names)
    if step.piece in moved_later or {touched, goal} & moved_later:
        return None
    if touched is not None:  # the other result: a gap before it
        return (f"if your {ruler} leaves a gap, put it there and type `move {step.piece} 1 cm "
                f"{_side_came_from(step)} of {touched}` with the gap you measure")
    if goal is not None:  # it stopped short: the other result, touching it
        return (f"if your {ruler} reaches {names[goal]}, type `move {step.piece} touching "
                f"{goal}`")
    if step.toward.startswith("obstacle ") and not step.stopped_by:
        return (f"if your {ruler} reaches {step.toward}, type `move {step.piece} touching "
                f"{step.toward}`")
    return None


def _piece_named(text: str, names: Names) -> str | None:
    """The id of the piece `text` names (its id or label, `touching ` before it or not)."""
    name = text.removeprefix("touching ")
    if name in names:
        return name
    return next((piece_id for piece_id, label in names.items() if label == name), None)


def _side_came_from(step: MoveStep) -> str:
    """The side of what it touched that the piece ended on: the side it came from (north,
    south, east or west as `move` takes them; north toward the Monster Start Zone)."""
    dx, dy = step.start[0] - step.end[0], step.start[1] - step.end[1]
    if abs(dx) >= abs(dy):
        return "east" if dx > 0 else "west"
    return "north" if dy > 0 else "south"


def activation_lines(number: int, activation: Activation, names: Names,
                     pieces: Mapping[str, Piece], blocked: bool, explain: bool = False,
                     coordinates: bool = True, fixes: bool = False) -> list[str]:
    """The activation's printout; `fixes`: each close call says the command to type if the
    real ruler says otherwise (a session's printout: `play`, `next`, the board)."""
    piece = pieces.get(activation.character)
    title = describe_piece(piece) if piece else activation.label
    lines = _wrap(f"{number}. {title} — {activation.order_reason}", "", "   ")
    lines += _wrap(sight_line(activation, names, blocked, coordinates), "   Sight   ",
                   " " * 11)
    target = _measured(activation.target, measured_to(activation.visible, activation.target),
                       names) if activation.target else "none"
    lines += _wrap(f"{target} — {activation.reason}", "   Target  ", " " * 11)
    if activation.sequence:
        lines += _wrap(f"{' then '.join(activation.sequence)} ({activation.sequence_reason})",
                       "   Shots   ", " " * 11)
    lines += _shown_above(activation.steps[:activation.shown])
    lines += step_lines(activation.steps, names, coordinates, activation.shown)
    said = close_call_fixes(activation, names) if fixes else [""] * len(activation.close_calls)
    for call, fix in zip(activation.close_calls, said, strict=True):
        lines += _wrap(f"close call: {call}" + (f"; {fix}" if fix else ""), "   ! ", " " * 5)
    for fired in activation.rulings:
        lines += _wrap(f"{ruling_text(fired)} (docs/rulings.md)", "   * ", " " * 5)
    if explain:
        lines.append("   Why, in full:")
        for line in activation.explain:
            lines += _wrap(line, "     · ", " " * 7)
    return lines


def turn_text(result: TurnResult, blocked: bool, explain: bool = False) -> str:
    pieces, names = labelled(result.before.pieces, result.after.pieces)
    count = len(result.activations)
    lines = [f"Round {result.round} · AI turn · {count} activation{'s' if count != 1 else ''} · "
             f"seed {result.seed}", RULE]
    for number, activation in enumerate(result.activations, start=1):
        lines += activation_lines(number, activation, names, pieces, blocked, explain)
        lines.append("")
    if result.battle.out:
        gone = ", ".join(f"{names.get(k, k)} ({v})" for k, v in result.battle.out.items())
        lines.append(f"Out of play: {gone}")
    return "\n".join(lines).rstrip() + "\n"

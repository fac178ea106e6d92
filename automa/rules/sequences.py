"""Which shot sequence an AI character performs (single shot, single sequence, preference, D12)."""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from automa.model.shots import ModifierName, Sequence, ShotName
from automa.rules.rulings import RulingKey

PREFERENCE_WORDS = {
    "poison-modifier": "any shot with the poison modifier",
    "critical-modifier": "any shot with the critical modifier",
    "ranged-sequence": "any shot sequence with a ranged shot",
    "repeat": "a sequence with the repeat shot (its Active Target is a teammate to repeat)",
}


class SequencePlan(Struct, frozen=True):
    """Either a decided sequence (`index`) or a D12 split over the sequences in `split`."""

    index: int | None
    reason: str
    count: int  # sequences on the card
    trace: tuple[str, ...] = ()
    split: tuple[int, ...] = ()  # the sequences (indices) the D12 is split over
    rulings: tuple[RulingKey, ...] = ()  # the rulings the plan rests on


def has_preferred_shot(sequence: Sequence, preference: str) -> bool:
    if preference == "poison-modifier":
        return any(s.has_modifier(ModifierName.POISON) for s in sequence.shots)
    if preference == "critical-modifier":
        return any(s.has_modifier(ModifierName.CRITICAL) for s in sequence.shots)
    if preference == "ranged-sequence":
        return any(s.is_ranged for s in sequence.shots)
    if preference == "repeat":
        return any(s.name == ShotName.REPEAT for s in sequence.shots)
    raise ValueError(f"unknown shot preference {preference!r}")


def plan_sequence(sequences: tuple[Sequence, ...], preference: str | None, is_lord: bool,
                  several_preferred: str = "first", explain: bool = True) -> SequencePlan:
    """Which sequence, by the rules of step 5: one sequence; a Catacomb Lord's D12; the
    preferred shot (`several_preferred`: ruling 15 when more than one holds it); the D12.
    Without `explain` the trace is left empty (nobody reads it)."""
    plan = _plan(sequences, preference, is_lord, several_preferred)
    if not explain:  # the plan as made, with no trace
        return plan
    trace = tuple(
        f"sequence {i + 1}: {s.notation()}"
        + (" (has the preferred shot)" if preference and has_preferred_shot(s, preference) else "")
        for i, s in enumerate(sequences))
    return replace(plan, trace=trace)


def _plan(sequences: tuple[Sequence, ...], preference: str | None, is_lord: bool,
          several_preferred: str) -> SequencePlan:
    count = len(sequences)
    every = tuple(range(count))
    if count == 1:
        only = "its only shot" if len(sequences[0].shots) == 1 else "its only sequence"
        return SequencePlan(0, only, 1)
    if is_lord:
        return SequencePlan(None, "a Catacomb Lord always rolls the D12", count, split=every)
    if preference is None:
        return SequencePlan(None, "no shot preference; D12 split", count, split=every)
    words = PREFERENCE_WORDS[preference]
    preferred = tuple(i for i, s in enumerate(sequences) if has_preferred_shot(s, preference))
    if not preferred:
        return SequencePlan(None, f"no sequence has the preferred shot ({words}); D12 split",
                            count, split=every)
    if len(preferred) == 1:
        return SequencePlan(preferred[0], f"shot preference: {words}", count)
    if several_preferred == "d12":
        return SequencePlan(None, f"shot preference: {words}, held by {len(preferred)} "
                                  f"sequences; D12 split over those", count, split=preferred,
                            rulings=(RulingKey.PREFERRED_SEQUENCE,))
    return SequencePlan(preferred[0], f"shot preference: {words}; the first of "
                                      f"{len(preferred)} sequences that hold it", count,
                        rulings=(RulingKey.PREFERRED_SEQUENCE,))


def d12_band(count: int, face: int) -> int:
    """Divide 1..12 evenly over `count` sequences: with 2, 1-6 and 7-12; with 3, 1-4, 5-8, 9-12."""
    if not 1 <= face <= 12:
        raise ValueError(f"a D12 shows 1..12, not {face}")
    return (face - 1) * count // 12


def band_text(count: int, index: int) -> str:
    faces = [f for f in range(1, 13) if d12_band(count, f) == index]
    return f"{faces[0]}-{faces[-1]}" if len(faces) > 1 else str(faces[0])


def plan_repeat(sequences: tuple[Sequence, ...], is_lord: bool,
                several_preferred: str = "first") -> SequencePlan:
    """Aimed at a teammate to repeat (ruling 38): only the sequences that hold the repeat shot;
    a Catacomb Lord splits its D12 over those alone."""
    if not is_lord:
        plan = plan_sequence(sequences, "repeat", False, several_preferred)
        return replace(plan, rulings=(*plan.rulings, RulingKey.REPEAT_SEQUENCES))
    held = tuple(i for i, s in enumerate(sequences) if has_preferred_shot(s, "repeat"))
    if len(held) == 1:
        return SequencePlan(held[0], "the Catacomb Lord's only sequence with the repeat shot",
                            len(sequences), rulings=(RulingKey.REPEAT_SEQUENCES,))
    return SequencePlan(None, f"a Catacomb Lord rolls the D12 over its {len(held)} sequences "
                              f"with the repeat shot", len(sequences), split=held,
                        rulings=(RulingKey.REPEAT_SEQUENCES,))

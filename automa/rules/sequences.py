"""Which shot sequence an AI character performs (single shot, single sequence, preference, D12)."""

from __future__ import annotations

from dataclasses import dataclass

from automa.model.shots import Sequence

PREFERENCE_WORDS = {
    "poison-modifier": "any shot with the poison modifier",
    "critical-modifier": "any shot with the critical modifier",
    "ranged-sequence": "any shot sequence with a ranged shot",
}


@dataclass(frozen=True)
class SequencePlan:
    """Either a decided sequence (index) or a D12 split over `count` sequences."""

    index: int | None
    reason: str
    count: int
    trace: tuple[str, ...] = ()


def has_preferred_shot(sequence: Sequence, preference: str) -> bool:
    if preference == "poison-modifier":
        return any(s.has_modifier("poison") for s in sequence.shots)
    if preference == "critical-modifier":
        return any(s.has_modifier("critical") for s in sequence.shots)
    if preference == "ranged-sequence":
        return any(s.is_ranged for s in sequence.shots)
    raise ValueError(f"unknown shot preference {preference!r}")


def plan_sequence(sequences: tuple[Sequence, ...], preference: str | None,
                  is_lord: bool) -> SequencePlan:
    count = len(sequences)
    trace = tuple(
        f"sequence {i + 1}: {s.notation()}"
        + (" (has the preferred shot)" if preference and has_preferred_shot(s, preference) else "")
        for i, s in enumerate(sequences))
    plan = _plan(sequences, preference, is_lord, count)
    return SequencePlan(plan.index, plan.reason, count, trace)


def _plan(sequences: tuple[Sequence, ...], preference: str | None, is_lord: bool,
          count: int) -> SequencePlan:
    if count == 1:
        only = "its only shot" if len(sequences[0].shots) == 1 else "its only sequence"
        return SequencePlan(0, only, 1)
    if is_lord:
        return SequencePlan(None, "a Catacomb Lord always rolls the D12", count)
    if preference is not None:
        for i, sequence in enumerate(sequences):
            if has_preferred_shot(sequence, preference):
                return SequencePlan(i, f"shot preference: {PREFERENCE_WORDS[preference]}", count)
        return SequencePlan(None, f"no sequence has the preferred shot "
                                  f"({PREFERENCE_WORDS[preference]}); D12 split", count)
    return SequencePlan(None, "no shot preference; D12 split", count)


def d12_band(count: int, face: int) -> int:
    """Divide 1..12 evenly over `count` sequences: with 2, 1-6 and 7-12; with 3, 1-4, 5-8, 9-12."""
    if not 1 <= face <= 12:
        raise ValueError(f"a D12 shows 1..12, not {face}")
    return (face - 1) * count // 12


def band_text(count: int, index: int) -> str:
    faces = [f for f in range(1, 13) if d12_band(count, f) == index]
    return f"{faces[0]}-{faces[-1]}" if len(faces) > 1 else str(faces[0])

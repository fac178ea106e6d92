"""Where chance comes from: the scenario's scripted outcomes first, then one seeded Generator.

Every outcome is recorded (what, why, from where), so a battle replays identically anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from automa.errors import RulesError
from automa.model.components import DamageToken
from automa.model.scenario import Bag, ChanceScript


@dataclass(frozen=True)
class Outcome:
    kind: str  # "d12", "rune_die", "location_die", "token"
    value: str
    source: str  # "script" or "rng"
    why: str


@dataclass
class Chance:
    """Scripted outcomes are consumed in order before any draw from the injected Generator."""

    script: ChanceScript
    rng: np.random.Generator
    rune_faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    location_faces: tuple[int, ...] = (7, 8, 9, 10, 11, 12)
    used: dict[str, int] = field(default_factory=dict)
    record: list[Outcome] = field(default_factory=list)

    def _scripted(self, kind: str, values: tuple[object, ...]) -> object | None:
        used = self.used.get(kind, 0)
        if used < len(values):
            self.used[kind] = used + 1
            return values[used]
        return None

    def _die(self, kind: str, values: tuple[int, ...], faces: tuple[int, ...], why: str) -> int:
        scripted = self._scripted(kind, values)
        if scripted is not None:
            value, source = int(str(scripted)), "script"
        else:
            value, source = int(faces[int(self.rng.integers(len(faces)))]), "rng"
        self.record.append(Outcome(kind, str(value), source, why))
        return value

    def d12(self, why: str) -> int:
        return self._die("d12", self.script.d12, tuple(range(1, 13)), why)

    def rune_die(self, why: str) -> int:
        return self._die("rune_die", self.script.rune_die, self.rune_faces, why)

    def location_die(self, why: str) -> int:
        return self._die("location_die", self.script.location_die, self.location_faces, why)

    def token(self, level: int, bag: Bag, why: str) -> DamageToken:
        """The token drawn from a (non-empty) bag of that level."""
        key = f"token-{level}"
        scripted = self._scripted(key, self.script.tokens.get(level, ()))
        if isinstance(scripted, DamageToken):
            if scripted not in bag.tokens:
                where = "the discard pile" if scripted in bag.discard else "neither bag nor pile"
                raise RulesError(f"scripted level {level} token {scripted.label()} is not in the "
                                 f"bag (it is in {where}); fix [chance] tokens")
            token, source = scripted, "script"
        else:
            token, source = bag.tokens[int(self.rng.integers(len(bag.tokens)))], "rng"
        self.record.append(Outcome("token", f"{level}:{token.label()}", source, why))
        return token

    def remaining_script(self, next_seed: int | None) -> ChanceScript:
        """The scripted outcomes not yet used, for saving the scenario after a turn."""
        def rest(kind: str, values: tuple[object, ...]) -> tuple[object, ...]:
            return values[self.used.get(kind, 0):]

        tokens = {level: tuple(t for t in rest(f"token-{level}", values)
                               if isinstance(t, DamageToken))
                  for level, values in self.script.tokens.items()}
        return replace(
            self.script,
            seed=next_seed,
            d12=tuple(int(str(v)) for v in rest("d12", self.script.d12)),
            rune_die=tuple(int(str(v)) for v in rest("rune_die", self.script.rune_die)),
            location_die=tuple(int(str(v)) for v in rest("location_die",
                                                         self.script.location_die)),
            tokens={level: values for level, values in tokens.items() if values},
        )

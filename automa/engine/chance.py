"""Where chance comes from: the scenario's scripted outcomes first, then one seeded Generator.

Every outcome is recorded (what, why, from where), so a battle replays identically anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Protocol

import numpy as np
from msgspec import Struct, field
from msgspec.structs import replace

from automa.engine.judge import Briefing, Briefs, instruct
from automa.errors import InputError, RulesError
from automa.model.components import DamageToken
from automa.model.scenario import Bag, ChanceScript
from automa.rules.tokens import whereabouts

D12_FACES = tuple(range(1, 13))


class Outcome(Struct, frozen=True):
    """One die rolled, token drawn or deck shuffled: what came up, from where, and why."""

    kind: str  # "d12", "rune_die", "location_die", "token"
    value: str
    source: str  # "script" or "rng"
    why: str


class Asker(Protocol):
    """The players at the table, answering with their real dice, tiles and cards."""

    def number(self, prompt: str, allowed: Sequence[int], what: str | None = None) -> int:
        """A number among `allowed`: a face of the die rolled, or (`what`, like "a Poison
        card's value") another number the players read at the table."""
        ...

    def order(self, prompt: str, items: Sequence[str]) -> list[str]: ...

    def choice(self, prompt: str, options: Sequence[str]) -> str: ...

    def yes_no(self, prompt: str) -> bool: ...

    def token(self, prompt: str, faces: Sequence[str], elsewhere: Mapping[str, str]) -> str:
        """A damage token's face, one of `faces` (those in the bag); `elsewhere` says where
        every other face of the level is, for refusing it."""
        ...

    def instruct(self, briefing: Briefing) -> None: ...


class Chance(Struct):
    """Scripted outcomes are consumed in order before any other source; then the players'
    own dice when an `asker` is given (physical mode), else the injected Generator. A roll or
    draw made in an activation is handed it (`briefs`), so players asked to roll are shown the
    steps so far first (engine/judge.py)."""

    script: ChanceScript
    rng: np.random.Generator
    rune_faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    location_faces: tuple[int, ...] = (7, 8, 9, 10, 11, 12)
    used: dict[str, int] = field(default_factory=dict)
    record: list[Outcome] = field(default_factory=list)
    asker: Asker | None = None
    script_source: str = "[chance] tokens"  # where scripted tokens come from, for messages
    keeps_record: ClassVar[bool] = True  # False: nobody reads `record`, so it stays empty

    def _scripted(self, kind: str, values: tuple[object, ...]) -> object | None:
        used = self.used.get(kind, 0)
        if used < len(values):
            self.used[kind] = used + 1
            return values[used]
        return None

    def _die(self, kind: str, values: tuple[int, ...], faces: tuple[int, ...], why: str,
             briefs: Briefs | None) -> int:
        scripted = self._scripted(kind, values)
        if scripted is not None:
            value, source = int(str(scripted)), "script"
        elif self.asker is not None:
            instruct(self.asker, briefs)
            die = {"d12": "the D12", "rune_die": "the Rune Die",
                   "location_die": "the Location Die"}[kind]
            value, source = self.asker.number(f"Roll {die} ({why})", faces), "table"
        else:
            value, source = int(faces[self._index(faces)]), "rng"
        if self.keeps_record:
            self.record.append(Outcome(kind, str(value), source, why))
        return value

    def _index(self, options: Sequence[object]) -> int:
        """Which of `options` the Generator draws, each as likely (every random pick is this)."""
        return int(self.rng.integers(len(options)))

    def _permutation(self, items: Sequence[object]) -> list[int]:
        """The order the Generator shuffles `items` into, as their indices."""
        return [int(i) for i in self.rng.permutation(len(items))]

    def shuffle(self, items: Sequence[str], why: str) -> list[str]:
        """A shuffled deck of tiles or cards, in the order they are laid or drawn."""
        if self.asker is not None:
            order, source = self.asker.order(f"Draw {why} one at a time, face down", items), \
                "table"
        else:
            order, source = [items[i] for i in self._permutation(items)], "rng"
        if self.keeps_record:
            self.record.append(Outcome("shuffle", ",".join(order), source, why))
        return order

    def pick(self, options: Sequence[str], why: str) -> str:
        """One card drawn at random from `options`."""
        if self.asker is not None:
            picked, source = self.asker.choice(f"Draw {why}", options), "table"
        else:
            picked, source = options[self._index(options)], "rng"
        if self.keeps_record:
            self.record.append(Outcome("draw", picked, source, why))
        return picked

    def d12(self, why: str, briefs: Briefs | None = None) -> int:
        """A D12 roll; `briefs`: the activation under way (None outside one)."""
        return self._die("d12", self.script.d12, D12_FACES, why, briefs)

    def rune_die(self, why: str, briefs: Briefs | None = None) -> int:
        return self._die("rune_die", self.script.rune_die, self.rune_faces, why, briefs)

    def location_die(self, why: str, briefs: Briefs | None = None) -> int:
        return self._die("location_die", self.script.location_die, self.location_faces, why,
                         briefs)

    def token(self, level: int, bag: Bag, why: str, hand: Sequence[DamageToken] = (),
              briefs: Briefs | None = None) -> DamageToken:
        """The token drawn from a (non-empty) bag of that level; `hand` holds the tokens this
        shot has drawn already. A scripted token that is not in the bag is refused; a typed
        one is asked for again, saying where that token is."""
        key = f"token-{level}"
        scripted = self._scripted(key, self.script.tokens.get(level, ()))
        if isinstance(scripted, DamageToken):
            if scripted not in bag.tokens:
                label = scripted.label()
                raise RulesError(f"{self.script_source}: the level {level} token {label} is not "
                                 f"in the bag now (every {label} of level {level} is "
                                 f"{whereabouts(scripted, bag, hand)})")
            token, source = scripted, "script"
        elif self.asker is not None:
            instruct(self.asker, briefs)
            token, source = self._typed_token(level, bag, hand, why), "table"
        else:
            token, source = bag.tokens[self._index(bag.tokens)], "rng"
        if self.keeps_record:
            self.record.append(Outcome("token", f"{level}:{token.label()}", source, why))
        return token

    def _typed_token(self, level: int, bag: Bag, hand: Sequence[DamageToken],
                     why: str) -> DamageToken:
        """The players draw a real token and type its face; the asker takes only a face still
        in the bag and says where any other one is."""
        assert self.asker is not None
        inside = sorted({t.label() for t in bag.tokens})
        elsewhere = {t.label(): whereabouts(t, bag, hand) for t in (*hand, *bag.discard)
                     if t.label() not in inside}
        face = self.asker.token(f"Draw a level {level} damage token ({why})", inside, elsewhere)
        token = DamageToken.parse(face)
        if token not in bag.tokens:
            raise InputError(f"the level {level} token {face} is not in the bag now; check the "
                             f"bag against the table")
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

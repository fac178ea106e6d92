"""1,000 random battles built from the shipped data: no crash, no illegal position, every turn
ends, every damage token accounted for (bag + discard = 13 / 12 / 13), and no physical token
drawn twice in one shot."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from automa.catalog.fields import missing_for_battle
from automa.catalog.load import Catalog
from automa.engine.steps import DiscardStep, Step, TokenStep
from automa.engine.turn import MAX_ACTIVATIONS, TurnResult, run_turn
from automa.geometry.moves import overlap_with
from automa.geometry.table import build_table
from automa.model.components import (
    BLUE_TILES,
    CHARACTER_TILES,
    FAMILIES,
    GREEN_TILES,
    DamageToken,
)
from automa.model.pieces import Piece
from automa.model.scenario import Scenario
from automa.scenario.load import parse_scenario

BATTLES = 1000
BASE_MATS = ("mausoleum", "throne-room", "lava-tube", "root-cellar", "campfire", "altar")
OFF_TABLE = {"teleported", "devoured", "aloft"}
# No shipped monster throws a boulder (two level 3 tokens in one shot): some fuzz pieces do.
BOULDER_SEQUENCES = (["boulder"], ["boulder", "melee"], ["missile then boulder"])


def _playable(catalog: Catalog) -> list[str]:
    return sorted(m.id for m in catalog.monsters.values()
                  if m.kind == "monster" and not missing_for_battle(m) and not m.shadow)


def random_battle(catalog: Catalog, rng: np.random.Generator) -> str:
    """A legal scenario: random mat, tiles, settings, 1-4 heroes and 1-8 AI pieces."""
    playmat = catalog.playmats[str(rng.choice(BASE_MATS))]
    table = build_table(playmat)
    order = list(CHARACTER_TILES)
    rng.shuffle(order)
    families = list(FAMILIES)
    rng.shuffle(families)
    lines = [
        "format = 1", "[battle]", f'playmat = "{playmat.id}"',
        f"los_blocked = {str(bool(rng.random() < 0.5)).lower()}",
        f'los_test = "{rng.choice(["centre-line", "corridor", "any-line"])}"',
        f"advanced_targeting = {str(bool(rng.random() < 0.3)).lower()}",
        "[tiles]",
        "character_order = [" + ", ".join(f'"{t}"' for t in order) + "]",
        "monster_order = [" + ", ".join(f'"{t}"' for t in families) + "]",
        f'direction = ["{rng.choice(GREEN_TILES)}", "{rng.choice(BLUE_TILES)}"]',
    ]
    heroes = int(rng.integers(1, 5))
    tiles = rng.permutation(4)[:heroes] + 1
    lines.append("hero_targets = { " + ", ".join(f"h{i} = {t}" for i, t in enumerate(tiles))
                 + " }")
    placed: list[Piece] = []
    monsters = _playable(catalog)
    lords = sorted(k for k, lord in catalog.lords.items() if not missing_for_battle(lord))

    def spot(radius: float) -> tuple[float, float] | None:
        for _ in range(200):
            at = (float(rng.uniform(radius, playmat.width - radius)),
                  float(rng.uniform(radius, playmat.length - radius)))
            probe = Piece("probe", "ai", "monster", at, radius + 0.02)  # clear by a hair
            if overlap_with(table, placed, probe, at) is None:
                placed.append(Piece(f"p{len(placed)}", "ai", "monster", at, radius))
                return at
        return None

    for i in range(heroes):
        at = spot(1.25)
        if at is None:
            continue
        kind = "hero" if i == 0 else str(rng.choice(["hero", "ally", "familiar"]))
        lines += ["[[piece]]", f'id = "h{i}"', 'side = "heroes"', f'kind = "{kind}"',
                  f"at = [{at[0]:.3f}, {at[1]:.3f}]", f"health = {int(rng.integers(1, 12))}",
                  f"gold = {int(rng.integers(0, 10))}", f"poison = {int(rng.integers(0, 3))}",
                  f"items = {int(rng.integers(0, 3))}"]
    for i in range(int(rng.integers(1, 9))):
        lord = rng.random() < 0.1
        monster = str(rng.choice(lords if lord else monsters))
        spec = catalog.lords[monster] if lord else catalog.monsters[monster]
        at = spot(catalog.components.disc_radius.get(spec.size or "medium", 1.25))
        if at is None:
            continue
        lines += ["[[piece]]", f'id = "m{i}"', 'side = "ai"', f'monster = "{monster}"',
                  f"at = [{at[0]:.3f}, {at[1]:.3f}]"]
        if lord:
            lines.append('kind = "catacomb-lord"')
            if spec.health is None:
                lines.append("health = 8")
        if rng.random() < 0.1:
            lines.append('conditions = ["frozen"]')
        if not lord and rng.random() < 0.2:
            sequences = BOULDER_SEQUENCES[int(rng.integers(len(BOULDER_SEQUENCES)))]
            lines.append("sequences = [" + ", ".join(f'"{q}"' for q in sequences) + "]")
    for level, tokens in catalog.components.bags.items():
        if rng.random() < 0.5:  # some tokens already on the discard pile, the bag maybe empty
            shuffled = [tokens[int(i)] for i in rng.permutation(len(tokens))]
            cut = int(rng.integers(len(tokens) + 1))
            lines += [f"[bags.{level}]", _labels("tokens", shuffled[:cut]),
                      _labels("discard", shuffled[cut:])]
    return "\n".join(lines) + "\n"


def _labels(key: str, tokens: list[DamageToken]) -> str:
    return f"{key} = [" + ", ".join(f'"{t.label()}"' for t in tokens) + "]"


def check_token_draws(before: Scenario, result: TurnResult) -> int:
    """Walk every token step against a model of the bags (bag and discard pile per level): each
    token must be in the model's bag when drawn (after a refill, which must only happen to an
    empty bag), so a shot's tokens are distinct physical tokens, a multiset within what bag and
    pile held when it began. The shot's tokens are discarded once it is resolved and a reset
    then returns the pile; the model must end where the turn's bags end. Returns the number of
    shots that drew several tokens."""
    bags = {level: Counter(bag.tokens) for level, bag in before.bags.items()}
    piles = {level: Counter(bag.discard) for level, bag in before.bags.items()}
    steps: list[Step] = [s for a in result.activations for s in a.steps]
    hand: list[TokenStep] = []
    several = 0
    for step in steps:
        if isinstance(step, DiscardStep):
            assert (step.bag, step.discard) == (bags[step.level].total(),
                                                piles[step.level].total()), step
        if not isinstance(step, TokenStep):
            continue
        level, token = step.level, DamageToken(step.value, step.reset)
        assert step.draw == len(hand) + 1 and step.draw <= step.of, (step, hand)
        if step.draw == 1:
            held = {lvl: bags[lvl] + piles[lvl] for lvl in bags}
        if step.refilled:
            assert bags[level].total() == 0, f"a level {level} bag was refilled while not empty"
            bags[level], piles[level] = bags[level] + piles[level], Counter()
        assert bags[level][token] > 0, (
            f"level {level} token {token.label()} drawn but not in the bag (in hand: "
            f"{[t.value for t in hand]}; bag {dict(bags[level])})")
        bags[level][token] -= 1
        hand.append(step)
        if step.draw < step.of:
            continue
        drawn = Counter((t.level, DamageToken(t.value, t.reset)) for t in hand)
        for (lvl, tok), count in drawn.items():
            assert count <= held[lvl][tok], f"level {lvl} {tok.label()} drawn {count} times"
        several += len(hand) > 1
        for lvl in {t.level for t in hand}:
            piles[lvl] += Counter(DamageToken(t.value, t.reset) for t in hand if t.level == lvl)
            if any(t.reset for t in hand if t.level == lvl):
                bags[lvl], piles[lvl] = bags[lvl] + piles[lvl], Counter()
        hand = []
    assert not hand, "a shot's draw was left unfinished"
    for level, bag in result.battle.bags.items():
        assert (Counter(bag.tokens), Counter(bag.discard)) == (+bags[level], +piles[level]), (
            f"the level {level} bag and pile end elsewhere than its token steps lead")
    return several


@pytest.mark.parametrize("chunk", range(10))
def test_random_battles(catalog: Catalog, chunk: int) -> None:
    rng = np.random.default_rng(chunk)
    several = 0
    for battle_number in range(BATTLES // 10):
        text = random_battle(catalog, rng)
        scenario = parse_scenario(text, f"fuzz-{chunk}-{battle_number}.toml", catalog)
        for _turn in range(2):
            result = run_turn(scenario, catalog, int(rng.integers(2**31)))
            several += check_token_draws(scenario, result)
            assert len(result.activations) <= MAX_ACTIVATIONS
            table = build_table(scenario.playmat)
            standing = [p for p in result.battle.pieces if not p.conditions & OFF_TABLE]
            for piece in standing:
                clash = overlap_with(table, standing, piece, piece.at, 1e-3)
                assert clash is None, f"{piece.id} overlaps {clash} in\n{text}"
            for level, bag in result.battle.bags.items():
                assert Counter(bag.tokens) + Counter(bag.discard) == Counter(
                    catalog.components.bags[level]), text
            scenario = result.after
    assert several > 0, "no shot drew several tokens: the check above saw nothing"

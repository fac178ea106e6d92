"""1,000 random battles built from the shipped data: no crash, no illegal position, every turn
ends, every damage token accounted for (bag + discard = 13 / 12 / 13)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from automa.catalog.fields import missing_for_battle
from automa.catalog.load import Catalog
from automa.engine.turn import MAX_ACTIVATIONS, run_turn
from automa.geometry.moves import overlap_with
from automa.geometry.table import build_table
from automa.model.components import BLUE_TILES, CHARACTER_TILES, FAMILIES, GREEN_TILES
from automa.model.pieces import Piece
from automa.scenario.load import parse_scenario

BATTLES = 1000
BASE_MATS = ("mausoleum", "throne-room", "lava-tube", "root-cellar", "campfire", "altar")
OFF_TABLE = {"teleported", "devoured", "aloft"}


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
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("chunk", range(10))
def test_random_battles(catalog: Catalog, chunk: int) -> None:
    rng = np.random.default_rng(chunk)
    for battle_number in range(BATTLES // 10):
        text = random_battle(catalog, rng)
        scenario = parse_scenario(text, f"fuzz-{chunk}-{battle_number}.toml", catalog)
        for _turn in range(2):
            result = run_turn(scenario, catalog, int(rng.integers(2**31)))
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

"""Monte Carlo over the coming AI turn: how often each hero is targeted, the damage it can
expect, and the chance it dies. Each run is a full turn with its own stream of the seed."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from automa.catalog.load import Catalog
from automa.engine.turn import run_turn
from automa.geometry.table import build_table
from automa.model.scenario import ChanceScript, Scenario


@dataclass(frozen=True)
class HeroForecast:
    targeted: float  # share of turns in which some activation targets it
    expected_damage: float  # mean health lost (a death loses all it had)
    death: float  # share of turns it ends dead


def forecast(scenario: Scenario, catalog: Catalog, runs: int, seed: int
             ) -> dict[str, HeroForecast]:
    unscripted = replace(scenario, chance=ChanceScript())  # every outcome drawn, none fixed
    geometry = build_table(scenario.playmat)
    heroes = [p for p in scenario.pieces if p.side == "heroes" and p.kind != "antient"]
    targeted = np.zeros(len(heroes))
    damage = np.zeros(len(heroes))
    deaths = np.zeros(len(heroes))
    streams = np.random.SeedSequence(seed).generate_state(runs)
    for stream in streams:
        result = run_turn(unscripted, catalog, int(stream), geometry)
        aimed = {a.target for a in result.activations}
        after = {p.id: p for p in result.battle.pieces}
        for i, hero in enumerate(heroes):
            targeted[i] += hero.id in aimed
            end = after.get(hero.id)
            if end is None and result.battle.out.get(hero.id) == "dead":
                deaths[i] += 1
                damage[i] += hero.health or 0
            elif end is not None and end.health is not None and hero.health is not None:
                damage[i] += hero.health - end.health
    return {hero.id: HeroForecast(float(targeted[i] / runs), float(damage[i] / runs),
                                  float(deaths[i] / runs)) for i, hero in enumerate(heroes)}

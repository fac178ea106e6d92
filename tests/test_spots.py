"""The exact nearest legal spot (geometry/spots.py) against brute force: on generated crowded
tables, the spot found is legal, and no legal point of a dense sample lies nearer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from automa.catalog.load import load_catalog
from automa.geometry.legal import legal_mask
from automa.geometry.moves import nearest_legal_spot, overlap_with
from automa.geometry.table import build_table
from automa.scenario.load import parse_scenario
from tests.fingerprint_tables import TableSpec, table_text

CATALOG = load_catalog()
SPECS = [TableSpec(f"spots-{seed}", seed, heroes=6, monsters=20, obstacles=20, los_blocked=True)
         for seed in (101, 102, 103)]


def _sample_nearer(rng: np.random.Generator, centre: np.ndarray, radius: float,
                   count: int) -> np.ndarray:
    """Points spread over the disc of `radius` round `centre` (denser near the centre)."""
    angle = rng.uniform(0, 2 * math.pi, count)
    reach = radius * np.sqrt(rng.uniform(0, 1, count))
    return np.column_stack([centre[0] + reach * np.cos(angle), centre[1] + reach * np.sin(angle)])


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_no_legal_point_is_nearer_than_the_spot_found(spec: TableSpec) -> None:
    scenario = parse_scenario(table_text(spec), f"{spec.name}.toml", CATALOG)
    table = build_table(scenario.playmat)
    pieces = list(scenario.pieces)
    rng = np.random.default_rng(spec.seed)
    checked = 0
    for mover in pieces[:12]:
        for _ in range(8):
            desired = (float(rng.uniform(0, table.playmat.width)),
                       float(rng.uniform(0, table.playmat.length)))
            spot = nearest_legal_spot(table, pieces, mover, desired)
            assert overlap_with(table, pieces, mover, spot) is None
            found = math.dist(spot, desired)
            if found == 0:
                continue
            checked += 1
            sample = _sample_nearer(rng, np.array(desired), found, 4000)
            legal = legal_mask(table, pieces, mover, sample, 1e-6)
            nearer = np.hypot(*(sample[legal] - np.array(desired)).T)
            assert not len(nearer) or nearer.min() > found - 1e-4, (
                f"{mover.id} toward {desired}: found {spot} at {found}, a legal point at "
                f"{nearer.min()}")
    assert checked > 10  # many desired spots were illegal: the search really ran


def test_a_ruler_move_keeps_within_its_reach_when_it_can() -> None:
    spec = SPECS[0]
    scenario = parse_scenario(table_text(spec), f"{spec.name}.toml", CATALOG)
    table = build_table(scenario.playmat)
    pieces = list(scenario.pieces)
    mover = pieces[0]
    other = pieces[1]
    reach = math.dist(mover.at, other.at)  # the other piece's centre: illegal, within reach
    spot = nearest_legal_spot(table, pieces, mover, other.at, (mover.at, reach))
    assert math.dist(spot, mover.at) <= reach + 1e-9
    assert overlap_with(table, pieces, mover, spot) is None

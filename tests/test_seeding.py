"""The forecast's seeding of many runs at once (engine/seeding.py) leaves PCG64 exactly as
`np.random.default_rng(seed)` does, seed for seed, and the Generator draws the same."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from automa.engine.seeding import pcg64_states, set_pcg64

SEED = st.integers(0, 2**32 - 1)


def seeded(seed: int) -> tuple[int, int]:
    state = np.random.default_rng(seed).bit_generator.state["state"]
    return state["state"], state["inc"]


@given(st.lists(SEED, max_size=40))
def test_every_seed_gives_the_state_default_rng_gives(seeds: list[int]) -> None:
    assert pcg64_states(np.array(seeds, dtype=np.uint32)) == [seeded(s) for s in seeds]


def test_the_ends_and_a_forecasts_words() -> None:
    seeds = [0, 1, 2**31, 2**32 - 1, *np.random.SeedSequence(7).generate_state(500)]
    assert pcg64_states(seeds) == [seeded(int(s)) for s in seeds]


def test_a_generator_set_to_the_state_draws_as_the_seeded_one() -> None:
    rng = np.random.default_rng(0)
    for seed, (state, inc) in zip([3, 99], pcg64_states([3, 99]), strict=True):
        rng.integers(7)  # a half-used 64-bit word left behind is not kept either
        set_pcg64(rng, state, inc)
        fresh = np.random.default_rng(seed)
        assert [int(rng.integers(7)) for _ in range(9)] == [int(fresh.integers(7))
                                                             for _ in range(9)]


def test_a_seed_of_more_than_32_bits_is_refused() -> None:
    with pytest.raises(ValueError, match="below 2"):
        pcg64_states([2**32])

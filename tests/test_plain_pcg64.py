"""The forecast's plain-Python draws (engine/plain_pcg64.py) are numpy's `Generator(PCG64)`
draws, stream for stream: the same integers for every size of range (one draw buffered in
halves, rejections, the 64-bit path), and the same shuffles."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from automa.engine.plain_pcg64 import PlainPCG64

SEED = st.integers(0, 2**32 - 1)
# small ranges (dice, bags) most; the ends of the 32-bit path; the 64-bit path and its end
RANGE = st.one_of(st.integers(1, 40), st.integers(1, 2**32 + 1),
                  st.sampled_from([2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**62 + 1, 2**63]),
                  st.integers(2**32 + 2, 2**63))
DRAW = st.one_of(st.tuples(st.just("integers"), RANGE),
                 st.tuples(st.just("permutation"), st.integers(0, 30)))


def both(seed: int) -> tuple[np.random.Generator, PlainPCG64]:
    rng = np.random.default_rng(seed)
    state = rng.bit_generator.state["state"]
    return rng, PlainPCG64(state["state"], state["inc"])


def numpy_draw(rng: np.random.Generator, how: str, n: int) -> object:
    if how == "integers":
        return int(rng.integers(n))
    return [int(i) for i in rng.permutation(n)]


@given(SEED, st.lists(DRAW, max_size=30))
def test_every_draw_is_numpys(seed: int, draws: list[tuple[str, int]]) -> None:
    rng, plain = both(seed)
    for how, n in draws:
        assert getattr(plain, how)(n) == numpy_draw(rng, how, n), (how, n)


@pytest.mark.parametrize("n", [2, 3, 12, 6, 5, 7])  # dice and bags, many draws each
def test_long_runs_of_small_ranges(n: int) -> None:
    rng, plain = both(2026)
    assert [plain.integers(n) for _ in range(5000)] == [int(rng.integers(n)) for _ in range(5000)]


def test_a_range_that_rejects_often_still_agrees() -> None:
    n = 2**31 + 1  # close to half of the draws are rejected
    rng, plain = both(11)
    assert [plain.integers(n) for _ in range(2000)] == [int(rng.integers(n)) for _ in range(2000)]


def test_setting_a_state_forgets_the_buffered_half() -> None:
    rng, plain = both(5)
    state = rng.bit_generator.state["state"]
    plain.integers(12)  # one 32-bit draw: the other half is kept
    plain.set(state["state"], state["inc"])
    assert [plain.integers(12) for _ in range(9)] == [int(rng.integers(12)) for _ in range(9)]


@pytest.mark.parametrize("n", [0, -3, 2**63 + 1])
def test_a_range_numpy_refuses_is_refused(n: int) -> None:
    with pytest.raises(ValueError):
        np.random.default_rng(0).integers(n)
    with pytest.raises(ValueError, match="n <= 2"):
        PlainPCG64(0, 1).integers(n)

"""PCG64 as `np.random.default_rng(seed)` leaves it, for many seeds at once.

A forecast plays thousands of runs, each seeded with its own 32-bit word. Seeding one Generator
costs about as much as a tenth of a cheap activation: numpy's SeedSequence hashes the seed into a
pool of four words and draws the bit generator's 128-bit state and increment from it, one call
at a time, with the overhead of a numpy call for each. Here the same integer steps run on all
the seeds at once as numpy arrays (SeedSequence: `mix_entropy` and `generate_state`, numpy's
random/bit_generator.pyx; then PCG64's `pcg64_set_seed`), and a run's Generator is set to its
state instead of being seeded. tests/test_seeding.py holds the two equal, seed for seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

MASK32 = 0xFFFF_FFFF
MASK128 = (1 << 128) - 1
INIT_A, MULT_A = 0x43B0_D7E5, 0x931E_8875  # SeedSequence's hash of the entropy into the pool
INIT_B, MULT_B = 0x8B51_F9DD, 0x58F3_8DED  # ... and of the pool into the words it draws
MIX_MULT_L, MIX_MULT_R = 0xCA01_F9DD, 0x4973_F715
XSHIFT = 16
POOL_SIZE = 4
PCG_MULTIPLIER = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645  # PCG's default 128-bit multiplier

Words = np.ndarray[Any, Any]  # uint64 arrays of 32-bit words, one a seed (products fit in 64)


def _hashmix(value: Words, hash_const: int) -> tuple[Words, int]:
    value = value ^ hash_const
    hash_const = (hash_const * MULT_A) & MASK32
    value = (value * hash_const) & MASK32
    return value ^ (value >> XSHIFT), hash_const


def _mix(x: Words, y: Words) -> Words:
    result: Words = (MIX_MULT_L * x - MIX_MULT_R * y) & MASK32  # uint64 wraps: low 32 bits hold
    mixed: Words = result ^ (result >> XSHIFT)
    return mixed


def _pool(seeds: Words) -> list[Words]:
    """SeedSequence's pool for a one-word entropy (every seed below 2**32, no spawn key)."""
    hash_const = INIT_A
    pool: list[Words] = []
    for i in range(POOL_SIZE):
        word, hash_const = _hashmix(seeds if i == 0 else np.zeros_like(seeds), hash_const)
        pool.append(word)
    for source in range(POOL_SIZE):
        for target in range(POOL_SIZE):
            if source != target:
                hashed, hash_const = _hashmix(pool[source], hash_const)
                pool[target] = _mix(pool[target], hashed)
    return pool


def _drawn(pool: list[Words], count: int) -> list[Words]:
    """The first `count` 32-bit words `generate_state` draws from the pool."""
    hash_const = INIT_B
    words: list[Words] = []
    for i in range(count):
        word = pool[i % POOL_SIZE] ^ hash_const
        hash_const = (hash_const * MULT_B) & MASK32
        word = (word * hash_const) & MASK32
        words.append(word ^ (word >> XSHIFT))
    return words


def _pcg64(initstate: int, initseq: int) -> tuple[int, int]:
    """PCG64's state and increment seeded with these (pcg_setseq_128_srandom_r)."""
    inc = ((initseq << 1) | 1) & MASK128
    state = (inc + initstate) & MASK128  # a step from state 0 is the increment
    return (state * PCG_MULTIPLIER + inc) & MASK128, inc


def set_pcg64(rng: np.random.Generator, state: int, inc: int) -> None:
    """Set the PCG64 under `rng` to (state, increment), as seeding leaves it: no half-used
    32-bit word kept."""
    rng.bit_generator.state = {"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                               "has_uint32": 0, "uinteger": 0}


def pcg64_states(seeds: Any) -> list[tuple[int, int]]:
    """For each seed (an integer in [0, 2**32)), PCG64's (state, increment) as
    `np.random.default_rng(seed)` leaves them."""
    words = np.asarray(seeds, dtype=np.uint64)
    if words.size and int(words.max()) > MASK32:
        raise ValueError("pcg64_states takes seeds below 2**32")
    drawn = [[int(w) for w in word] for word in _drawn(_pool(words), 8)]
    # four 64-bit words, little-endian pairs: seed (high, low), then increment (high, low)
    halves = [[low | high << 32 for low, high in zip(drawn[k], drawn[k + 1], strict=True)]
              for k in range(0, 8, 2)]
    return [_pcg64(a << 64 | b, c << 64 | d) for a, b, c, d in zip(*halves, strict=True)]

"""The two draws a turn makes of its Generator, `integers(n)` and `permutation(n)`, made in plain
Python exactly as numpy's `Generator(PCG64)` makes them.

A forecast's run draws a few dozen times and sets a fresh stream for every run. Through numpy,
each draw pays for a Python-to-C call and its argument checks (about 3 µs for one integer) and
setting a state builds and parses a dict; the arithmetic itself is a 128-bit multiply and a
rotation. Here that arithmetic is Python's own integers:

- PCG64 (XSL-RR 128/64): the state steps by `state * MULTIPLIER + inc`, then the output is the
  high and low halves xor-ed and rotated right by the state's top six bits (numpy's pcg64.h).
- A 32-bit draw takes the low half of a 64-bit output and keeps the high half for the next one,
  as numpy's bit generator does (`has_uint32`, `uinteger`).
- `integers(n)` is numpy's bounded draw on the closed range [0, n - 1]: Lemire's
  multiply-and-reject on a 32-bit draw while n - 1 fits in 32 bits, on a 64-bit one beyond,
  and a plain draw where n - 1 is all ones (distributions.c, `random_bounded_uint64_fill`).
- `permutation(n)` is numpy's shuffle of `arange(n)`: Fisher-Yates from the end, each index drawn
  by masked rejection (`random_interval`).

tests/test_plain_pcg64.py holds every draw equal to numpy's, stream for stream.
"""

from __future__ import annotations

from collections.abc import Callable

from automa.engine.seeding import MASK128, PCG_MULTIPLIER

MASK32 = 0xFFFF_FFFF
MASK64 = 0xFFFF_FFFF_FFFF_FFFF
INT64_RANGE = 2**63  # the most `integers` draws among: its results are int64


class PlainPCG64:
    """A PCG64 stream set to (state, increment), drawing as `np.random.Generator` would."""

    __slots__ = ("_high_half", "inc", "state")

    def __init__(self, state: int, inc: int) -> None:
        self.state = state
        self.inc = inc
        self._high_half: int | None = None  # the unread half of the last 64-bit output

    def set(self, state: int, inc: int) -> None:
        """Start again from (state, increment), nothing buffered: as a freshly seeded one."""
        self.state = state
        self.inc = inc
        self._high_half = None

    def next64(self) -> int:
        state = self.state = (self.state * PCG_MULTIPLIER + self.inc) & MASK128
        rotation = state >> 122
        mixed = ((state >> 64) ^ state) & MASK64
        return ((mixed >> rotation) | (mixed << (64 - rotation))) & MASK64

    def next32(self) -> int:
        kept = self._high_half
        if kept is not None:
            self._high_half = None
            return kept
        word = self.next64()
        self._high_half = word >> 32
        return word & MASK32

    def integers(self, n: int) -> int:
        """`Generator.integers(n)`: one of 0 .. n - 1, each as likely."""
        if not 1 <= n <= INT64_RANGE:
            raise ValueError(f"integers needs 1 <= n <= 2**63 (numpy's int64), not {n}")
        if n == 1:  # numpy draws nothing for a range of one
            return 0
        if n - 1 < MASK32:  # every option a turn draws among: inline, the hot path
            product = self.next32() * n
            if product & MASK32 < n:
                threshold = (0x1_0000_0000 - n) % n
                while product & MASK32 < threshold:
                    product = self.next32() * n
            return product >> 32
        if n - 1 == MASK32:
            return self.next32()
        return _lemire64(self.next64, n)

    def permutation(self, n: int) -> list[int]:
        """`Generator.permutation(n)`: 0 .. n - 1 shuffled."""
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self._interval(i)
            order[i], order[j] = order[j], order[i]
        return order

    def _interval(self, most: int) -> int:
        """One of 0 .. `most`: draws masked to `most`'s bit length until one is not above it."""
        mask = (1 << most.bit_length()) - 1
        draw = self.next32 if most <= MASK32 else self.next64
        while (value := draw() & mask) > most:
            pass
        return value


def _lemire64(draw: Callable[[], int], n: int) -> int:
    """Lemire's bounded draw on 64-bit words (as `integers` makes it on 32-bit ones): the high
    half of draw() * n, rejecting the few low halves that would favour some values."""
    product = draw() * n
    if product & MASK64 < n:
        threshold = ((1 << 64) - n) % n
        while product & MASK64 < threshold:
            product = draw() * n
    return product >> 64

"""The printout's lines wrap exactly as textwrap wraps them (render/text.py `_wrap` answers a line
that fits without textwrap's regexes)."""

from __future__ import annotations

import textwrap

from hypothesis import given
from hypothesis import strategies as st

from automa.render.text import WIDTH, _wrap

TEXT = st.text(st.sampled_from("ab cd-\t\n\u00a0.,x "), max_size=WIDTH + 10)
INDENT = st.sampled_from(("", "  ", "  - ", "    "))


@given(st.one_of(TEXT, st.builds(lambda t, n: (t * WIDTH)[:n], TEXT.filter(bool),
                                  st.integers(WIDTH - 6, WIDTH + 2))), INDENT, INDENT)
def test_a_line_wraps_as_textwrap_wraps_it(text: str, first: str, rest: str) -> None:
    """Lines around the width too (where fitting or not is decided by one character)."""
    expected = textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest,
                             break_on_hyphens=False) or [first.rstrip()]
    assert _wrap(text, first, rest) == expected

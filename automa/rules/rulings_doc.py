"""docs/rulings.md, written from the registry (`python -m automa.rules.rulings_doc`).

A test keeps the file equal to this output, so the document cannot drift from the engine.
"""

from __future__ import annotations

import textwrap

from automa.rules.rulings import MARKED_WORDS, RULINGS, Ruling

WIDTH = 100
INTRO = """\
# Rulings

The Red Box chapter leaves gaps: its AI table prints only the Brown, Blue and Black rows (Black
without a No Target Action), it gives no sizes for rulers and templates, no damage-token values
and no tile faces, and a few sentences can be read two ways. These are our rulings. Each has a
number, the sentence it rests on, and the other reading. Where one decides something the
output says so: an AI activation marks it `* ruling N`, once however often it decided there
(one line saying each thing it decided, in order), and `--json` lists the numbers under the
activation's `rulings`; a setup, the Kraken fight, a campaign's steps and `automa data check`
name it (`ruling N`) on the line it decides and list it under their JSON's `rulings`; a hero's
`hit`, `cave` or `summon` in a session, and a `move`, `condition` or `back` the players report,
name it on their line, which the board's answer carries too. Each ruling below says where it
is marked (*Marked*), and a test plays a table where it decides for each of those places and
finds the mark (tests/test_rulings_marked.py). Two rulings decide everything of a kind at once:
every length (5, the sizes) and every token the program draws (4, the token mix); they are
marked where the data is checked (`automa data check` lists each placeholder of ours still in
your data), and 5 also where a setup places pieces on our unmeasured mats.
`l.N` is line N of the Red Box rules as we transcribed them (red-box-solo-rules.txt).

A ruling with a *switch* can be read the other way at your table: put the option in the
scenario's `[rulings]` table (`ice-push = "no-push"`); sessions and saved turns keep it.
`automa rulings` lists them all. Rulings about data (sizes, tokens, rows) change through your
data folder (docs/data.md).

This file is generated from `automa/rules/rulings.py`
(`python -m automa.rules.rulings_doc > docs/rulings.md`); edit the registry, not this file.
"""


def _para(text: str, rest: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent=rest,
                         break_on_hyphens=False, break_long_words=False)


def ruling_markdown(ruling: Ruling) -> list[str]:
    lines = [f"### {ruling.number}. {ruling.title}", ""]
    lines += _para(ruling.text)
    lines += ["", *_para(f"- *Rests on:* {ruling.rests_on}", "  ")]
    if ruling.options:
        choices = "; ".join(f"`{o.value}`{' (ours)' if i == 0 else ''}: {o.meaning}"
                            for i, o in enumerate(ruling.options))
        lines += _para(f"- *Switch* ({ruling.where}): {choices}.", "  ")
    elif ruling.alternative:
        lines += _para(f"- *Other reading:* {ruling.alternative}", "  ")
    lines += _para(f"- *Marked:* {'; '.join(MARKED_WORDS[w] for w in ruling.marked)}.", "  ")
    return lines


def rulings_markdown() -> str:
    lines = INTRO.splitlines()
    section = ""
    for ruling in RULINGS:
        if ruling.section != section:
            section = ruling.section
            lines += ["", f"## {section}"]
        lines += ["", *ruling_markdown(ruling)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(rulings_markdown(), end="")

"""data/capture.toml read and checked: the marker cards' places and the capture's bars."""

from __future__ import annotations

from typing import TYPE_CHECKING

from automa.catalog.locate import load_data_file
from automa.catalog.reader import Record
from automa.model.capture import CaptureSettings, Corner, MarkerCard

if TYPE_CHECKING:
    from pathlib import Path

FILE = "capture.toml"
DICTIONARIES = ("DICT_4X4_50",)  # the one the printed cards use (CONTRACT.md)
MARKER_IDS = (0, 1, 2, 3)
MAX_OFFSET_CM = 50.0  # a card this far from its corner is a typo, or off any table


def load_capture_settings(user_dir: Path | None) -> CaptureSettings:
    """The settings in force: the shipped file with the user's folder merged over it."""
    tables, origins = load_data_file(FILE, user_dir)

    def record(top: str, key: str | None = None) -> Record:
        table = tables.get(top) if key is None else (tables.get(top) or {}).get(key)
        name = top if key is None else f"{top}.{key}"
        rec = Record(origins.get(top, f"data/{FILE}"), name, table)
        rec.provenance()
        rec.optional_string("note")
        return rec

    markers = record("markers")
    dictionary = markers.choice("dictionary", DICTIONARIES)
    size = markers.length("size", high=30.0, what="a marker's square")
    markers.reject_unknown_keys()
    cards = []
    for number in MARKER_IDS:
        card = record("marker", str(number))
        corner = card.choice("corner", tuple(Corner))
        offset = card.point("offset")
        if not all(abs(v) <= MAX_OFFSET_CM for v in offset):
            raise card.fail("offset", f"{list(offset)}: a card's centre lies within "
                                      f"{MAX_OFFSET_CM:g} cm of its corner")
        card.reject_unknown_keys()
        cards.append(MarkerCard(number, corner, offset))
    unknown = sorted(set(tables.get("marker") or {}) - {str(n) for n in MARKER_IDS})
    if unknown:
        raise record("marker", unknown[0]).fail("", "the cards are markers 0, 1, 2 and 3")
    judge = record("judge")
    still = judge.number("still", low=0.0, high=10.0)
    confident = judge.number("confident", low=0.0, high=1.0)
    judge.reject_unknown_keys()
    mat = record("mat")
    thickness = mat.number("thickness", low=0.0, high=2.0)
    mat.reject_unknown_keys()
    return CaptureSettings(dictionary, size, tuple(cards), still, confident, thickness)

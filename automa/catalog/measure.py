"""Your own components, measured: the questions `automa calibrate` asks, the answers checked,
and the records they become in a data folder (components.toml and playmats.toml).

Every length the engine uses is asked as the player measures it with a tape: a disc or a
template across its middle (the diameter), a ruler end to end, a mat edge to edge, a start zone
from its own mat edge to its line. The records store what the loader reads (radii, zone lines).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from msgspec import Struct

from automa.catalog.cards import toml_value
from automa.catalog.load import SIZES, Catalog
from automa.catalog.locate import is_record, merge_records
from automa.toml_text import toml_key

MEASURED = "Measured at your table with automa calibrate"
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+", re.ASCII)
DISC_WHAT = {
    "hero": "a hero disc",
    "cube": "the Gelatinous Cube: corner to corner across its top (the disc it fits in)",
    "flat": "a flat disc",
}


class Question(Struct, frozen=True):
    """One length to measure: `key` names it in --set and the answers file."""

    key: str
    label: str  # short: "Ruler 1 length"
    how: str  # what to lay where, as an instruction
    default: float  # the value in force, in cm, as the player measures it
    low: float
    high: float


def _fmt(value: float) -> str:
    return f"{value:g}"


def red_box_mats(catalog: Catalog) -> tuple[str, ...]:
    """The mat sides the Red Box setup rolls for (its Rune Die chart), in face order."""
    chart = catalog.setup.rune_die_mats
    return tuple(dict.fromkeys(chart[face] for face in sorted(chart)))


def _examples(catalog: Catalog, size: str) -> str:
    names = [m.name for m in catalog.monsters.values() if m.size == size]
    names += [lord.name for lord in catalog.lords.values() if lord.size == size]
    return f" (e.g. {', '.join(names[:3])})" if names else ""


def questions(catalog: Catalog, mats: tuple[str, ...]) -> tuple[Question, ...]:
    """Every question, in the order asked: rulers, templates, discs, then the mats."""
    comp = catalog.components
    found: list[Question] = []
    for number, length in sorted(comp.rulers.items()):
        found.append(Question(
            f"ruler.{number}", f"Ruler {number} length",
            f"Ruler {number}: lay a tape along it and measure its full length, end to end.",
            length, 1.0, 40.0))
    if not comp.attack.polygon:
        found.append(Question(
            "attack-template", "Attack template across",
            "The Attack template: measure straight across it through the centre of its hole, "
            "outer edge to outer edge (its diameter).", 2 * comp.attack.radius, 2.0, 40.0))
    found.append(Question(
        "clock-template", "Clock template across",
        "The Clock template: measure straight across it through its centre, outer edge to "
        "outer edge (its diameter).", 2 * comp.clock.radius, 2.0, 40.0))
    for size in (s for s in SIZES if s in comp.disc_radius):
        what = DISC_WHAT.get(size, f"one {size} disc{_examples(catalog, size)}")
        found.append(Question(
            f"disc.{size}", f"Disc {size} across",
            f"Disc size {size}, {what}: measure straight across its middle, edge to edge "
            f"(its diameter).", 2 * comp.disc_radius[size], 0.5, 15.0))
    if not mats:
        return tuple(found)
    first = catalog.playmats[mats[0]]
    names = ", ".join(catalog.playmats[m].name for m in mats)
    found += [
        Question("mat.width", "Mat width",
                 f"Your playmat ({names}): lay it with the Hero Start Zone nearest you and "
                 f"measure its width, left edge to right edge.", first.width, 20.0, 250.0),
        Question("mat.length", "Mat length",
                 "The playmat's length: near edge (Hero Start Zone) to far edge (Monster Start "
                 "Zone).", first.length, 20.0, 250.0),
        Question("mat.rune", "Rune icon across",
                 "A printed rune icon on the mat: measure straight across it, edge to edge (its "
                 "diameter).", 2 * first.rune_radius, 0.5, 15.0),
    ]
    for mat_id in mats:
        mat = catalog.playmats[mat_id]
        found += [
            Question(f"mat.{mat_id}.hero-zone", f"{mat.name}: Hero Start Zone depth",
                     f"{mat.name} side up, Hero Start Zone nearest you: measure from the near "
                     f"edge straight to the Hero Start Zone line.", mat.hero_zone, 1.0, 200.0),
            Question(f"mat.{mat_id}.monster-zone", f"{mat.name}: Monster Start Zone depth",
                     f"{mat.name}: measure from the far edge straight to the Monster Start Zone "
                     f"line.", mat.length - mat.monster_zone, 1.0, 200.0),
        ]
    return tuple(found)


def parse_length(text: str, question: Question) -> float:
    """A typed length in cm; ValueError with one line saying what is wrong."""
    body = text.strip()
    if body.lower().endswith("cm"):
        body = body[:-2].strip()
    if body.lower().endswith(("mm", "in", '"')):
        raise ValueError(f"{text!r}: give it in centimetres (61 mm is 6.1, 1 in is 2.54)")
    if "," in body and _NUMBER.fullmatch(body.replace(",", ".")):
        raise ValueError(f"{text!r}: write the decimal point as '.', e.g. "
                         f"{body.replace(',', '.')}")
    if not _NUMBER.fullmatch(body):
        raise ValueError(f"{text!r} is not a length: type a plain number of cm, e.g. "
                         f"{_fmt(question.default)}")
    return check_length(float(body), question)


def check_length(value: float, question: Question) -> float:
    if not value > 0:
        raise ValueError(f"{_fmt(value)} cm: a length must be more than 0")
    if not question.low <= value <= question.high:
        raise ValueError(f"{_fmt(value)} cm is outside {_fmt(question.low)}-"
                         f"{_fmt(question.high)} cm: not plausible for this, measure again")
    return value


def zone_problem(key: str, value: float, answers: Mapping[str, float],
                 defaults: Mapping[str, float]) -> str | None:
    """Start zones must fit on the mat without meeting: one line saying why not, else None."""
    def now(k: str) -> float:
        return answers.get(k, defaults[k])

    if not key.startswith("mat.") or not key.endswith("-zone"):
        return None
    mat_id = key.split(".")[1]
    length = now("mat.length")
    if value >= length:
        return f"{_fmt(value)} cm is not less than the mat's length ({_fmt(length)} cm)"
    if key.endswith("monster-zone"):
        hero = now(f"mat.{mat_id}.hero-zone")
        if hero + value >= length:
            return (f"with the Hero Start Zone {_fmt(hero)} cm deep the zones would meet on a "
                    f"{_fmt(length)} cm mat")
    return None


def _note(old: object, text: str) -> str:
    """The measured note, followed by what the old note said about the piece (if anything)."""
    kept = str(old or "")
    if kept.startswith(MEASURED):
        kept = kept.partition("; ")[2]
    return f"{MEASURED}: {text}" + (f"; {kept}" if kept else "")


def _round(value: float) -> float:
    return round(value, 3)


def component_records(raw: Mapping[str, Any], answers: Mapping[str, float]
                      ) -> dict[str, Any]:
    """The components.toml records the answers replace, nested as the file nests them."""
    out: dict[str, Any] = {}
    for key, value in answers.items():
        group, _, name = key.partition(".")
        if group == "ruler":
            old = raw["ruler"][name]
            out.setdefault("ruler", {})[name] = {
                "length": _round(value), "provenance": "house",
                "note": _note(old.get("note"), f"{_fmt(value)} cm end to end")}
        elif group == "disc":
            old = raw["disc"][name]
            out.setdefault("disc", {})[name] = {
                "radius": _round(value / 2), "provenance": "house",
                "note": _note(old.get("note"), f"{_fmt(value)} cm across")}
        elif group in ("attack-template", "clock-template"):
            old = raw[group]
            record = {k: v for k, v in old.items() if k not in ("provenance", "note")}
            record.update(radius=_round(value / 2), provenance="house",
                          note=_note(old.get("note"), f"{_fmt(value)} cm across"))
            out[group] = record
    return out


def _scaled(record: Mapping[str, Any], sx: float, sy: float) -> dict[str, Any]:
    """Obstacle and rune positions moved with the mat's new size; obstacles keep their shape."""
    def point(p: list[float]) -> list[float]:
        return [_round(p[0] * sx), _round(p[1] * sy)]

    obstacles = []
    for entry in record.get("obstacles", []):
        moved = dict(entry)
        if "circle" in entry:
            x, y, r = entry["circle"]
            moved["circle"] = [*point([x, y]), r]
        elif "polygon" in entry:
            corners = entry["polygon"]
            cx = sum(p[0] for p in corners) / len(corners)
            cy = sum(p[1] for p in corners) / len(corners)
            dx, dy = cx * (sx - 1), cy * (sy - 1)
            moved["polygon"] = [[_round(p[0] + dx), _round(p[1] + dy)] for p in corners]
        obstacles.append(moved)
    runes = {k: point(v) for k, v in record.get("runes", {}).items()}
    return {**record, "obstacles": obstacles, "runes": runes}


def playmat_records(raw: Mapping[str, Any], ours: frozenset[str], mats: tuple[str, ...],
                    answers: Mapping[str, float]) -> dict[str, Any]:
    """The playmats.toml records the answers change. Positions on a mat whose record is still
    ours (not the player's) are placeholders: they move with the measured size."""
    out: dict[str, Any] = {}
    for mat_id in mats:
        keys = ("mat.width", "mat.length", "mat.rune", f"mat.{mat_id}.hero-zone",
                f"mat.{mat_id}.monster-zone")
        if not any(k in answers for k in keys):
            continue
        old = raw[mat_id]
        width, length = (float(v) for v in old["size"])
        new_w, new_l = answers.get("mat.width", width), answers.get("mat.length", length)
        record = dict(old)
        if mat_id in ours and (new_w, new_l) != (width, length):
            record = _scaled(old, new_w / width, new_l / length)
        record["size"] = [_round(new_w), _round(new_l)]
        hero = answers.get(f"mat.{mat_id}.hero-zone", float(old["hero_zone"]))
        monster = answers.get(f"mat.{mat_id}.monster-zone", length - float(old["monster_zone"]))
        record["hero_zone"] = _round(hero)
        record["monster_zone"] = _round(new_l - monster)
        if "mat.rune" in answers:
            record["rune_radius"] = _round(answers["mat.rune"] / 2)
        record["provenance"] = "house"
        measured = [k.split(".")[-1] for k in keys if k in answers]
        placeholder = ("; obstacle and rune positions are still our placeholders"
                       + (", moved with the measured size" if mat_id in ours else "")
                       + ": measure them (docs/data.md)") if mat_id in ours else ""
        old_notes = "" if mat_id in ours else str(old.get("notes", ""))
        if old_notes.startswith(MEASURED):
            old_notes = old_notes.partition(". ")[2]
        record["notes"] = (f"{MEASURED}: {', '.join(measured)} "
                           f"({_fmt(new_w)} x {_fmt(new_l)} cm){placeholder}."
                           + (f" {old_notes}" if old_notes else ""))
        out[mat_id] = record
    return out


HEADER = ("# Your own data: these records replace the shipped ones of the same id "
          "(docs/data.md).\n")


def _tables_text(tables: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Records as [name] tables; tables that group records (such as [disc]) as dotted names."""
    lines: list[str] = []
    for key, value in tables.items():
        name = f"{prefix}{toml_key(key)}"
        if isinstance(value, dict) and not is_record(value):
            lines += _tables_text(value, f"{name}.")
        elif isinstance(value, dict):
            lines += ["", f"[{name}]", *(f"{toml_key(k)} = {toml_value(v)}"
                                         for k, v in value.items())]
    return lines


def data_file_text(tables: Mapping[str, Any]) -> str:
    """A whole data file: top-level values first, then every record."""
    plain = [f"{toml_key(k)} = {toml_value(v)}" for k, v in tables.items()
             if not isinstance(v, dict)]
    return HEADER + "".join(f"{line}\n" for line in [*plain, *_tables_text(tables)])


def merged_text(existing: Mapping[str, Any], records: Mapping[str, Any]) -> str:
    """The folder's file with the new records in place of the old ones of the same id."""
    return data_file_text(merge_records(dict(existing), dict(records)))

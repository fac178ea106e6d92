"""Card entry: one card's fields as the player types them, each checked on its own, and the
record written into the player's data folder (`automa data card`).

Every answer is text (typed at a prompt or given as an option); `parse_answer` turns it into the
TOML value the data files hold, or raises ValueError with one line saying why.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from automa.catalog.load import SIZES, Catalog, parse_lord, parse_monster
from automa.catalog.locate import load_data_file, read_toml
from automa.catalog.reader import Record
from automa.errors import DataError
from automa.model.components import FAMILIES
from automa.model.pieces import Kind
from automa.model.provenance import Provenance
from automa.model.shots import SHOT_NAMES, parse_sequence
from automa.storage import atomic_write_text
from automa.toml_text import toml_key, toml_string

ENTRY_PROVENANCES = (Provenance.HOUSE, Provenance.FAN)
FILE_OF_KIND = {"monster": "monsters.toml", "antient": "monsters.toml",
                "catacomb-lord": "lords.toml", "room": "rooms.toml",
                "visit": "visits.toml"}
NOTE_MARK = "Typed from the card"
USER_FILE_HEADER = ("# Your own records (automa data card): each replaces the shipped record of "
                    "the same id.\n")
_TYPED = re.compile(rf"\s*{NOTE_MARK} \((?P<by>[a-z]+)\): (?P<fields>[a-z, ]+); the rest as before "
                    r"\((?P<was>[a-z]*)\)\.")
_COUNT = re.compile(r"^(?P<ids>[a-z0-9|' -]+?)\s*(?:x|\u00d7)\s*(?P<count>\d+)$", re.ASCII)


def prompt_for(field: str, catalog: Catalog) -> str:
    """The question for one field, with what a valid answer looks like."""
    colours = catalog.components.tiles.colours
    families = ", ".join(f"{f} ({colours[f]})" if f in colours else f for f in FAMILIES)
    return {
        "family": f"Family, by the colour of the monster metre: {families}",
        "level": "Level (the filled circles of the monster metre, 1-4)",
        "health": "Health (1-99, or 'shadow' for a dotted health drop)",
        "gold": "Gold reward (0-99)",
        "size": f"Size class of the piece ({', '.join(SIZES)})",
        "nullifies": "Nullifies box: shot names, comma-separated (empty: none)",
        "reflects": "Reflects box: shot names, comma-separated (empty: none)",
        "sequences": "Shot sequence, e.g. 'rush then melee+poison' (one per Or)",
        "minions": "Minions, e.g. 'zombie x4, troll x2, centaur|minotaur x2' "
                   "(a|b: the card's D12 choice, left first)",
        "mercenary": "Mercenary: a monster id, or a|b when the card offers a D12 choice "
                     "(top first)",
    }[field]


def _whole(text: str, low: int, high: int) -> int:
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ValueError(f"{text!r} is not a whole number from {low} to {high}")
    return int(text)


def _monster_id(text: str, catalog: Catalog) -> str:
    if text in catalog.monsters and catalog.monsters[text].kind == Kind.MONSTER:
        return text
    close = difflib.get_close_matches(text, list(catalog.monsters), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"{text!r} is not a monster id in the data{hint}")


def _shot_list(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["none"]:
        return []
    for name in names:
        if name not in SHOT_NAMES:
            raise ValueError(f"{name!r} is not a shot (known: {', '.join(sorted(SHOT_NAMES))})")
    return names


def parse_sequence_answer(text: str, catalog: Catalog) -> str:
    """One shot sequence in the scenario notation; summoned monsters must exist."""
    try:
        sequence = parse_sequence(text)
    except ValueError as exc:
        raise ValueError(str(exc)) from None
    for shot in sequence.shots:
        if shot.argument is not None:
            _monster_id(shot.argument, catalog)
    return sequence.notation()


def _family(text: str, catalog: Catalog) -> str:
    answer = text.lower()
    by_colour = {c: f for f, c in catalog.components.tiles.colours.items()}
    if answer in FAMILIES:
        return answer
    if answer in by_colour:
        return by_colour[answer]
    raise ValueError(f"{text!r} is neither a family ({', '.join(FAMILIES)}) nor a colour "
                     f"({', '.join(by_colour)})")


T = TypeVar("T")


def every_part(parts: Iterable[str], parse: Callable[[str], T]) -> list[T]:
    """Each part of an answer parsed; the problems of every part said at once, in one
    ValueError (`'orcc=2': ...; 'troll=x': ...`), not one per try."""
    parsed: list[T] = []
    problems: list[str] = []
    for part in parts:
        try:
            parsed.append(parse(part))
        except ValueError as exc:
            problems.append(str(exc))
    if problems:
        raise ValueError("; ".join(problems))
    return parsed


def _minions(text: str, catalog: Catalog) -> list[dict[str, Any]]:
    def slot(part: str) -> dict[str, Any]:
        match = _COUNT.match(part.lower())
        if match is None:
            raise ValueError(f"{part!r}: write each slot as ID xCOUNT, e.g. 'zombie x4'")
        ids = every_part((i.strip() for i in match["ids"].split("|")),
                         lambda i: _monster_id(i, catalog))
        count = _whole(match["count"], 1, 10)
        if len(ids) > 2:
            raise ValueError(f"{part!r}: a slot offers one monster or a D12 choice of two")
        return ({"monster": ids[0], "count": count} if len(ids) == 1
                else {"choice": ids, "count": count})

    return every_part((p.strip() for p in text.split(",")), slot)


def _mercenary(text: str, catalog: Catalog) -> list[str]:
    ids = [_monster_id(i.strip().lower(), catalog) for i in text.split("|")]
    if len(ids) > 2:
        raise ValueError("a Mercenary box offers one monster or a D12 choice of two")
    return ids


def parse_answer(field: str, text: str, catalog: Catalog) -> Any:
    """The TOML value of one typed field; ValueError says in one line what is wrong."""
    answer = text.strip()
    if field == "sequences":
        return parse_sequence_answer(answer, catalog)
    if field in ("nullifies", "reflects"):
        return _shot_list(answer)
    if not answer:
        raise ValueError("an answer is needed")
    if field == "family":
        return _family(answer, catalog)
    if field == "level":
        return _whole(answer, 1, 4)
    if field == "health":
        return "shadow" if answer.lower() == "shadow" else _whole(answer, 1, 99)
    if field == "gold":
        return _whole(answer, 0, 99)
    if field == "size":
        if answer.lower() not in SIZES:
            raise ValueError(f"{answer!r} is not a size class ({', '.join(SIZES)})")
        return answer.lower()
    if field == "minions":
        return _minions(answer, catalog)
    if field == "mercenary":
        return _mercenary(answer, catalog)
    raise ValueError(f"no such card field {field!r}")


def raw_record(record_id: str, kind: str, user_dir: Path | None) -> dict[str, Any]:
    """The record as the data holds it now (the user's version if they have one)."""
    tables, _ = load_data_file(FILE_OF_KIND[kind], user_dir)
    return dict(tables[record_id])


def entered_record(base: Mapping[str, Any], values: Mapping[str, Any], provenance: str,
                   ) -> dict[str, Any]:
    """`base` with the typed values, the player's provenance and a note saying what was typed."""
    record = {k: v for k, v in base.items() if k not in ("provenance", "notes")}
    record.update(values)
    record["provenance"] = provenance
    earlier = str(base.get("notes", ""))
    kept, was, typed = earlier, str(base.get("provenance", "")), list(values)
    before = _TYPED.search(earlier)
    if before is not None:  # entered before: keep the first provenance and every typed field
        kept, was = earlier[:before.start()], before["was"]
        typed = [*before["fields"].split(", "), *(f for f in values if f not in before["fields"]
                                                  .split(", "))]
    note = f"{NOTE_MARK} ({provenance}): {', '.join(typed)}; the rest as before ({was})."
    record["notes"] = f"{kept} {note}".strip()
    return record


def check_record(record_id: str, kind: str, record: Mapping[str, Any], file: str) -> None:
    """Parse the record as the loader will; a DataError names the field."""
    rec = Record(file, record_id, dict(record))
    (parse_lord if kind == Kind.CATACOMB_LORD else parse_monster)(rec)
    rec.reject_unknown_keys()


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def record_text(record_id: str, record: Mapping[str, Any]) -> str:
    lines = [f"[{toml_key(record_id)}]",
             *(f"{toml_key(k)} = {toml_value(v)}" for k, v in record.items())]
    return "\n".join(lines) + "\n"


def _spliced(text: str, record_id: str, table: str) -> str:
    """`text` with the `[record_id]` table replaced by `table` (or `table` added at the end)."""
    header = re.compile(rf'^\[\s*(?:{re.escape(record_id)}|"{re.escape(record_id)}")\s*\]'
                        r"\s*(?:#.*)?$", re.MULTILINE)
    found = header.search(text)
    if found is None:
        return text.rstrip("\n") + ("\n\n" if text.strip() else "") + table
    following = re.compile(r"^\[", re.MULTILINE).search(text, found.end())
    end = following.start() if following else len(text)
    return text[:found.start()] + table + ("\n" if following else "") + text[end:]


def write_record(folder: Path, kind: str, record_id: str, record: Mapping[str, Any]) -> Path:
    """Merge the record into the folder's data file atomically; other records stay as they were.

    The file's own text (comments, order) is kept when the record can be replaced in place;
    otherwise the file is written afresh from its parsed contents.
    """
    path = folder / FILE_OF_KIND[kind]
    table = record_text(record_id, record)
    if not path.is_file():
        atomic_write_text(path, USER_FILE_HEADER + "\n" + table)
        return path
    text = path.read_text(encoding="utf-8")
    expected = {**read_toml(path), record_id: dict(record)}
    spliced = _spliced(text, record_id, table)
    try:
        fits = tomllib.loads(spliced) == expected
    except tomllib.TOMLDecodeError:
        fits = False
    if not fits:
        spliced = USER_FILE_HEADER + "".join(
            "\n" + record_text(k, v) for k, v in expected.items() if isinstance(v, dict))
        if tomllib.loads(spliced) != expected:
            raise DataError(str(path), record_id, "", "cannot merge the card into this file; "
                                                      "move it aside and enter the card again")
    atomic_write_text(path, spliced)
    return path

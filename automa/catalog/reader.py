"""Typed reading of one TOML table, with errors that name the file, the record and the field.

Every loader in the project reads through `Record`, so a typo anywhere produces the same kind of
one-line message: `scenario.toml: [piece rat-1] at: expected two numbers [x, y], got "20, 80"`.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from types import EllipsisType
from typing import TYPE_CHECKING, Any, TypeVar

from automa.errors import DataError
from automa.model.provenance import Provenance
from automa.safe_text import unsafe_character

if TYPE_CHECKING:
    from pathlib import Path

T = TypeVar("T")
W = TypeVar("W", bound=str)  # a word of a closed set: str, or a StrEnum's member
UNKNOWN = "unknown"
PROVENANCES = tuple(Provenance)
MAX_FILE_BYTES = 4_000_000  # the shipped monsters.toml is about 60 kB
MAX_DEPTH = 12  # tables and lists inside one another; the deepest real file needs 5
TOO_LARGE = f"larger than {MAX_FILE_BYTES // 1_000_000} MB: not a file this program writes"


def read_file_text(path: str | Path, error: type[DataError] = DataError) -> str:
    """The UTF-8 text of a regular file of at most MAX_FILE_BYTES (`read_file_bytes`)."""
    data = read_file_bytes(path, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(str(path), "", "", f"not UTF-8 text (byte {exc.start})") from None


def read_file_bytes(path: str | Path, error: type[DataError] = DataError) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES.

    A folder, a pipe or a device (`/dev/zero`) is refused before anything is read, so such a
    file can neither hang the program nor fill its memory.
    """
    source = str(path)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise error(source, "", "", "file not found") from None
    except IsADirectoryError:
        raise error(source, "", "", "is a folder, not a file") from None
    except OSError as exc:
        raise error(source, "", "", f"cannot be read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(handle).st_mode
        if stat.S_ISDIR(mode):
            raise error(source, "", "", "is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise error(source, "", "", "is not a regular file (a pipe or a device?)")
        data = os.read(handle, MAX_FILE_BYTES + 1)
        while len(data) <= MAX_FILE_BYTES:
            more = os.read(handle, MAX_FILE_BYTES + 1 - len(data))
            if not more:
                break
            data += more
    except OSError as exc:
        raise error(source, "", "", f"cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(handle)
    if len(data) > MAX_FILE_BYTES:
        raise error(source, "", "", TOO_LARGE)
    return data


def parse_toml(text: str, source: str, error: type[DataError] = DataError) -> dict[str, Any]:
    """A TOML document, refused in one line when invalid or nested deeper than MAX_DEPTH."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(source, "", "", f"not valid TOML: {exc}") from None
    except RecursionError:
        raise error(source, "", "", f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # a whole number of more digits than Python converts (4300)
        raise too_many_digits(text, source, error) from None
    where = nested_too_deep(document)
    if where is not None:
        raise error(source, "", where, f"nested deeper than {MAX_DEPTH} levels")
    return document


def nested_too_deep(document: object, limit: int = MAX_DEPTH) -> str | None:
    """The key path of the first value nested deeper than `limit`, else None (no recursion)."""
    stack: list[tuple[object, int, str]] = [(document, 0, "")]
    while stack:
        value, depth, path = stack.pop()
        if depth > limit:
            return path or "(top)"
        if isinstance(value, dict):
            stack.extend((v, depth + 1, f"{path}.{k}" if path else str(k))
                         for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, depth + 1, f"{path}[{i}]") for i, v in enumerate(value))
    return None


MARKER = 7.25e-301  # stands for a too-long number while its key is looked for


def too_many_digits(text: str, source: str, error: type[DataError] = DataError) -> DataError:
    """The refusal of a whole number longer than Python reads (`sys.get_int_max_str_digits`),
    naming its key (or, failing that, its line) and how many digits it has."""
    long_run = re.compile(rf"[0-9](?:_?[0-9]){{{sys.get_int_max_str_digits()},}}")
    found = long_run.search(text)
    if found is None:  # not ours to explain: say what Python said, in one line
        return error(source, "", "", "not valid TOML: a number this program cannot read")
    digits = sum(c.isdigit() for c in found.group(0))
    line = text.count("\n", 0, found.start()) + 1
    where = f"line {line}"
    try:  # each long number as a marker, so the parse says where it stood
        document = tomllib.loads(long_run.sub(repr(MARKER), text))
        where = _path_of(document, lambda v: isinstance(v, float) and abs(v) == MARKER) or where
    except (ValueError, RecursionError):
        pass
    return error(source, "", where, f"a whole number of {digits} digits: far beyond any value "
                                    f"this program reads")


def _path_of(document: object, wanted: Callable[[object], bool]) -> str | None:
    """The key path of the first value `wanted` picks, else None (no recursion)."""
    stack: list[tuple[object, str]] = [(document, "")]
    while stack:
        value, path = stack.pop()
        if wanted(value):
            return path or "(top)"
        if isinstance(value, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k))
                         for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value))))
    return None


NON_BLANK = "expected a non-blank string"


def blank(text: str) -> bool:
    """Nothing to see: empty, or only whitespace and invisible format characters (a zero-width
    space, a bidi mark)."""
    return all(c.isspace() or unicodedata.category(c) == "Cf" for c in text)


def describe(value: object) -> str:
    """A value as an error shows it: strings quoted and escaped, and cut short when long."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 60 else f"{value[:57]!r}..."
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) >= 10 ** 18:  # a line, not a page of digits
        return f"{'-' if value < 0 else ''}a number of {len(str(abs(value)))} digits"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


class Record:
    """A TOML table under a name, read field by field; unread keys can be rejected at the end."""

    def __init__(
        self,
        file: str,
        name: str,
        table: object,
        error: type[DataError] = DataError,
    ) -> None:
        self.file, self.name, self.error = file, name, error
        if not isinstance(table, dict):
            raise error(file, name, "", f"expected a table, got {describe(table)}")
        self.table: dict[str, Any] = table
        self._read: set[str] = set()

    def fail(self, field: str, problem: str) -> DataError:
        return self.error(self.file, self.name, field, problem)

    def has(self, key: str) -> bool:
        return key in self.table

    def _get(self, key: str, default: object = ...) -> object:
        self._read.add(key)
        if key not in self.table:
            if default is ...:
                raise self.fail(key, "missing (required)" + self._typo_of(key))
            return default
        return self.table[key]

    def _typo_of(self, key: str) -> str:
        """Name an unknown key that looks like a misspelling of `key`."""
        import difflib  # a mistake's hint only

        close = difflib.get_close_matches(key, [k for k in self.table if k != key], n=1)
        return f"; unknown key {close[0]!r} looks like a typo of it" if close else ""

    def raw(self, key: str, default: object = ...) -> object:
        return self._get(key, default)

    def string(self, key: str, default: str | EllipsisType | None = ...) -> str:
        value = self._get(key, default)
        if not isinstance(value, str):
            raise self.fail(key, f"{NON_BLANK}, got {describe(value)}")
        return self.plain(key, value)

    def optional_string(self, key: str) -> str | None:
        value = self._get(key, None)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(key, f"{NON_BLANK}, got {describe(value)}")
        return self.plain(key, value)

    def plain(self, key: str, text: str) -> str:
        """Text that is printed (ids, names): something to see, not only whitespace (an id of
        spaces names nothing a player can type or read), and no control character, line break
        or bidi override, which a terminal would obey (recolour, rewrite) instead of showing."""
        if blank(text):
            raise self.fail(key, f"{NON_BLANK}, got {describe(text)}")
        bad = unsafe_character(text)
        if bad is not None:
            raise self.fail(key, f"{describe(text)} holds the control character {bad}: "
                                 f"write plain text")
        return text

    def choice(self, key: str, choices: Iterable[W], default: W | EllipsisType = ...) -> W:
        """One of `choices`, as given there: a word of a StrEnum's members is that member."""
        allowed = tuple(choices)
        value = self._get(key, default)
        if value not in allowed:
            raise self.fail(key, f"expected one of {', '.join(allowed)}, got {describe(value)}")
        return allowed[allowed.index(value)]

    def boolean(self, key: str, default: bool | EllipsisType = ...) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {describe(value)}")
        return value

    def integer(
        self,
        key: str,
        default: int | EllipsisType = ...,
        low: int | None = None,
        high: int | None = None,
    ) -> int:
        return check_int(self, key, self._get(key, default), low, high)

    def number(
        self,
        key: str,
        default: float | EllipsisType = ...,
        low: float | None = None,
        high: float | None = None,
        positive: bool = False,
    ) -> float:
        return check_number(self, key, self._get(key, default), low, high, positive)

    def length(self, key: str, default: float | EllipsisType = ..., *, high: float,
               what: str) -> float:
        """A length in cm that a table can hold: from MIN_CM to `high` (what: "a ruler")."""
        return check_length(self, key, self._get(key, default), high, what)

    def maybe_unknown(self, key: str, read: Callable[[str], T]) -> T | None:
        """Fields the sources do not give are written "unknown"; they load as None."""
        if self.table.get(key) == UNKNOWN:
            self._read.add(key)
            return None
        return read(key)

    def point(self, key: str, default: object = ...) -> tuple[float, float]:
        return check_point(self, key, self._get(key, default))

    def strings(self, key: str, default: object = ...) -> tuple[str, ...]:
        value = self._get(key, default)
        if isinstance(value, tuple):  # the default
            return value
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, f"expected a list of strings, got {describe(value)}")
        return tuple(self.plain(key, v) for v in value)  # each non-blank, plain

    def list_of(self, key: str) -> list[Any]:
        """A list field (empty when absent), its items left for the caller to check."""
        value = self._get(key, [])
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list, got {describe(value)}")
        return value

    def table_of(self, key: str, default: object = ...) -> Mapping[str, Any]:
        value = self._get(key, default)
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table, got {describe(value)}")
        return value

    def sub(self, key: str, name: str | None = None, default: object = ...) -> Record:
        value = self._get(key, default)
        return Record(self.file, name or f"{self.name}.{key}", value, self.error)

    def provenance(self) -> Provenance:
        """Where the record comes from: each record says (one of the Provenance words)."""
        if not self.has("provenance"):
            self._read.add("provenance")
            raise self.fail("provenance", f"missing: every record says where it comes from "
                                          f"({', '.join(PROVENANCES)})"
                                          + self._typo_of("provenance"))
        return self.choice("provenance", PROVENANCES)

    def reject_unknown_keys(self) -> None:
        extra = sorted(set(self.table) - self._read)
        if extra:
            raise self.fail(extra[0], "unknown key (a typo?)")


def check_int(rec: Record, key: str, value: object, low: int | None, high: int | None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise rec.fail(key, f"expected a whole number, got {describe(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise rec.fail(key, f"{describe(value)} is out of range {span}")
    return value


def check_number(
    rec: Record,
    key: str,
    value: object,
    low: float | None = None,
    high: float | None = None,
    positive: bool = False,
) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise rec.fail(key, f"expected a number, got {describe(value)}")
    try:
        number = float(value)
    except OverflowError:  # a whole number of hundreds of digits
        raise rec.fail(key, f"{describe(value)} is out of range") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise rec.fail(key, "expected a finite number")
    if positive and number <= 0:
        raise rec.fail(key, f"expected a positive number, got {describe(value)}")
    if (low is not None and number < low) or (high is not None and number > high):
        raise rec.fail(key, f"{describe(value)} is out of range {low}..{high}")
    return number


MIN_CM = 0.1  # a millimetre: the least a tape reads, far above the geometry's tolerances


def check_length(rec: Record, key: str, value: object, high: float, what: str) -> float:
    """A finite number of cm from MIN_CM to `high`: what a table can hold, where 1e-300 or
    1e308 cm would stall or break the geometry."""
    number = check_number(rec, key, value)
    if not MIN_CM <= number <= high:
        raise rec.fail(key, f"{number:g} cm is not plausible for {what} ({MIN_CM:g} to "
                            f"{high:g} cm)")
    return number


def check_point(rec: Record, key: str, value: object) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise rec.fail(key, f"expected two numbers [x, y], got {describe(value)}")
    return (check_number(rec, key, value[0]), check_number(rec, key, value[1]))


def check_band(rec: Record, key: str, value: object, low: int, high: int) -> tuple[int, int]:
    """An inclusive band [from, to] of whole numbers within low..high (a die's faces, health):
    bounded before anything expands it, so a typo such as [4, 600000000] is one clear line."""
    if not isinstance(value, list) or len(value) != 2:
        raise rec.fail(key, f"expected a band [from, to], got {describe(value)}")
    first = check_int(rec, key, value[0], low, high)
    last = check_int(rec, key, value[1], low, high)
    if first > last:
        raise rec.fail(key, f"the band [{first}, {last}] runs backwards")
    return first, last

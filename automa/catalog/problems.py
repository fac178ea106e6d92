"""Problems found while loading the rules data: collected for `automa data check`, or the first
raised for normal loading; and the parsed records of one file with where each came from."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from msgspec import Struct

from automa.errors import DataError

T = TypeVar("T")


class Problems:
    """Collects DataErrors (for `automa data check`) or raises the first (for normal loading)."""

    def __init__(self, collect: bool) -> None:
        self.collect = collect
        self.found: list[DataError] = []

    def attempt(self, parse: Callable[[], T]) -> T | None:
        try:
            return parse()
        except DataError as error:
            if not self.collect:
                raise
            self.found.append(error)
            return None

    def report(self, error: DataError) -> None:
        """A problem found by a check rather than a parse: collected, or raised."""
        if not self.collect:
            raise error
        self.found.append(error)


class Records(Struct, Generic[T], frozen=True):
    """The parsed records of one data file, and the file each record came from."""

    by_id: Mapping[str, T]
    origins: Mapping[str, str]

    def file_of(self, record_id: str) -> str:
        return self.origins.get(record_id, "data/?")


def raise_(error: DataError) -> None:
    """`raise` as a call, for `Problems.attempt(lambda: ...)`."""
    raise error

"""A record's memo: values worked out from the record's own fields, kept for the next reader."""

from __future__ import annotations


class Memo:
    """The base of the caches a frozen record holds (a battle's indexes, a table's or a
    catalog's memo): values worked out from the record's other fields, filled as they are read,
    and the one part of the record that changes. A memo is never part of its record's value:
    every memo equals every other of its class, hashes alike and prints as its class name, so
    the record compares, hashes and prints by its other fields alone. A record that holds one
    gives every instance its own, empty, in `__post_init__` (so `replace` never shares one
    between two records); a copy or a pickle of a memo starts empty."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __reduce__(self) -> tuple[type[Memo], tuple[()]]:
        return type(self), ()

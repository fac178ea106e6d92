"""`dataclass`, as the standard one, with the methods it adds made when they are first needed.

The standard decorator (on Python 3.11 and 3.12) writes each method it adds as source text and
compiles it: about 0.8 ms a class, and a turn imports some 65 of them, half its start-up over the
bare imports of numpy, shapely and click. Here `__init__` still comes from the standard decorator
(every record is made), its text's compiled code kept between runs as `__pycache__` keeps a
module's (method_code.py), with one change for a frozen record: its fields are set in one step
(`_fields_at_once`), where the standard text calls `object.__setattr__` once a field (an
activation makes over a hundred fields; those calls cost it up to a tenth of its time); `__eq__`,
`__hash__` and, with `order`, `__lt__`, `__le__`, `__gt__` and `__ge__` are the standard
decorator's own text, compiled when first called (a turn compares or hashes few of its classes),
so they are as quick to call as ever; `__repr__` and a frozen record's `__setattr__` and
`__delattr__` are closures over the field names, which cost next to nothing to make and behave
the same (the same repr text, with the same guard against a record that holds itself; the same
errors). The docstring of a record without one (its name and signature) is worked out when read.
Only the plain cases take this path (no `unsafe_hash`, `slots`, or `init=False`), and only on
the Pythons whose standard text this copies (3.11 and 3.12: later ones compile a class's methods
at once, and compare field by field); anything else goes to the standard decorator whole.
`tests/test_records.py` holds the two side by side.

    from automa.model.records import dataclass  # in place of `from dataclasses import dataclass`

Type checkers see the standard decorator itself.
"""

from __future__ import annotations

import abc
import dataclasses
import os
import re
import sys
import threading
from _thread import get_ident
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from automa.model.method_code import MethodCode

__all__ = ["dataclass"]


def _set_method(cls: type, name: str, method: Callable[..., Any]) -> None:
    """Add a method unless the class body defines one (as the standard decorator does)."""
    if name in cls.__dict__:
        return
    _belongs(cls, name, method)
    setattr(cls, name, method)


def _belongs(cls: type, name: str, method: Callable[..., Any]) -> None:
    """Name a method made here as the class's own (pickle and inspect look it up by these)."""
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    method.__module__ = cls.__module__


def _repr_method(names: list[str]) -> Callable[[Any], str]:
    running: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        key = id(self), get_ident()
        if key in running:  # a record that holds itself
            return "..."
        running.add(key)
        try:
            qualname: str = self.__class__.__qualname__
            return qualname + "(" + ", ".join([f"{name}={getattr(self, name)!r}"
                                               for name in names]) + ")"
        finally:
            running.discard(key)

    return __repr__


def _on_first_call(cls: type, name: str, args: str, body: str) -> Callable[..., Any]:
    """A method that, when first called, compiles the standard decorator's own text for it
    (quickest to call: the attribute reads are in line), puts that on the class instead, and
    hands the call over. A class whose records are never compared or hashed never pays."""

    def first(*call: Any) -> Any:
        module = sys.modules.get(cls.__module__)
        made: dict[str, Any] = {}
        exec(f"def {name}({args}):\n{body}", module.__dict__ if module else {}, made)
        method = made[name]
        _belongs(cls, name, method)
        setattr(cls, name, method)
        return method(*call)

    first.__name__ = name
    return first


def _tuple(record: str, names: list[str]) -> str:
    """`(self.a,self.b,)`: the tuple the standard methods compare and hash."""
    return "(" + ",".join(f"{record}.{name}" for name in names) + ",)" if names else "()"


def _compare_method(cls: type, name: str, operator: str, names: list[str]) -> Callable[..., Any]:
    return _on_first_call(cls, name, "self, other",
                          " if other.__class__ is self.__class__:\n"
                          f"  return {_tuple('self', names)}{operator}{_tuple('other', names)}\n"
                          " return NotImplemented")


ORDER = {"__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">="}


def _frozen_methods(cls: type, fields: Iterable[dataclasses.Field[Any]],
                    _globals: object) -> tuple[Callable[..., None], Callable[..., None]]:
    """The standard `__setattr__` and `__delattr__` of a frozen record, as closures."""
    names = tuple(f.name for f in fields)
    owner: Any = cls
    frozen_error = dataclasses.FrozenInstanceError

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise frozen_error(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise frozen_error(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    _belongs(cls, "__setattr__", __setattr__)
    _belongs(cls, "__delattr__", __delattr__)
    return __setattr__, __delattr__


# The standard decorator makes a frozen record's two methods in one private helper, the same on
# the Pythons that write methods one by one (3.11, 3.12; later ones compile them all at once).
# Where it is there and called as expected, it is swapped for the closures while the standard
# decorator runs, under a lock (re-entrant: a record made while another is being made); a
# standard dataclass made in another thread at that moment gets the same closures, which behave
# the same, and its `__init__` text goes through the kept code too (so it is kept in the cache
# file). Elsewhere every record goes to the standard decorator whole.
_HELPER = "_frozen_get_del_attr"
_COPIED = (sys.version_info[:2] in ((3, 11), (3, 12))
           and getattr(getattr(dataclasses, _HELPER, None), "__code__", None) is not None
           and getattr(dataclasses, _HELPER).__code__.co_varnames[:3]
           == ("cls", "fields", "globals"))
_SWAPPING = threading.RLock()
_KEPT_CODE = MethodCode()
_STANDARD_HELPER = getattr(dataclasses, _HELPER, None)


def _after_fork() -> None:
    """A forked child starts with the locks free and dataclasses as it was, whatever another
    thread held or had swapped at the fork."""
    global _SWAPPING
    _SWAPPING = threading.RLock()
    _KEPT_CODE.after_fork()
    module = vars(dataclasses)
    if module.get("exec") is _exec_kept:
        del module["exec"]
    if _COPIED:
        module[_HELPER] = _STANDARD_HELPER


if hasattr(os, "register_at_fork"):  # Unix only; elsewhere there is no fork
    os.register_at_fork(after_in_child=_after_fork)


def _standard(cls: type, frozen: bool, match_args: bool, kw_only: bool) -> type:
    """The standard decorator for `__init__` (and a frozen record's attribute guards), its
    method texts compiled once and kept (method_code.py)."""
    module = vars(dataclasses)
    with _SWAPPING:
        standard, outer = module[_HELPER], module.get("exec")  # outer: a record being made
        if frozen:
            module[_HELPER] = _frozen_methods
        module["exec"] = _exec_kept  # a global of dataclasses is found before the builtin
        try:
            return dataclasses.dataclass(cls, repr=False, eq=False, frozen=frozen,
                                         match_args=match_args, kw_only=kw_only)
        finally:
            module[_HELPER] = standard
            if outer is None:
                del module["exec"]
            else:
                module["exec"] = outer


def _exec_kept(source: Any, *namespaces: Any) -> None:
    """`exec` as dataclasses calls it to make a method from its text, with the text's code
    compiled once and kept between runs; a frozen record's fields set at once."""
    exec(_KEPT_CODE.code(source, _fields_at_once) if isinstance(source, str) else source,
         *namespaces)


# A line of the standard `__init__` text of a frozen record, setting one field:
#   __dataclass_builtins_object__.__setattr__(self,'name',value)
_FIELD_LINE = re.compile(r"( +)__dataclass_builtins_object__\.__setattr__\((\w+),'(\w+)',(.*)\)")


def _fields_at_once(text: str) -> str:
    """The standard `__init__` text of a frozen record with each run of its lines that set one
    field each (one `object.__setattr__` call per field: a fifth of a microsecond each, and an
    activation makes some hundred fields) made one line that sets the instance's dict to all of
    them, in the same order, each value the same expression. The record is the same (the same
    fields, values and order in `vars()`); its dict is its own rather than sharing its keys
    with the class's other instances, a little larger. Other texts are returned unchanged."""
    lines: list[str] = []
    run: list[re.Match[str]] = []
    for line in [*text.split("\n"), None]:
        found = _FIELD_LINE.fullmatch(line) if line is not None else None
        if found is not None and (not run or found.group(1, 2) == run[0].group(1, 2)):
            run.append(found)
            continue
        if run:
            indent, record = run[0].group(1, 2)
            values = ",".join(f"{m.group(3)!r}:{m.group(4)}" for m in run)
            lines.append(f"{indent}__dataclass_builtins_object__.__setattr__({record},"
                         f"'__dict__',{{{values}}})")
            run = []
        if found is not None:
            run.append(found)
        elif line is not None:
            lines.append(line)
    return "\n".join(lines)


class _SignatureDoc:
    """The docstring the standard decorator gives a record without one (its name and
    signature), worked out when first read rather than when the class is made."""

    def __get__(self, record: object, cls: type) -> str:
        import inspect

        try:
            text = str(inspect.signature(cls)).replace(" -> None", "")
        except (TypeError, ValueError):
            text = ""
        doc = cls.__name__ + text
        cls.__doc__ = doc
        return doc


def _process(cls: type, repr_: bool, eq: bool, order: bool, frozen: bool, match_args: bool,
             kw_only: bool) -> type:
    body_hash = cls.__dict__.get("__hash__", dataclasses.MISSING)
    explicit_hash = not (body_hash is dataclasses.MISSING
                         or (body_hash is None and "__eq__" in cls.__dict__))
    undocumented = not cls.__doc__
    if undocumented:
        cls.__doc__ = "-"  # not worked out now: see _SignatureDoc
    cls = _standard(cls, frozen, match_args, kw_only)
    if undocumented:
        cls.__doc__ = _SignatureDoc()  # type: ignore[assignment]
    fields = dataclasses.fields(cls)
    if repr_:
        _set_method(cls, "__repr__", _repr_method([f.name for f in fields if f.repr]))
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    if eq:
        _set_method(cls, "__eq__", _compare_method(cls, "__eq__", "==",
                                                   [f.name for f in fields if f.compare]))
        if not explicit_hash:  # the standard decorator's rule, for eq without unsafe_hash
            record: Any = cls
            record.__hash__ = None
            if frozen:
                hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
                record.__hash__ = _on_first_call(cls, "__hash__", "self",
                                                 f" return hash({_tuple('self', hashed)})")
                _belongs(cls, "__hash__", record.__hash__)
    if order:
        for name, operator in ORDER.items():
            if name in cls.__dict__:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. "
                                "Consider using functools.total_ordering")
            _set_method(cls, name, _compare_method(cls, name, operator,
                                                   [f.name for f in fields if f.compare]))
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    params.repr, params.eq, params.order = repr_, eq, order  # as asked, though made here
    abc.update_abstractmethods(cls)  # as the standard decorator does, after the methods added
    return cls


def _dataclass(cls: type | None = None, /, *, init: bool = True, repr: bool = True,
               eq: bool = True, order: bool = False, unsafe_hash: bool = False,
               frozen: bool = False, match_args: bool = True, kw_only: bool = False,
               slots: bool = False, weakref_slot: bool = False) -> Any:
    def wrap(cls: type) -> type:
        if not _COPIED or not init or unsafe_hash or slots or weakref_slot:
            return dataclasses.dataclass(
                cls, init=init, repr=repr, eq=eq, order=order, unsafe_hash=unsafe_hash,
                frozen=frozen, match_args=match_args, kw_only=kw_only, slots=slots,
                weakref_slot=weakref_slot)
        return _process(cls, repr, eq, order, frozen, match_args, kw_only)

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:
    dataclass = _dataclass

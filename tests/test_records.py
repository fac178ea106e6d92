"""automa.model.records.dataclass against the standard decorator, case by case: the same methods'
answers, errors, docstrings, fields and parameters."""

from __future__ import annotations

import copy
import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, ClassVar

import pytest

from automa.model import records

Decorator = Callable[..., Any]
DECORATORS = {"standard": dataclasses.dataclass, "records": records.dataclass}


def kinds(decorate: Decorator) -> dict[str, type]:
    """The same class bodies under one decorator."""

    @decorate(frozen=True)
    class Plain:
        """A plain record."""

        a: int
        b: str = "b"
        c: tuple[int, ...] = ()

    @decorate(frozen=True)
    class Bare:
        a: int
        items: list[int] = dataclasses.field(default_factory=list)

    @decorate(frozen=True)
    class One:
        x: float

    @decorate(frozen=True)
    class Empty:
        pass

    @decorate(frozen=True)
    class Options:
        shown: int
        hidden: int = dataclasses.field(default=0, repr=False)
        ignored: int = dataclasses.field(default=0, compare=False)
        unhashed: int = dataclasses.field(default=0, hash=False)
        rehashed: int = dataclasses.field(default=0, compare=False, hash=True)
        limit: ClassVar[int] = 3

    @decorate(frozen=True, kw_only=True)
    class Keywords:
        a: int
        b: int = 2

    @decorate(frozen=True)
    class OwnHash:
        a: int

        def __hash__(self) -> int:
            return 7

    @decorate(frozen=True)
    class OwnEq:
        a: int

        def __eq__(self, other: object) -> bool:
            return True

    @decorate(frozen=True)
    class OwnRepr:
        a: int

        def __repr__(self) -> str:
            return "mine"

    @decorate
    class Mutable:
        """A mutable record."""

        a: int
        rest: dict[str, int] = dataclasses.field(default_factory=dict)

        def __post_init__(self) -> None:
            self.rest.setdefault("seen", self.a)

    @decorate
    class MutableChild(Mutable):
        b: int = 0

    @decorate(frozen=True)
    class FrozenChild(Plain):
        d: int = 4

    @decorate(frozen=True)
    class Derived:
        a: int
        made: list[int] = dataclasses.field(default_factory=list, init=False)
        later: int = dataclasses.field(default=5, init=False)
        double: int = dataclasses.field(default=0, init=False, compare=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "double", 2 * self.a)

    @decorate(frozen=True, repr=False, eq=False)
    class Quiet:
        a: int

    @decorate(frozen=True, order=True)
    class Ordered:
        a: int
        b: str = dataclasses.field(default="", compare=False)
        c: tuple[int, ...] = ()

    return {cls.__name__: cls for cls in (Plain, Bare, One, Empty, Options, Keywords, OwnHash,
                                          OwnEq, OwnRepr, Mutable, MutableChild, FrozenChild,
                                          Derived, Quiet, Ordered)}


STANDARD, RECORDS = kinds(dataclasses.dataclass), kinds(records.dataclass)
ARGS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "Plain": ((1,), {"c": (2, 3)}), "Bare": ((1,), {}), "One": ((float("nan"),), {}),
    "Empty": ((), {}), "Options": ((1, 2, 3, 4, 5), {}), "Keywords": ((), {"a": 1}),
    "OwnHash": ((1,), {}), "OwnEq": ((1,), {}), "OwnRepr": ((1,), {}),
    "Mutable": ((1,), {}), "MutableChild": ((1,), {"b": 2}), "FrozenChild": ((1, "x"), {}),
    "Derived": ((3,), {}), "Quiet": ((1,), {}), "Ordered": ((1, "x", (2,)), {}),
}


def outcome(action: Callable[[], object]) -> object:
    """What an action gives, or its error's type and text."""
    try:
        return action()
    except Exception as error:  # the error is the answer compared
        return type(error).__name__, str(error)


def behaviour(cls: Any) -> list[object]:
    args, kwargs = ARGS[cls.__name__]
    one, two, spare = cls(*args, **kwargs), cls(*args, **kwargs), cls(*args, **kwargs)
    first_field = next(iter(dataclasses.fields(cls)), None)
    asked = STANDARD[cls.__name__].__dataclass_params__  # type: ignore[attr-defined]
    made = cls.__dataclass_params__

    def shown(record: object) -> str:  # without the address where repr is object's
        return repr(record) if asked.repr else repr(record).split(" at ")[0]

    def hashed(record: object) -> object:  # hash by identity where eq is object's
        return outcome(lambda: hash(record)) if asked.eq else "by identity"

    return [
        shown(one), one == two, one != two, one == object(), hashed(one),
        outcome(lambda: hash(one) == hash(two)), cls.__doc__, cls.__match_args__,
        [(f.name, f.type, f.repr, f.compare, f.hash, f.kw_only) for f in dataclasses.fields(cls)],
        str(inspect.signature(cls)), outcome(lambda: setattr(spare, "a", 9)),
        outcome(lambda: setattr(spare, "new", 9)), outcome(lambda: delattr(spare, "a")),
        shown(dataclasses.replace(one)), copy.deepcopy(one) == one,
        (made.init, made.repr, made.eq, made.order, made.unsafe_hash, made.frozen),
        cls.__hash__ is None, [getattr(cls, n).__qualname__ for n in
                               ("__init__", "__repr__", "__eq__") if n in cls.__dict__],
        first_field is not None and getattr(one, first_field.name),
        getattr(one, "rest", None), outcome(lambda: one < two), outcome(lambda: one <= two),
        outcome(lambda: one > two), outcome(lambda: one >= two),
        outcome(lambda: sorted([cls(*args, **kwargs), one]) == [one, one] if asked.order else 0),
        list(vars(one).items()),
    ]


@pytest.mark.parametrize("name", sorted(ARGS))
def test_a_record_behaves_as_under_the_standard_decorator(name: str) -> None:
    assert behaviour(RECORDS[name]) == behaviour(STANDARD[name])


def test_equality_and_hash_follow_the_compared_fields() -> None:
    options = RECORDS["Options"]
    assert options(1, 2, 3, 4, 5) == options(1, 2, 9, 4, 9) != options(1, 2, 3, 5, 5)
    assert hash(options(1, 0, 0, 0, 1)) != hash(options(1, 0, 0, 0, 2))  # `hash=True` counts
    nan = float("nan")
    one, standard = RECORDS["One"], STANDARD["One"]  # NaN: as the standard decorator of this
    assert (one(nan) == one(nan)) == (standard(nan) == standard(nan))  # Python (3.13: unequal)
    assert hash(RECORDS["One"](2.0)) == hash((2.0,)) == hash(STANDARD["One"](2.0))


def test_a_record_that_holds_itself_prints_dots() -> None:
    for decorate in DECORATORS.values():
        holder = kinds(decorate)["Mutable"](1)
        holder.rest["me"] = holder
        assert repr(holder) == "kinds.<locals>.Mutable(a=1, rest={'seen': 1, 'me': ...})"


def test_ordered_records_sort_by_their_compared_fields() -> None:
    for decorate in DECORATORS.values():
        ordered = kinds(decorate)["Ordered"]
        made = [ordered(2, "a"), ordered(1, "z", (3,)), ordered(1, "b", (1, 2))]
        assert [(o.a, o.c) for o in sorted(made)] == [(1, (1, 2)), (1, (3,)), (2, ())]
        assert ordered(1, "q") <= ordered(1, "r") and not ordered(1) < ordered(1)
        with pytest.raises(TypeError):
            assert ordered(1) < RECORDS["One"](1.0)

    class Defines:
        a: int

        def __lt__(self, other: object) -> bool:
            return True

    with pytest.raises(TypeError, match="Cannot overwrite attribute __lt__"):
        records.dataclass(frozen=True, order=True)(Defines)


@pytest.mark.skipif(not records._COPIED, reason="this Python's records are the standard ones")
def test_comparisons_and_hash_are_the_standard_text_once_first_called() -> None:
    plain = kinds(records.dataclass)["Plain"]
    stub = plain.__dict__["__eq__"]
    assert plain(1) == plain(1) and plain(1) != plain(2)
    compiled = plain.__dict__["__eq__"]
    assert compiled is not stub and compiled.__code__.co_filename == "<string>"
    assert compiled.__qualname__ == STANDARD["Plain"].__eq__.__qualname__
    assert hash(plain(1, "x")) == hash((1, "x", ())) == hash(plain(1, "x"))
    assert plain.__dict__["__hash__"].__code__.co_filename == "<string>"


def test_the_standard_helper_and_exec_are_back_after_each_record() -> None:
    helper = getattr(dataclasses, "_frozen_get_del_attr", None)
    records.dataclass(frozen=True)(type("Made", (), {"__annotations__": {"a": "int"}}))
    assert getattr(dataclasses, "_frozen_get_del_attr", None) is helper
    assert "exec" not in vars(dataclasses)  # the builtin again (method_code.py's, while made)


def test_methods_made_here_are_named_as_the_class_own() -> None:
    """pickle and inspect find a method by its module and qualified name."""

    @records.dataclass(frozen=True, order=True)
    class Kept:
        a: int

    for name in ("__repr__", "__eq__", "__hash__", "__lt__", "__setattr__", "__delattr__"):
        method = getattr(Kept, name)
        assert method.__module__ == Kept.__module__, name
        assert method.__qualname__.endswith(f"Kept.{name}"), name


def test_a_record_made_while_another_is_made_does_not_wait_for_itself() -> None:
    """The swap's lock is re-entrant: a frozen record made while another is being made (here by
    a field default's descriptor, which the decorator reads) finishes."""

    during: list[object] = []

    class MakesARecord:
        def __get__(self, record: object, owner: type) -> int:
            @records.dataclass(frozen=True)
            class Inner:
                b: int

            during.append(vars(dataclasses).get("exec"))  # the outer record's, put back
            return Inner(1).b

    made: list[int] = []

    def make() -> None:
        @records.dataclass(frozen=True)
        class Outer:
            a: int = MakesARecord()  # type: ignore[assignment]

        made.append(Outer().a)

    import threading

    maker = threading.Thread(target=make, daemon=True)  # a wait for itself fails, not hangs
    maker.start()
    maker.join(timeout=10)
    assert made == [1]
    assert during and all(e is (records._exec_kept if records._COPIED else None)
                          for e in during)
    assert "exec" not in vars(dataclasses)



def test_a_frozen_record_sets_its_fields_in_one_step() -> None:
    """The standard text sets a frozen record's fields one `object.__setattr__` call each; the
    record's own sets them all at once, the same values in the same order."""
    standard = ("def __create_fn__(__dataclass_type__):\n"
                " def __init__(self, a:_type_a, b:_type_b=_HAS_DEFAULT_FACTORY):\n"
                "  __dataclass_builtins_object__.__setattr__(self,'a',a)\n"
                "  __dataclass_builtins_object__.__setattr__(self,'b',_dflt_b() if b is "
                "_HAS_DEFAULT_FACTORY else b)\n"
                "  self.__post_init__()\n"
                " return __init__")
    assert records._fields_at_once(standard).split("\n")[2:4] == [
        "  __dataclass_builtins_object__.__setattr__(self,'__dict__',{'a':a,'b':_dflt_b() if b "
        "is _HAS_DEFAULT_FACTORY else b})",
        "  self.__post_init__()"]
    mutable = "def __init__(self, a):\n  self.a=a\n  self.b=a"
    assert records._fields_at_once(mutable) == mutable
    made = RECORDS["Plain"].__init__.__code__.co_consts
    assert ("a", "b", "c") in made, "the field names are the keys of one dict"
    assert ("a", "b", "c") not in STANDARD["Plain"].__init__.__code__.co_consts

"""State that changes says so (issue 26, point 4): a record declared frozen is never written
after it is made. What a turn keeps for speed lives in a declared memo field (a small mutable
class, neither compared nor printed: `automa.model.memo.Memo`) or with whoever owns it; the
judge and the chance are handed what to show the players before each question, never
re-pointed by an activation."""

from __future__ import annotations

import gc
import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from msgspec import Struct
from msgspec.structs import replace

from automa.catalog.load import Catalog
from automa.engine.battle import Table
from automa.engine.chance import Chance
from automa.engine.judge import Judge
from automa.engine.outcome_tree import OutcomeTree
from automa.engine.turn import run_turn
from automa.geometry.table import build_table, remembering
from automa.model.memo import Memo
from automa.model.pieces import Condition, Kind, Piece, Side
from automa.model.shots import ModifierName, Shot, ShotName, parse_sequence
from automa.scenario.load import load_scenario
from automa.session.store import Session
from tests.test_asked_questions import DiceTable
from tests.test_geometry_modes import DUEL

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo-battle.toml"


def is_frozen_record(kind: object) -> bool:
    return (isinstance(kind, type) and issubclass(kind, Struct)
            and kind.__struct_config__.frozen and kind.__module__.startswith("automa."))


def members(thing: Struct) -> dict[str, object]:
    """A record's fields by name."""
    return {name: getattr(thing, name) for name in thing.__struct_fields__}


def frozen_records() -> Iterator[Struct]:
    """Every instance alive of a frozen record class of the program."""
    gc.collect()
    for thing in gc.get_objects():
        if is_frozen_record(type(thing)):
            yield thing


def test_after_turns_a_forecast_and_a_session_every_frozen_record_holds_its_fields_alone(
        catalog: Catalog, tmp_path: Path) -> None:
    """A record with no instance dict can hold nothing but its fields (a mixin without
    `__slots__` would give it one)."""
    scenario = load_scenario(DEMO, catalog)
    results = [run_turn(scenario, catalog, seed, explain=True) for seed in range(3)]
    tree = OutcomeTree(scenario, catalog, remembering(build_table(scenario.playmat)))
    ends = [tree.play(seed) for seed in range(20)]
    duel = tmp_path / "duel.toml"
    duel.write_text(DUEL)
    session = Session.create(tmp_path / "dice", duel, catalog, 4, "physical", "tracked")
    activation = session.next_activation(DiceTable([]))
    checked: set[str] = set()
    for record in frozen_records():
        assert not hasattr(record, "__dict__"), f"{type(record).__name__} has an instance dict"
        checked.add(type(record).__name__)
    # the records that used to keep hidden indexes, memos and notations are among them
    assert {"Battle", "Table", "Tiles", "Catalog", "Shot", "Sequence", "Piece"} <= checked
    assert results and ends and activation is not None  # alive while the objects were read


def frozen_record_classes() -> set[type[Struct]]:
    """Every frozen record class the program defines (each module imported)."""
    import automa

    found = set()
    for module in pkgutil.walk_packages(automa.__path__, "automa."):
        if module.name.endswith("__main__"):  # runs the command line
            continue
        for value in vars(importlib.import_module(module.name)).values():
            if is_frozen_record(value) and value.__module__ == module.name:
                found.add(value)
    return found


def test_no_frozen_record_class_gives_its_instances_a_dict() -> None:
    kinds = frozen_record_classes()
    assert len(kinds) > 100
    assert not [kind.__name__ for kind in kinds if kind.__dictoffset__]


def test_a_memo_is_neither_compared_nor_printed_and_every_record_makes_its_own(
        catalog: Catalog) -> None:
    """A memo is not part of the record's value: two records equal field by field are equal
    whatever either has kept; a record made by `replace` starts with a memo of its own."""
    holders = {(kind.__name__, name) for kind in frozen_record_classes()
               for name, default in zip(reversed(kind.__struct_fields__),
                                        reversed(kind.__struct_defaults__), strict=False)
               if getattr(default, "factory", None) is not None
               and isinstance(default.factory, type) and issubclass(default.factory, Memo)}
    assert holders == {("Battle", "indexes"), ("Table", "memo"), ("Tiles", "memo"),
                       ("Catalog", "memo")}
    battle = run_turn(load_scenario(DEMO, catalog), catalog, 1).battle
    fresh = replace(battle)
    assert fresh.indexes.by_id is None  # a record made anew starts with none built
    battle.piece(battle.pieces[0].id)
    assert battle.indexes.by_id is not None
    assert battle == fresh and repr(battle) == repr(fresh) and hash(battle.indexes) == 0
    moved = battle.with_piece(battle.pieces[0].moved((1.0, 1.0)))
    assert moved.indexes.by_id is not None and moved.indexes is not battle.indexes
    changed = replace(battle, out={"x": "gone"})
    assert changed.indexes is not battle.indexes and changed.indexes.by_id is None
    tiles = load_scenario(DEMO, catalog).tiles
    assert replace(tiles).memo is not tiles.memo
    assert replace(catalog).memo is not catalog.memo


def test_a_moved_or_altered_piece_is_the_piece_replace_makes() -> None:
    elf = Piece("elf", Side.HEROES, Kind.HERO, (1.0, 2.0), 1.5, health=9,
                conditions=frozenset({Condition.STUNNED}))
    for made, expected in ((elf.moved((3.0, 4.0)), replace(elf, at=(3.0, 4.0))),
                           (elf.altered(health=4, gold=2), replace(elf, health=4, gold=2))):
        assert made == expected and members(made) == members(expected)
    assert elf != elf.moved((3.0, 4.0))
    with pytest.raises(TypeError, match="no field 'hp'"):
        elf.altered(hp=3)


def test_a_notation_is_made_with_its_shot_and_made_again_with_a_changed_one() -> None:
    sequence = parse_sequence("rush then melee+poison(2)")
    assert sequence.notation() == "rush then melee+poison(2)"
    last = sequence.shots[-1]
    turned = replace(last, modifiers=())
    assert turned.notation() == "melee" and last.notation() == "melee+poison(2)"
    assert Shot(ShotName.SUMMON, argument="zombie").notation() == "summon zombie"
    assert replace(last, modifiers=()) == Shot(ShotName.MELEE)
    assert Shot(ShotName.MELEE, ()) != replace(last, name=ShotName.BITE, modifiers=())
    assert parse_sequence("melee+stun").shots[0].has_modifier(ModifierName.STUN)


def test_an_activation_re_points_nothing_the_table_holds(catalog: Catalog,
                                                         tmp_path: Path) -> None:
    """The table's judge and chance are the ones it was made with, their members too: what
    the players are shown before a question or a roll is handed to it."""
    duel = tmp_path / "duel.toml"
    duel.write_text(DUEL)
    session = Session.create(tmp_path / "dice", duel, catalog, 4, "physical", "tracked")
    seen: list[tuple[Judge, Chance, dict[str, object], dict[str, object]]] = []
    from automa.engine import turn

    real = turn.activate

    def watched(table: Table, *args: object, **kwargs: object) -> object:
        judge, chance = table.judge, table.chance
        held = {k: v for k, v in members(judge).items() if k not in ("record",)}
        rolled = {k: v for k, v in members(chance).items() if k not in ("record", "used")}
        result = real(table, *args, **kwargs)  # type: ignore[arg-type]
        assert table.judge is judge and table.chance is chance
        after = {k: v for k, v in members(judge).items() if k not in ("record",)}
        assert after.keys() == held.keys()
        assert all(after[k] is held[k] or after[k] == held[k] for k in held)
        assert {k: v for k, v in members(chance).items()
                if k not in ("record", "used")}.keys() == rolled.keys()
        assert all(getattr(chance, k) is v for k, v in rolled.items())
        seen.append((judge, chance, held, rolled))
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(turn, "activate", watched)
        table = DiceTable([])
        session.next_activation(table)
    assert seen and any(q.startswith("Roll the D12") for q in table.questions)

"""State that changes says so (issue 26, point 4): a record declared frozen is never written
after it is made. What a turn keeps for speed lives in a declared memo field (a small mutable
class, neither compared nor printed) or with whoever owns it; the judge and the chance are
handed what to show the players before each question, never re-pointed by an activation."""

from __future__ import annotations

import gc
import importlib
import pkgutil
from collections.abc import Iterator
from dataclasses import fields, is_dataclass, replace
from pathlib import Path

import pytest

from automa.catalog.load import Catalog
from automa.engine.battle import Table
from automa.engine.chance import Chance
from automa.engine.judge import Judge
from automa.engine.outcome_tree import OutcomeTree, _same_pieces
from automa.engine.turn import run_turn
from automa.geometry.table import build_table, remembering
from automa.model.pieces import Condition, Kind, Piece, Side
from automa.model.shots import ModifierName, Shot, ShotName, parse_sequence
from automa.scenario.load import load_scenario
from automa.session.store import Session
from tests.test_asked_questions import DiceTable
from tests.test_geometry_modes import DUEL

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo-battle.toml"


def frozen_records() -> Iterator[object]:
    """Every instance alive of a frozen record class of the program."""
    gc.collect()
    for thing in gc.get_objects():
        kind = type(thing)
        if (is_dataclass(kind) and kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
                and kind.__module__.startswith("automa.")):
            yield thing


def test_after_turns_a_forecast_and_a_session_every_frozen_record_holds_its_fields_alone(
        catalog: Catalog, tmp_path: Path) -> None:
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
        names = {f.name for f in fields(record)}  # type: ignore[arg-type]
        extra = vars(record).keys() - names
        assert not extra, f"{type(record).__name__} holds {sorted(extra)} besides its fields"
        checked.add(type(record).__name__)
    # the records that used to keep hidden indexes, memos and notations are among them
    assert {"Battle", "Table", "Tiles", "Catalog", "Shot", "Sequence", "Piece"} <= checked
    assert results and ends and activation is not None  # alive while the objects were read


def frozen_record_classes() -> set[type]:
    """Every frozen record class the program defines (each module imported)."""
    import automa

    found = set()
    for module in pkgutil.walk_packages(automa.__path__, "automa."):
        if module.name.endswith("__main__"):  # runs the command line
            continue
        for value in vars(importlib.import_module(module.name)).values():
            if (isinstance(value, type) and is_dataclass(value)
                    and value.__module__ == module.name
                    and value.__dataclass_params__.frozen):  # type: ignore[attr-defined]
                found.add(value)
    return found


def test_a_field_not_given_to_the_constructor_is_neither_compared_nor_printed() -> None:
    """A memo or a value worked out from the other fields is not part of the record's value:
    two records equal field by field are equal whatever either has kept."""
    kinds = frozen_record_classes()
    derived = {(kind.__name__, f.name) for kind in kinds for f in fields(kind) if not f.init}
    assert {("Battle", "indexes"), ("Table", "memo"), ("Tiles", "memo"), ("Catalog", "memo"),
            ("Shot", "text"), ("Sequence", "text")} <= derived
    for kind in kinds:
        for f in fields(kind):
            if not f.init:
                assert not f.compare and not f.repr, f"{kind.__name__}.{f.name}"


def test_a_battle_that_has_built_its_indexes_equals_one_that_has_not(catalog: Catalog) -> None:
    battle = run_turn(load_scenario(DEMO, catalog), catalog, 1).battle
    fresh = replace(battle)
    assert fresh.indexes.by_id is None  # a record made anew starts with none built
    battle.piece(battle.pieces[0].id)
    assert battle.indexes.by_id is not None
    assert battle == fresh and repr(battle) == repr(fresh)
    moved = battle.with_piece(battle.pieces[0].moved((1.0, 1.0)))
    assert moved.indexes.by_id is not None and moved.indexes is not battle.indexes


def test_a_moved_or_altered_piece_is_the_piece_replace_makes() -> None:
    """`moved` and `altered` copy the fields rather than run the constructor: that makes the
    same record only while Piece works nothing out when it is made."""
    assert not hasattr(Piece, "__post_init__")
    assert all(f.init and f.compare for f in fields(Piece))
    elf = Piece("elf", Side.HEROES, Kind.HERO, (1.0, 2.0), 1.5, health=9,
                conditions=frozenset({Condition.STUNNED}))
    for made, expected in ((elf.moved((3.0, 4.0)), replace(elf, at=(3.0, 4.0))),
                           (elf.altered(health=4, gold=2), replace(elf, health=4, gold=2))):
        assert made == expected and vars(made) == vars(expected)
        assert _same_pieces((made,), (expected,))
    assert not _same_pieces((elf,), (elf.moved((3.0, 4.0)),))
    with pytest.raises(TypeError, match="no field hp"):
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
        members = {k: v for k, v in vars(judge).items() if k not in ("record",)}
        rolled = {k: v for k, v in vars(chance).items() if k not in ("record", "used")}
        result = real(table, *args, **kwargs)  # type: ignore[arg-type]
        assert table.judge is judge and table.chance is chance
        after = {k: v for k, v in vars(judge).items() if k not in ("record",)}
        assert after.keys() == members.keys()
        assert all(after[k] is members[k] or after[k] == members[k] for k in members)
        assert {k: v for k, v in vars(chance).items()
                if k not in ("record", "used")}.keys() == rolled.keys()
        assert all(getattr(chance, k) is v for k, v in rolled.items())
        seen.append((judge, chance, members, rolled))
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(turn, "activate", watched)
        table = DiceTable([])
        session.next_activation(table)
    assert seen and any(q.startswith("Roll the D12") for q in table.questions)

"""What a session's inputs were played under besides scenario.toml: the rules data files in
force (shipped and the user's folder's, each by its digest) and every switchable ruling's
option. The header records them; a checkpoint line (`automa log --accept-data`) records them
anew. A session whose data or rulings differ from the record is refused in one line naming
what changed: replaying its activations under other data would silently change them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from automa.catalog.digests import data_changes, data_digests, file_digests, well_formed
from automa.catalog.load import Catalog
from automa.model.pieces import Kind
from automa.model.scenario import Scenario
from automa.model.shots import Sequence as ShotSequence
from automa.model.shots import ShotName
from automa.rules.rulings import SWITCHES, option
from automa.session.commands import BASIS_KEYS, Checkpoint, Command

DATA, FILES, RULINGS = BASIS_KEYS


def rulings_in_force(scenario: Scenario) -> dict[str, str]:
    """Every switchable ruling and the option the table plays it with (its [rulings] choice,
    else our default, which a later automa may change)."""
    return {key: option(scenario.settings.rulings, key) for key in sorted(SWITCHES)}


def _summons(sequences: Iterable[ShotSequence]) -> list[str]:
    return [shot.argument for sequence in sequences for shot in sequence.shots
            if shot.name == ShotName.SUMMON and shot.argument]


def records_reached(scenario: Scenario, catalog: Catalog) -> dict[str, set[str]]:
    """The data records a battle can read: its mat, its pieces' monster and Lord records,
    what those can summon (and so on), and every Antient (the table may report one
    summoned)."""
    todo = [p.monster for p in scenario.pieces if p.monster]
    todo += _summons(s for p in scenario.pieces for s in p.sequences)
    todo += [key for key, spec in catalog.monsters.items() if spec.kind == Kind.ANTIENT]
    monsters: set[str] = set()
    lords: set[str] = set()
    while todo:
        record = todo.pop()
        if record in monsters or record in lords:
            continue
        lord = catalog.lords.get(record)
        if lord is not None:
            lords.add(record)
            todo += [*_summons(lord.sequences), *lord.summon_choices]
            continue
        monsters.add(record)  # known or not: one added later would be named
        spec = catalog.monsters.get(record)
        if spec is not None:
            todo += _summons(spec.sequences)
    mats = {scenario.playmat_ref} if scenario.playmat_ref in catalog.playmats else set()
    return {"monsters.toml": monsters, "lords.toml": lords, "playmats.toml": mats}


def started_with(scenario: Scenario, catalog: Catalog) -> dict[str, Any]:
    """The header's (and a checkpoint's) record of the data and rulings in force."""
    return {DATA: data_digests(catalog.data_dir, records_reached(scenario, catalog)),
            FILES: file_digests(catalog.data_dir), RULINGS: rulings_in_force(scenario)}


def recorded_basis(header: Mapping[str, Any], done: Sequence[Command]) -> Mapping[str, Any]:
    """The data and rulings the inputs in force were last recorded under: the latest
    checkpoint's, else the header's (a log from before this record has neither)."""
    for command in reversed(done):
        if isinstance(command, Checkpoint):
            return command.basis
    return header


def ruling_changes(recorded: Mapping[str, Any], now: Mapping[str, str]) -> list[str]:
    changes = []
    for key in sorted(set(recorded) | set(now)):
        if recorded.get(key) != now.get(key):
            was, is_ = recorded.get(key, "no such ruling"), now.get(key, "no such ruling")
            changes.append(f"ruling {key} was {was}, is {is_} now")
    return changes


def basis_changes(recorded: Mapping[str, Any], scenario: Scenario,
                  catalog: Catalog) -> list[str]:
    """What differs from the record: data files by name, rulings by key (empty: nothing,
    or nothing was recorded)."""
    changes = []
    same_bytes = FILES in recorded and recorded[FILES] == file_digests(catalog.data_dir)
    if DATA in recorded and not same_bytes:  # only then are the tables worth reading
        if not well_formed(recorded[DATA]):
            return ["the record of the data files is damaged"]
        changes += data_changes(recorded[DATA], catalog.data_dir)
    if RULINGS in recorded:
        rulings = recorded[RULINGS]
        if not isinstance(rulings, dict):
            return [*changes, "the record of the rulings is damaged"]
        changes += ruling_changes(rulings, rulings_in_force(scenario))
    return changes


def refusal(folder: Path, changes: Sequence[str]) -> str:
    """One line: what changed, and the two ways on."""
    return (f"{folder}: the session's inputs were played under other rules data than now "
            f"({'; '.join(changes)}), which would change past activations; put it back, or go "
            f"on under it from the next input on with `automa log --accept-data --session "
            f"{folder}`")

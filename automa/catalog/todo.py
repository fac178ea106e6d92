"""`automa data todo`: every record whose card fields our data lacks, and what each is for."""

from __future__ import annotations

from msgspec import Struct

from automa.catalog.fields import DEFAULTED, REQUIRED, SETUP, kind_of, needed
from automa.catalog.load import Catalog
from automa.model.monsters import LordSpec, MonsterSpec
from automa.model.pieces import Kind


class Todo(Struct, frozen=True):
    """One record's card fields our data lacks."""

    id: str
    name: str
    kind: Kind
    file: str
    provenance: str
    fields: tuple[str, ...]

    def role(self, field: str) -> str:
        """What the field is for: "battle", "stand-in" (a default is used) or "setup"."""
        if field in REQUIRED[self.kind]:
            return "battle"
        if field in DEFAULTED[self.kind]:
            return "stand-in"
        return "setup" if field in SETUP[self.kind] else "card"


def todo(catalog: Catalog, every: bool = False) -> list[Todo]:
    """Every record with unknown fields a battle or setup needs (`every`: any card field)."""
    found = []
    specs: list[MonsterSpec | LordSpec] = [*catalog.monsters.values(), *catalog.lords.values()]
    for spec in specs:
        fields = needed(spec, every)
        if fields:
            found.append(Todo(spec.id, spec.name, kind_of(spec),
                              catalog.files.get(spec.id, "data"), spec.provenance, fields))
    return found

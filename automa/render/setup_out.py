"""The setup printout (table words and coordinates) and its JSON (CONTRACT.md)."""

from __future__ import annotations

import textwrap
from typing import Any

from automa.engine.setup import SetupResult
from automa.model.components import TileSet
from automa.model.pieces import Kind
from automa.model.provenance import Provenance
from automa.render.markers import markers, markers_line
from automa.render.text import RULE, WIDTH
from automa.rules.rulings import RulingKey, ruling

UNMEASURED = Provenance.HOUSE  # the provenance of our placeholder mat layouts (ruling 5)


def _at(point: tuple[float, float], mark: str = "") -> str:
    return f"({point[0]:.1f}, {point[1]:.1f}){mark}"


def unmeasured(result: SetupResult) -> bool:
    """The coordinates are on one of our placeholder layouts, not on a measured mat."""
    return result.scenario.playmat.provenance == UNMEASURED


def _house_mark(result: SetupResult) -> str:
    entry = ruling(RulingKey.SIZES)
    return (f"* ruling {entry.number}: the coordinates marked * are on our unmeasured placeholder "
            f"layout of the {result.scenario.playmat.name} mat (docs/rulings.md): place by the "
            f"words (the rune, the obstacle, the edge) and correct the positions where your mat "
            f"differs; measure your mat to make them exact (docs/data.md)")


def setup_rulings(result: SetupResult) -> list[int]:
    """The numbers of the rulings the setup printout marks: those it rests on (said in its
    notes) and ruling 5 on an unmeasured mat."""
    keys = {*result.rulings, *((RulingKey.SIZES,) if unmeasured(result) else ())}
    return sorted(ruling(key).number for key in keys)


def setup_json(result: SetupResult) -> dict[str, Any]:
    """`marker` in a placement: the number of the marker that tells the disc from its twins
    (render/markers.py), or null for a monster alone of its kind."""
    tiles = result.tiles
    numbered = markers(result.scenario.pieces)
    return {
        "room": result.room,
        "playmat": result.playmat,
        "playmat_reason": result.playmat_reason,
        "playmat_measured": not unmeasured(result),
        "tiles": {
            "character_order": list(tiles.character_order),
            "monster_order": list(tiles.monster_order),
            "direction": list(tiles.direction),
            "discarded_directions": list(result.discarded_directions),
            "hero_targets": dict(tiles.hero_targets),
        },
        "placements": [{"piece": p.piece, "monster": p.monster,
                        "at": [round(p.at[0], 2), round(p.at[1], 2)], "where": p.where,
                        "source": p.source, "marker": numbered.get(p.piece)}
                       for p in result.placements],
        "heroes": [{"piece": h.piece, "at": [round(h.at[0], 2), round(h.at[1], 2)],
                    "kind": h.source, "where": h.where} for h in result.heroes],
        "hidden_cave": list(result.hidden_cave),
        "notes": list(result.notes),
        "rulings": setup_rulings(result),
        "chance": [{"kind": o.kind, "value": o.value, "source": o.source, "why": o.why}
                   for o in result.outcomes],
    }


def setup_text(result: SetupResult, faces: TileSet) -> str:
    """The setup in table words; `faces` names the Monster tiles by their printed colour."""
    tiles = result.tiles
    kind = "Catacomb Lord's lair" if result.lair else "battle room"
    lines = [f"Setup · {result.room_name} ({kind})", RULE]

    def field(label: str, text: str) -> None:
        lines.extend(textwrap.wrap(text, WIDTH, initial_indent=f"{label:<10}",
                                   subsequent_indent=" " * 10, break_on_hyphens=False)
                     or [label])

    field("Playmat", f"{result.playmat} — {result.playmat_reason}")
    field("Character", "lay the Character tiles left to right: "
          + ", ".join(tiles.character_order))
    field("Monster", "lay the Monster tiles left to right: "
          + ", ".join(faces.monster_label(f) for f in tiles.monster_order))
    discarded = (f" (discarded while drawing: {', '.join(result.discarded_directions)})"
                 if result.discarded_directions else "")
    field("Direction", f"green {tiles.direction[0]}, blue {tiles.direction[1]}{discarded}; "
          f"below the mat behind the Monster Start Zone")
    if tiles.hero_targets:
        field("Targets", "Hero Target tiles: " + ", ".join(
            f"{hero} {tile}" for hero, tile in tiles.hero_targets.items()))
    mark = "*" if unmeasured(result) else ""
    numbered = markers(result.scenario.pieces)
    lines.append("Place the monsters in this order:")
    for number, p in enumerate(result.placements, start=1):
        marker = f", marker {numbered[p.piece]}" if p.piece in numbered else ""
        lines.extend(textwrap.wrap(f"{number:>2}. {p.piece} ({p.source}) → {p.where} "
                                   f"{_at(p.at, mark)}{marker}", WIDTH,
                                   subsequent_indent=" " * 6))
    first = next((p for p in result.scenario.pieces if p.id in numbered), None)
    if first is not None:
        lines.extend(textwrap.wrap(markers_line(first, numbered[first.id], placing=True),
                                   WIDTH, subsequent_indent="  "))
    if result.heroes:
        kinds = {h.source for h in result.heroes}
        lines.extend(textwrap.wrap(
            "Heroes: place them in the Hero Start Zone as usual"
            + (", their allies too" if Kind.ALLY in kinds else "")
            + (", each familiar within 2.5 cm of its hero" if Kind.FAMILIAR in kinds else "")
            + "; the file has them at "
            + ", ".join(f"{h.piece} {_at(h.at, mark)}" for h in result.heroes)
            + " — correct the positions before the first turn.", WIDTH,
            break_on_hyphens=False))
    if mark:
        lines.extend(textwrap.wrap(_house_mark(result), WIDTH, subsequent_indent="  "))
    for note in result.notes:
        lines.extend(textwrap.wrap(note, WIDTH, initial_indent="* ", subsequent_indent="  "))
    return "\n".join(lines) + "\n"

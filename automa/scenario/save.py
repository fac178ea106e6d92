"""Write a scenario back to TOML (the same format load_scenario reads), atomically."""

from __future__ import annotations

from pathlib import Path

from automa.model.pieces import Kind, Piece, Side
from automa.model.playmat import Playmat
from automa.model.scenario import Scenario
from automa.scenario.load import FORMAT
from automa.storage import atomic_write_text
from automa.toml_text import toml_string

_s = toml_string


def _n(value: float) -> str:
    return repr(round(float(value), 4))


def _pt(point: tuple[float, float]) -> str:
    return f"[{_n(point[0])}, {_n(point[1])}]"


def _list(values: list[str]) -> str:
    return "[" + ", ".join(values) + "]"


def _playmat_lines(playmat: Playmat) -> list[str]:
    lines = ["", "[playmat]", f"name = {_s(playmat.name)}",
             f"size = [{_n(playmat.width)}, {_n(playmat.length)}]",
             f"hero_zone = {_n(playmat.hero_zone)}", f"monster_zone = {_n(playmat.monster_zone)}",
             f"rune_radius = {_n(playmat.rune_radius)}", "obstacles = ["]
    for o in playmat.obstacles:
        shape = (f"circle = [{_n(o.circle[0])}, {_n(o.circle[1])}, {_n(o.circle[2])}]"
                 if o.circle else f"polygon = {_list([_pt(p) for p in o.polygon])}")
        rune = f", rune = {o.rune}" if o.rune is not None else ""
        lines.append(f"  {{ id = {_s(o.id)}, {shape}{rune} }},")
    lines.append("]")
    runes = ", ".join(f"{k} = {_pt(v)}" for k, v in sorted(playmat.runes.items()))
    lines.append(f"runes = {{ {runes} }}")
    return lines


def _piece_lines(piece: Piece) -> list[str]:
    lines = ["", "[[piece]]", f"id = {_s(piece.id)}", f"side = {_s(piece.side)}",
             f"kind = {_s(piece.kind)}"]
    if piece.monster:
        lines.append(f"monster = {_s(piece.monster)}")
    if piece.name:
        lines.append(f"name = {_s(piece.name)}")
    lines += [f"at = {_pt(piece.at)}", f"radius = {_n(piece.radius)}"]
    if piece.health is not None:
        lines.append(f"health = {piece.health}")
    if piece.starting_health is not None:
        lines.append(f"starting_health = {piece.starting_health}")
    for key in ("gold", "poison", "items"):
        if getattr(piece, key):
            lines.append(f"{key} = {getattr(piece, key)}")
    if piece.side == Side.AI and piece.kind == Kind.MONSTER:
        lines += [f"family = {_s(piece.family or '')}", f"level = {piece.level}"]
    if piece.sequences:
        lines.append(f"sequences = {_list([_s(s.notation()) for s in piece.sequences])}")
    if piece.flying:
        lines.append("flying = true")
    if piece.colour is not None:  # a Yilleph piece: its colour says whether it is invulnerable
        lines.append(f"colour = {_s(piece.colour)}")
    elif piece.invulnerable:
        lines.append("invulnerable = true")
    if piece.part_of:
        lines.append(f"part_of = {_s(piece.part_of)}")
    if piece.serves:
        lines.append(f"serves = {_s(piece.serves)}")
    if piece.conditions:
        lines.append(f"conditions = {_list([_s(c) for c in sorted(piece.conditions)])}")
    return lines


def scenario_text(scenario: Scenario) -> str:
    settings, tiles, templates = scenario.settings, scenario.tiles, scenario.templates
    lines = [
        f"format = {FORMAT}",
        "",
        "[battle]",
        f"playmat = {_s(scenario.playmat_ref)}",
        f"los_blocked = {str(settings.los_blocked).lower()}",
        f"los_test = {_s(settings.los_test)}",
        f"advanced_targeting = {str(settings.advanced_targeting).lower()}",
        f"close_call = {_n(settings.close_call)}",
        f"round = {scenario.round}",
        "",
        "[templates]",
        "ruler = { " + ", ".join(f"{k} = {_n(v)}" for k, v in sorted(templates.rulers.items()))
        + " }",
        f"attack = {{ radius = {_n(templates.attack_radius)} }}",
        f"clock = {{ radius = {_n(templates.clock_radius)} }}",
    ]
    if settings.rulings:
        lines += ["", "[rulings]"] + [f"{k} = {_s(v)}" for k, v in sorted(settings.rulings.items())]
    if scenario.playmat_ref == "inline":
        lines += _playmat_lines(scenario.playmat)
    lines += [
        "",
        "[tiles]",
        f"character_order = {_list([_s(t) for t in tiles.character_order])}",
        f"monster_order = {_list([_s(t) for t in tiles.monster_order])}",
        f"direction = {_list([_s(t) for t in tiles.direction])}",
        "hero_targets = { " + ", ".join(f"{_s(k)} = {v}" for k, v in tiles.hero_targets.items())
        + " }",
    ]
    for piece in scenario.pieces:
        lines += _piece_lines(piece)
    chance = scenario.chance
    lines += ["", "[chance]"]
    if chance.seed is not None:
        lines.append(f"seed = {chance.seed}")
    for key in ("d12", "rune_die", "location_die"):
        values = getattr(chance, key)
        if values:
            lines.append(f"{key} = {_list([str(v) for v in values])}")
    if chance.tokens:
        tokens = ", ".join(f"{level} = {_list([_s(t.label()) for t in values])}"
                           for level, values in sorted(chance.tokens.items()))
        lines.append(f"tokens = {{ {tokens} }}")
    for level, bag in sorted(scenario.bags.items()):
        lines += ["", f"[bags.{level}]",
                  f"tokens = {_list([_s(t.label()) for t in bag.tokens])}",
                  f"discard = {_list([_s(t.label()) for t in bag.discard])}"]
    if scenario.out:
        lines += ["", "[out]"] + [f"{_s(k)} = {_s(v)}" for k, v in scenario.out.items()]
    return "\n".join(lines) + "\n"


def save_scenario(scenario: Scenario, path: str | Path) -> None:
    atomic_write_text(path, scenario_text(scenario))

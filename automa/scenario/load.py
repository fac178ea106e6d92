"""Read and validate a scenario file. Unknown keys are errors; every message names the file,
the record and the field (`battle.toml: [piece rat-1] at: ...`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from automa.catalog.fields import card_hint, kind_of, missing_for_battle
from automa.catalog.load import MAX_RADIUS_CM, MAX_TEMPLATE_CM, Catalog, parse_playmat
from automa.catalog.pieces import disc_radius, lookup, monster_piece
from automa.catalog.reader import (
    Record,
    W,
    blank,
    check_int,
    describe,
    parse_toml,
    read_file_text,
)
from automa.errors import ScenarioError
from automa.geometry.moves import mount_under, overlap_with, rides_on
from automa.geometry.spots import first_obstacle_within
from automa.geometry.table import PLACEMENT_TOLERANCE, TableGeometry, build_table
from automa.model.components import FAMILIES, DamageToken, DirectionTile
from automa.model.modes import LosTest
from automa.model.monsters import LordSpec, MonsterSpec
from automa.model.pieces import (
    COLOURS,
    CONDITIONS,
    SIDE_KINDS,
    SIDES,
    Colour,
    Condition,
    Kind,
    Piece,
    Side,
)
from automa.model.playmat import Playmat
from automa.model.scenario import (
    LOS_TESTS,
    Bag,
    ChanceScript,
    Scenario,
    Settings,
    Templates,
    Tiles,
)
from automa.model.shots import Sequence, parse_sequence
from automa.rules.rulings import NOT_A_SWITCH, check_choice, key_of

if TYPE_CHECKING:
    from pathlib import Path

FORMAT = 1
MAX_PIECES = 200  # every piece is checked against every other: keep loading quick
TOP_LEVEL = ("format", "battle", "templates", "playmat", "tiles", "piece", "chance", "bags", "out",
             "rulings")


def load_scenario(path: str | Path, catalog: Catalog) -> Scenario:
    return parse_scenario(read_file_text(path, ScenarioError), str(path), catalog)


def parse_scenario(text: str, source: str, catalog: Catalog) -> Scenario:
    document = parse_toml(text, source, ScenarioError)
    top = Record(source, "", document, ScenarioError)
    version = top.integer("format")
    if version != FORMAT:
        raise top.fail("format", f"this program reads scenario format {FORMAT}, not {version}")
    battle = top.sub("battle", "battle")
    playmat_ref = battle.string("playmat")
    playmat = _playmat(top, battle, playmat_ref, catalog)
    settings = Settings(
        los_blocked=battle.boolean("los_blocked", False),
        los_test=battle.choice("los_test", LOS_TESTS, LosTest.CENTRE_LINE),
        advanced_targeting=battle.boolean("advanced_targeting", False),
        close_call=battle.number("close_call", 0.5, low=0.0, high=10.0),
        rulings=_rulings(top),
    )
    round_number = battle.integer("round", 1, low=1, high=999)
    battle.reject_unknown_keys()
    templates = _templates(top, catalog)
    pieces = _pieces(top, catalog, playmat)
    tiles = _tiles(top, pieces, catalog)
    chance = _chance(top, catalog)
    bags = _bags(top, catalog)
    out = _out(top, pieces)
    top.reject_unknown_keys()
    return Scenario(source, playmat, playmat_ref, settings, round_number, templates, tiles,
                    pieces, bags, chance, out)


def _out(top: Record, pieces: tuple[Piece, ...]) -> dict[str, str]:
    """`[out]`: each piece no longer in play, by id, and why (`rat-2 = "dead"`)."""
    if top.has("out") and not isinstance(top.table["out"], dict):
        raise top.fail("out", f"expected a table [out] of piece-id = \"why\", got "
                              f"{describe(top.table['out'])}")
    out = {}
    in_play = {p.id for p in pieces}
    for key, value in top.table_of("out", {}).items():
        top.plain(f"out.{key}", key)
        if not isinstance(value, str) or blank(value):
            raise ScenarioError(top.file, "out", key, f"expected why the piece left play, as "
                                                      f"\"dead\", got {describe(value)}")
        Record(top.file, "out", top.table["out"], ScenarioError).plain(key, value)  # printed
        if key in in_play:
            raise ScenarioError(top.file, "out", key, "this piece is also in play ([[piece]])")
        out[key] = value
    return out


def _rulings(top: Record) -> dict[str, str]:
    """`[rulings]`: the table's choice for each switchable ruling it reads otherwise, keyed by
    the ruling's `RulingKey` (a word that names no ruling is refused by name)."""
    chosen: dict[str, str] = {}
    for word, value in top.table_of("rulings", {}).items():
        key = key_of(word)
        if key is None:
            raise ScenarioError(top.file, "rulings", word, NOT_A_SWITCH)
        problem = check_choice(key, value)
        if problem is not None:
            raise ScenarioError(top.file, "rulings", word, problem)
        chosen[key] = str(value)
    return chosen


def _playmat(top: Record, battle: Record, ref: str, catalog: Catalog) -> Playmat:
    if ref == "inline":
        if not top.has("playmat"):
            raise battle.fail("playmat", "is \"inline\" but the file has no [playmat] table")
        record = top.sub("playmat", "playmat")
        playmat = parse_playmat(record, "inline")
        record.reject_unknown_keys()
        return playmat
    if top.has("playmat"):  # checked for typos, but the named mat is the one in use
        record = top.sub("playmat", "playmat")
        parse_playmat(record, "inline")
        record.reject_unknown_keys()
    if ref not in catalog.playmats:
        raise battle.fail("playmat", f"unknown playmat {ref!r}{_suggest(ref, catalog.playmats)}")
    return catalog.playmats[ref]


def _suggest(word: str, known: Any) -> str:
    import difflib  # a mistake's hint only

    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _templates(top: Record, catalog: Catalog) -> Templates:
    components = catalog.components
    if not top.has("templates"):
        return Templates(dict(components.rulers), components.attack.radius,
                         components.clock.radius)
    rec = top.sub("templates", "templates")
    rulers = dict(components.rulers)
    if rec.has("ruler"):
        ruler = rec.sub("ruler", "templates.ruler")
        for number in ("1", "2", "3"):
            if ruler.has(number):
                rulers[int(number)] = ruler.length(number, high=MAX_TEMPLATE_CM, what="a ruler")
        ruler.reject_unknown_keys()
    attack, clock = components.attack.radius, components.clock.radius
    if rec.has("attack"):
        sub = rec.sub("attack", "templates.attack")
        attack = sub.length("radius", high=MAX_TEMPLATE_CM, what="the Attack template's radius")
        sub.reject_unknown_keys()
    if rec.has("clock"):
        sub = rec.sub("clock", "templates.clock")
        clock = sub.length("radius", high=MAX_TEMPLATE_CM, what="the Clock template's radius")
        sub.reject_unknown_keys()
    rec.reject_unknown_keys()
    return Templates(rulers, attack, clock)


def _pieces(top: Record, catalog: Catalog, playmat: Playmat) -> tuple[Piece, ...]:
    raw = top.raw("piece", [])
    if not isinstance(raw, list):
        raise top.fail("piece", "write each piece as a [[piece]] table")
    if len(raw) > MAX_PIECES:
        raise top.fail("piece", f"{len(raw)} pieces: a table holds at most {MAX_PIECES}")
    pieces: list[Piece] = []
    table = build_table(playmat)
    for i, entry in enumerate(raw):
        given = entry.get("id") if isinstance(entry, dict) else None
        name = f"piece {given if given is not None and not _blank_text(given) else i + 1}"
        rec = Record(top.file, name, entry, ScenarioError)
        piece = _piece(rec, catalog)
        rec.reject_unknown_keys()
        for number, other in enumerate(pieces, start=1):
            if other.id == piece.id:
                raise rec.fail("id", f"{piece.id!r} is already the id of [[piece]] number "
                                     f"{number}; this is number {i + 1}")
        where = (x, y) = piece.at
        off_table = piece.conditions & {Condition.TELEPORTED, Condition.DEVOURED}
        placed = [p for p in pieces if not p.conditions & {Condition.TELEPORTED, Condition.DEVOURED}
                  and not rides_on(piece, p) and not rides_on(p, piece)]  # a rider on top
        if off_table and not (-playmat.width <= x <= 2 * playmat.width
                              and -playmat.length <= y <= 2 * playmat.length):
            raise rec.fail("at", f"({x:g}, {y:g}) is far off the {playmat.width:g} x "
                                 f"{playmat.length:g} mat: a piece on the Teleported! or "
                                 f"Devoured! card keeps a spot on the mat or beside it")
        clash = None if off_table else overlap_with(table, placed, piece, where,
                                                    PLACEMENT_TOLERANCE)
        if clash and clash.startswith("obstacle") and Condition.ALOFT in piece.conditions:
            clash = None  # a flier on top of an obstacle
        if clash == "the mat edge":
            raise rec.fail("at", f"({x:g}, {y:g}) with radius {piece.radius:g} is off the "
                                 f"{playmat.width:g} x {playmat.length:g} mat")
        if clash is not None:
            what = clash if clash.startswith("obstacle") else f"piece {clash}"
            raise rec.fail("at", f"({x:g}, {y:g}) overlaps {what}")
        pieces.append(piece)
    for piece in pieces:
        _check_part(top.file, piece, pieces)
        _check_serves(top.file, piece, pieces)
        _check_on_top(top.file, piece, pieces, table)
    return tuple(pieces)


def _check_on_top(file: str, piece: Piece, pieces: list[Piece], table: TableGeometry) -> None:
    """A piece on top of something stands on it, as the engine pairs them: a rider `riding`
    on the disc of a mount (or wild wyvern) `ridden`, and a mount `ridden` by such a rider
    (geometry/moves.py `rides_on`); a flier `aloft` with its centre on an obstacle. Else the
    engine would knock a rider off a mount that is not there, or keep a flier "on top of an
    obstacle" in the open, safe from every template."""
    conditions = piece.conditions
    if Condition.RIDING in conditions and mount_under(piece, pieces) is None:
        problem = ("is riding, but no piece marked \"ridden\" lies under it: give it the `at` "
                   "of the mount it rides, and the mount conditions = [\"ridden\"]")
    elif Condition.RIDDEN in conditions and not any(rides_on(p, piece) for p in pieces):
        problem = ("is ridden, but no piece marked \"riding\" sits on it: give its rider this "
                   "piece's `at` and conditions = [\"riding\"]")
    elif (Condition.ALOFT in conditions
          and not conditions & {Condition.TELEPORTED, Condition.DEVOURED}
          and first_obstacle_within(table, *piece.at, PLACEMENT_TOLERANCE) is None):
        x, y = piece.at
        problem = (f"is aloft (on top of an obstacle), but ({x:g}, {y:g}) is on no obstacle: "
                   f"give the spot of the obstacle it stands on")
    else:
        return
    raise ScenarioError(file, f"piece {piece.id}", "conditions", f"{piece.id!r} {problem}")


def _blank_text(value: object) -> bool:
    return isinstance(value, str) and blank(value)


def _check_serves(file: str, piece: Piece, pieces: list[Piece]) -> None:
    """`serves` (an ally's hero, who takes its kill gold) names a hero piece."""
    if piece.serves is None:
        return
    if piece.kind != Kind.ALLY:
        problem = "only an ally serves a hero"
    elif not any(p.id == piece.serves and p.kind == Kind.HERO for p in pieces):
        problem = f"no hero {piece.serves!r}"
    else:
        return
    raise ScenarioError(file, f"piece {piece.id}", "serves", problem)


def _check_part(file: str, piece: Piece, pieces: list[Piece]) -> None:
    """`part_of` names a whole piece of the same side: not the part itself, nor another part
    (a part of a part, or two pieces each part of the other), which would leave a monster no
    hit can damage (a part has no health; a hit on it goes to the piece it is part of)."""
    if piece.part_of is None:
        return
    owner = next((p for p in pieces if p.id == piece.part_of), None)
    if owner is None or owner.side != piece.side:
        problem = f"no piece {piece.part_of!r} on the {piece.side} side"
    elif owner.id == piece.id:
        problem = f"{piece.id!r} cannot be part of itself: name the whole piece it belongs to"
    elif owner.part_of is not None:
        problem = (f"{owner.id!r} is itself part of {owner.part_of!r}: a part belongs to a "
                   f"whole piece, not to another part")
    else:
        return
    raise ScenarioError(file, f"piece {piece.id}", "part_of", problem)


def _piece(rec: Record, catalog: Catalog) -> Piece:
    piece_id = rec.string("id")
    side = rec.choice("side", SIDES)
    kinds = SIDE_KINDS[side]
    kind = rec.choice("kind", kinds, kinds[0])
    at = rec.point("at")
    words = rec.strings("conditions", ())
    for condition in words:
        if condition not in CONDITIONS:
            raise rec.fail("conditions", f"unknown condition {condition!r} "
                                         f"(known: {', '.join(CONDITIONS)})")
    conditions = frozenset(map(Condition, words))
    spec = None
    if side == Side.AI or kind == Kind.ANTIENT:
        base, spec = _ai_base(rec, catalog, piece_id, kind, at)
    else:
        base = Piece(id=piece_id, side=side, kind=kind, at=at,
                     radius=disc_radius(catalog, "hero"))
    if spec is not None and side == Side.AI:
        _require_known(rec, catalog, spec)
    health_default = base.health if base.health is not None else ...
    health: int | None
    colour, invulnerable = _colour(rec, side)
    if rec.has("part_of") and rec.has("health"):
        raise rec.fail("health", "a part has no health of its own: a hit on it damages the "
                                 "piece it is part of")
    if rec.has("part_of"):
        health = None
    elif side == Side.HEROES and kind != Kind.ANTIENT and (colour is not None
                                                           or not rec.has("invulnerable")):
        health = rec.integer("health", low=1, high=99)
    elif rec.has("health") or base.health is not None:
        health = rec.integer("health", health_default, low=1, high=99)
    else:
        health = None
    sequences = base.sequences
    if rec.has("sequences"):
        sequences = _sequences(rec, catalog)
    family = rec.choice("family", FAMILIES) if rec.has("family") else base.family
    level = rec.integer("level", low=1, high=4) if rec.has("level") else base.level
    if side == Side.AI and kind == Kind.MONSTER and (family is None or level is None):
        missing = "family" if family is None else "level"
        raise rec.fail(missing, f"not known for this monster; give `{missing}` here")
    return Piece(
        id=piece_id,
        side=side,
        kind=kind,
        at=at,
        radius=rec.length("radius", base.radius, high=MAX_RADIUS_CM, what="a disc's radius"),
        health=health,
        gold=rec.integer("gold", 0, low=0, high=999),
        poison=rec.integer("poison", 0, low=0, high=99),
        items=rec.integer("items", 0, low=0, high=99),
        monster=base.monster,
        name=rec.optional_string("name") or base.name,
        family=family,
        level=level,
        sequences=sequences,
        starting_health=rec.integer("starting_health", low=1, high=99)
        if rec.has("starting_health") else base.starting_health,
        conditions=conditions,
        flying=rec.boolean("flying", False),
        invulnerable=invulnerable,
        part_of=rec.optional_string("part_of"),
        serves=rec.optional_string("serves"),
        colour=colour,
    )


def _colour(rec: Record, side: Side) -> tuple[Colour | None, bool]:
    """A Yilleph piece's `colour`, the side face up, and whether the piece is invulnerable:
    white is, black is not (l.326), and a direct hit flips it (rules/yilleph.py). Without a
    colour, `invulnerable` says it (default false)."""
    if not rec.has("colour"):
        return None, rec.boolean("invulnerable", False)
    colour = rec.choice("colour", COLOURS)
    if side != Side.HEROES:
        raise rec.fail("colour", "only Yilleph the Illusionist's pieces have a colour: give it "
                                 "on a heroes' piece")
    white = colour == Colour.WHITE
    if rec.has("invulnerable") and rec.boolean("invulnerable") != white:
        raise rec.fail("invulnerable", f"a {colour} Yilleph piece is "
                                       f"{'invulnerable' if white else 'vulnerable'}: leave "
                                       f"`invulnerable` out, the colour says it")
    return colour, white


def _sequences(rec: Record, catalog: Catalog) -> tuple[Sequence, ...]:
    """A piece's own sequences: each shot known, each summoned monster in the data."""
    result = []
    for i, text in enumerate(rec.strings("sequences")):
        try:
            sequence = parse_sequence(text)
        except ValueError as exc:
            raise rec.fail(f"sequences[{i}]", str(exc)) from None
        for shot in sequence.shots:
            if shot.argument is not None and lookup(catalog, shot.argument) is None:
                known = [*catalog.monsters, *catalog.lords]
                raise rec.fail(f"sequences[{i}]", f"summons unknown monster {shot.argument!r}"
                                                  f"{_suggest(shot.argument, known)}")
        result.append(sequence)
    return tuple(result)


def _require_known(rec: Record, catalog: Catalog, spec: MonsterSpec | LordSpec) -> None:
    """A field a battle needs that our data lacks must come from the scenario: one clear line."""
    for field in missing_for_battle(spec):
        if not rec.has(field):
            where = catalog.files.get(spec.id, "data")
            raise rec.fail(field, f"not known for {spec.name} ({where}); give `{field}` here, "
                                  f"or {card_hint(spec.id)}")


def _ai_base(rec: Record, catalog: Catalog, piece_id: str, kind: Kind,
             at: tuple[float, float]) -> tuple[Piece, MonsterSpec | LordSpec | None]:
    monster_id = rec.optional_string("monster")
    if monster_id is None:
        if kind != Kind.ANTIENT and not rec.has("sequences"):
            raise rec.fail("monster", "missing: give a monster id, or family, level, health "
                                      "and sequences for a monster our data lacks")
        return Piece(id=piece_id, side=Side.AI, kind=kind, at=at,
                     radius=disc_radius(catalog, None if kind != Kind.ANTIENT else "hero")), None
    spec = lookup(catalog, monster_id)
    if spec is None:
        known = [*catalog.monsters, *catalog.lords]
        raise rec.fail("monster", f"unknown monster {monster_id!r}{_suggest(monster_id, known)}")
    if kind != kind_of(spec):
        raise rec.fail("kind", f"{monster_id!r} is a record of kind {kind_of(spec)}, "
                               f"so write kind = \"{kind_of(spec)}\"")
    return monster_piece(catalog, spec, piece_id, at), spec


def _tiles(top: Record, pieces: tuple[Piece, ...], catalog: Catalog) -> Tiles:
    """The tiles as laid out; without [tiles], the data's order (the table should say theirs)."""
    faces = catalog.components.tiles
    default = Tiles(faces.character, faces.monster, (faces.green[0], faces.blue[0]), {})
    if not top.has("tiles"):
        return default
    rec = top.sub("tiles", "tiles")
    character = _order(rec, "character_order", faces.character, default.character_order)
    monster = _order(rec, "monster_order", faces.monster, default.monster_order)
    direction = default.direction
    if rec.has("direction"):
        values = rec.strings("direction")
        if len(values) != 2 or values[0] not in faces.green or values[1] not in faces.blue:
            raise rec.fail("direction", f"expected [green, blue]: green one of "
                                        f"{', '.join(faces.green)}, blue one of "
                                        f"{', '.join(faces.blue)}")
        direction = (DirectionTile(values[0]), DirectionTile(values[1]))
    targets: dict[str, int] = {}
    sides = {p.id: p.side for p in pieces}
    for hero, tile in rec.table_of("hero_targets", {}).items():
        rec.plain(f"hero_targets.{hero}", hero)
        # a tile may belong to a hero not on the mat (dead, or off the table): its rolls are
        # rolled again, as for an unassigned tile (ruling 33); never to a monster
        side = sides.get(hero, Side.HEROES)
        if side != Side.HEROES:
            raise rec.fail(f"hero_targets.{hero}", f"{hero!r} is a piece of the {side} side: a "
                                                   f"Hero Target tile belongs to a hero")
        targets[hero] = check_int(rec, f"hero_targets.{hero}", tile, 1, 4)
    if len(set(targets.values())) != len(targets):
        raise rec.fail("hero_targets", "each Hero Target tile belongs to one hero")
    rec.reject_unknown_keys()
    return Tiles(character, monster, direction, targets)


def _order(rec: Record, key: str, known: tuple[W, ...], default: tuple[W, ...]
           ) -> tuple[W, ...]:
    if not rec.has(key):
        return default
    values = rec.strings(key)
    for value in values:
        if value not in known:
            raise rec.fail(key, f"unknown tile {value!r} (known: {', '.join(known)})")
    if len(set(values)) != len(values):
        raise rec.fail(key, "a tile appears twice")
    return tuple(known[known.index(value)] for value in values)  # as enum members


def _token(rec: Record, field: str, text: object, level: int, catalog: Catalog) -> DamageToken:
    if not isinstance(text, str):
        raise rec.fail(field, f"write a token as a string like \"2\" or \"1R\", not {text!r}")
    try:
        token = DamageToken.parse(text)
    except ValueError as exc:
        raise rec.fail(field, str(exc)) from None
    if token not in catalog.components.bags[level]:
        mix = sorted({t.label() for t in catalog.components.bags[level]})
        raise rec.fail(field, f"the level {level} bag has no {token.label()} token "
                              f"(it holds {', '.join(mix)})")
    return token


def _chance(top: Record, catalog: Catalog) -> ChanceScript:
    if not top.has("chance"):
        return ChanceScript()
    rec = top.sub("chance", "chance")
    seed = rec.integer("seed", low=0, high=2**63 - 1) if rec.has("seed") else None
    rune_faces = catalog.components.rune_die
    location_faces = catalog.components.location_die

    def faces(key: str, allowed: tuple[int, ...]) -> tuple[int, ...]:
        values = rec.list_of(key)
        for i, value in enumerate(values):
            check_int(rec, f"{key}[{i}]", value, None, None)
            if value not in allowed:
                raise rec.fail(f"{key}[{i}]", f"{describe(value)} is not a face of this die "
                                              f"({min(allowed)}..{max(allowed)})")
        return tuple(values)

    d12 = faces("d12", tuple(range(1, 13)))
    rune = faces("rune_die", rune_faces)
    location = faces("location_die", location_faces)
    tokens = {}
    for key, values in rec.table_of("tokens", {}).items():
        level = _level(rec, f"tokens.{key}", key)
        if not isinstance(values, list):
            raise rec.fail(f"tokens.{key}", "expected a list of tokens")
        tokens[level] = tuple(_token(rec, f"tokens.{key}[{i}]", v, level, catalog)
                              for i, v in enumerate(values))
    rec.reject_unknown_keys()
    return ChanceScript(seed, d12, rune, location, tokens)


def _level(rec: Record, field: str, key: str) -> int:
    if key not in ("1", "2", "3"):
        raise rec.fail(field, "damage-token levels are 1, 2 and 3")
    return int(key)


def _bags(top: Record, catalog: Catalog) -> dict[int, Bag]:
    full = catalog.components.bags
    bags = {level: Bag(tokens) for level, tokens in full.items()}
    if not top.has("bags"):
        return bags
    rec = top.sub("bags", "bags")
    for key, value in rec.table.items():
        level = _level(rec, key, key)
        sub = Record(rec.file, f"bags.{key}", value, ScenarioError)
        tokens = tuple(_token(sub, "tokens", t, level, catalog) for t in sub.list_of("tokens"))
        discard = tuple(_token(sub, "discard", t, level, catalog)
                        for t in sub.list_of("discard"))
        sub.reject_unknown_keys()
        if Counter(tokens) + Counter(discard) != Counter(full[level]):
            raise sub.fail("tokens", f"bag and discard pile together must hold the level "
                                     f"{level} set of {len(full[level])} tokens exactly")
        bags[level] = Bag(tuple(sorted(tokens)), discard)
        rec._read.add(key)
    return bags

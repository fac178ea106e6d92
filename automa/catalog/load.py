"""Load every data file into frozen records; `check_catalog` collects every problem at once."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from functools import cache, partial
from typing import TYPE_CHECKING, Any, TypeVar, cast

from msgspec import Struct, field
from msgspec.structs import force_setattr

from automa.catalog.locate import (
    DATA_FILES,
    load_data_file,
    read_data_toml,
    shipped_data_folder,
    user_data_dir,
)
from automa.catalog.problems import Problems, Records, raise_
from automa.catalog.reader import (
    UNKNOWN,
    Record,
    W,
    check_band,
    check_int,
    check_length,
    check_number,
    check_point,
)
from automa.errors import DataError
from automa.model.components import (
    BLUE_TILES,
    CHARACTER_TILES,
    FAMILIES,
    GREEN_TILES,
    AttackTemplate,
    ClockTemplate,
    Components,
    DamageToken,
    Family,
    TileSet,
)
from automa.model.memo import Memo
from automa.model.monsters import BehaviourRow, EffectSpec, LordSpec, MinionSlot, MonsterSpec
from automa.model.pieces import HERO_KINDS, Kind, Piece
from automa.model.playmat import Obstacle, Playmat
from automa.model.provenance import Provenance
from automa.model.setup_charts import SetupData
from automa.model.shots import (
    MODIFIERS,
    SHOT_NAMES,
    ModifierName,
    Sequence,
    ShotName,
    parse_sequence,
)

if TYPE_CHECKING:  # a turn imports neither: paths are text, the rooms' model comes with them
    from pathlib import Path

    from automa.model.rooms import RoomSpec

T = TypeVar("T")
BAG_SIZES = {1: 13, 2: 12, 3: 13}  # the rulebook's component list
CRITERIA = ("most-gold", "least-gold", "most-health", "least-health", "most-poison", "no-items",
            "closest")
PREFERENCES = ("poison-modifier", "critical-modifier", "ranged-sequence", "none")
NO_TARGET_ACTIONS = ("retreat-to-monster-zone", "move-toward-closest-obstacle",
                     "move-toward-closest-enemy", "move-toward-hero-zone", "move-to-random-rune",
                     "stay")
EFFECT_KINDS = ("poison-cards", "stunned-card", "lose-gold", "destroy-item-or-gold", "dies",
                "devoured", "heal-attacker", "note", "ignored")
SIZES = ("extra-small", "small", "medium", "large", "extra-large", "flat", "cube", "hero")
ROW_FOR_KIND = {Kind.CATACOMB_LORD: "catacomb-lord", Kind.ANTIENT: "antient"}  # row ids
MONSTER_KINDS = (Kind.MONSTER, Kind.ANTIENT)
MAX_HEALTH = 99  # the scenario's bound on a piece's health
MAX_OBSTACLES = 100  # the printed mats have six or seven
MAX_CORNERS = 100
DEFAULT_THICKNESS_CM = 1.0  # a disc's height when its record gives none (photo capture only)
MAX_TEMPLATE_CM = 100.0  # a ruler's length, a template's radius or corner
MAX_RADIUS_CM = 20.0  # a disc's or a rune icon's radius: the largest piece is 4 cm across
MIN_MAT_CM = 10.0  # a mat holds a few discs at least (the printed ones are 60 x 90 cm)
MAX_MAT_CM = 1000.0  # ten metres: far beyond any table, small enough for exact geometry
MAX_DEGREES = 360.0  # a Clock template face's angle, either way
ANTIENT_LACKS = ("family", "level", "health", "gold", "nullifies", "reflects", "units")


class CatalogMemo(Memo):
    """What a turn asks of a catalog again and again, kept for the next reader (the behaviour
    row of each kind and family): a cache, never part of the catalog's value, and the one
    part of a Catalog that changes."""

    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str | None], BehaviourRow] = {}


class Catalog(Struct, frozen=True):
    """The rules data: the shipped files merged with the user's folder, each record by id."""

    components: Components
    behaviour: Mapping[str, BehaviourRow]
    monsters: Mapping[str, MonsterSpec]
    lords: Mapping[str, LordSpec]
    playmats: Mapping[str, Playmat]
    rooms: Mapping[str, RoomSpec]
    effects: Mapping[str, EffectSpec]
    setup: SetupData
    files: Mapping[str, str] = field(default_factory=dict)  # monster and Lord id -> its file
    data_dir: Path | None = None  # the user's folder merged over the shipped data, if any
    memo: CatalogMemo = field(default_factory=CatalogMemo)

    def __post_init__(self) -> None:
        force_setattr(self, "memo", CatalogMemo())  # its own, even when `replace`d

    def behaviour_for(self, piece: Piece) -> BehaviourRow:
        """The table row of an AI piece: by kind for Lords and Antients, else by family (kept
        by both in the memo: an activation asks several times)."""
        kept = self.memo.rows
        found = kept.get((piece.kind, piece.family))
        if found is None:
            found = kept[piece.kind, piece.family] = self._behaviour_for(piece)
        return found

    def _behaviour_for(self, piece: Piece) -> BehaviourRow:
        row_id = ROW_FOR_KIND.get(piece.kind)
        if row_id is None:
            row_id = next((r.id for r in self.behaviour.values() if piece.family in r.families),
                          None)
        if row_id is None or row_id not in self.behaviour:
            raise DataError("data/behaviour.toml", piece.family or piece.kind, "families",
                            f"no behaviour row covers {piece.id!r}")
        return self.behaviour[row_id]


def _parse_record(origin: str, key: str, table: Any, parse: Callable[[Record], T]) -> T:
    record = Record(origin, key, table)
    record.plain("", key)  # an id is printed: no terminal control characters
    record.provenance()  # first: a table without one is no record (a field merged in?)
    value = parse(record)
    record.reject_unknown_keys()
    return value


def _records(name: str, user_dir: Path | None, problems: Problems,
             parse: Callable[[Record], T]) -> Records[T]:
    loaded = problems.attempt(lambda: load_data_file(name, user_dir))
    if loaded is None:
        return Records({}, {})
    tables, origins = loaded
    parsed: dict[str, T] = {}
    for key, table in tables.items():
        value = problems.attempt(partial(_parse_record, origins[key], key, table, parse))
        if value is not None:
            parsed[key] = value
    return Records(parsed, origins)


_UNREAD = object()  # a record not parsed yet


class ParsedOnRead(Mapping[str, T]):
    """One data file's records, each parsed when first read. Only for data already checked
    whole with the same bytes, so parsing every record would give the same records and no
    problem.

    Keys, their order and `==` are those of the dict `_records` builds."""

    def __init__(self, tables: Mapping[str, Any], origins: Mapping[str, str],
                 parse: Callable[[Record], T]) -> None:
        self._tables, self._origins, self._parse = tables, origins, parse
        self._parsed: dict[str, T] = {}

    def __getitem__(self, key: str) -> T:
        value = self._parsed.get(key, _UNREAD)
        if value is _UNREAD:
            table = self._tables[key]  # KeyError: no such record
            value = self._parsed[key] = _parse_record(self._origins[key], key, table,
                                                      self._parse)
        return cast(T, value)

    def __contains__(self, key: object) -> bool:
        return key in self._tables

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def __repr__(self) -> str:
        return repr(dict(self))


def _records_on_read(name: str, user_dir: Path | None,
                     parse: Callable[[Record], T]) -> Records[T]:
    tables, origins = load_data_file(name, user_dir)
    return Records(ParsedOnRead(tables, origins, parse), origins)


def _sequences(rec: Record, key: str = "sequences") -> tuple[Sequence, ...]:
    result = []
    for i, text in enumerate(rec.maybe_unknown(key, lambda k: rec.strings(k, ())) or ()):
        try:
            result.append(parse_sequence(text))
        except ValueError as exc:
            raise rec.fail(f"{key}[{i}]", str(exc)) from None
    return tuple(result)


def _unknown(rec: Record) -> frozenset[str]:
    return frozenset(k for k, v in rec.table.items() if v == UNKNOWN)


def _shot_names(rec: Record, key: str) -> tuple[ShotName, ...]:
    names = rec.maybe_unknown(key, lambda k: rec.strings(k, ())) or ()
    for name in names:
        if name not in SHOT_NAMES:
            raise rec.fail(key, f"unknown shot {name!r} (known: {', '.join(sorted(SHOT_NAMES))})")
    return tuple(map(ShotName, names))


def _modifier_names(rec: Record, key: str) -> tuple[ModifierName, ...]:
    names = rec.strings(key, ())
    for name in names:
        if name not in MODIFIERS:
            raise rec.fail(key, f"unknown modifier {name!r}")
    return tuple(map(ModifierName, names))


def parse_monster(rec: Record) -> MonsterSpec:
    kind = rec.choice("kind", MONSTER_KINDS, Kind.MONSTER)
    if kind == Kind.ANTIENT:
        for key in ANTIENT_LACKS:
            if rec.has(key):
                raise rec.fail(key, "an Antient has none (it cannot be damaged or destroyed)")
    shadow = kind == Kind.MONSTER and rec.raw("health") == "shadow"
    health = None if shadow or kind != Kind.MONSTER else rec.maybe_unknown(
        "health", lambda k: rec.integer(k, low=1))
    monster = MonsterSpec(
        id=rec.name,
        name=rec.string("name"),
        family=rec.maybe_unknown("family", lambda k: rec.choice(k, FAMILIES))
        if kind == Kind.MONSTER else None,
        level=rec.maybe_unknown("level", lambda k: rec.integer(k, low=1, high=4))
        if kind == Kind.MONSTER else None,
        health=health,
        shadow=shadow,
        gold=rec.maybe_unknown("gold", lambda k: rec.integer(k, low=0))
        if kind == Kind.MONSTER else None,
        size=rec.maybe_unknown("size", lambda k: rec.choice(k, SIZES)),
        nullifies=_shot_names(rec, "nullifies"),
        reflects=_shot_names(rec, "reflects"),
        sequences=_sequences(rec),
        provenance=rec.provenance(),
        kind=kind,
        units=rec.integer("units", low=1, high=10) if rec.has("units") else None,
        rotating_modifiers=_modifier_names(rec, "rotating_modifiers"),
        unknown=_unknown(rec),
        named_shots=_shot_names(rec, "named_shots"),
    )
    for free_text in ("notes", "set"):
        rec.optional_string(free_text)
    return monster


def parse_minions(rec: Record) -> tuple[MinionSlot, ...]:
    minions = []
    for i, slot in enumerate(rec.maybe_unknown("minions", rec.list_of) or ()):
        sub = Record(rec.file, rec.name, slot)
        choices = sub.strings("choice") if sub.has("choice") else (sub.string("monster"),)
        if not 1 <= len(choices) <= 2:
            raise rec.fail(f"minions[{i}].choice", "a minion slot offers one or two monsters")
        minions.append(MinionSlot(choices, sub.integer("count", low=1, high=10)))
        _reject(sub, rec, f"minions[{i}]")
    return tuple(minions)


def parse_lord(rec: Record) -> LordSpec:
    bands = []
    for i, band in enumerate(rec.list_of("sequence_by_health")):
        bands.append(check_band(rec, f"sequence_by_health[{i}]", band, 1, MAX_HEALTH))
    lord = LordSpec(
        id=rec.name,
        name=rec.string("name"),
        health=rec.maybe_unknown("health", lambda k: rec.integer(k, low=1)),
        size=rec.maybe_unknown("size", lambda k: rec.choice(k, SIZES)),
        minions=parse_minions(rec),
        mercenary=rec.maybe_unknown("mercenary", lambda k: rec.strings(k, ())) or (),
        playmats=rec.strings("playmats", ()),
        sequences=_sequences(rec),
        provenance=rec.provenance(),
        health_bands=tuple(bands),
        summon_choices=rec.strings("summon_choices", ()),
        unknown=_unknown(rec),
    )
    if bands and len(bands) != len(lord.sequences):
        raise rec.fail("sequence_by_health", "one health band per sequence")
    for free_text in ("notes", "set"):
        rec.optional_string(free_text)
    return lord


def _reject(sub: Record, parent: Record, where: str) -> None:
    extra = sorted(set(sub.table) - sub._read)
    if extra:
        raise parent.fail(f"{where}.{extra[0]}", "unknown key (a typo?)")


def parse_room(rec: Record) -> RoomSpec:
    from automa.model.rooms import RoomSpec

    monsters, metres = [], []
    for i, entry in enumerate(rec.list_of("monsters")):
        sub = Record(rec.file, rec.name, entry)
        monsters.append((sub.string("monster"), sub.integer("count", low=1, high=10)))
        _reject(sub, rec, f"monsters[{i}]")
    for i, entry in enumerate(rec.list_of("metres")):
        sub = Record(rec.file, rec.name, entry)
        metres.append((sub.integer("level", low=1, high=4), sub.integer("count", low=1, high=10)))
        _reject(sub, rec, f"metres[{i}]")
    playmat = rec.raw("playmat", UNKNOWN)
    room = RoomSpec(
        id=rec.name,
        name=rec.string("name"),
        kind=rec.choice("kind", ("battle", "special")),
        difficulty=rec.maybe_unknown("difficulty", lambda k: rec.integer(k, low=0, high=2))
        if rec.has("difficulty") else None,
        suppresses=rec.maybe_unknown("suppresses", lambda k: rec.strings(k, ())),
        playmat=None if playmat == UNKNOWN else rec.string("playmat"),
        monsters=tuple(monsters),
        metres=tuple(metres),
        mercenaries=rec.maybe_unknown("mercenaries",
                                      lambda k: rec.integer(k, 0, low=0, high=10)),
        known=rec.boolean("known", True),
        provenance=rec.provenance(),
    )
    for free_text in ("notes", "set"):
        rec.optional_string(free_text)
    return room


def parse_obstacle(rec: Record, i: int, entry: object) -> Obstacle:
    where = f"obstacles[{i}]"
    sub = Record(rec.file, rec.name, entry, rec.error)
    obstacle_id = sub.string("id")
    polygon: tuple[tuple[float, float], ...] = ()
    circle = None
    if sub.has("circle"):
        values = sub.raw("circle")
        if not isinstance(values, list) or len(values) != 3:
            raise rec.fail(f"{where}.circle", "expected [x, y, radius]")
        x, y = (check_number(rec, f"{where}.circle", v) for v in values[:2])
        r = check_length(rec, f"{where}.circle", values[2], MAX_MAT_CM, "an obstacle's radius")
        circle = (x, y, r)
    elif sub.has("polygon"):
        points = sub.raw("polygon")
        if not isinstance(points, list) or not 3 <= len(points) <= MAX_CORNERS:
            raise rec.fail(f"{where}.polygon", f"expected three to {MAX_CORNERS} [x, y] points")
        polygon = tuple(check_point(rec, f"{where}.polygon", p) for p in points)
    else:
        raise rec.fail(where, "an obstacle needs `polygon` or `circle`")
    rune = sub.integer("rune", low=1, high=12) if sub.has("rune") else None
    _reject(sub, rec, where)
    return Obstacle(obstacle_id, polygon, circle, rune)


def polygon_problem(points: tuple[tuple[float, float], ...]) -> str | None:
    """Why these points are no obstacle outline (a repeated point, no area, a self-crossing)."""
    from shapely.geometry import Polygon
    from shapely.validation import explain_validity

    for i, point in enumerate(points):
        if point in points[:i]:
            first = points.index(point)
            return (f"point {i + 1} repeats point {first + 1} {list(point)} (list each corner "
                    f"once; the last joins the first by itself)")
    shape = Polygon(points)
    if shape.convex_hull.area <= 1e-9:
        return "the points lie on one line: the outline has no area"
    if not shape.is_valid:
        return f"the outline crosses itself ({explain_validity(shape)}): list the corners in order"
    return None


def _obstacle_on_mat(rec: Record, i: int, obstacle: Obstacle, width: float,
                     length: float) -> None:
    """The obstacle lies on the mat, and a polygon is a simple outline."""
    if obstacle.circle is not None:
        x, y, r = obstacle.circle
        corners = [(x - r, y - r), (x + r, y + r)]
        field = f"obstacles[{i}].circle"
    else:
        corners = list(obstacle.polygon)
        field = f"obstacles[{i}].polygon"
    for x, y in corners:
        if not (0 <= x <= width and 0 <= y <= length):
            raise rec.fail(field, f"reaches ({x:g}, {y:g}), off the {width:g} x {length:g} mat")
    problem = polygon_problem(obstacle.polygon) if obstacle.polygon else None
    if problem is not None:  # checked on the mat first: the numbers are then of a sane size
        raise rec.fail(field, problem)


def parse_playmat(rec: Record, playmat_id: str | None = None) -> Playmat:
    width, length = rec.point("size")
    if width <= 0 or length <= 0:
        raise rec.fail("size", "width and length must be positive")
    if not (MIN_MAT_CM <= width <= MAX_MAT_CM and MIN_MAT_CM <= length <= MAX_MAT_CM):
        raise rec.fail("size", f"{width:g} x {length:g} cm: a mat is at least {MIN_MAT_CM:g} "
                               f"and at most {MAX_MAT_CM:g} cm either way")
    hero_zone = rec.number("hero_zone", low=0.0, high=length)
    monster_zone = rec.number("monster_zone", low=hero_zone, high=length)
    entries = rec.list_of("obstacles")
    if len(entries) > MAX_OBSTACLES:
        raise rec.fail("obstacles", f"{len(entries)} obstacles: a mat has at most "
                                    f"{MAX_OBSTACLES}")
    obstacles = tuple(parse_obstacle(rec, i, e) for i, e in enumerate(entries))
    for i, obstacle in enumerate(obstacles):
        _obstacle_on_mat(rec, i, obstacle, width, length)
    ids = [o.id for o in obstacles]
    if len(set(ids)) != len(ids):
        raise rec.fail("obstacles", "obstacle ids must be unique")
    runes = {}
    for key, value in rec.table_of("runes", {}).items():
        if not key.isdigit() or not 1 <= int(key) <= 12:
            raise rec.fail(f"runes.{key}", "rune numbers run from 1 to 12")
        x, y = check_point(rec, f"runes.{key}", value)
        if not (0 <= x <= width and 0 <= y <= length):
            raise rec.fail(f"runes.{key}", f"({x}, {y}) is off the {width} x {length} mat")
        runes[int(key)] = (x, y)
    playmat = Playmat(
        id=playmat_id or rec.name,
        name=rec.string("name", playmat_id or rec.name),
        width=width,
        length=length,
        hero_zone=hero_zone,
        monster_zone=monster_zone,
        obstacles=obstacles,
        runes=runes,
        rune_radius=rec.length("rune_radius", 1.5, high=MAX_RADIUS_CM, what="a rune icon's radius"),
        provenance=rec.provenance() if rec.has("provenance") else Provenance.HOUSE,
        swappable_zones=rec.boolean("swappable_zones", False),
        sticker_runes=rec.boolean("sticker_runes", True),
    )
    rec.optional_string("notes")
    return playmat


def parse_setup(tables: Mapping[str, Any], origins: Mapping[str, str],
                playmats: Mapping[str, Playmat]) -> SetupData:
    def record(name: str) -> Record:
        rec = Record(origins.get(name, "data/setup.toml"), name, tables.get(name))
        rec.provenance()
        rec.optional_string("note")
        return rec

    def faces(rec: Record, key: str, low: int, high: int) -> dict[int, str]:
        result = {}
        for face, mat in rec.table_of(key).items():
            if not face.isdigit() or not low <= int(face) <= high:
                raise rec.fail(f"{key}.{face}", f"faces run from {low} to {high}")
            if not isinstance(mat, str) or mat not in playmats:
                raise rec.fail(f"{key}.{face}", f"unknown playmat {mat!r}")
            result[int(face)] = str(mat)
        return result

    chart, metre, cave, limits = (record(n) for n in ("playmat-chart", "monster-metre",
                                                       "hidden-cave", "limits"))
    units = {}
    for level, count in metre.table_of("units").items():
        if level not in ("1", "2", "3", "4"):
            raise metre.fail(f"units.{level}", "levels run from 1 to 4")
        units[int(level)] = check_int(metre, f"units.{level}", count, 1, 10)
    data = SetupData(faces(chart, "rune_die", 1, 6), faces(chart, "d12", 2, 12), units,
                     cave.strings("items"), cave.integer("collect", low=1, high=10),
                     limits.integer("max_monsters", low=1, high=20))
    for rec in (chart, metre, cave, limits):
        rec.reject_unknown_keys()
    return data


def parse_effect(rec: Record) -> EffectSpec:
    if rec.name not in MODIFIERS:
        raise rec.fail("", f"unknown modifier (known: {', '.join(sorted(MODIFIERS))})")
    kinds = rec.strings("kinds", ())
    for kind in kinds:
        if kind not in HERO_KINDS:
            raise rec.fail("kinds", f"unknown kind {kind!r} (known: {', '.join(HERO_KINDS)})")
    effect = EffectSpec(ModifierName(rec.name), rec.choice("effect", EFFECT_KINDS),
                        rec.boolean("needs_damage"), tuple(map(Kind, kinds)), rec.string("text"),
                        rec.provenance())
    try:  # the words are filled in at every hit: a placeholder they cannot fill is refused now
        effect.said("Elf", "Sewer Rat #1", 2, 1)
    except (KeyError, IndexError, ValueError, TypeError) as error:
        what = f"unknown placeholder {{{error.args[0]}}}" if isinstance(error, KeyError) else \
            "a placeholder without a name" if isinstance(error, IndexError) else str(error)
        raise rec.fail("text", f"{what}; the text may name {{target}}, {{attacker}}, {{count}}, "
                               f"{{cards}} and {{amount}}") from None
    rec.optional_string("note")
    return effect


def parse_behaviour(rec: Record) -> BehaviourRow:
    preference = rec.choice("shot_preference", PREFERENCES)
    families = rec.strings("families", ())
    for family in families:
        if family not in FAMILIES:
            raise rec.fail("families", f"unknown family {family!r}")
    row = BehaviourRow(
        id=rec.name,
        families=tuple(map(Family, families)),
        ruler=rec.integer("ruler", low=1, high=3),
        shot_preference=None if preference == "none" else preference,
        primary=rec.choice("primary", CRITERIA),
        secondary=rec.choice("secondary", CRITERIA),
        tie_breaker=rec.choice("tie_breaker", CRITERIA),
        no_target=rec.choice("no_target", NO_TARGET_ACTIONS),
        no_target_ruler=rec.integer("no_target_ruler", low=1, high=3),
        provenance=rec.provenance(),
        house_fields=frozenset(rec.strings("house_fields", ())),
    )
    rec.optional_string("note")
    return row


def _twelve(rec: Record, key: str) -> tuple[float, ...]:
    values = rec.list_of(key)
    if len(values) != 12:
        raise rec.fail(key, f"expected twelve angles (faces 1..12), got {len(values)}")
    return tuple(check_number(rec, key, v, -MAX_DEGREES, MAX_DEGREES) for v in values)


# the fields of a components record that rulings of their own read: each field still as shipped
# is a placeholder of ours by itself (`clock-template.half`), whatever else the players measured
FIELD_PLACEHOLDERS = {"clock-template": ("radius", "half")}


def parse_components(tables: Mapping[str, Any], origins: Mapping[str, str],
                     problems: Problems) -> Components | None:
    provenance: dict[str, Provenance] = {}
    ours: set[str] = set()  # our house placeholders, as shipped
    shipped = read_data_toml(os.path.join(shipped_data_folder(), "components.toml"))

    def record(top: str, key: str | None = None) -> Record:
        table = tables.get(top) if key is None else (tables.get(top) or {}).get(key)
        name = top if key is None else f"{top}.{key}"
        rec = Record(origins.get(top, "data/components.toml"), name, table)
        provenance[name] = rec.provenance()
        as_shipped = shipped.get(top) if key is None else (shipped.get(top) or {}).get(key)
        if provenance[name] == Provenance.HOUSE and isinstance(table, dict):
            if table == as_shipped:
                ours.add(name)
            if name in FIELD_PLACEHOLDERS and isinstance(as_shipped, dict):
                ours.update(f"{name}.{f}" for f in FIELD_PLACEHOLDERS[name]
                            if table.get(f) == as_shipped.get(f))
        rec.optional_string("note")
        return rec

    def discs() -> tuple[dict[str, float], dict[str, float]]:
        """Each size's radius, and its thickness (read only by the photo capture)."""
        radius, thickness = {}, {}
        for size in (tables.get("disc") or {}):
            rec = record("disc", size)
            if size not in SIZES:
                raise rec.fail("", f"unknown size class (known: {', '.join(SIZES)})")
            radius[size] = rec.length("radius", high=MAX_RADIUS_CM, what="a disc's radius")
            thickness[size] = rec.length("thickness", DEFAULT_THICKNESS_CM, high=MAX_RADIUS_CM,
                                         what="a disc's thickness")
            rec.reject_unknown_keys()
        return radius, thickness

    def rulers() -> dict[int, float]:
        result = {}
        for number in ("1", "2", "3"):
            rec = record("ruler", number)
            result[int(number)] = rec.length("length", high=MAX_TEMPLATE_CM, what="a ruler")
            rec.reject_unknown_keys()
        return result

    def attack() -> AttackTemplate:
        rec = record("attack-template")
        shape = rec.choice("shape", ("disc", "polygon"))
        polygon: tuple[tuple[float, float], ...] = ()
        if shape == "polygon":
            polygon = tuple(check_point(rec, "polygon", p) for p in rec.list_of("polygon"))
            if not 3 <= len(polygon) <= MAX_CORNERS:
                problem: str | None = f"expected three to {MAX_CORNERS} [x, y] points"
            elif any(abs(v) > MAX_TEMPLATE_CM for point in polygon for v in point):
                problem = f"a corner lies over {MAX_TEMPLATE_CM:g} cm from the attacker"
            else:
                problem = polygon_problem(polygon)
            if problem is not None:
                raise rec.fail("polygon", problem)
        template = AttackTemplate(rec.length("radius", high=MAX_TEMPLATE_CM,
                                             what="the Attack template's radius"), polygon)
        rec.reject_unknown_keys()
        return template

    def clock() -> ClockTemplate:
        rec = record("clock-template")
        template = ClockTemplate(rec.length("radius", high=MAX_TEMPLATE_CM,
                                            what="the Clock template's radius"),
                                 _twelve(rec, "front"),
                                 _twelve(rec, "reverse"), _twelve(rec, "half"))
        rec.reject_unknown_keys()
        return template

    def die(name: str) -> tuple[int, ...]:
        rec = record("die", name)
        faces = tuple(check_int(rec, "faces", v, 1, 12) for v in rec.list_of("faces"))
        if len(faces) != 6 or len(set(faces)) != 6:
            raise rec.fail("faces", "a die has six different faces")
        rec.reject_unknown_keys()
        return faces

    def bags() -> dict[int, tuple[DamageToken, ...]]:
        result = {}
        for level, size in BAG_SIZES.items():
            rec = record("bag", str(level))
            tokens = []
            for i, text in enumerate(rec.strings("tokens")):
                try:
                    tokens.append(DamageToken.parse(text))
                except ValueError as exc:
                    raise rec.fail(f"tokens[{i}]", str(exc)) from None
            if len(tokens) != size:
                raise rec.fail("tokens", f"the level {level} bag holds {size} tokens, "
                                         f"not {len(tokens)}")
            result[level] = tuple(sorted(tokens))
            rec.reject_unknown_keys()
        return result

    def bands() -> dict[int, tuple[int, int]]:
        rec = record("hero-target")
        result = {}
        for key, value in rec.table_of("bands").items():
            if key not in ("1", "2", "3", "4"):
                raise rec.fail(f"bands.{key}", "the Hero Target tiles are 1 to 4")
            result[int(key)] = check_band(rec, f"bands.{key}", value, 1, 12)  # D12 faces
        covered = sorted(f for low, high in result.values() for f in range(low, high + 1))
        if covered != list(range(1, 13)):
            raise rec.fail("bands", "the bands must cover 1..12 exactly once")
        rec.reject_unknown_keys()
        return result

    def kraken() -> int:
        rec = record("kraken")  # ruling kraken-bag: which bag holds the red tokens
        level = check_int(rec, "bag", rec.raw("bag", 1), 1, 3)
        rec.reject_unknown_keys()
        return level

    def faces(rec: Record, key: str, vocabulary: tuple[W, ...]) -> tuple[W, ...]:
        values = rec.strings(key)
        if sorted(values) != sorted(vocabulary):
            raise rec.fail(key, f"expected each of {', '.join(vocabulary)} once")
        return tuple(vocabulary[vocabulary.index(v)] for v in values)  # as enum members

    def tiles() -> TileSet:
        character = record("tiles", "character")
        monster = record("tiles", "monster")
        direction = record("tiles", "direction")
        families = faces(monster, "faces", FAMILIES)
        colours = monster.strings("colours")
        if len(colours) != len(families):
            raise monster.fail("colours", "one colour per face")
        tile_set = TileSet(faces(character, "faces", CHARACTER_TILES), families,
                           dict(zip(families, colours, strict=True)),
                           faces(direction, "green", GREEN_TILES),
                           faces(direction, "blue", BLUE_TILES))
        for rec in (character, monster, direction):
            rec.reject_unknown_keys()
        return tile_set

    discs_read, ruler = problems.attempt(discs), problems.attempt(rulers)
    attack_t, clock_t = problems.attempt(attack), problems.attempt(clock)
    rune_die, location_die = problems.attempt(lambda: die("rune")), problems.attempt(
        lambda: die("location"))
    token_bags, target_bands = problems.attempt(bags), problems.attempt(bands)
    tile_set = problems.attempt(tiles)
    red_bag = problems.attempt(kraken) if "kraken" in tables else 1
    if (red_bag is None or discs_read is None or ruler is None or attack_t is None
            or clock_t is None or rune_die is None or location_die is None or token_bags is None
            or target_bands is None or tile_set is None):
        return None
    radius, thickness = discs_read
    return Components(radius, ruler, attack_t, clock_t, rune_die, location_die, token_bags,
                      target_bands, tile_set, provenance, red_bag, frozenset(ours), thickness)


def _check_capture(user_dir: Path | None) -> None:
    from automa.catalog.capture import load_capture_settings

    load_capture_settings(user_dir)


def _check_campaigns(user_dir: Path | None, rooms: Mapping[str, RoomSpec],
                     lords: Mapping[str, LordSpec]) -> None:
    from automa.catalog.campaigns import load_campaigns

    load_campaigns(user_dir, rooms, lords)


def build_catalog(user_dir: Path | None, problems: Problems) -> Catalog | None:
    from automa.catalog.consistency import check_behaviour, cross_check

    loaded = problems.attempt(lambda: load_data_file("components.toml", user_dir))
    components = None if loaded is None else parse_components(*loaded, problems)
    behaviour = _records("behaviour.toml", user_dir, problems, parse_behaviour)
    monsters = _records("monsters.toml", user_dir, problems, parse_monster)
    lords = _records("lords.toml", user_dir, problems, parse_lord)
    playmats = _records("playmats.toml", user_dir, problems, parse_playmat)
    rooms = _records("rooms.toml", user_dir, problems, parse_room)
    effects = _records("effects.toml", user_dir, problems, parse_effect)
    cross_check(monsters, lords, playmats, rooms, problems)
    check_behaviour(behaviour, monsters, lords, problems)
    missing = sorted(MODIFIERS - set(effects.by_id))
    if missing:
        problems.attempt(lambda: raise_(DataError("data/effects.toml", missing[0], "",
                                                  "every modifier needs an effect record")))
    problems.attempt(lambda: _check_campaigns(user_dir, rooms.by_id, lords.by_id))
    problems.attempt(lambda: _check_capture(user_dir))
    setup_file = problems.attempt(lambda: load_data_file("setup.toml", user_dir))
    setup = None if setup_file is None else problems.attempt(
        lambda: parse_setup(*setup_file, playmats.by_id))
    if components is None or setup is None or setup_file is None:
        return None
    chart_file = setup_file[1].get("playmat-chart", "data/setup.toml")
    problems.attempt(lambda: _check_rune_chart(components.rune_die, setup, chart_file))
    return Catalog(components, behaviour.by_id, monsters.by_id, lords.by_id, playmats.by_id,
                   rooms.by_id, effects.by_id, setup, {**lords.origins, **monsters.origins},
                   user_dir)


def _check_rune_chart(rune_die: tuple[int, ...], setup: SetupData, chart_file: str) -> None:
    """Setup rolls the Rune Die on the playmat chart: each of its faces needs a playmat there."""
    missing = [face for face in rune_die if face not in setup.rune_die_mats]
    if missing:
        raise DataError(chart_file, "playmat-chart", f"rune_die.{missing[0]}",
                        f"the Rune Die (components.toml [die.rune]) has face {missing[0]}: the "
                        f"chart needs a playmat for every face it can roll")


class RoomsOnRead(Mapping[str, "RoomSpec"]):
    """The rooms of data already checked whole with the same bytes, read, parsed and checked
    against the monsters, the playmats and the campaigns when first asked for: a turn reads no
    room, so it does not pay for them (nor fails on a problem in them: `automa data check` and
    `setup` still see it). Keys, their order and `==` are those of the dict `_records` builds."""

    def __init__(self, user_dir: Path | None, monsters: Records[MonsterSpec],
                 playmats: Records[Playmat], lords: Mapping[str, LordSpec]) -> None:
        self._user_dir, self._monsters, self._playmats, self._lords = (user_dir, monsters,
                                                                       playmats, lords)
        self._rooms: Mapping[str, RoomSpec] | None = None  # read when first asked for

    def _read(self) -> Mapping[str, RoomSpec]:
        if self._rooms is None:
            from automa.catalog.consistency import cross_check_rooms

            problems = Problems(collect=False)
            rooms = _records("rooms.toml", self._user_dir, problems, parse_room)
            cross_check_rooms(self._monsters, self._playmats, rooms, problems)
            _check_campaigns(self._user_dir, rooms.by_id, self._lords)
            self._rooms = rooms.by_id
        return self._rooms

    def __getitem__(self, key: str) -> RoomSpec:
        return self._read()[key]

    def __contains__(self, key: object) -> bool:
        return key in self._read()

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())

    def __repr__(self) -> str:
        return repr(dict(self))


def read_on_demand(user_dir: Path | None) -> Catalog:
    """The catalog of data checked whole before (the same bytes): each behaviour row, monster,
    Lord, playmat and effect is parsed when first read, the rooms when first asked for (a
    turn reads a few records and no room); the components and the setup charts, small, at
    once. Equal, field by field, to the one `build_catalog` makes."""
    problems = Problems(collect=False)
    components = parse_components(*load_data_file("components.toml", user_dir), problems)
    assert components is not None  # without collecting, the first problem raised
    behaviour = _records_on_read("behaviour.toml", user_dir, parse_behaviour)
    monsters = _records_on_read("monsters.toml", user_dir, parse_monster)
    lords = _records_on_read("lords.toml", user_dir, parse_lord)
    playmats = _records_on_read("playmats.toml", user_dir, parse_playmat)
    effects = _records_on_read("effects.toml", user_dir, parse_effect)
    setup = parse_setup(*load_data_file("setup.toml", user_dir), playmats.by_id)
    rooms = RoomsOnRead(user_dir, monsters, playmats, lords.by_id)
    return Catalog(components, behaviour.by_id, monsters.by_id, lords.by_id, playmats.by_id,
                   rooms, effects.by_id, setup, {**lords.origins, **monsters.origins},
                   user_dir)


@cache
def _load(user_dir: Path | None, stamp: tuple[tuple[str, int, int], ...]) -> Catalog:
    """Data checked whole before (the same bytes): parse each part when read; else check it
    whole now, raising the first problem, and note that these bytes are clean."""
    from automa.catalog.validated import data_digest, is_validated, mark_validated

    digest = data_digest(user_dir)
    if is_validated(digest):
        return read_on_demand(user_dir)
    catalog = build_catalog(user_dir, Problems(collect=False))
    assert catalog is not None  # without collecting, the first problem raised
    mark_validated(digest)
    return catalog


def _stamp(user_dir: Path | None) -> tuple[tuple[str, int, int], ...]:
    """The user's files as they are now, so an edited folder (card entry) is read again."""
    if user_dir is None:
        return ()
    found = ((name, user_dir / name) for name in DATA_FILES)
    return tuple((name, path.stat().st_mtime_ns, path.stat().st_size)
                 for name, path in found if path.is_file())


def load_catalog(data_dir: str | Path | None = None) -> Catalog:
    """The shipped rules data merged with the user's folder; raises the first problem found."""
    user_dir = user_data_dir(data_dir)
    return _load(user_dir, _stamp(user_dir))


def check_catalog(data_dir: str | Path | None = None) -> list[DataError]:
    """Every problem of the shipped data merged with `data_dir` (empty list: all good)."""
    from automa.catalog.consistency import check_folder

    problems = Problems(collect=True)
    try:
        user_dir = user_data_dir(data_dir)
        check_folder(user_dir, problems)
        build_catalog(user_dir, problems)
    except DataError as error:  # a file that is not TOML at all
        problems.found.append(error)
    return problems.found

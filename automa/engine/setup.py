"""Setting up a room by the Red Box rules: the playmat, the tiles, the monsters and where each
goes. Every random step asks the Chance source, so a seed or the players' own dice decide."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence

from msgspec import Struct
from msgspec.structs import replace
from shapely.geometry import Polygon

from automa.catalog.fields import card_hint, missing_for_battle
from automa.catalog.load import Catalog
from automa.catalog.pieces import monster_piece
from automa.engine.chance import Chance, Outcome
from automa.errors import RulesError
from automa.geometry.moves import nearest_legal_spot, spot_beside
from automa.geometry.table import TableGeometry, build_table, centre_distance
from automa.geometry.zones import (
    Spot,
    back_edge_centre,
    behind_obstacles,
    monster_zone_runes,
    quadrant_problems,
    zone_corners,
)
from automa.model.components import CharacterTile, DirectionTile, Family
from automa.model.monsters import LordSpec, MonsterSpec
from automa.model.pieces import Kind, Piece, Side
from automa.model.playmat import Obstacle, Playmat
from automa.model.rooms import RoomSpec
from automa.model.scenario import Bag, ChanceScript, Scenario, Settings, Templates, Tiles
from automa.rules.rulings import RulingKey, cite
from automa.rules.setup import Unit, character_tiles_for, d12_half, direction_pair, placement_order
from automa.rules.tiles import in_tile_order, tile_key

MAX_REROLLS = 60
TRILITHON_SIZE = (10.0, 2.0)  # cm, house: unmeasured
TRILITHON_UPRIGHT = 2.5  # cm of its length each upright stands on, house: the opening between
# them (5 cm) lets the largest disc through
TRILITHON_IDS = ("T1", "T2")  # its two uprights (ruling trilithon-arch): the opening is floor
HERO_RADIUS_KEY = "hero"


class SetupOptions(Struct, frozen=True):
    room: str  # a room id, or "lair" with `lord`
    lord: str | None = None
    playmat: str | None = None
    heroes: tuple[tuple[str, int], ...] = ()  # (id, health)
    allies: tuple[tuple[str, int], ...] = ()  # (id, health): behind the Hero Start Zone line
    familiars: tuple[tuple[str, int], ...] = ()  # (its hero's id, health): beside its hero
    expansion_mats: tuple[str, ...] = ()  # the expansion mats the table owns
    last_playmat: str | None = None  # just played: roll again on it
    los_blocked: bool = False
    trilithon: bool = False  # the heroes chose to use the Trilithon
    hidden_cave: bool = False


class Placement(Struct, frozen=True):
    piece: str
    monster: str
    at: tuple[float, float]
    where: str
    source: str


class SetupResult(Struct, frozen=True):
    room: str
    room_name: str
    lair: bool
    playmat: str
    playmat_reason: str
    tiles: Tiles
    discarded_directions: tuple[DirectionTile, ...]
    placements: tuple[Placement, ...]
    heroes: tuple[Placement, ...]
    notes: tuple[str, ...]
    hidden_cave: tuple[str, ...]
    scenario: Scenario
    outcomes: tuple[Outcome, ...]
    rulings: tuple[RulingKey, ...] = ()  # the rulings the setup rests on, each said in a note


TILE_RECORDS = ("tiles.character", "tiles.monster", "tiles.direction")


def run_setup(catalog: Catalog, options: SetupOptions, chance: Chance) -> SetupResult:
    lair = options.room == "lair"
    room, lord = _room_and_lord(catalog, options, lair)
    notes: list[str] = []
    playmat_id, playmat_reason = choose_playmat(catalog, options, room, lord, chance, notes)
    playmat = catalog.playmats[playmat_id]
    rulings: list[RulingKey] = []
    if options.trilithon:
        playmat = _with_trilithon(playmat, notes)
        rulings.append(RulingKey.TRILITHON_ARCH)
    tiles, discarded = lay_tiles(catalog, options, lair, chance)
    if catalog.components.placeholders & set(TILE_RECORDS):
        rulings.append(RulingKey.ORDER_TILES)
        notes.append(f"{cite(RulingKey.ORDER_TILES)}: the tiles' faces are ours (docs/rulings.md):"
                     f" the Character tiles by level, Catacomb Lord and Antient, one Monster "
                     f"tile per family colour, the green Direction tile first and the blue "
                     f"second; if yours differ, enter them in your data folder (components.toml "
                     f"[tiles])")
    if options.hidden_cave:
        rulings.append(RulingKey.CAVE_PIECES)
    cave = _hidden_cave(catalog, chance, notes) if options.hidden_cave else ()
    units = (lair_units(catalog, lord, chance) if lair and lord is not None
             else room_units(catalog, room, lord, chance, notes, set(), rulings))
    ordered = placement_order(units, tiles)
    limit = catalog.setup.max_monsters - (1 if lair else 0)
    if len(ordered) > limit:
        notes.append(f"{len(ordered)} monsters drawn; only {limit} are placed (the most a setup "
                     f"places is {catalog.setup.max_monsters})")
        ordered = ordered[:limit]
    table = build_table(playmat)
    if playmat.swappable_zones:
        notes.append("the heroes choose their Start Zone; the other is the Monster Start Zone "
                     "(this file takes the mat's usual one)")
        notes += [f"obstacle layout: {p}" for p in quadrant_problems(table)]
    forces = _heroic_forces(catalog, table, options)
    heroes = [piece for piece, _ in forces]
    trilithon = frozenset(o.id for o in playmat.obstacles if o.id in TRILITHON_IDS) \
        if options.trilithon else frozenset()
    pieces, placements = place_monsters(catalog, table, ordered, tiles, list(heroes), trilithon)
    if lair and lord is not None:
        pieces, placements = _place_lord(catalog, table, lord, pieces, placements, tiles)
    scenario = Scenario(
        source="setup", playmat=playmat,
        playmat_ref="inline" if options.trilithon else playmat_id,
        settings=Settings(los_blocked=options.los_blocked), round=1,
        templates=Templates(dict(catalog.components.rulers), catalog.components.attack.radius,
                            catalog.components.clock.radius),
        tiles=tiles, pieces=tuple(pieces),
        bags={level: Bag(tokens) for level, tokens in catalog.components.bags.items()},
        chance=ChanceScript(),
    )
    hero_places = tuple(Placement(h.id, "", h.at, where, h.kind) for h, where in forces)
    return SetupResult(options.room, room.name if room else (lord.name if lord else ""), lair,
                       playmat_id, playmat_reason, tiles, tuple(discarded), tuple(placements),
                       hero_places, tuple(notes), cave, scenario, tuple(chance.record),
                       tuple(rulings))


def _room_and_lord(catalog: Catalog, options: SetupOptions, lair: bool
                   ) -> tuple[RoomSpec | None, LordSpec | None]:
    lord = None
    if options.lord is not None:
        lord = catalog.lords.get(options.lord)
        if lord is None:
            raise RulesError(f"--lord: unknown Catacomb Lord {options.lord!r} "
                             f"(known: {', '.join(sorted(catalog.lords))})")
    if lair:
        if lord is None:
            raise RulesError("ROOM 'lair' needs --lord: whose lair is it?")
        return None, lord
    room = catalog.rooms.get(options.room)
    if room is None:
        close = difflib.get_close_matches(options.room, list(catalog.rooms), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RulesError(f"ROOM: unknown room {options.room!r}{hint}")
    if room.kind != "battle":
        raise RulesError(f"ROOM: {room.name} is a special room: there is no battle to set up")
    return room, lord


def choose_playmat(catalog: Catalog, options: SetupOptions, room: RoomSpec | None,
                   lord: LordSpec | None, chance: Chance, notes: list[str]) -> tuple[str, str]:
    """The card's own mat; the Lord's choice by D12; else the Rune Die or D12 chart."""
    if options.playmat is not None:
        if options.playmat not in catalog.playmats:
            raise RulesError(f"--playmat: unknown playmat {options.playmat!r} "
                             f"(known: {', '.join(sorted(catalog.playmats))})")
        return options.playmat, "chosen by the players"
    if lord is not None and room is None:
        if len(lord.playmats) == 1:
            return lord.playmats[0], f"named on {lord.name}'s Setup card"
        if len(lord.playmats) >= 2:
            face = chance.d12("Catacomb Lord playmat")
            mat = d12_half(face, lord.playmats)
            return mat, f"{lord.name}'s Setup card offers two: D12 {face} -> {mat}"
        notes.append(f"{lord.name}'s Setup card playmat is not in our data: rolled as for a "
                     f"Battle Room (the Lair may repeat the last mat)")
    if room is not None and room.playmat is not None:
        return room.playmat, f"named on the {room.name} card"
    last = None if room is None else options.last_playmat
    chart = catalog.setup
    for _ in range(MAX_REROLLS):
        if options.expansion_mats:
            face = chance.d12("playmat chart")
            if face == 1:
                rune = chance.rune_die("playmat chart (D12 said 1)")
                mat, how = chart.rune_die_mats[rune], f"D12 1, Rune Die {rune}"
            else:
                mat_or_none = chart.d12_mats.get(face)
                if mat_or_none is None or mat_or_none not in options.expansion_mats:
                    continue  # not a mat this table plays with: roll again
                mat, how = mat_or_none, f"D12 {face}"
        else:
            rune = chance.rune_die("playmat chart")
            mat, how = chart.rune_die_mats[rune], f"Rune Die {rune}"
        if mat == last:
            continue  # just played: roll again
        return mat, how + (f" (rolled again over {last}, just played)" if last else "")
    raise RulesError("no playable playmat came up in 60 rolls; check --expansions and "
                     "--last-playmat")


def lay_tiles(catalog: Catalog, options: SetupOptions, lair: bool, chance: Chance
              ) -> tuple[Tiles, list[DirectionTile]]:
    faces = catalog.components.tiles
    character = deal(chance, character_tiles_for(faces, lair), "the Character tiles")
    monster = deal(chance, faces.monster, "the Monster tiles",
                   {f: faces.monster_label(f) for f in faces.monster})
    targets: dict[str, int] = {}
    if options.heroes:
        if len(options.heroes) > 4:
            raise RulesError("--heroes: at most four heroes (four Hero Target tiles)")
        targets = _hero_targets(chance, [hero for hero, _ in options.heroes])
    colour = {t: "green" for t in faces.green} | {t: "blue" for t in faces.blue}
    drawn = deal(chance, (*faces.green, *faces.blue), "the Direction tiles",
                 {t: f"{t} ({colour[t]})" for t in colour},
                 enough=lambda tiles: len({colour[DirectionTile(t)] for t in tiles}) == 2)
    green, blue, discarded = direction_pair(tuple(map(DirectionTile, drawn)), faces)
    return Tiles(tuple(map(CharacterTile, character)), tuple(map(Family, monster)), (green, blue),
                 targets), discarded


def deal(chance: Chance, items: Sequence[str], why: str, names: Mapping[str, str] | None = None,
         enough: Callable[[list[str]], bool] | None = None) -> list[str]:
    """Tiles or pieces in the order they come out. Virtual dice: one shuffle. Physical: the
    players draw one at a time from what is left (named as printed: `names`), until `enough`
    says the rules need no more or one is left; the rest follow in any order."""
    if chance.asker is None:
        return chance.shuffle(items, why)
    names = names or {}
    left, drawn = list(items), list[str]()
    while len(left) > 1 and not (enough is not None and enough(drawn)):
        by_name = {names.get(item, item): item for item in left}
        picked = by_name[chance.pick(list(by_name), f"{why} one at a time, face down: "
                                                     f"{len(drawn) + 1} of {len(items)}")]
        drawn.append(picked)
        left.remove(picked)
    return drawn + left


def _hero_targets(chance: Chance, heroes: list[str]) -> dict[str, int]:
    """Each hero gets one Hero Target tile at random. Physical: the players say which."""
    tiles = [str(n) for n in (1, 2, 3, 4)]
    if chance.asker is None:
        dealt = chance.shuffle(tiles, "the Hero Target tiles")
        return {hero: int(tile) for hero, tile in zip(heroes, dealt, strict=False)}
    targets: dict[str, int] = {}
    for hero in heroes:
        tile = chance.pick([t for t in tiles if int(t) not in targets.values()],
                           f"the Hero Target tile dealt to {hero}")
        targets[hero] = int(tile)
    return targets


def _units_of(catalog: Catalog, monster_id: str, count: int, source: str) -> list[Unit]:
    spec = catalog.monsters.get(monster_id)
    if spec is None or spec.kind != Kind.MONSTER:
        raise RulesError(f"{monster_id}: not a monster in our data (docs/data.md)")
    _require(spec, missing_for_battle(spec))
    assert spec.level is not None and spec.family is not None
    return [Unit(monster_id, spec.level, spec.family, source) for _ in range(count)]


def _require(spec: MonsterSpec | LordSpec, missing: Iterable[str]) -> None:
    """Fields our data lacks stop the setup with one line saying how to enter them."""
    fields = [f for f in missing if f in spec.unknown]
    if fields:
        raise RulesError(f"{spec.name}: {', '.join(fields)} not in our data; "
                         f"{card_hint(spec.id)}")


def _ready(spec: MonsterSpec) -> bool:
    return spec.kind == Kind.MONSTER and not missing_for_battle(spec)


def room_units(catalog: Catalog, room: RoomSpec | None, lord: LordSpec | None, chance: Chance,
               notes: list[str], excluded: set[str],
               rulings: list[RulingKey] | None = None) -> list[Unit]:
    """Named monsters, Monster Metre icons (a random Monster card of that level, all its units)
    and Mercenary icons (the Lord's mercenary). Several icons of one level draw their cards
    without putting one back (ruling 34, said in a note and kept in `rulings`)."""
    assert room is not None
    if not room.known:
        raise RulesError(f"the monsters of {room.name} are not in our data; add its list to "
                         f"rooms.toml in your data folder (docs/data.md)")
    units: list[Unit] = []
    for monster_id, count in room.monsters:
        units += _units_of(catalog, monster_id, count, "named on the card")
    drawn_cards: set[str] = set()
    for level, count in room.metres:
        if count > 1:
            notes.append(f"Monster Metre: the {count} level {level} Monster cards are drawn "
                         f"without putting one back ({cite(RulingKey.CARD_RULES)})")
            if rulings is not None:
                rulings.append(RulingKey.CARD_RULES)
        for _ in range(count):
            deck = sorted(m.id for m in catalog.monsters.values()
                          if m.level == level and _ready(m)
                          and m.id not in excluded | drawn_cards)
            if not deck:
                raise RulesError(f"no level {level} Monster card is left to draw")
            drawn = chance.pick(deck, f"a random level {level} Monster card")
            drawn_cards.add(drawn)
            spec = catalog.monsters[drawn]
            how_many = spec.units or catalog.setup.metre_units[level]
            units += _units_of(catalog, drawn, how_many, f"Monster Metre level {level}")
    mercenaries = room.mercenaries or 0
    if mercenaries:
        if lord is None:
            raise RulesError(f"{room.name} has {mercenaries} Mercenary icon(s): name the "
                             f"campaign's Catacomb Lord with --lord")
        _require(lord, ("mercenary",))
        merc = lord.mercenary[0]
        if len(lord.mercenary) > 1:
            face = chance.d12("Mercenary choice")
            merc = d12_half(face, lord.mercenary)
            notes.append(f"Mercenary: D12 {face} -> {merc}")
        units += _units_of(catalog, merc, mercenaries, f"Mercenary of {lord.name}")
    return units


def lair_units(catalog: Catalog, lord: LordSpec, chance: Chance) -> list[Unit]:
    _require(lord, ("minions",))
    units: list[Unit] = []
    for slot in lord.minions:
        monster = slot.choices[0]
        if len(slot.choices) > 1:
            face = chance.d12("minion choice")
            monster = d12_half(face, slot.choices)
        units += _units_of(catalog, monster, slot.count, f"minion of {lord.name}")
    return units


def _castles_rules(playmat: Playmat) -> bool:
    """The Catacombs & Castles mats have their own placement rules."""
    return not playmat.sticker_runes or playmat.swappable_zones


def _spots(table: TableGeometry, piece: Piece, tiles: Tiles, placed: list[Piece],
           not_behind: frozenset[str] = frozenset()) -> list[Spot]:
    """The placement spots in the rules' order, as they stand now. Nobody is placed behind the
    obstacles in `not_behind` (the Trilithon: the rule counts the mat's own six obstacles)."""
    mat = table.playmat
    behind = [s for s in _scanned(behind_obstacles(table, piece), tiles)
              if s.where not in {f"behind obstacle {o}" for o in not_behind}]
    if _castles_rules(mat):
        line = _zone_line(mat, piece, tiles.direction[0])
        return behind + line
    return (_scanned(monster_zone_runes(table, placed), tiles)
            + behind
            + _scanned(zone_corners(mat, piece), tiles)
            + [back_edge_centre(mat, piece)])


def _scanned(spots: Iterable[Spot], tiles: Tiles) -> list[Spot]:
    """Each kind of spot is scanned along the green Direction tile, ties by the blue, as seen
    from the Monster Start Zone."""
    return in_tile_order(spots, tiles.direction, lambda spot: spot.at)


def _zone_line(mat: Playmat, piece: Piece, green: DirectionTile) -> list[Spot]:
    """Lined up along the Monster Start Zone line from the centre outward."""
    step = 2 * piece.radius + 0.5
    y = mat.monster_zone + piece.radius
    spots = [Spot("the Monster Start Zone line, centre", (mat.width / 2, y))]
    for k in range(1, int(mat.width / step)):
        pair = [(mat.width / 2 + side * k * step, y) for side in (-1, 1)]
        pair.sort(key=lambda at: tile_key((green,), at))  # the green tile's side first
        spots += [Spot(f"the Monster Start Zone line, {k} along", at) for at in pair
                  if piece.radius <= at[0] <= mat.width - piece.radius]
    return spots


def place_monsters(catalog: Catalog, table: TableGeometry, units: list[Unit], tiles: Tiles,
                   pieces: list[Piece], not_behind: frozenset[str] = frozenset()
                   ) -> tuple[list[Piece], list[Placement]]:
    placements: list[Placement] = []
    used: set[str] = set()
    numbers: dict[str, int] = {}
    for unit in units:
        spec = catalog.monsters[unit.monster]
        numbers[unit.monster] = numbers.get(unit.monster, 0) + 1
        number = numbers[unit.monster]
        piece = monster_piece(catalog, spec, f"{unit.monster}-{number}", (0.0, 0.0),
                              f"{spec.name} #{number}")
        spot = next((s for s in _spots(table, piece, tiles, pieces, not_behind)
                     if s.where not in used), None)
        if spot is None:
            spot = Spot("beside the centre of the back edge", back_edge_centre(table.playmat,
                                                                                 piece).at)
        used.add(spot.where)
        at = nearest_legal_spot(table, pieces, piece, spot.at)
        where = spot.where if centre_distance(at, spot.at) < 0.5 else \
            f"{spot.where} (nearest free spot)"
        pieces.append(piece.moved(at))
        placements.append(Placement(piece.id, unit.monster, at, where, unit.source))
    return pieces, placements


def _place_lord(catalog: Catalog, table: TableGeometry, lord: LordSpec, pieces: list[Piece],
                placements: list[Placement], tiles: Tiles
                ) -> tuple[list[Piece], list[Placement]]:
    """The Catacomb Lord goes last: at the back-edge centre (a zone corner on the C&C mats)."""
    _require(lord, missing_for_battle(lord))
    piece = monster_piece(catalog, lord, lord.id, (0.0, 0.0))
    if _castles_rules(table.playmat):
        spot = _scanned(zone_corners(table.playmat, piece), tiles)[0]
    else:
        spot = back_edge_centre(table.playmat, piece)
    at = nearest_legal_spot(table, pieces, piece, spot.at)
    pieces.append(piece.moved(at))
    placements.append(Placement(lord.id, lord.id, at, spot.where, "the Catacomb Lord, last"))
    return pieces, placements


FAMILIAR_GAP = 0.5  # cm between a hero's edge and their familiar's, where it is first put
FAMILIAR_WITHIN = 2.5  # cm: familiars "are placed within 2.5 cm of the hero" (research notes)


def _heroic_forces(catalog: Catalog, table: TableGeometry, options: SetupOptions
                   ) -> list[tuple[Piece, str]]:
    """"Heroes, allies and familiars go behind the Hero Start Zone line" (research notes, Setup;
    "The Heroic Forces are placed in the Hero Start Zone as normal", l.188): the heroes and
    their allies spread across the zone, each familiar "within 2.5 cm of the hero" (2.6)
    whose it is. Placeholders, each with where it goes: the players move them where they put
    them."""
    playmat = table.playmat
    radius = catalog.components.disc_radius.get(HERO_RADIUS_KEY, 1.25)
    heroes = {hero for hero, _ in options.heroes}
    ids = [hero for hero, _ in options.heroes] + [ally for ally, _ in options.allies]
    for owner, _ in options.familiars:
        if owner not in heroes:
            raise RulesError(f"--familiars: {owner!r} is not one of the heroes "
                             f"({', '.join(sorted(heroes)) or 'none named'})")
        ids.append(familiar_id(owner))
    if len(set(ids)) != len(ids):
        raise RulesError("--heroes, --allies, --familiars: a piece is named twice")
    standing = [(piece_id, Kind.HERO if piece_id in heroes else Kind.ALLY, health)
                for piece_id, health in (*options.heroes, *options.allies)]
    count = len(standing)
    pieces = [Piece(piece_id, Side.HEROES, kind,
                    (playmat.width * (i + 1) / (count + 1), max(radius, playmat.hero_zone / 2)),
                    radius, health, gold=5 if kind == Kind.HERO else 0,
                    starting_health=health)
              for i, (piece_id, kind, health) in enumerate(standing)]
    placed = [(piece, "Hero Start Zone (move it where you like)") for piece in pieces]
    for hero_id, health in options.familiars:
        hero = next(p for p in pieces if p.id == hero_id)
        familiar = Piece(familiar_id(hero_id), Side.HEROES, Kind.FAMILIAR, hero.at, radius,
                         health, starting_health=health)
        at = spot_beside(table, pieces, hero, familiar, (1.0, 0.0), FAMILIAR_GAP,
                         FAMILIAR_WITHIN)
        pieces.append(familiar.moved(at))
        placed.append((pieces[-1], f"within {FAMILIAR_WITHIN:g} cm of {hero_id} (move it with "
                                   f"them)"))
    return placed


def familiar_id(hero: str) -> str:
    """The piece id of a hero's familiar (one per hero)."""
    return f"{hero}-familiar"


def _with_trilithon(playmat: Playmat, notes: list[str]) -> Playmat:
    """The heroes chose the Trilithon: the centre of the Monster Start Zone line, moved clear of
    other obstacles. It is an arch (ruling trilithon-arch): its two uprights are obstacles, the
    opening between them floor that pieces and sight pass through. (The AI always declines it
    and ignores its effects: no second shot.)"""
    arch = (f"an arch: add its two uprights as obstacles {' and '.join(TRILITHON_IDS)}, the "
            f"opening between them left open ({cite(RulingKey.TRILITHON_ARCH)})")
    if playmat.prints_all_runes:
        notes.append("Trilithon: on the Cave of the Keystone it goes \"between the [a word is "
                     "missing in the rulebook] and the rune near the centre of the Bridge of "
                     f"Cazanellorh\"; place it there; it is {arch}")
        return playmat
    if _castles_rules(playmat):
        notes.append("Trilithon: on this mat the heroes place it on a vacant obstacle location "
                     f"icon of their choice; it is {arch}")
        return playmat
    width, depth = TRILITHON_SIZE
    x, y = playmat.width / 2, playmat.monster_zone
    table = build_table(playmat)
    for step in range(0, 40):
        centre = x + (step + 1) // 2 * (1 if step % 2 else -1) * 1.0
        whole = _box(centre - width / 2, centre + width / 2, y, depth)
        if all(not Polygon(whole).intersects(o.polygon) for o in table.obstacles):
            notes.append(f"Trilithon (the heroes' choice): centred on the Monster Start Zone "
                         f"line at x {centre:.1f}, an arch: its uprights are obstacles "
                         f"{' and '.join(TRILITHON_IDS)}, its opening between them blocks "
                         f"neither sight nor a push ({cite(RulingKey.TRILITHON_ARCH)}); the AI "
                         f"ignores its effects")
            left, right = centre - width / 2, centre + width / 2
            uprights = (Obstacle(TRILITHON_IDS[0], _box(left, left + TRILITHON_UPRIGHT, y, depth)),
                        Obstacle(TRILITHON_IDS[1], _box(right - TRILITHON_UPRIGHT, right, y,
                                                        depth)))
            return replace(playmat, obstacles=(*playmat.obstacles, *uprights))
    notes.append(f"Trilithon: no clear spot on the Monster Start Zone line; place it by hand; it "
                 f"is {arch}")
    return playmat


def _box(low: float, high: float, y: float, depth: float) -> tuple[tuple[float, float], ...]:
    """A rectangle from x `low` to `high`, `depth` deep, centred on the line y."""
    return ((low, y - depth / 2), (high, y - depth / 2), (high, y + depth / 2),
            (low, y + depth / 2))


def _hidden_cave(catalog: Catalog, chance: Chance, notes: list[str]) -> tuple[str, ...]:
    """One piece of each level-1 monster in the Monster Pool (its card's data complete or not:
    the rulebook's own example draws Eris and the Mummy); five drawn at random are set aside to
    be collected. The kinds stay in the Overseer's draws (ruling cave-pieces)."""
    level_one = sorted(m.id for m in catalog.monsters.values()
                       if m.level == 1 and m.kind == Kind.MONSTER)
    collect = catalog.setup.hidden_cave_collect
    drawn = deal(chance, level_one, "one of each level-1 monster piece",
                 names={m: catalog.monsters[m].name for m in level_one},
                 enough=lambda pieces: len(pieces) >= collect)
    chosen = tuple(drawn[:collect])
    items = ", ".join(catalog.setup.hidden_cave_items)
    names = ", ".join(catalog.monsters[m].name for m in chosen)
    notes.append(f"Hidden Cave: set aside one piece of each of {names} (those pieces are not "
                 f"available to the Overseer; {cite(RulingKey.CAVE_PIECES)}); put {items} (or four "
                 f"random Item cards) face up beside the Hidden Cave card")
    return chosen



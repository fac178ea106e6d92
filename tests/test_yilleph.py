"""Yilleph the Illusionist (red-box-solo-rules.txt l.320-335), a hero of two pieces entered with
`part_of` (docs/data.md): "The white Yilleph is invulnerable ... The black Yilleph is vulnerable
to damage" (l.326). A hit on an invulnerable piece damages nothing, neither it nor the piece it
is part of (docs/rulings.md 27). The AI's monsters target and hit Yilleph; the heroes report
their own hits with `hit`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automa.catalog.load import Catalog
from automa.engine.battle import Battle, StepLog
from automa.engine.shots import damage
from automa.errors import ScenarioError
from automa.model.pieces import Colour
from automa.render.json_out import pieces_json
from automa.rules.hero_hits import HeroShot, resolve
from automa.rules.yilleph import flip_line, flipped, flips
from automa.scenario.load import parse_scenario
from automa.scenario.save import scenario_text
from automa.session.snapshot import Standing, standing_from, standing_json
from tests.conftest import OPEN_MAT, logged_inputs, new_session, play_lines, scenario_from
from tests.test_engine import HEAD, kinds, piece, turn
from tests.test_hero_hits import ELF, ai, battle_of, hit, monster

# the whole piece holds Yilleph's health; the other piece is part of it (docs/data.md)
WHITE_PART = piece("yilleph", "heroes", (10, 20), health=5) \
    + piece("yilleph-w", "heroes", (30, 55), part_of="yilleph", invulnerable=True)
ORC_HITS = piece("orc", "ai", (30, 60), monster="orc", sequences=["melee"]) \
    + '[chance]\ntokens = { 1 = ["2"] }\nd12 = [12]\nrune_die = [4]\n'


def _battle(catalog: Catalog, text: str) -> Battle:
    scenario = scenario_from(HEAD + text, catalog)
    return Battle(scenario.pieces, scenario.bags, scenario.out)


# --- a hit on an invulnerable piece damages nothing ----------------------------------------

def test_damage_on_an_invulnerable_part_reaches_nobody(catalog: Catalog) -> None:
    """l.326 "The white Yilleph is invulnerable": the damage of a hit on the white piece does
    not go on to the piece it is part of; a hit on a part that is not invulnerable still does
    (ruling 27, Ulom's claw)."""
    text = WHITE_PART + piece("ulom", "heroes", (50, 20), health=6) \
        + piece("claw", "heroes", (50, 25), part_of="ulom")
    battle, log = _battle(catalog, text), StepLog()
    assert damage(battle, log, "yilleph-w", 2).piece("yilleph").health == 5
    assert "no damage to it or to yilleph" in log.steps[-1].text  # type: ignore[union-attr]
    assert damage(battle, StepLog(), "claw", 2).piece("ulom").health == 4


def test_the_ai_hitting_the_white_piece_leaves_yilleph_unharmed(catalog: Catalog) -> None:
    """The Orc's melee hits the white piece (a 2 drawn, no zero): it is pushed ("damage does not
    necessarily have to be inflicted ... as the active target may be invulnerable", l.294),
    and neither piece loses health."""
    result = turn(catalog, WHITE_PART + ORC_HITS)
    assert result.activations[0].target == "yilleph"
    assert "damage" not in kinds(result)
    assert result.battle.piece("yilleph").health == 5
    assert result.battle.piece("yilleph-w").at != (30.0, 55.0)  # pushed all the same
    assert 27 in [r.number for r in result.activations[0].rulings]


def test_an_invulnerable_part_takes_no_poison_either(catalog: Catalog) -> None:
    """No damage, so no effect that needs damage (data/effects.toml): the Sewer Rat's poison
    gives Yilleph no Poison card when it hits the white piece."""
    text = WHITE_PART.replace("health = 5", "health = 5\nstarting_health = 5") \
        + piece("rat", "ai", (30, 60), monster="sewer-rat", sequences=["melee+poison"]) \
        + '[chance]\ntokens = { 2 = ["1"] }\nd12 = [12]\n'
    yilleph = turn(catalog, text).battle.piece("yilleph")
    assert (yilleph.health, yilleph.poison) == (5, 0)


def test_play_ai_turn_hitting_the_white_piece(tmp_path: Path) -> None:
    """Through `automa play`: the AI turn's Orc hits the white piece; `status` shows Yilleph's
    health unchanged."""
    folder = new_session(tmp_path, HEAD + WHITE_PART + ORC_HITS + OPEN_MAT)
    out = play_lines(folder, ["done", "", "status", "quit"])
    assert "yilleph-w is invulnerable: no damage to it or to yilleph" in out
    assert "yilleph takes 2" not in out
    assert "yilleph            ( 10.0,  20.0) health 5" in out.split("> status")[-1]


# --- the heroes' hit ----------------------------------------------------------------------

def test_a_heros_shot_does_nothing_to_an_invulnerable_piece(catalog: Catalog) -> None:
    """An invulnerable piece takes no damage, and no modifier acts on it (each needs damage):
    no Stunned! card, no petrify."""
    orc = monster(catalog, "orc", invulnerable=True)
    for shot in ("melee+stun", "melee+petrify", "bite+critical"):
        out = resolve(HeroShot(shot.split("+")[0], frozenset(shot.split("+")[1:])), orc,
                      catalog.monsters["orc"])
        assert (out.damage, out.gains, out.petrified) == (0, frozenset(), False), shot
        assert "invulnerable: no damage" in out.lines[-1]


def test_a_heros_hit_on_a_part_goes_to_its_whole_unless_invulnerable(catalog: Catalog) -> None:
    """`hit` names the piece struck: a part counts as the piece it is part of (ruling 27), so
    the Troll loses the health; an invulnerable part passes nothing on."""
    battle = battle_of(catalog, ai("troll", "troll", 40.0),
                       ai("club", "troll", 44.0, part_of="troll", name="club"),
                       ai("ward", "troll", 36.0, part_of="troll", invulnerable=True, name="ward"))
    after, lines = hit(catalog, battle, ["club"], "melee", by="elf")
    assert after.piece("troll").health == 1
    assert lines[0].startswith("club (part of Troll): melee: 1 damage")
    after, lines = hit(catalog, battle, ["ward"], "melee", by="elf")
    assert after.piece("troll").health == 2 and "invulnerable: no damage" in lines[0]


def test_play_hit_on_an_invulnerable_part(tmp_path: Path) -> None:
    """Through `automa play`: `hit ward bite by elf` on the Troll's invulnerable part."""
    ward = ai("ward", "troll", 36.0, part_of="troll", invulnerable=True, name="ward")
    folder = new_session(tmp_path, HEAD + ELF + ai("troll", "troll", 40.0) + ward
                         + "[chance]\nseed = 1\n" + OPEN_MAT)
    out = play_lines(folder, ["hit ward bite by elf", "status", "quit"])
    assert "ward (part of Troll): invulnerable: no damage" in out
    assert "troll" in out and "health 2" in out


# --- the colour and the flip (l.330-332, ruling 67) ---------------------------------------

# Yilleph as a scenario gives it: the whole piece black with the health, the part white
YILLEPH = piece("yilleph", "heroes", (10, 20), health=5, colour="black") \
    + piece("yilleph-w", "heroes", (30, 55), part_of="yilleph", colour="white")


def test_flipping_turns_the_colour_and_the_invulnerability(catalog: Catalog) -> None:
    """l.326: "The white Yilleph is invulnerable ... The black Yilleph is vulnerable to
    damage"; l.330: a piece directly hit "flips over"."""
    battle = _battle(catalog, YILLEPH)
    white, black = battle.piece("yilleph-w"), battle.piece("yilleph")
    assert (white.colour, white.invulnerable, black.colour, black.invulnerable) == \
        (Colour.WHITE, True, Colour.BLACK, False)
    assert (flipped(white).colour, flipped(white).invulnerable) == (Colour.BLACK, False)
    assert (flipped(black).colour, flipped(black).invulnerable) == (Colour.WHITE, True)
    assert flips(white) and not flips(battle_of(catalog).piece("elf"))
    with pytest.raises(ValueError, match="only Yilleph's pieces flip"):
        flipped(battle_of(catalog).piece("elf"))
    # l.332: "When it flips to white, the player ... immediately performs a single rush shot.
    # When it flips to black, it is immediately moved to a random rune."
    assert flip_line(black).endswith("the players perform a single rush shot with it now")
    assert flip_line(white).endswith("it is moved to a random rune now")


@pytest.mark.parametrize(("fields", "problem"), [
    ('colour = "grey"', "expected one of white, black"),
    ('colour = "black"\ninvulnerable = true', "a black Yilleph piece is vulnerable"),
    ('colour = "white"\ninvulnerable = false', "a white Yilleph piece is invulnerable"),
])
def test_a_scenario_s_colour_is_checked(catalog: Catalog, fields: str, problem: str) -> None:
    text = HEAD + '[[piece]]\nid = "yilleph"\nside = "heroes"\nat = [10.0, 20.0]\n' \
        f"health = 5\n{fields}\n"
    with pytest.raises(ScenarioError, match=problem):
        scenario_from(text, catalog)


def test_only_a_heroes_piece_has_a_colour_and_the_whole_needs_health(catalog: Catalog) -> None:
    """A colour is Yilleph's; the whole piece holds Yilleph's health even while white (its
    black side is vulnerable), where a plain invulnerable hero piece needs none."""
    with pytest.raises(ScenarioError, match="only Yilleph the Illusionist's pieces"):
        scenario_from(HEAD + piece("orc", "ai", (30, 60), monster="orc", colour="white"),
                      catalog)
    with pytest.raises(ScenarioError, match="health"):
        scenario_from(HEAD + piece("yilleph", "heroes", (10, 20), colour="white"), catalog)
    assert scenario_from(HEAD + piece("y", "heroes", (10, 20), invulnerable=True),
                         catalog).pieces[0].health is None


def test_the_colour_is_saved_and_read_back(catalog: Catalog) -> None:
    """`--save` and a session's checkpoint keep the colour as it lies; `invulnerable` is not
    written beside it, the colour says it."""
    scenario = scenario_from(HEAD + YILLEPH, catalog)
    text = scenario_text(scenario)
    assert 'colour = "white"' in text and "invulnerable" not in text
    again = parse_scenario(text, "saved.toml", catalog)
    assert [(p.colour, p.invulnerable) for p in again.pieces] == \
        [(p.colour, p.invulnerable) for p in scenario.pieces]
    standing = Standing(_battle(catalog, YILLEPH), 1, "heroes")
    back = standing_from(json.loads(json.dumps(standing_json(standing))))
    assert back.battle.piece("yilleph-w").colour is Colour.WHITE


def test_the_ai_hitting_the_white_piece_flips_it_to_black_on_a_random_rune(
        catalog: Catalog) -> None:
    """l.330-332: the white piece is hit (no damage), pushed, then flips to black and "is
    immediately moved to a random rune": the AI rolls the Rune Die (4: rune 4 at (10, 50))."""
    result = turn(catalog, YILLEPH + ORC_HITS)
    white = result.battle.piece("yilleph-w")
    assert (white.colour, white.invulnerable, white.at) == (Colour.BLACK, False, (10.0, 50.0))
    assert result.battle.piece("yilleph").health == 5
    steps = result.activations[0].steps
    flip = next(s for s in steps if s.kind == "effect")
    assert flip.effect == "flip" and "flips to black" in flip.text  # type: ignore[union-attr]
    after = steps[steps.index(flip) + 1:]
    assert [s.kind for s in after] == ["roll", "move"]
    assert 67 in [r.number for r in result.activations[0].rulings]
    assert pieces_json(result.battle)["yilleph-w"]["colour"] == "black"  # `turn --json`


def test_the_ai_hitting_a_black_piece_damages_then_flips_it_to_white(catalog: Catalog) -> None:
    """The black piece (here the part) is hit: Yilleph takes the 2, it is pushed, then it flips
    to white and the players perform a single rush shot with it (l.332); no rune is rolled."""
    swapped = YILLEPH.replace('colour = "black"', 'colour = "x"') \
        .replace('colour = "white"', 'colour = "black"').replace('colour = "x"', 'colour = "white"')
    result = turn(catalog, swapped + ORC_HITS)
    part = result.battle.piece("yilleph-w")
    assert (part.colour, part.invulnerable) == (Colour.WHITE, True)
    assert result.battle.piece("yilleph").health == 3
    steps = result.activations[0].steps
    assert [s.kind for s in steps][-1] == "effect"
    assert "the players perform a single rush shot with it now" in steps[-1].text  # type: ignore[union-attr]
    assert "rune" not in kinds(result)


def test_a_zero_is_no_hit_and_flips_nothing(catalog: Catalog) -> None:
    """A zero token: "the shot misses (no damage, no effect, no push)"; nothing was hit."""
    result = turn(catalog, YILLEPH + ORC_HITS.replace('["2"]', '["0"]'))
    assert result.battle.piece("yilleph-w").colour == Colour.WHITE
    assert "effect" not in kinds(result)


def test_a_killed_yilleph_does_not_flip(catalog: Catalog) -> None:
    """Yilleph dies of the hit on its black piece: both pieces leave play, nothing flips."""
    text = piece("yilleph", "heroes", (30, 55), health=2, colour="black") \
        + piece("yilleph-w", "heroes", (10, 20), part_of="yilleph", colour="white") + ORC_HITS
    result = turn(catalog, text)
    assert result.battle.get("yilleph") is None and result.battle.get("yilleph-w") is None
    assert "effect" not in kinds(result)


def test_yilleph_s_pieces_are_not_put_back_together(catalog: Catalog) -> None:
    """Putting a separated part back beside its owner is Ulom's rule (l.318), not Yilleph's:
    the black piece is hit and pushed away; the white piece stays where it lay."""
    text = piece("yilleph", "heroes", (30, 55), health=5, colour="black") \
        + piece("yilleph-w", "heroes", (33.5, 55), part_of="yilleph", colour="white") \
        + piece("orc", "ai", (30, 60), monster="orc", sequences=["melee"]) \
        + '[chance]\nd12 = [3]\ntokens = { 1 = ["1"] }\n'
    battle = turn(catalog, text).battle
    assert battle.piece("yilleph").at != (30.0, 55.0)
    assert battle.piece("yilleph-w").at == (33.5, 55.0)
    assert battle.piece("yilleph").colour == Colour.WHITE


def test_play_the_ai_turn_flips_the_white_piece(tmp_path: Path) -> None:
    """Through `automa play`: the AI turn's Orc hits the white piece; the printout says it
    flips and the AI moves it to a random rune; `status` shows it black side up."""
    folder = new_session(tmp_path, HEAD + YILLEPH + ORC_HITS + OPEN_MAT)
    out = play_lines(folder, ["done", "", "status", "quit"])
    assert "yilleph-w was hit: it flips to black" in out
    assert "yilleph-w          ( 10.0,  50.0) black side up" in out.split("> status")[-1]


def test_play_a_heroes_hit_flips_a_yilleph_piece(tmp_path: Path) -> None:
    """Through `automa play`: a hero's rush strikes the white piece (any piece flips it, l.330):
    no damage, it flips to black and the players roll for the rune; a melee of the white
    piece on the black one flips that one to white (the rush reminder). Logged, replayed."""
    folder = new_session(tmp_path, HEAD + ELF + YILLEPH + ai("rat", "sewer-rat", 50.0)
                         + "[chance]\nseed = 1\n" + OPEN_MAT)
    out = play_lines(folder, ["hit yilleph-w rush by elf", "hit yilleph melee by yilleph-w",
                              "hit elf melee", "quit"])
    flat = " ".join(out.split())  # the printout wraps its lines
    assert "yilleph-w: a teammate: no damage" in flat
    assert "flips to black, vulnerable (l.330-332); it is moved to a random rune now (roll the " \
           "Rune Die, then `move yilleph-w rune N`; ruling 67)" in flat
    assert "yilleph was hit: it flips to white" in flat
    assert "no AI or neutral piece 'elf'" in flat
    assert [e["targets"] for e in logged_inputs(folder)] == [["yilleph-w"], ["yilleph"]]
    status = play_lines(folder, ["status", "quit"])  # replayed from the log
    assert "health 5 white side up" in status and "black side up" in status


def test_ulom_s_claw_hitting_a_yilleph_piece(catalog: Catalog) -> None:
    """The claw struck a friendly piece: l.317 "that piece can be moved to an unoccupied rune.
    The player controlling the friendly piece chooses the rune", and the Yilleph piece flips."""
    battle = battle_of(catalog, YILLEPH)
    after, lines = hit(catalog, battle, ["yilleph-w"], "claw", by="elf")
    assert after.piece("yilleph-w").colour == Colour.BLACK
    assert lines[0].endswith("Ulom's claw hit a friendly piece: its player may move it to an "
                             "unoccupied rune of their choice (l.317)")

"""`automa campaign`: new, status, next, end-room, undo (CONTRACT.md "Campaigns")."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from automa.cli.campaign_show import (
    describe_step,
    fallen_line,
    resolution_line,
    status_json,
    status_text,
)
from automa.cli.main import _catalog, cli, emit_json, reports_errors
from automa.cli.setup_cmds import parse_heroes

json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print one JSON object instead of text.")
folder_option = click.option("--session", "folder", required=True,
                             type=click.Path(file_okay=False, path_type=Path),
                             help="The campaign folder.")
ROOMS_DIR = "rooms"
F = TypeVar("F", bound=Callable[..., Any])


def one_writer(command: F) -> F:
    """A campaign step is read, decided and appended by one window at a time."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from automa.campaign.log import LOG
        from automa.session.lock import session_lock

        folder: Path = kwargs["folder"]
        if not (folder / LOG).is_file():  # no campaign: the command says so in one line
            return command(*args, **kwargs)
        with session_lock(folder):
            return command(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
RESURRECTED_HEALTH = 2  # Althea the Healer: "Resurrect a hero with 2 health" (research notes)


@cli.group()
def campaign() -> None:
    """Play a Red Box campaign: Monstrosity or Pharaoh, room after room."""


def _routes(ctx: click.Context, catalog: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    from automa.campaign.route import load_campaigns
    from automa.catalog.locate import user_data_dir

    return load_campaigns(user_data_dir(ctx.obj["data_dir"]), catalog.rooms, catalog.lords)


def _state(ctx: click.Context, folder: Path) -> tuple[Any, Any, Any]:
    """(catalog, rewards known, campaign state) of the campaign in `folder`."""
    from automa.campaign import log as campaign_log
    from automa.campaign.rules import replay
    from automa.errors import InputError

    contents = campaign_log.read(folder)
    catalog = _catalog(ctx)
    routes, rewards = _routes(ctx, catalog)
    route = routes.get(str(contents.header.get("campaign")))
    if route is None:
        raise InputError(f"{folder}: its campaign {contents.header.get('campaign')!r} is not in "
                         f"campaigns.toml")
    return catalog, rewards, replay(contents, route)


@campaign.command("new")
@click.argument("name")
@folder_option
@click.option("--heroes", required=True, metavar="ID=HEALTH,...",
              help="The heroes and their starting health, e.g. elf=8,barbarian=12.")
@click.option("--lord", default=None,
              help="The campaign's Catacomb Lord (default: the campaign's start piece).")
@click.option("--hidden-cave", is_flag=True, help="Play with the Hidden Cave.")
@click.option("--hero-death", type=click.Choice(["returns", "stays-dead", "keeps-board"]),
              default="returns",
              help="A fallen hero (ruling campaign-hero-death): the official rule (back at the "
                   "next setup with half health), the advanced rule, or the FAQ's.")
@click.option("--althea-cure", type=click.Choice(["official", "fan"]), default="official",
              help="Althea the Healer's price to cure a Poison card (ruling althea-cure): "
                   "20 gold (official) or 2 (fan).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None)
@json_option
@click.pass_context
@reports_errors
def campaign_new(ctx: click.Context, name: str, folder: Path, heroes: str, lord: str | None,
                 hidden_cave: bool, hero_death: str, althea_cure: str, seed: int | None,
                 as_json: bool) -> None:
    """Start a campaign in a folder that keeps it all.

    \b
    Example:
      automa campaign new monstrosity --session evening --heroes elf=8,dwarf=9 --lord hmotha
    """
    import numpy as np

    from automa.campaign import log as campaign_log
    from automa.campaign.rules import boards_json, new_heroes
    from automa.engine.chance import Chance
    from automa.engine.setup import _hidden_cave
    from automa.errors import InputError
    from automa.model.scenario import ChanceScript

    catalog = _catalog(ctx)
    routes, _ = _routes(ctx, catalog)
    route = routes.get(name)
    if route is None:
        raise InputError(f"NAME: unknown campaign {name!r} (known: {', '.join(sorted(routes))})")
    chosen = parse_heroes(heroes)
    if not chosen:
        raise InputError("--heroes: name at least one hero, e.g. elf=8")
    the_lord = lord if lord is not None else route.start  # ruling campaign-lord
    if the_lord not in catalog.lords:
        raise InputError(f"--lord: unknown Catacomb Lord {the_lord!r} "
                         f"(known: {', '.join(sorted(catalog.lords))})")
    used_seed = seed if seed is not None else int(np.random.SeedSequence().generate_state(1)[0])
    cave = None
    if hidden_cave:
        chance = Chance(ChanceScript(), np.random.default_rng(used_seed),
                        catalog.components.rune_die, catalog.components.location_die)
        needed = _hidden_cave(catalog, chance, [])
        cave = {"needed": list(needed), "items": list(catalog.setup.hidden_cave_items)}
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{folder}: cannot be made ({exc.strerror})") from None
    campaign_log.create(folder, {"campaign": route.id, "lord": the_lord, "seed": used_seed,
                                 "heroes": boards_json(new_heroes(chosen)),
                                 "hidden_cave": cave, "hero_death": hero_death,
                                 "settings": {"althea-cure": althea_cure}})
    _, _, state = _state(ctx, folder)
    if as_json:
        emit_json(status_json(state))
        return
    click.echo(status_text(state))


@campaign.command("status")
@folder_option
@json_option
@click.pass_context
@reports_errors
def campaign_status(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """The route (done, current, open, skipped rooms), the heroes' boards, the Hidden Cave."""
    _, _, state = _state(ctx, folder)
    if as_json:
        emit_json(status_json(state))
        return
    click.echo(status_text(state))


def _room_scenario(catalog: Any, state: Any, room_id: str, seed: int, dice: str,
                   last_playmat: str | None) -> Any:
    """The room's setup with the campaign's Lord and surviving heroes, their boards on the mat."""
    from dataclasses import replace

    import numpy as np

    from automa.campaign.rules import returning
    from automa.cli.asker import PromptAsker
    from automa.engine.chance import Chance
    from automa.engine.setup import SetupOptions, run_setup
    from automa.model.scenario import ChanceScript

    boards = returning(state.heroes, state.hero_death)
    alive = tuple((h, b.health) for h, b in boards.items() if b.alive)
    options = SetupOptions(room=room_id, lord=state.lord, heroes=alive,
                           last_playmat=last_playmat)  # the cave's kinds stay in the draws:
    # only its five pieces are set aside (ruling cave-pieces)
    chance = Chance(ChanceScript(), np.random.default_rng(seed), catalog.components.rune_die,
                    catalog.components.location_die,
                    asker=PromptAsker() if dice == "physical" else None)
    result = run_setup(catalog, options, chance)
    pieces = []
    for piece in result.scenario.pieces:
        board = boards.get(piece.id) if piece.side == "heroes" else None
        if board is not None:
            piece = replace(piece, health=board.health, starting_health=board.starting_health,
                            gold=board.gold, poison=board.poison, items=board.items)
        pieces.append(piece)
    return result, replace(result.scenario, pieces=tuple(pieces))


def _last_playmat(folder: Path, steps: list[dict[str, Any]]) -> str | None:
    return next((s.get("playmat") for s in reversed(steps)
                 if s.get("type") == "enter" and s.get("playmat")), None)


@campaign.command("next")
@click.argument("room")
@folder_option
@click.option("--dice", type=click.Choice(["virtual", "physical"]), default="virtual",
              help="physical: you roll and draw at the table and type what came up.")
@click.option("--monsters", default=None, metavar="KIND=N,...",
              help="The Room card's monsters when our data lacks them, e.g. "
                   "'sewer-rat=2,metre-1=1,mercenary=2' (remembered in your data folder).")
@click.option("--lord-card", "lord_card_values", multiple=True, metavar="FIELD=VALUE",
              help="The Lord's card when our data lacks it (the Monstrosity, the Pharaoh): "
                   "health=, sequence= (repeat for each Or), minions=, mercenary=, size=.")
@click.option("--offers", default=None, metavar="ID=PRICE:EFFECT;...",
              help="A special room's offers when our sources lack them (the Hearthshire "
                   "Stables, the Crypt of Shaurath), e.g. 'rest=2:health+1' (remembered).")
@click.option("--ask", is_flag=True,
              help="Ask what our data lacks even when stdin is not a terminal (piped answers).")
@json_option
@click.pass_context
@reports_errors
@one_writer
def campaign_next(ctx: click.Context, room: str, folder: Path, dice: str,
                  monsters: str | None, lord_card_values: tuple[str, ...],
                  offers: str | None, ask: bool, as_json: bool) -> None:
    """Enter ROOM, one of the open rooms: a battle room is set up with the campaign's heroes and
    Lord, and its battle is a session in the campaign folder (`automa play --session ...`).

    A Room card's monsters or a Lord's card our data lacks is asked once (or given with
    --monsters / --lord-card) and remembered in your data folder."""
    from automa.campaign import log as campaign_log
    from automa.campaign.rules import check_can_enter, in_force, returning
    from automa.cli.campaign_ask import lord_card, lord_options, remember_icons, room_icons
    from automa.errors import InputError
    from automa.render.setup_out import setup_text
    from automa.scenario.save import save_scenario
    from automa.session.store import SCENARIO, Session

    catalog, _, state = _state(ctx, folder)
    check_can_enter(state, room)
    entry = state.route.room(room)
    contents = campaign_log.read(folder)
    number = len(contents.steps) + 1
    step: dict[str, Any] = {"type": "enter", "room": room, "session": None, "playmat": None}
    if monsters is not None and entry.kind != "battle":
        raise InputError(f"--monsters: {entry.name} is not a battle room")
    if entry.kind == "special":
        from automa.cli.campaign_visit import _visits, ask_offers, menu_json, menu_text

        visit = ask_offers(ctx, catalog, catalog.rooms[room], _visits(ctx, catalog).get(room),
                           offers, ask)
        campaign_log.append(folder, step)
        _, _, state = _state(ctx, folder)
        if as_json:
            emit_json({"room": room, "kind": "special", "session": None,
                       "menu": menu_json(visit, state)})
            return
        click.echo(f"{entry.name}: a visit (no battle).")
        click.echo(menu_text(visit, state, folder))
        return
    if offers is not None:
        raise InputError(f"--offers: {entry.name} is not a special room")
    icons = room_icons(ctx, catalog, room, monsters, ask) if entry.kind == "battle" else None
    mercenaries = (icons.mercenaries if icons is not None else 0 if entry.kind == "lair"
                   else catalog.rooms[room].mercenaries or 0)
    card = lord_options(catalog.lords[state.lord], entry.kind == "lair", mercenaries,
                        lord_card_values, ask)  # refused before anything is remembered
    if icons is not None:
        catalog = remember_icons(ctx, room, icons)
    if card is not None:
        catalog = lord_card(ctx, state.lord, card)
    seed = (int(contents.header.get("seed", 0)) + number) % 2**63
    result, scenario = _room_scenario(catalog, state, room, seed, dice,
                                      _last_playmat(folder, in_force(contents.steps)))
    while (folder / f"{ROOMS_DIR}/{number:02d}-{room}").exists():  # a crash's orphan
        number += 1
    relative = f"{ROOMS_DIR}/{number:02d}-{room}"
    battle = folder / relative
    battle.mkdir(parents=True, exist_ok=True)
    save_scenario(scenario, battle / SCENARIO)
    session = Session.create(battle, battle / SCENARIO, catalog, seed, dice)
    for hero, board in returning(state.heroes, state.hero_death).items():
        if board.alive:  # this game's cards stay used: logged first in the room's battle
            for spent in board.used:
                session.report_used({"type": "used", "piece": hero, "card": spent,
                                     "per": "game"})
    campaign_log.append(folder, {**step, "session": relative, "playmat": result.playmat})
    if as_json:
        emit_json({"room": room, "kind": entry.kind, "session": str(battle),
                   "playmat": result.playmat})
        return
    click.echo(setup_text(result, catalog.components.tiles), nl=False)
    if state.hidden_cave is not None:
        click.echo(f"Hidden Cave: its pieces ({', '.join(state.hidden_cave.needed)}) stay "
                   f"aside, out of the Overseer's reach.")
    click.echo(f"The battle is the session {battle}: `automa play --session {battle}`; when the "
               f"room is over, `automa campaign end-room --session {folder}`")


def _ask_rewards(ctx: click.Context, room: Any, known: Any, gold: int | None,
                 spell: bool | None, ask: bool) -> Any:
    """The Room card's icons: from the data, else from the options, else asked; a new answer is
    remembered in the user's data folder."""
    import sys

    from automa.campaign.model import Rewards
    from automa.errors import InputError

    if known is not None:
        return known
    if (gold is None or spell is None) and not (ask or sys.stdin.isatty()):
        raise InputError(f"{room.name}'s Room Level Rewards are not in our data: pass --gold N "
                         f"and --spell/--no-spell as the card shows, or --ask to answer on "
                         f"stdin")
    if gold is None:
        gold = click.prompt(f"The gold icon on the {room.name} card: how much gold for each "
                            f"hero (0: no gold icon)", type=click.IntRange(0, 99), err=True)
    if spell is None:
        spell = click.confirm(f"Does the {room.name} card show the Spell card icon?", err=True)
    return Rewards(gold, spell, "asked")


def _remember(ctx: click.Context, room: Any, rewards: Any) -> None:
    """A new answer goes to the user's data folder, once the step is sure to be logged."""
    from automa.campaign.route import remember_rewards
    from automa.catalog.locate import user_data_dir

    user_dir = user_data_dir(ctx.obj["data_dir"])
    if user_dir is not None:
        path = remember_rewards(user_dir, room.id, rewards)
        click.echo(f"Remembered {room.name}'s rewards in {path}", err=True)
    else:
        click.echo("(give --data-dir to remember these rewards for the next campaign)", err=True)


@campaign.command("end-room")
@folder_option
@click.option("--gold", "gold", type=click.IntRange(0, 99), default=None,
              help="The room card's gold icon, when our data lacks it (0: none).")
@click.option("--spell/--no-spell", default=None,
              help="Whether the room card shows the Spell card icon, when our data lacks it.")
@click.option("--spell-to", default=None, help="The hero who takes the Spell card.")
@click.option("--change", "changes", multiple=True, metavar="HERO.FIELD=+N",
              help="A change made at the table, e.g. a purchase: elf.gold=-3 elf.items=+1 "
                   "(fields: health, gold, poison, items, spells). Repeatable.")
@click.option("--collect", "collected", multiple=True, metavar="HERO=MONSTER",
              help="A Hidden Cave monster the hero destroyed in this room (kept on their "
                   "board). Repeatable.")
@click.option("--resurrect", "raised", multiple=True, metavar="HERO",
              help="A dead hero resurrected at the table (Althea: with 2 health).")
@click.option("--ask", is_flag=True,
              help="Ask the card's rewards even when stdin is not a terminal (piped answers).")
@json_option
@click.pass_context
@reports_errors
@one_writer
def campaign_end_room(ctx: click.Context, folder: Path, gold: int | None, spell: bool | None,
                      spell_to: str | None, changes: tuple[str, ...], collected: tuple[str, ...],
                      raised: tuple[str, ...], ask: bool, as_json: bool) -> None:
    """End the current room: carry the heroes' boards back from its session and give the Room
    Level Rewards to every surviving hero."""
    from dataclasses import replace

    from automa.campaign import log as campaign_log
    from automa.campaign.log import CampaignError
    from automa.campaign.rules import (
        boards_json,
        carried_back,
        cave_kills,
        changed,
        collect,
        kill_gold,
        parse_change,
        resurrected,
        rewarded,
        survivors,
    )
    from automa.rules.battle_end import FROZEN_CLEAR, room_cleared, still_holding
    from automa.session.replay import frozen_by
    from automa.session.store import Session

    catalog, known, state = _state(ctx, folder)
    before = dict(state.heroes)
    parsed = [parse_change(text) for text in changes]
    if state.current is None:
        raise CampaignError("no room is being played: choose one with `automa campaign next`")
    room = state.route.room(state.current)
    heroes = dict(state.heroes)
    step: dict[str, Any] = {"type": "end-room", "room": room.id, "rewards": None}
    killed: list[tuple[str, str]] = []
    if state.current_session is not None:
        session = Session.open(folder / state.current_session, catalog)
        played = session.state
        battle = played.battle
        heroes = carried_back(heroes, battle.pieces, battle.out, state.hero_death)
        killed = cave_kills(state, {p.id: p.monster for p in played.scenario.pieces},
                            battle.out)
        cleared = room_cleared(played.scenario.pieces, battle.pieces)
        if cleared is None and survivors(heroes):
            left = [p.id for p in still_holding(battle.pieces)]
            raise CampaignError(f"the room is not cleared: {', '.join(left)} still in play "
                                f"(finish the battle, or report them removed)")
        if room.kind == "battle":  # the Lord fight puts no disc on a hero's board
            kinds = {p.id: p.monster for p in played.scenario.pieces}
            gained = kill_gold(heroes, battle.out, kinds,
                               {m: s.gold for m, s in catalog.monsters.items()},
                               frozen_by(session) if cleared == FROZEN_CLEAR else None)
            heroes = {h: replace(b, gold=b.gold + gained.get(h, 0)) for h, b in heroes.items()}
            step["kill_gold"] = gained
    if room.kind == "battle" and survivors(heroes):
        rewards = _ask_rewards(ctx, room, known.get(room.id), gold, spell, ask)
        chosen = spell_to
        if rewards.spell and chosen is None and len(survivors(heroes)) == 1:
            chosen = survivors(heroes)[0]
        if rewards.spell and chosen is None:
            import sys

            from automa.errors import InputError

            if not (ask or sys.stdin.isatty()):
                raise InputError("--spell-to: name the hero who takes the Spell card (or --ask "
                                 "to answer on stdin)")
            chosen = click.prompt("Which hero takes the Spell card (one who can use it)",
                                  type=click.Choice(survivors(heroes)), err=True)
        heroes = rewarded(heroes, rewards, chosen)
        step["rewards"] = {"gold": rewards.gold, "spell": rewards.spell, "spell_to": chosen,
                           "provenance": rewards.provenance}
    typed = [(hero, monster) for hero, _, monster in (t.partition("=") for t in collected)]
    if killed or typed:  # kills logged in the battle, and those typed (a summoned piece)
        kept = collect(state, [*killed, *(pair for pair in typed if pair not in killed)])
        step["collected"] = [list(pair) for pair in kept]
    for hero in raised:
        heroes = resurrected(heroes, hero, RESURRECTED_HEALTH)
        step.setdefault("resurrected", []).append(hero)
    if parsed:
        heroes = changed(heroes, parsed)
        step["changes"] = [{"hero": h, "field": f, "amount": n} for h, f, n in parsed]
    step["heroes"] = boards_json(heroes)
    if step["rewards"] is not None and room.id not in known:  # asked just now
        _remember(ctx, room, rewards)
    campaign_log.append(folder, step)
    _, _, state = _state(ctx, folder)
    if as_json:
        emit_json(status_json(state))
        return
    click.echo(f"{room.name} is done.")
    if step.get("kill_gold") is not None:
        click.echo(resolution_line(step["kill_gold"], state))
    for hero in [h for h, b in state.heroes.items() if not b.alive and before[h].alive]:
        click.echo(fallen_line(hero, state))
    if step["rewards"] is not None:
        r = step["rewards"]
        spell_line = (f"; a Spell card for {r['spell_to']} (then reshuffle the Spell deck)"
                      if r["spell"] else "")
        click.echo(f"Room Level Rewards: {r['gold']} gold to each surviving hero{spell_line}")
    click.echo(status_text(state))


@campaign.command("undo")
@folder_option
@json_option
@click.pass_context
@reports_errors
@one_writer
def campaign_undo(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Take back the last campaign step (entering a room, a purchase, ending a room); the log
    keeps it."""
    from automa.campaign import log as campaign_log
    from automa.campaign.log import CampaignError
    from automa.campaign.rules import in_force

    _state(ctx, folder)  # a readable campaign before anything is written
    steps = in_force(campaign_log.read(folder).steps)
    if not steps:
        raise CampaignError("nothing to undo: the campaign has just begun")
    last = steps[-1]
    campaign_log.append(folder, {"type": "undo"})
    _, _, state = _state(ctx, folder)
    if as_json:
        emit_json({"undone": last, **status_json(state)})
        return
    what = {"enter": "entering", "visit": f"buying {last.get('offer')} at"}.get(
        str(last.get("type")), "ending")
    kept = f" (its session stays in {last['session']})" if last.get("session") else ""
    click.echo(f"Undone: {what} {last.get('room')}{kept}")
    click.echo(status_text(state))


@campaign.command("log")
@folder_option
@json_option
@click.option("--verify", is_flag=True,
              help="Check every line against its hash and the one before, and that the "
                   "campaign replays; one line per problem, exit 5 if there is any.")
@click.option("--repair", is_flag=True,
              help="Keep the steps before the first damaged or missing line (lines moved put "
                   "back, a line copied twice kept once) and leave the rest out; the file as "
                   "it was stays beside it.")
@click.pass_context
@reports_errors
def campaign_log_cmd(ctx: click.Context, folder: Path, as_json: bool, verify: bool,
                     repair: bool) -> None:
    """Every campaign step in order, the undone ones marked; or check or mend the log."""
    from automa.campaign import log as campaign_log

    if verify and repair:
        from automa.errors import InputError

        raise InputError("--verify and --repair: give one at a time")
    if verify:
        _verify_campaign_log(ctx, folder, as_json)
        return
    if repair:
        _repair_campaign_log(folder, as_json)
        return
    _state(ctx, folder)  # a readable campaign
    contents = campaign_log.read(folder)
    steps = contents.steps
    undone: set[int] = set()
    kept: list[int] = []
    for index, step in enumerate(steps):
        if step.get("type") == "undo":
            if kept:
                undone.add(kept.pop())
        else:
            kept.append(index)
    if as_json:
        emit_json({"steps": [{**step, "undone": i in undone} for i, step in enumerate(steps)]})
        return
    if contents.torn:
        click.echo(f"automa: note: {campaign_log.CUT_OFF}", err=True)
    for number, step in enumerate(steps, start=1):
        mark = " (undone)" if number - 1 in undone else ""
        click.echo(f"{number:>3}. {describe_step(step)}{mark}")


def _verify_campaign_log(ctx: click.Context, folder: Path, as_json: bool) -> None:
    from automa.campaign import log as campaign_log
    from automa.errors import AutomaError
    from automa.safe_text import one_line

    problems, notes = campaign_log.check(folder)
    if not problems:
        try:
            _state(ctx, folder)
        except AutomaError as error:
            problems.append(str(error))
    if as_json:
        emit_json({"sound": not problems, "problems": problems, "notes": notes})
    else:
        for line in (*problems, *notes):
            click.echo(one_line(line))
        if not problems:
            click.echo(f"{folder / campaign_log.LOG}: sound: each line matches its hash and "
                       f"follows the one before, and the campaign replays")
    if problems:
        ctx.exit(5)


def _repair_campaign_log(folder: Path, as_json: bool) -> None:
    from automa.campaign import log as campaign_log
    from automa.safe_text import one_line
    from automa.session.lock import session_lock

    with session_lock(folder):
        copy, left_out = campaign_log.repair(folder)
    if as_json:
        emit_json({"copy": None if copy is None else str(copy), "left_out": left_out})
        return
    if copy is None:
        click.echo(f"{folder / campaign_log.LOG}: sound, nothing to mend")
        return
    for line in left_out:
        click.echo(one_line(line))
    click.echo(f"Kept every step before the first damage; the file as it was is {copy}")


from automa.cli import campaign_visit as _visit_commands  # noqa: E402,F401  (campaign visit)

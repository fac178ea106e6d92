"""`automa campaign visit`: a special room's menu (data/visits.toml) and what the heroes buy
there, at the data's prices, recorded on their boards as a campaign step (undone by
`automa campaign undo`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from automa.cli.campaign_cmds import _state, campaign, folder_option, json_option, one_writer
from automa.cli.main import emit_json, reports_errors
from automa.errors import InputError

OFFERS_EXAMPLE = "rest=2:health+1; horse=5:items+1 (each:FIELD+N for every hero; 'card' as " \
                 "the price when the card bought shows it)"


def _visits(ctx: click.Context, catalog: Any) -> dict[str, Any]:
    from automa.catalog.campaigns import load_visits
    from automa.catalog.locate import user_data_dir

    return load_visits(user_data_dir(ctx.obj["data_dir"]), catalog.rooms)


def _asking(ask: bool) -> bool:
    return ask or sys.stdin.isatty()


def offer_json(offer: Any, bought: int) -> dict[str, Any]:
    return {"id": offer.id, "text": offer.text, "price": offer.price, "effect": offer.effect,
            "provenance": offer.provenance, "limit": offer.limit, "bought": bought}


def menu_json(visit: Any, state: Any) -> dict[str, Any]:
    from automa.campaign.visits import times_bought

    return {"room": visit.room, "pool": visit.pool, "provenance": visit.provenance,
            "offers": [offer_json(o, times_bought(state.bought, o.id))
                       for o in visit.menu(state.settings)]}


def menu_text(visit: Any, state: Any, folder: Path) -> str:
    from automa.rules.rulings import cite

    data = menu_json(visit, state)
    lines = [f"What can be bought or done here ({visit.provenance} data):"]
    for offer in data["offers"]:
        price = "the card's price" if offer["price"] is None else f"{offer['price']} gold"
        spent = (f" (used: {offer['bought']} of {offer['limit']})" if offer["limit"] else "")
        lines.append(f"  {offer['id']:<11} {price:>16}  {offer['text']}{spent}")
    pool = ("the heroes may pool their gold" if visit.pool else "one hero pays")
    lines.append(f"Gold: {pool} ({cite('visit-pool')}). Buy with `automa campaign visit OFFER "
                 f"--session {folder} --for HERO [--pay HERO=N,...]`; leave with `automa "
                 f"campaign end-room --session {folder}`.")
    return "\n".join(lines)


def ask_offers(ctx: click.Context, catalog: Any, room: Any, visit: Any, given: str | None,
               ask: bool) -> Any:
    """A special room whose offers our sources lack: from --offers, else asked; remembered in
    the data folder's visits.toml with provenance "asked"."""
    from automa.catalog.campaigns import load_visits, parse_offers_answer
    from automa.catalog.locate import user_data_dir
    from automa.catalog.remembered import remember_offers
    from automa.cli.data_cmds import _ask

    if visit is not None and visit.known:
        if given is not None:
            raise InputError(f"--offers: {room.name}'s offers are in the data already "
                             f"({visit.provenance}); correct them in your visits.toml")
        return visit
    folder = user_data_dir(ctx.obj["data_dir"])
    if folder is None:
        raise InputError(f"{room.name}'s offers are not in our data and no data folder "
                         f"remembers them: give one (automa --data-dir DIR campaign ..., or "
                         f"AUTOMA_DATA_DIR)")
    if given is not None:
        try:
            offers = parse_offers_answer(given)
        except ValueError as exc:
            raise InputError(f"--offers: {exc}") from None
    elif _asking(ask):
        offers = _ask("offers", None, lambda _, text: parse_offers_answer(text),
                      f"What the {room.name} card offers, e.g. {OFFERS_EXAMPLE}")
    else:
        raise InputError(f"{room.name}'s offers are not in our sources: pass --offers "
                         f"'ID=PRICE:EFFECT; ...' (e.g. {OFFERS_EXAMPLE}), or --ask to answer "
                         f"on stdin")
    path = remember_offers(folder, room.id, offers)
    click.echo(f"Remembered what {room.name} offers in {path}", err=True)
    return load_visits(folder, catalog.rooms)[room.id]


def _payers(text: str | None, price: int, state: Any, target: str | None) -> dict[str, int]:
    """Who pays how much: --pay HERO (the whole price) or HERO=N,...; without it the hero the
    purchase is for, or the only living hero."""
    from automa.cli.asker import plain_number

    if price == 0:
        return {}
    if text is None:
        living = [h for h, b in state.heroes.items() if b.alive]
        if target is not None and target in living:
            return {target: price}
        if len(living) == 1:
            return {living[0]: price}
        raise InputError("--pay: name the hero who pays (HERO, or HERO=N,... where gold is "
                         "pooled)")
    if "=" not in text:
        return {text.strip(): price}
    payers: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        hero, _, amount = part.partition("=")
        gold = plain_number(amount)
        if not hero.strip() or gold is None or hero.strip() in payers:
            raise InputError(f"--pay: write HERO=N,... (each hero once), not {part!r}")
        payers[hero.strip()] = gold
    return payers


def _bag(ctx: click.Context, visit: Any, given: str | None, ask: bool) -> dict[str, int]:
    """The Tavern's bag counts; the unknown ones from --bag or asked, then remembered."""
    from automa.catalog.locate import user_data_dir
    from automa.catalog.remembered import remember_bag
    from automa.cli.asker import plain_number
    from automa.cli.data_cmds import _ask

    missing = [k for k, n in visit.bag.items() if n is None]
    if not missing:
        return {k: int(n) for k, n in visit.bag.items()}

    def parse(_: str, text: str) -> dict[str, int]:
        counts = {}
        for part in (p.strip() for p in text.split(",") if p.strip()):
            kind, _, amount = part.partition("=")
            number = plain_number(amount)
            if kind.strip() not in visit.bag or number is None or number > 30:
                raise ValueError(f"{part!r}: write KIND=N with KIND one of "
                                 f"{', '.join(visit.bag)} and N 0-30")
            counts[kind.strip()] = number
        if set(missing) - set(counts):
            raise ValueError(f"give {', '.join(sorted(set(missing) - set(counts)))} too")
        return counts

    folder = user_data_dir(ctx.obj["data_dir"])
    if folder is None:
        raise InputError("the Tavern bag's pieces are not in our data and no data folder "
                         "remembers them: give one (automa --data-dir DIR), or draw at the "
                         "table with --drawn")
    if given is not None:
        try:
            counts = parse("", given)
        except ValueError as exc:
            raise InputError(f"--bag: {exc}") from None
    elif _asking(ask):
        counts = _ask("bag", None, parse, f"How many pieces of {', '.join(missing)} go into "
                                          f"the bag (your box), e.g. orc=6, fire-spirit=4, "
                                          f"centaur=4")
    else:
        raise InputError(f"the Tavern bag's {', '.join(missing)} pieces are not in our data: "
                         f"pass --bag 'orc=N,fire-spirit=N,centaur=N' (your box), --drawn "
                         f"for a draw at the table, or --ask")
    path = remember_bag(folder, visit, counts)
    click.echo(f"Remembered the Tavern bag in {path}", err=True)
    return {k: counts.get(k, int(v or 0)) for k, v in visit.bag.items()}


def _bet(ctx: click.Context, visit: Any, state: Any, seed: int, drawn_text: str | None,
         dice: str, bag_text: str | None, ask: bool) -> list[str]:
    import numpy as np

    from automa.campaign.tavern import KINDS, draw, parse_drawn

    def parse(_: str, text: str) -> list[str]:
        try:
            return parse_drawn(text)
        except Exception as exc:  # CampaignError: re-asked
            raise ValueError(str(exc)) from None

    if drawn_text is not None:
        try:
            return parse_drawn(drawn_text)
        except Exception as exc:
            raise InputError(f"--drawn: {exc}") from None
    if dice == "physical":
        from automa.cli.data_cmds import _ask

        if not _asking(ask):
            raise InputError("--dice physical: pass --drawn 'hero,orc,centaur' (the three "
                             "pieces drawn at the table), or --ask")
        return list(_ask("drawn", None, parse, f"The 3 pieces drawn ({', '.join(KINDS)})"))
    return draw(_bag(ctx, visit, bag_text, ask), np.random.default_rng(seed))


@campaign.command("visit")
@click.argument("offer", required=False)
@folder_option
@click.option("--for", "target", default=None, help="The hero the purchase is for.")
@click.option("--pay", default=None, metavar="HERO|HERO=N,...",
              help="Who pays: one hero, or HERO=N,... where the room lets gold be pooled.")
@click.option("--price", type=click.IntRange(0, 99), default=None,
              help="The price printed on the card bought (an Item card at the Merchant).")
@click.option("--reward", default=None, help="The Tavern: the reward taken (a lower one may be "
                                             "taken instead).")
@click.option("--drawn", default=None, metavar="A,B,C",
              help="The Tavern: the three pieces drawn at the table (orc, fire-spirit, "
                   "centaur, hero).")
@click.option("--bag", default=None, metavar="KIND=N,...",
              help="The Tavern: the bag's pieces your box holds, when our data lacks them.")
@click.option("--dice", type=click.Choice(["virtual", "physical"]), default="virtual",
              help="The Tavern: physical: draw at the table and type the pieces.")
@click.option("--ask", is_flag=True, help="Ask what is missing even on a pipe.")
@json_option
@click.pass_context
@reports_errors
@one_writer
def campaign_visit(ctx: click.Context, offer: str | None, folder: Path, target: str | None,
                   pay: str | None, price: int | None, reward: str | None, drawn: str | None,
                   bag: str | None, dice: str, ask: bool, as_json: bool) -> None:
    """At a special room: without OFFER, what can be bought and at what price; with OFFER, buy
    it (recorded on the heroes' boards; `automa campaign undo` takes it back).

    \b
    Examples:
      automa campaign visit --session evening
      automa campaign visit heal --for elf --session evening
      automa campaign visit map --pay elf=1,dwarf=1 --session evening
      automa campaign visit bet --pay dwarf --for elf --session evening
    """
    from automa.campaign import log as campaign_log
    from automa.campaign.log import CampaignError
    from automa.campaign.rules import boards_json
    from automa.campaign.visits import bought, needs_target, paid, times_bought
    from automa.model.campaigns import Offer

    catalog, _, state = _state(ctx, folder)
    room = state.route.room(state.current) if state.current else None
    if room is None or room.kind != "special":
        raise CampaignError("no special room is being visited: enter one with `automa "
                            "campaign next ROOM`")
    visit = _visits(ctx, catalog).get(room.id)
    if visit is None or not visit.known:
        raise CampaignError(f"{room.name}'s offers are not known yet: they are asked at "
                            f"`automa campaign next`")
    if offer is None:
        if as_json:
            emit_json(menu_json(visit, state))
            return
        click.echo(menu_text(visit, state, folder))
        return
    chosen = visit.offer(offer, state.settings)
    if chosen is None:
        raise InputError(f"OFFER: {room.name} offers no {offer!r} (offers: "
                         f"{', '.join(o.id for o in visit.menu(state.settings))})")
    done = times_bought(state.bought, chosen.id)
    if chosen.limit is not None and done >= chosen.limit:
        raise CampaignError(f"{chosen.id}: only {chosen.limit} per visit, already used")
    cost = chosen.price
    if cost is None:
        if price is None:
            raise InputError(f"--price: give the price printed on the card bought "
                             f"({chosen.text})")
        cost = price
    elif price is not None:
        raise InputError(f"--price: {chosen.id} costs {cost} gold by the data")
    if needs_target(chosen) or chosen.effect == "bet":
        living = [h for h, b in state.heroes.items() if b.alive]
        if target is None and chosen.effect != "resurrect" and len(living) == 1:
            target = living[0]
        if target is None and pay is not None and "=" not in pay:
            target = pay.strip() if chosen.effect != "resurrect" else None
        if target is None:
            raise InputError(f"--for: name the hero {chosen.id} is for")
    if chosen.effect != "bet":
        bought(state.heroes, chosen, target)  # what cannot be done is refused before the price
    payers = _payers(pay, cost, state, None if chosen.effect == "resurrect" else target)
    heroes = paid(state.heroes, payers, cost, visit.pool)
    step: dict[str, Any] = {"type": "visit", "room": room.id, "offer": chosen.id,
                            "price": cost, "payers": payers, "for": target}
    if chosen.effect == "bet":
        from automa.campaign.tavern import result, rewards

        contents = campaign_log.read(folder)
        seed = (int(contents.header.get("seed", 0)) + len(contents.steps) + 1) % 2**63
        pieces = _bet(ctx, visit, state, seed, drawn, dice, bag, ask)
        won = result(pieces)
        allowed = rewards(won)
        step.update({"drawn": pieces, "result": won, "reward": None})
        if allowed:
            pick = reward or allowed[0][0]
            found = next((r for r in allowed if r[0] == pick), None)
            if found is None:
                raise InputError(f"--reward: {pick!r} is not a reward for {won} (take one of "
                                 f"{', '.join(r[0] for r in allowed)})")
            heroes = bought(heroes, Offer(found[0], found[1], 0, found[2]), target)
            step["reward"] = found[0]
        elif reward is not None:
            raise InputError(f"--reward: the draw ({', '.join(pieces)}) wins nothing")
    else:
        if reward is not None or drawn is not None:
            raise InputError("--reward and --drawn are for the Tavern's bet")
        heroes = bought(heroes, chosen, target)
    step["heroes"] = boards_json(heroes)
    campaign_log.append(folder, step)
    _, _, state = _state(ctx, folder)
    if as_json:
        from automa.cli.campaign_show import status_json

        emit_json({"visit": {k: v for k, v in step.items() if k not in ("type", "heroes")},
                   **status_json(state)})
        return
    click.echo(bought_line(step, chosen))
    for hero in sorted({*payers, *([target] if target else [])}):
        b = state.heroes[hero]
        click.echo(f"  {hero}: health {b.health}/{b.starting_health}, gold {b.gold}, "
                   f"poison {b.poison}, items {b.items}, allies {b.allies}"
                   + ("" if b.alive else "  (dead)"))


def bought_line(step: dict[str, Any], offer: Any) -> str:
    from automa.rules.rulings import cite

    paid_by = ", ".join(f"{h} {n}" for h, n in step["payers"].items()) or "nobody"
    line = f"{offer.text}: {step['price']} gold (paid: {paid_by})"
    if step.get("for"):
        line += f", for {step['for']}"
    if "drawn" in step:
        won = step["result"] or "nothing"
        line += (f". Drawn: {', '.join(step['drawn'])} -> {won}"
                 + (f"; reward: {step['reward']}" if step["reward"] else "")
                 + f" ({cite('tavern-bet')}; the pieces go back in the bag)")
    return line

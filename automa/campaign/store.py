"""A campaign folder: `campaign.jsonl` (the campaign's log: its start, then every step) and one
battle session per battle room under `rooms/`. `Campaign` holds the folder, the data and the
state the log leaves; `Campaign.do(command)` checks a step, asks the players what it still
needs, logs it under the folder's lock and returns what happened, for a front end to show.

    campaign = Campaign.new(folder, StartCampaign("monstrosity", new_heroes([("elf", 8)])),
                            catalog, user_dir)
    entered = campaign.do(EnterRoom("glaaoth"), asker)
    print(entered.step.session)  # rooms/01-glaaoth: the battle, `automa play --session ...`
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, overload

from msgspec import Struct
from msgspec.structs import replace

from automa.campaign import log as campaign_log
from automa.campaign.asking import CampaignAsker, TableAnswers
from automa.campaign.commands import (
    BadField,
    BadLine,
    Bet,
    Buy,
    CaveSetup,
    EndRoom,
    EnterRoom,
    RoomRewards,
    Share,
    StartCampaign,
    Step,
    Undo,
    step_from_json,
)
from automa.campaign.log import CampaignError
from automa.campaign.model import CampaignState, HeroBoard
from automa.campaign.rules import apply, initial_state, steps_in_force, undone
from automa.catalog.campaigns import RESURRECTED_HEALTH
from automa.catalog.load import Catalog
from automa.errors import InputError
from automa.model.campaigns import Offer, Rewards, Route, RouteRoom, Visit
from automa.model.modes import DiceMode
from automa.model.pieces import Kind, Side
from automa.rules.rulings import RulingKey, cite

if TYPE_CHECKING:
    from automa.engine.setup import SetupResult

SEED_SPACE = 2**63
NOTHING_GIVEN = TableAnswers()  # the players gave nothing ahead: whatever is missing is asked


# What a step did, for a front end to show -----------------------------------------------------

class Entered(Struct, frozen=True):
    step: EnterRoom  # as logged: a battle room's session and playmat filled in
    room: RouteRoom
    state: CampaignState
    setup: SetupResult | None  # a battle room's (or the Lair's) setup
    visit: Visit | None  # a special room's offers
    notes: tuple[str, ...]  # what was remembered in the data folder, one line each


class RoomEnded(Struct, frozen=True):
    step: EndRoom  # as logged
    room: RouteRoom
    before: Mapping[str, HeroBoard]  # the boards when the room began to end
    state: CampaignState
    notes: tuple[str, ...]


class Bought(Struct, frozen=True):
    step: Buy  # as logged (a Bet for the Tavern's bet)
    offer: Offer
    state: CampaignState
    notes: tuple[str, ...]


class Undone(Struct, frozen=True):
    step: Step  # the step taken back
    state: CampaignState


def purchase(visit: Visit, offer: str, settings: Mapping[str, str], hero: str | None = None,
             payers: tuple[Share, ...] | None = None, price: int | None = None,
             ally_health: int | None = None, drawn: tuple[str, ...] | None = None,
             reward: str | None = None) -> Buy:
    """The step buying `offer` at the room being visited: the Tavern's bet (`Bet`, which takes
    the pieces drawn and the reward) or a purchase (`Buy`, which takes an ally's health). A
    field the offer does not take is refused by name."""
    chosen = visit.offer(offer, settings)
    if chosen is not None and chosen.effect == "bet":
        if ally_health is not None:
            raise BadField("ally_health", "is for recruiting an ally")
        return Bet(offer, hero, payers, price, drawn=drawn, reward=reward)
    if reward is not None or drawn is not None:
        raise BadField("reward" if reward is not None else "drawn", "is for the Tavern's bet")
    return Buy(offer, hero, payers, price, ally_health=ally_health)


# The folder -----------------------------------------------------------------------------------

class Campaign(Struct):
    """A campaign as last read from its folder. Every step takes the folder's lock and reads
    the log again before it is checked and appended, so two windows never log a step on a
    campaign the other has changed."""

    folder: Path
    catalog: Catalog
    user_dir: Path | None  # the players' data folder, where what they tell is remembered
    routes: Mapping[str, Route]
    rewards: Mapping[str, Rewards]  # the Room Level Rewards our data knows
    start: StartCampaign  # the log's first line
    steps: tuple[Step, ...]  # every line after it, the undone ones and the undos included
    state: CampaignState

    @classmethod
    def new(cls, folder: Path, command: StartCampaign, catalog: Catalog,
                  user_dir: Path | None) -> Campaign:
        """A new campaign in `folder` (made if missing): the command checked, its Lord, seed
        and Hidden Cave filled in, and logged as the first line."""
        import numpy as np

        routes, _ = _routes(catalog, user_dir)
        refused = command.refusal(routes, catalog.lords)
        if refused is not None:
            raise BadField(refused.field or "campaign", refused.reason)
        route = routes[command.campaign]
        seed = (command.seed if command.seed is not None
                else int(np.random.SeedSequence().generate_state(1)[0]))
        cave = command.cave
        if command.hidden_cave and cave is None:
            cave = _cave_drawn(catalog, seed)
        started = replace(command, lord=command.lord or route.start,  # ruling campaign-lord
                          seed=seed, cave=cave)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"{folder}: cannot be made ({exc.strerror})") from None
        campaign_log.create(folder, started.to_json())
        return cls.open(folder, catalog, user_dir)

    @classmethod
    def open(cls, folder: Path, catalog: Catalog, user_dir: Path | None) -> Campaign:
        contents = campaign_log.read(folder)
        routes, rewards = _routes(catalog, user_dir)
        start, steps, state = _replayed(folder, contents, routes)
        return cls(folder, catalog, user_dir, routes, rewards, start, steps,
                   _with_cave_visits(folder, steps, state))

    def refresh(self) -> None:
        """Read the log again (another window may have logged a step)."""
        self.start, self.steps, state = _replayed(self.folder, campaign_log.read(self.folder),
                                                  self.routes)
        self.state = _with_cave_visits(self.folder, self.steps, state)

    def undone(self) -> set[int]:
        """The places in `steps` of the steps taken back."""
        return undone(self.steps)

    def visit(self) -> tuple[RouteRoom, Visit]:
        """The special room being visited and its offers."""
        from automa.catalog.campaigns import load_visits

        room = self.state.route.room(self.state.current) if self.state.current else None
        if room is None or room.kind != "special":
            raise CampaignError("no special room is being visited: enter one with `automa "
                                "campaign next ROOM`")
        visit = load_visits(self.user_dir, self.catalog.rooms).get(room.id)
        if visit is None or not visit.known:
            raise CampaignError(f"{room.name}'s offers are not known yet: they are asked at "
                                f"`automa campaign next`")
        return room, visit

    @overload
    def do(self, command: EnterRoom, asker: CampaignAsker | None = None, *,
           table: TableAnswers = ...) -> Entered: ...

    @overload
    def do(self, command: EndRoom, asker: CampaignAsker | None = None, *,
           table: TableAnswers = ...) -> RoomEnded: ...

    @overload
    def do(self, command: Buy, asker: CampaignAsker | None = None, *,
           table: TableAnswers = ...) -> Bought: ...

    @overload
    def do(self, command: Undo, asker: CampaignAsker | None = None, *,
           table: TableAnswers = ...) -> Undone: ...

    def do(self, command: Step, asker: CampaignAsker | None = None, *,
           table: TableAnswers = NOTHING_GIVEN) -> Entered | RoomEnded | Bought | Undone:
        """Take one step: checked against the campaign as the log leaves it now, what it still
        needs asked (`table`: what the players gave ahead; `asker`: None asks nobody, and a
        question then refuses the step in one line), logged, and what it did returned."""
        from automa.session.lock import session_lock

        with session_lock(self.folder):
            self.refresh()
            refused = command.refusal(self.state)
            if refused is not None:
                raise refused.error()
            if isinstance(command, EnterRoom):
                return self._enter(command, asker, table)
            if isinstance(command, EndRoom):
                return self._end_room(command, asker, table)
            if isinstance(command, Buy):
                return self._buy(command, asker, table)
            return self._undo()

    def _log(self, step: Step) -> None:
        campaign_log.append(self.folder, step.to_json())
        self.refresh()

    def _enter(self, command: EnterRoom, asker: CampaignAsker | None,
               table: TableAnswers) -> Entered:
        from automa.campaign.answers import lord_card, remember_lord_card, room_icons, room_offers
        from automa.campaign.cards import remember_room
        from automa.catalog.load import load_catalog
        from automa.catalog.remembered import remember_offers

        state, catalog = self.state, self.catalog
        entry = state.route.room(command.room)
        assert entry is not None  # checked: an open room of the route
        if table.monsters is not None and entry.kind != "battle":
            raise BadField("monsters", f"{entry.name} is not a battle room")
        notes: list[str] = []
        if entry.kind == "special":
            offers = room_offers(catalog.rooms[entry.id], self._visits().get(entry.id),
                                 self.user_dir, table.offers, asker)
            if offers is not None:
                assert self.user_dir is not None  # room_offers refuses without one
                path = remember_offers(self.user_dir, entry.id, offers)
                notes.append(f"Remembered what {entry.name} offers in {path}")
            self._log(EnterRoom(entry.id))
            return Entered(EnterRoom(entry.id), entry, self.state, None, self.visit()[1],
                           tuple(notes))
        if table.offers is not None:
            raise BadField("offers", f"{entry.name} is not a special room")
        icons = (room_icons(catalog.rooms[entry.id], catalog, self.user_dir, table.monsters,
                            asker) if entry.kind == "battle" else None)
        mercenaries = (icons.mercenaries if icons is not None else 0 if entry.kind == "lair"
                       else catalog.rooms[entry.id].mercenaries or 0)
        card = lord_card(catalog.lords[state.lord], entry.kind == "lair", mercenaries,
                         table.lord_card, catalog, self.user_dir, asker)
        if icons is not None:  # every answer is in and checked: now they are remembered
            assert self.user_dir is not None  # room_icons refuses without one
            path = remember_room(self.user_dir, entry.id, icons)
            catalog = load_catalog(self.user_dir)
            notes.append(f"Remembered {catalog.rooms[entry.id].name}'s monsters "
                         f"({icons.as_text()}) in {path}")
        if card is not None:
            assert self.user_dir is not None  # lord_card refuses without one
            notes.extend(remember_lord_card(self.user_dir, card))
            catalog = load_catalog(self.user_dir)
        self.catalog = catalog
        step, setup = self._set_up(entry, table, asker)
        self._log(step)
        return Entered(step, entry, self.state, setup, None, tuple(notes))

    def _set_up(self, entry: RouteRoom, table: TableAnswers, asker: CampaignAsker | None
                ) -> tuple[EnterRoom, SetupResult]:
        """The room set up by the Red Box rules with the campaign's Lord and the heroes who
        are alive at its setup (their boards on the mat), and its battle session made."""
        import numpy as np

        from automa.campaign.battles import room_folder, start_battle
        from automa.campaign.rules import returning
        from automa.engine.chance import Chance
        from automa.engine.setup import SetupOptions, run_setup
        from automa.model.scenario import ChanceScript

        state, catalog = self.state, self.catalog
        physical = table.dice == DiceMode.PHYSICAL
        if physical and asker is None:
            raise InputError("physical dice: the players roll and draw at the table, and "
                             "nobody is there to be asked")
        number = len(self.steps) + 1
        assert self.start.seed is not None
        seed = (self.start.seed + number) % SEED_SPACE
        boards = returning(state.heroes, state.hero_death)
        alive = tuple((h, b.health) for h, b in boards.items() if b.alive)
        allies = {a.id: a for b in boards.values() if b.alive for a in b.ally_boards
                  if a.alive}  # an ally comes with its living hero
        last_playmat = next((s.playmat for s in reversed(steps_in_force(self.steps))
                             if isinstance(s, EnterRoom) and s.playmat), None)
        options = SetupOptions(room=entry.id, lord=state.lord, heroes=alive,
                               allies=tuple((a.id, a.health) for a in allies.values()),
                               last_playmat=last_playmat)  # the cave's kinds stay in the
        # draws: only its five pieces are set aside (ruling cave-pieces)
        chance = Chance(ChanceScript(), np.random.default_rng(seed), catalog.components.rune_die,
                        catalog.components.location_die, asker=asker if physical else None)
        setup = run_setup(catalog, options, chance)
        pieces = []
        for piece in setup.scenario.pieces:
            board = boards.get(piece.id) if piece.side == Side.HEROES else None
            if board is not None:
                piece = replace(piece, health=board.health, starting_health=board.starting_health,
                                gold=board.gold, poison=board.poison, items=board.items)
            elif piece.id in allies and piece.kind == Kind.ALLY:
                ally = allies[piece.id]
                piece = replace(piece, starting_health=ally.starting_health, serves=ally.hero)
            pieces.append(piece)
        relative = room_folder(self.folder, number, entry.id)
        start_battle(self.folder / relative, replace(setup.scenario, pieces=tuple(pieces)),
                     catalog, seed, physical, table.geometry,
                     {hero: board.used for hero, board in boards.items() if board.alive})
        return EnterRoom(entry.id, relative, setup.playmat), setup

    def _end_room(self, command: EndRoom, asker: CampaignAsker | None,
                  table: TableAnswers) -> RoomEnded:
        from automa.campaign.answers import room_rewards, spell_taker
        from automa.campaign.battles import battle_outcome
        from automa.campaign.rules import (
            carried_back,
            cave_kills,
            changed,
            collect,
            kill_gold,
            resurrected,
            rewarded,
            survivors,
        )
        from automa.rules.battle_end import FROZEN_CLEAR, still_holding

        state = self.state
        assert state.current is not None  # checked
        room = state.route.room(state.current)
        assert room is not None
        heroes = dict(state.heroes)
        killed: list[tuple[str, str]] = []
        gained: dict[str, int] | None = None
        if state.current_session is not None:
            outcome = battle_outcome(self.folder / state.current_session, self.catalog)
            heroes = carried_back(heroes, outcome.pieces, outcome.out, state.hero_death,
                                  [p.id for p in outcome.started])
            killed = cave_kills(state, outcome.kinds, outcome.out)
            if outcome.cleared is None and survivors(heroes):
                left = [p.id for p in still_holding(outcome.pieces)]
                raise CampaignError(f"the room is not cleared: {', '.join(left)} still in play "
                                    f"(finish the battle, or report them removed)")
            if room.kind == "battle":  # the Lord fight puts no disc on a hero's board
                gained = kill_gold(heroes, outcome.out, outcome.kinds,
                                   {m: s.gold for m, s in self.catalog.monsters.items()},
                                   outcome.frozen_by if outcome.cleared == FROZEN_CLEAR
                                   else None)
                heroes = {h: replace(b, gold=b.gold + gained.get(h, 0))
                          for h, b in heroes.items()}
        rewards, spell_to = None, None
        if room.kind == "battle" and survivors(heroes):
            rewards = room_rewards(room, self.rewards.get(room.id), table, asker)
            spell_to = (spell_taker(survivors(heroes), command.spell_to, asker) if rewards.spell
                        else command.spell_to)
            heroes = rewarded(heroes, rewards, spell_to)
        collected: tuple[tuple[str, str], ...] = ()
        if killed or command.collected:  # kills logged in the battle, and those told (a
            # summoned piece the battle's pieces do not name)
            collected = tuple(collect(state, [*killed, *(pair for pair in command.collected
                                                         if pair not in killed)]))
        for hero in command.resurrected:
            heroes = resurrected(heroes, hero, RESURRECTED_HEALTH)
        heroes = changed(heroes, command.changes)
        step = replace(command, spell_to=spell_to, collected=collected, room=room.id,
                       rewards=None if rewards is None else RoomRewards(
                           rewards.gold, rewards.spell, rewards.provenance),
                       kill_gold=None if gained is None else tuple(gained.items()),
                       heroes=tuple(heroes.values()))
        notes = []
        if rewards is not None and room.id not in self.rewards:  # told just now
            notes.append(self._remember_rewards(room, rewards))
        before = state.heroes
        self._log(step)
        return RoomEnded(step, room, before, self.state, tuple(notes))

    def _remember_rewards(self, room: RouteRoom, rewards: Rewards) -> str:
        from automa.catalog.remembered import remember_rewards

        if self.user_dir is None:
            return "(give --data-dir to remember these rewards for the next campaign)"
        path = remember_rewards(self.user_dir, room.id, rewards)
        return f"Remembered {room.name}'s rewards in {path}"

    def _buy(self, command: Buy, asker: CampaignAsker | None, table: TableAnswers) -> Bought:
        from automa.campaign.visits import (
            bought,
            paid,
            pooled,
            recruited,
            recruits,
            split_refusal,
            times_bought,
        )

        state = self.state
        room, visit = self.visit()
        chosen = visit.offer(command.offer, state.settings)
        if chosen is None:
            raise BadField("offer", f"{room.name} offers no {command.offer!r} (offers: "
                                    f"{', '.join(o.id for o in visit.menu(state.settings))})")
        if isinstance(command, Bet) != (chosen.effect == "bet"):
            raise InputError(f"{chosen.id}: " + ("the Tavern's bet is a Bet" if chosen.effect
                                                 == "bet" else "a Bet is the Tavern's bet"))
        if chosen.limit is not None and times_bought(state.bought, chosen.id) >= chosen.limit:
            raise CampaignError(f"{chosen.id}: only {chosen.limit} per visit, already used")
        if command.ally_health is not None and not recruits(chosen):
            raise BadField("ally_health", f"{chosen.id} recruits no ally")
        cost = _price(chosen, command.price)
        target = _target(chosen, command, state)
        if chosen.effect != "bet":
            bought(state.heroes, chosen, target)  # what cannot be done is refused before the
            # price
        payers = _payers(command.payers, cost, state,
                         None if chosen.effect == "resurrect" else target)
        split = split_refusal(payers, room.name, visit, state.settings)  # ruling visit-pool
        if split is not None:
            raise BadField("payers", split)
        heroes = paid(state.heroes, payers, cost, pooled(visit, state.settings))
        shares = tuple(Share(hero, gold) for hero, gold in payers.items())
        notes: list[str] = []
        if isinstance(command, Bet):
            step: Buy = self._bet(replace(command, hero=target, payers=shares, price=cost,
                                          room=room.id), visit, heroes, asker, table, notes)
        else:
            after = bought(heroes, chosen, target)
            if recruits(chosen) and target is not None:  # the Inn's ally, with its health
                after = recruited(after, target, recruits(chosen), command.ally_health)
            step = replace(command, hero=target, payers=shares, price=cost, room=room.id,
                           heroes=tuple(after.values()))
        self._log(step)
        return Bought(step, chosen, self.state, tuple(notes))

    def _bet(self, step: Bet, visit: Visit, heroes: Mapping[str, HeroBoard],
             asker: CampaignAsker | None, table: TableAnswers, notes: list[str]) -> Bet:
        """The Tavern's draw: at the table, or from the bag by the campaign's seed; what it
        wins, and the reward taken (the best, unless a lower one is named)."""
        import numpy as np

        from automa.campaign.answers import bag_counts, drawn_at_table
        from automa.campaign.tavern import draw, result, rewards
        from automa.campaign.visits import bought
        from automa.catalog.remembered import remember_bag

        told = None
        if step.drawn is not None:
            pieces = list(step.drawn)
        elif table.dice == DiceMode.PHYSICAL:
            pieces = drawn_at_table(asker)
        else:
            assert self.start.seed is not None
            seed = (self.start.seed + len(self.steps) + 1) % SEED_SPACE
            counts, told = bag_counts(visit, self.user_dir, table.bag, asker)
            pieces = draw(counts, np.random.default_rng(seed))
        won = result(pieces)
        allowed = rewards(won)
        taken = None
        if allowed:
            pick = step.reward or allowed[0][0]
            found = next((r for r in allowed if r[0] == pick), None)
            if found is None:
                raise BadField("reward", f"{pick!r} is not a reward for {won} (take one of "
                                         f"{', '.join(r[0] for r in allowed)})")
            heroes = bought(heroes, Offer(found[0], found[1], 0, found[2]), step.hero)
            taken = found[0]
        elif step.reward is not None:
            raise BadField("reward", f"the draw ({', '.join(pieces)}) wins nothing")
        if told is not None:  # the bag's pieces the players told: remembered
            assert self.user_dir is not None  # bag_counts refuses without one
            notes.append(f"Remembered the Tavern bag in "
                         f"{remember_bag(self.user_dir, visit, told)}")
        return replace(step, drawn=tuple(pieces), result=won, reward=taken,
                       heroes=tuple(heroes.values()))

    def _undo(self) -> Undone:
        last = steps_in_force(self.steps)[-1]  # checked: a step is in force
        self._log(Undo())
        return Undone(last, self.state)

    def _visits(self) -> dict[str, Visit]:
        from automa.catalog.campaigns import load_visits

        return load_visits(self.user_dir, self.catalog.rooms)


def _routes(catalog: Catalog, user_dir: Path | None
            ) -> tuple[dict[str, Route], dict[str, Rewards]]:
    from automa.catalog.campaigns import load_campaigns

    return load_campaigns(user_dir, catalog.rooms, catalog.lords)


def _cave_drawn(catalog: Catalog, seed: int) -> CaveSetup:
    """The Hidden Cave's five monsters, drawn once at the campaign's start by its seed."""
    import numpy as np

    from automa.engine.chance import Chance
    from automa.engine.setup import _hidden_cave
    from automa.model.scenario import ChanceScript

    chance = Chance(ChanceScript(), np.random.default_rng(seed), catalog.components.rune_die,
                    catalog.components.location_die)
    return CaveSetup(tuple(_hidden_cave(catalog, chance, [])),
                     tuple(catalog.setup.hidden_cave_items))


def _replayed(folder: Path, contents: campaign_log.CampaignLog, routes: Mapping[str, Route]
              ) -> tuple[StartCampaign, tuple[Step, ...], CampaignState]:
    """The campaign as its log leaves it; a line that is no step, or a step the campaign
    could not have taken there, is named by its line number."""
    path = folder / campaign_log.LOG
    try:
        start = StartCampaign.from_json(contents.header)
    except BadLine as exc:
        raise CampaignError(f"{path}: {exc}") from None
    route = routes.get(start.campaign)
    if route is None:
        raise InputError(f"{folder}: its campaign {start.campaign!r} is not in campaigns.toml")
    steps = []
    for line, raw in enumerate(contents.steps, start=2):
        try:
            steps.append(step_from_json(raw))
        except BadLine as exc:
            raise CampaignError(f"{path}: line {line}: {exc}") from None
    state = initial_state(start, route)
    taken = undone(steps)
    for line, step in enumerate(steps, start=2):
        if line - 2 in taken or isinstance(step, Undo):
            continue
        reason = step.check(state)
        if reason is not None:
            raise CampaignError(f"{path}: line {line}: {reason}")
        state = apply(state, step)
    return start, tuple(steps), state


def _with_cave_visits(folder: Path, steps: tuple[Step, ...], state: CampaignState
                      ) -> CampaignState:
    """The campaign with its Hidden Cave's Kraken fights, which the rooms' battles log (not the
    campaign's log): the items taken, the visits made, the Antients won."""
    from automa.campaign.battles import cave_visits

    cave = state.hidden_cave
    if cave is None:
        return state
    rooms = [(s.room, s.session) for s in steps_in_force(steps)
             if isinstance(s, EnterRoom) and s.session is not None]
    return replace(state, hidden_cave=replace(cave, visits=cave_visits(folder, rooms)))


def _price(offer: Offer, given: int | None) -> int:
    if offer.price is None:
        if given is None:
            raise BadField("price", f"give the price printed on the card bought ({offer.text})")
        return given
    if given is not None and given != offer.price:
        raise BadField("price", f"{offer.id} costs {offer.price} gold by the data")
    return offer.price


def _target(offer: Offer, command: Buy, state: CampaignState) -> str | None:
    """The hero the purchase is for: named; else the only living hero; else the one hero who
    pays (not for a resurrection: the payer is alive)."""
    from automa.campaign.visits import needs_target

    target = command.hero
    if target is not None and target not in state.heroes:
        raise BadField("hero", f"no hero {target!r} in this campaign (heroes: "
                               f"{', '.join(state.heroes)})")
    if not (needs_target(offer) or offer.effect == "bet"):
        return target
    living = [h for h, b in state.heroes.items() if b.alive]
    if target is None and offer.effect != "resurrect" and len(living) == 1:
        target = living[0]
    payers = command.payers or ()
    if target is None and len(payers) == 1 and payers[0].gold is None:
        target = payers[0].hero if offer.effect != "resurrect" else None
    if target is None:
        raise BadField("hero", f"name the hero {offer.id} is for")
    return target


def _payers(shares: tuple[Share, ...] | None, price: int, state: CampaignState,
            target: str | None) -> dict[str, int]:
    """Who pays how much: the shares given (one hero with no share given: the whole price);
    none given, the hero the purchase is for, or the only living hero."""
    if price == 0:
        return {}
    if shares is None:
        living = [h for h, b in state.heroes.items() if b.alive]
        if target is not None and target in living:
            return {target: price}
        if len(living) == 1:
            return {living[0]: price}
        raise BadField("payers", f"name the hero who pays (HERO; HERO=N,... where gold may be "
                         f"pooled, {cite(RulingKey.VISIT_POOL)})")
    if len(shares) == 1 and shares[0].gold is None:
        return {shares[0].hero: price}
    if any(s.gold is None for s in shares) or len({s.hero for s in shares}) != len(shares):
        raise BadField("payers", "each hero once, each with their share (or one hero who pays "
                         "it all)")
    return {s.hero: int(s.gold or 0) for s in shares}


def open_campaign(folder: Path, catalog: Catalog, data_dir: str | Path | None) -> Campaign:
    """The campaign in `folder`, read with the data of `data_dir` (the --data-dir folder, else
    AUTOMA_DATA_DIR, else ours alone)."""
    from automa.catalog.locate import user_data_dir

    return Campaign.open(folder, catalog, user_data_dir(data_dir))

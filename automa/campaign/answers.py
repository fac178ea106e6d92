"""What a campaign step needs from the players' own cards when our data lacks it: the Room
card's monsters and Room Level Rewards, the Lord's card, a special room's offers, the Tavern
bag's pieces and a draw at the table. Each comes from what the players gave with the step
(`TableAnswers`), else is asked (`CampaignAsker`), and is checked before anything is written;
`remember_*` writes an answer into the data folder once the step is sure to go ahead."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from msgspec import Struct

from automa.campaign.asking import (
    CampaignAsker,
    LordCard,
    Question,
    TableAnswers,
    Unanswered,
    ask,
)
from automa.campaign.cards import EXAMPLE, RoomIcons, parse_icons
from automa.campaign.commands import BadField
from automa.campaign.log import CampaignError
from automa.catalog.load import Catalog
from automa.errors import InputError
from automa.model.campaigns import Offer, Rewards, RouteRoom, Visit
from automa.model.monsters import LordSpec
from automa.model.provenance import Provenance
from automa.model.rooms import RoomSpec

ASKED = Provenance.ASKED
OFFERS_EXAMPLE = "rest=2:health+1; horse=5:items+1 (each:FIELD+N for every hero; 'card' as " \
                 "the price when the card bought shows it)"
MAX_GOLD = 99
MAX_BAG = 30


def data_folder(user_dir: Path | None, what: str) -> Path:
    """The data folder an answer is remembered in; without one the answer cannot be kept."""
    if user_dir is None:
        raise InputError(f"{what} not in our data and no data folder remembers it: give one "
                         f"(automa --data-dir DIR campaign ..., or AUTOMA_DATA_DIR)")
    return user_dir


# The Room card's Room Level Rewards ------------------------------------------------------------

def _whole(text: str, low: int, high: int) -> int:
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or not low <= int(digits) <= high:
        raise ValueError(f"{text!r} is not a whole number from {low} to {high}")
    return int(digits)


def _yes_no(text: str) -> bool:
    answer = text.strip().lower()
    if answer not in ("y", "yes", "n", "no"):
        raise ValueError(f"{text!r}: answer y or n")
    return answer.startswith("y")


def room_rewards(room: RouteRoom, known: Rewards | None, given: TableAnswers,
                 asker: CampaignAsker | None) -> Rewards:
    """The Room card's icons: from the data, else as given, else asked."""
    if known is not None:
        return known
    lacking = f"{room.name}'s Room Level Rewards are not in our data"
    gold, spell = given.gold, given.spell
    if gold is None:
        gold = ask(asker, Question("gold", f"The gold icon on the {room.name} card: how much "
                                           f"gold for each hero (0: no gold icon) [0-{MAX_GOLD}]",
                                   lacking), lambda text: _whole(text, 0, MAX_GOLD))
    if spell is None:
        spell = ask(asker, Question("spell", f"Does the {room.name} card show the Spell card "
                                             f"icon? [y/n]", lacking), _yes_no)
    return Rewards(gold, spell, ASKED)


def spell_taker(survivors: list[str], chosen: str | None, asker: CampaignAsker | None) -> str:
    """The hero who takes the Room's Spell card: named, the only survivor, or asked."""
    if chosen is not None:
        return chosen
    if len(survivors) == 1:
        return survivors[0]

    def parse(text: str) -> str:
        if text.strip() not in survivors:
            raise ValueError(f"{text.strip()!r} is not one of: {', '.join(survivors)}")
        return text.strip()

    return ask(asker, Question("spell-to", f"Which hero takes the Spell card (one who can use "
                                           f"it) ({', '.join(survivors)})",
                               "the hero who takes the Spell card is not named"), parse)


# The Room card's monsters ---------------------------------------------------------------------

def room_icons(room: RoomSpec, catalog: Catalog, user_dir: Path | None, given: RoomIcons | None,
               asker: CampaignAsker | None) -> RoomIcons | None:
    """The Room card's icons when our data lacks them (None when it has them): as given, else
    asked. A card given for a room our data knows must match it."""
    if room.known:
        if given is not None and given != RoomIcons(room.monsters, room.metres,
                                                    room.mercenaries or 0):
            raise BadField("monsters", f"{room.name}'s monsters in the data ({room.provenance}) "
                                       f"differ; correct them in your rooms.toml")
        return None
    data_folder(user_dir, f"{room.name}'s monsters are")
    if given is not None:
        return given
    return ask(asker, Question("monsters", f"The {room.name} Room card: its monsters, e.g. "
                                           f"{EXAMPLE}",
                               f"{room.name}'s Room card monsters are not in our data"),
               lambda text: parse_icons(text, catalog))


# The Lord's card ------------------------------------------------------------------------------

def lord_fields(lord: LordSpec, lair: bool, mercenaries: int) -> list[str]:
    """The Lord's card fields this room's setup and battle need that our data lacks."""
    if lair:  # the Lord's piece fights (health, sequences) with its minions; a size defaults
        return [f for f in ("health", "sequences", "minions") if f in lord.unknown]
    return ["mercenary"] if mercenaries and "mercenary" in lord.unknown else []


class LordCardEntry(Struct, frozen=True):
    """The Lord's card as it will be written: every field typed, parsed."""

    lord: str
    values: Mapping[str, object]  # card field -> the value the data file holds, in card order


def lord_card(lord: LordSpec, lair: bool, mercenaries: int, given: LordCard | None,
              catalog: Catalog, user_dir: Path | None, asker: CampaignAsker | None,
              ) -> LordCardEntry | None:
    """The Lord's card fields our data lacks (every one of them, once a room needs one), as
    given, the rest asked; None when the room needs nothing more of the card."""
    from automa.catalog.cards import parse_answer, prompt_for
    from automa.catalog.fields import CARD, LORD, needed

    if not lord_fields(lord, lair, mercenaries):
        return None
    typed = (given or LordCard()).given()
    values: dict[str, object] = {}
    problems: list[str] = []
    for field, answer in typed.items():
        try:
            values[field] = ([parse_answer(field, a, catalog) for a in answer]
                             if isinstance(answer, list) else parse_answer(field, answer, catalog))
        except ValueError as exc:
            problems.append(f"{field}: {exc}")
    if problems:  # every field's typo at once
        raise BadField("lord_card", "; ".join(problems))
    wanted = needed(lord, every=True)
    missing = [f for f in CARD[LORD] if f in wanted and f not in values]
    if missing:
        data_folder(user_dir, "the Lord's card is")
        lacking = f"{lord.name}'s card is not in our data"
        if asker is None:
            raise Unanswered(Question("lord-card", "", lacking, tuple(missing)))
        asker.tell(f"{lord.name} ({LORD}, {catalog.files.get(lord.id, 'data')}): "
                   f"{len(missing)} field(s) to type from the card")
    for field in missing:
        if field == "sequences":
            values[field] = _sequences(catalog, lacking, tuple(missing), asker)
        else:
            values[field] = ask(asker, Question("lord-card", prompt_for(field, catalog), lacking,
                                                tuple(missing)), _field_parser(field, catalog))
    return LordCardEntry(lord.id, {f: values[f] for f in CARD[LORD] if f in values})


def _field_parser(field: str, catalog: Catalog) -> Callable[[str], object]:
    from automa.catalog.cards import parse_answer

    return lambda text: parse_answer(field, text, catalog)


def _sequences(catalog: Catalog, lacking: str, missing: tuple[str, ...],
               asker: CampaignAsker | None) -> list[str]:
    """The card's shot sequences, one a line (each Or its own), an empty line ending them."""
    from automa.catalog.cards import parse_sequence_answer

    assert asker is not None
    asker.tell("  One shot sequence per line (each Or is its own line); an empty line ends.")
    sequences: list[str] = []
    while True:
        def parse(text: str) -> str:
            if not text.strip():
                if sequences:
                    return ""
                raise ValueError("the card has at least one sequence")
            return parse_sequence_answer(text, catalog)

        prompt = (f"Shot sequence {len(sequences) + 1}, e.g. 'rush then melee+poison'"
                  + (" (empty line: done)" if sequences else ""))
        answer = ask(asker, Question("lord-card", prompt, lacking, missing), parse)
        if not answer:
            return sequences
        sequences.append(answer)


def remember_lord_card(user_dir: Path, entry: LordCardEntry) -> list[str]:
    """The Lord's card written into the data folder with provenance "asked", as `automa data
    card` writes one, and the folder checked whole: the lines that say so."""
    from automa.catalog.cards import (
        check_record,
        entered_record,
        raw_record,
        toml_value,
        write_record,
    )
    from automa.catalog.fields import LORD
    from automa.catalog.load import check_catalog
    from automa.safe_text import one_line

    record = entered_record(raw_record(entry.lord, LORD, user_dir), entry.values, ASKED)
    check_record(entry.lord, LORD, record, str(user_dir))
    path = write_record(user_dir, LORD, entry.lord, record)
    typed = ", ".join(f"{k} = {toml_value(v)}" for k, v in entry.values.items())
    problems = check_catalog(user_dir)
    if problems:
        raise InputError(f"{user_dir}: the folder has {len(problems)} problem(s), the first: "
                         f"{one_line(str(problems[0]))}; `automa data check {user_dir}` shows "
                         f"them all")
    return [f"Wrote [{entry.lord}] to {path} (provenance {ASKED}): {typed}",
            f"automa data check {user_dir}: ok"]


# A special room's offers and the Tavern ------------------------------------------------------

def room_offers(room: RoomSpec, visit: Visit | None, user_dir: Path | None,
                given: tuple[Offer, ...] | None, asker: CampaignAsker | None,
                ) -> tuple[Offer, ...] | None:
    """A special room's offers when our sources lack them (None when they have them): as
    given, else asked."""
    from automa.catalog.campaigns import parse_offers_answer

    if visit is not None and visit.known:
        if given is not None:
            raise BadField("offers", f"{room.name}'s offers are in the data already "
                                     f"({visit.provenance}); correct them in your visits.toml")
        return None
    data_folder(user_dir, f"{room.name}'s offers are")
    if given is not None:
        return given
    return ask(asker, Question("offers", f"What the {room.name} card offers, e.g. "
                                         f"{OFFERS_EXAMPLE}",
                               f"{room.name}'s offers are not in our sources"),
               parse_offers_answer)


def parse_bag(text: str, kinds: Sequence[str]) -> dict[str, int]:
    """`orc=6, fire-spirit=4`: how many pieces of each kind go into the Tavern bag."""
    def count(part: str) -> tuple[str, int]:
        kind, _, amount = part.partition("=")
        digits = amount.strip()
        if (kind.strip() not in kinds or not (digits.isascii() and digits.isdigit())
                or int(digits) > MAX_BAG):
            raise ValueError(f"{part!r}: write KIND=N with KIND one of {', '.join(kinds)} and "
                             f"N 0-{MAX_BAG}")
        return kind.strip(), int(digits)

    from automa.catalog.cards import every_part

    return dict(every_part((p.strip() for p in text.split(",") if p.strip()), count))


def bag_counts(visit: Visit, user_dir: Path | None, given: Mapping[str, int] | None,
               asker: CampaignAsker | None) -> tuple[dict[str, int], dict[str, int] | None]:
    """The Tavern bag's pieces, and those our data lacked as given or asked (None: none
    lacked), to be remembered."""
    missing = [k for k, n in visit.bag.items() if n is None]
    if not missing:
        return {k: int(n or 0) for k, n in visit.bag.items()}, None

    def check(counts: Mapping[str, int]) -> dict[str, int]:
        if set(missing) - set(counts):
            raise ValueError(f"give {', '.join(sorted(set(missing) - set(counts)))} too")
        return dict(counts)

    if user_dir is None:
        raise InputError("the Tavern bag's pieces are not in our data and no data folder "
                         "remembers them: give one (automa --data-dir DIR), or draw at the "
                         "table with --drawn")
    if given is not None:
        try:
            told = check(parse_bag(", ".join(f"{k}={n}" for k, n in given.items()),
                                   tuple(visit.bag)))  # the kinds this bag holds, N 0-30
        except ValueError as exc:
            raise BadField("bag", str(exc)) from None
    else:
        told = ask(asker, Question("bag", f"How many pieces of {', '.join(missing)} go into the "
                                          f"bag (your box), e.g. orc=6, fire-spirit=4, "
                                          f"centaur=4",
                                   f"the Tavern bag's {', '.join(missing)} pieces are not in "
                                   f"our data", tuple(missing)),
                   lambda text: check(parse_bag(text, tuple(visit.bag))))
    return {k: told.get(k, int(v or 0)) for k, v in visit.bag.items()}, told


def drawn_at_table(asker: CampaignAsker | None) -> list[str]:
    """The three pieces the players drew from the Tavern bag."""
    from automa.campaign.tavern import KINDS, parse_drawn

    def parse(text: str) -> list[str]:
        try:
            return parse_drawn(text)
        except CampaignError as exc:  # the draw's refusal: asked again
            raise ValueError(str(exc)) from None

    return ask(asker, Question("drawn", f"The 3 pieces drawn ({', '.join(KINDS)})",
                               "the three pieces drawn at the table are not given"), parse)

"""How a campaign step reaches the players: what they give ahead (`TableAnswers`: what their
cards show, whether they roll and draw themselves), and the questions asked when something is
still missing (`CampaignAsker`: the front end prompts, refuses, or answers from a script).

Nothing here reads a terminal or prints: the terminal's asker is in cli/campaign_ask.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from msgspec import Struct

from automa.engine.judge import GeometryMode
from automa.errors import InputError
from automa.model.modes import DiceMode

if TYPE_CHECKING:
    from automa.campaign.cards import RoomIcons
    from automa.engine.judge import Briefing
    from automa.model.campaigns import Offer

T = TypeVar("T")
# What a question asks, so a front end that cannot ask can say how to give it instead.
Topic = Literal["gold", "spell", "spell-to", "monsters", "lord-card", "offers", "bag", "drawn"]


class Question(Struct, frozen=True):
    """One question to the players. `lacking` says in one line what is missing, for a front end
    that cannot ask; `fields` names the parts missing (a Lord's card's fields, the bag's
    kinds)."""

    topic: Topic
    prompt: str
    lacking: str
    fields: tuple[str, ...] = ()


class CampaignAsker(Protocol):
    """The players at the table: their dice and tiles (the engine's questions: engine/chance.py's
    `Asker`, restated here so that a campaign command that asks nothing loads no engine; mypy
    holds the two together where a room's setup hands this asker to the engine), the answers
    read off their cards, and a line to read before they are asked."""

    def number(self, prompt: str, allowed: Sequence[int], what: str | None = None) -> int:
        ...

    def order(self, prompt: str, items: Sequence[str]) -> list[str]: ...

    def choice(self, prompt: str, options: Sequence[str]) -> str: ...

    def yes_no(self, prompt: str) -> bool: ...

    def token(self, prompt: str, faces: Sequence[str], elsewhere: Mapping[str, str]) -> str: ...

    def instruct(self, briefing: Briefing) -> None: ...

    def text(self, question: Question, parse: Callable[[str], T]) -> T:
        """An answer `parse` accepts: a ValueError it raises says why the answer is refused,
        and the question is asked again."""
        ...

    def tell(self, line: str) -> None:
        """A line the players read before the next question."""
        ...


class Unanswered(InputError):
    """A question with nobody to ask."""

    def __init__(self, question: Question) -> None:
        super().__init__(f"{question.lacking}: give it with the step, or let the players be "
                         f"asked")
        self.question = question


def ask(asker: CampaignAsker | None, question: Question, parse: Callable[[str], T]) -> T:
    if asker is None:
        raise Unanswered(question)
    return asker.text(question, parse)


class LordCard(Struct, frozen=True):
    """A Catacomb Lord's card fields as the players typed them (`automa data card`'s answers):
    each is parsed as the data folder holds it when the card is written."""

    health: str | None = None
    size: str | None = None
    sequences: tuple[str, ...] = ()
    minions: str | None = None
    mercenary: str | None = None

    def given(self) -> dict[str, str | list[str]]:
        """The fields given, by the card's field names."""
        fields: dict[str, str | list[str]] = {
            name: value for name, value in (("health", self.health), ("size", self.size),
                                            ("minions", self.minions),
                                            ("mercenary", self.mercenary))
            if value is not None}
        if self.sequences:
            fields["sequences"] = list(self.sequences)
        return fields


class TableAnswers(Struct, frozen=True):
    """What the players give with a step rather than be asked: what their cards show (kept in
    their data folder, never in the campaign log: the next campaign is not asked again) and
    whether they roll and draw at the table, and whether they measure with the real rulers and
    templates (asked geometry)."""

    dice: DiceMode = DiceMode.VIRTUAL
    # where a battle room's geometric answers come from (`automa new --geometry`)
    geometry: GeometryMode = GeometryMode.TRACKED
    monsters: RoomIcons | None = None  # the Room card's icons, when our data lacks them
    lord_card: LordCard | None = None
    offers: tuple[Offer, ...] | None = None  # a special room's offers our sources lack
    gold: int | None = None  # the Room card's gold icon (0: none)
    spell: bool | None = None  # the Room card's Spell card icon
    bag: Mapping[str, int] | None = None  # the Tavern bag's pieces our data lacks

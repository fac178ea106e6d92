"""The words the players type at the table (`automa play`, and the board's command line), read
into commands. Parsing knows only the words: whether the pieces named are in play, whether the
command may be done now, is the battle's to say (session/apply.py).

Besides commands, a line may ask something (`los elf`, `status`, `log`, `cave`, `help`) or stop
the loop (`quit`): those are `Asked`, answered by the front end from the battle as it stands.
"""

from __future__ import annotations

import shlex
from enum import StrEnum

from msgspec import Struct

from automa.errors import InputError
from automa.model.board import PLATINUM
from automa.model.pieces import CONDITIONS, Condition
from automa.session.answers import plain_number
from automa.session.apply import DAMAGE_USAGE, HIT_USAGE
from automa.session.commands import (
    Adjust,
    Command,
    Counter,
    Damage,
    EndHeroesTurn,
    EnterCave,
    Heal,
    Hit,
    Move,
    Redo,
    Remove,
    ReturnToMat,
    SetCondition,
    Summon,
    Undo,
    UseCard,
    UsePeriod,
)
from automa.session.state import Phase


class Query(StrEnum):
    """What a line may ask without changing the battle."""

    LOS = "los"
    STATUS = "status"
    LOG = "log"
    CAVE = "cave"
    HELP = "help"
    QUIT = "quit"


class Asked(Struct, frozen=True):
    query: Query
    args: tuple[str, ...] = ()


class NotNow(InputError):
    """A known word that cannot be done in this turn (`hit` during the AI turn, say)."""

    def __init__(self, word: str, phase: Phase) -> None:
        turn = "the AI turn" if phase == Phase.AI else "the heroes' turn"
        super().__init__(f"{word!r} cannot be done in {turn}")
        self.word = word
        self.phase = phase


class UnknownWord(InputError):
    """A first word that is no command at all."""

    def __init__(self, word: str) -> None:
        super().__init__(f"unknown command {word!r}")
        self.word = word


HEROES_HELP = """Heroes' turn: report what happened at the table, then `done`.
  move ID POSITION      e.g. move elf 12.5,40 | move elf rune 3 | move elf 2 cm left of rat-1
                        | move elf touching obstacle B on its north side | move elf touching
                        rat-1 (no side named: the side nearest the elf); a rider and its
                        mount move as one (`condition RIDER riding off` gets it down first)
  hit ID[, ID...] SHOT[+MOD...] [by HERO] [trilithon]   a hero's hit on AI pieces, resolved
                        by the rules (nullify/reflect boxes, Lords' immunities, poison, stun,
                        fear, ice, devour, petrify, dagger, portal-trap; chain remembers the
                        hero's last damaged piece when `by HERO` is named), e.g.
                        hit rat-1, rat-2 fireball by elf; `trilithon`: it went through it;
                        hit rat-1, rat-2 claw by ulom: Ulom's claw, 1 damage to each;
                        hit skel-1 fire-wall: it hit or was pushed into a fire wall;
                        a neutral piece (a wild wyvern) can be hit too, and a Yilleph
                        piece struck by any piece flips: hit yilleph-2 rush by elf
  damage ID N [by HERO] raw damage on any piece, no rules applied (name the hero for the summary)
  heal ID N
  used HERO CARD room|game   a card used (Ability, Item, Spell): once per room or per game
  cave                  the Hidden Cave: the five, each hero's collection, the items left
  cave HERO SHOTS [portal]   the hero enters the Hidden Cave instead of their turn (`portal`:
                        sent by the Portal Trap) and fights the Kraken; SHOTS: the damage
                        shot icons on their base sequence, Ability, Item and up to 5 Spell cards
  summon HERO ANTIENT   an Antient the hero holds, instead of their base shot sequence
  gold ID +N / -N       also items, poison; gold ID +1p: a platinum coin (5 gold)
  dead ID               the piece leaves play; freeze / unfreeze / stun / unstun ID
  condition ID NAME on|off   any condition: frozen, stunned, teleported, devoured, aloft ...
  back ID               back on the mat from the Teleported! or Devoured! card (then move it);
                        a part (Ulom's claw) goes onto the card and comes back with its owner
  los ID                whom ID sees;  status;  log;  undo;  redo
  done                  end the heroes' turn: the AI acts, one activation per Enter
  clear                 clear the screen (at every prompt and question)
  quit                  stop here (everything is saved)
A piece may be named by any unique short form of its id (rat-1 for sewer-rat-1, barb for
barbarian). Numbers are plain digits (0-9). Up and Down recall earlier lines; Tab completes
commands and piece ids."""
AI_HELP = """AI turn: press Enter for the next activation. Also:
  move ID POSITION      the real piece landed elsewhere: put it where it stands (logged)
  los ID                whom ID sees;  status;  log;  undo;  redo;  help;  clear;  quit
  cave HERO SHOTS portal   the AI's Portal Trap sent the hero to the Hidden Cave: the fight
At any question during an activation (a die, a token, a yes/no, which one):
  back                  take back the last answer and answer that question again
  undo                  abandon this activation: its answers are taken back, nothing is
                        logged (`undo` again at the prompt takes back the input before it)
  clear                 clear the screen; the question is asked again
  quit                  stop; the activation under way is not saved"""

HEROES_WORDS = ("move", "damage", "hit", "used", "cave", "summon", "heal", "gold", "items",
                "poison", "dead", "freeze", "unfreeze", "stun", "unstun", "condition", "back",
                "los", "status", "log", "undo", "redo", "done", "quit", "exit", "help")
AI_WORDS = ("move", "los", "status", "log", "undo", "redo", "help", "quit", "exit", "cave")
TOGGLES = {"freeze": (Condition.FROZEN, True), "unfreeze": (Condition.FROZEN, False),
           "stun": (Condition.STUNNED, True), "unstun": (Condition.STUNNED, False)}
CAVE_USAGE = ("cave HERO SHOTS [portal] (SHOTS: the damage-inflicting shot icons on the hero's "
              "base sequence, Ability and Item cards, used ones too, and up to five Spell cards)")


def words_of(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError:
        raise InputError("unbalanced quotes; try again") from None


def parse_line(line: str, phase: Phase) -> Command | Asked | None:
    """The command (or question) a typed line says; None for an empty line. InputError (one
    line) when the words cannot be read; NotNow for a known word out of its turn."""
    words = words_of(line)
    if not words:
        return None
    word, args = words[0].lower(), words[1:]
    allowed = HEROES_WORDS if phase == Phase.HEROES else AI_WORDS
    if word not in allowed:
        if word in HEROES_WORDS or word in AI_WORDS:
            raise NotNow(word, phase)
        raise UnknownWord(word)
    return parse_words(word, args)


def parse_words(word: str, args: list[str]) -> Command | Asked:
    """One command's words after the first (`word`, lower case)."""
    if word in ("quit", "exit"):
        return Asked(Query.QUIT)
    if word in ("status", "log", "help"):
        return Asked(Query(word))
    if word == "los":
        _need(args, 1, "los ID")
        return Asked(Query.LOS, (args[0],))
    if word == "move":
        _need(args, 2, "move ID POSITION")
        return Move(args[0], words=" ".join(args[1:]))
    if word in ("damage", "heal", *Counter):
        return _amount(word, args)
    if word == "hit":
        return _hit(args)
    if word == "used":
        _need(args, 3, "used HERO CARD room|game")
        try:
            per = UsePeriod(args[-1].lower())
        except ValueError:
            raise InputError(f"a card is used once per room or per game, not "
                             f"{args[-1]!r}") from None
        return UseCard(args[0], " ".join(args[1:-1]), per)
    if word == "cave":
        return _cave(args)
    if word == "summon":
        if len(args) != 2:
            raise InputError("usage: summon HERO ANTIENT")
        return Summon(args[0], args[1])
    if word == "dead":
        _need(args, 1, "dead ID")
        return Remove(args[0], "dead")
    if word in TOGGLES:
        _need(args, 1, f"{word} ID")
        condition, on = TOGGLES[word]
        return SetCondition(args[0], condition, on)
    if word == "condition":
        return _condition(args)
    if word == "back":
        _need(args, 1, "back ID")
        return ReturnToMat(args[0])
    if word == "undo":
        return Undo()
    if word == "redo":
        return Redo()
    if word == "done":
        return EndHeroesTurn()
    raise UnknownWord(word)


def _need(args: list[str], count: int, usage: str) -> None:
    if len(args) < count:
        raise InputError(f"usage: {usage}")


def number(text: str) -> int:
    """A whole number typed at the table: plain ASCII digits, a sign allowed."""
    value = plain_number(text, signed=True)
    if value is None:
        raise InputError(f"{text!r} is not a whole number in plain digits (0-9)")
    return value


def _amount(word: str, args: list[str]) -> Command:
    _need(args, 2, f"{word} ID N")
    piece, amount = args[0], args[1]
    if word == Counter.GOLD and amount.lower().endswith("p"):  # platinum coins: 1 = 5 gold
        return Adjust(Counter.GOLD, piece, number(amount[:-1]) * PLATINUM)
    if word in Counter.__members__.values():
        return Adjust(Counter(word), piece, number(amount))
    if word == "heal":
        return Heal(piece, number(amount))
    by = None
    if len(args) > 2:
        if len(args) != 4 or args[2].lower() != "by":
            raise InputError(f"usage: {DAMAGE_USAGE}")
        by = args[3]
    return Damage(piece, number(amount), by)


def _hit(args: list[str]) -> Hit:
    """`hit rat-1, rat-2 fireball+poison by elf [trilithon]`."""
    words = list(args)
    trilithon = bool(words) and words[-1].lower() == "trilithon"  # it went through it
    if trilithon:
        words = words[:-1]
    by = None
    if len(words) >= 2 and words[-2].lower() == "by":
        by = words[-1]
        words = words[:-2]
    _need(words, 2, HIT_USAGE)
    shot = words[-1].lower()
    targets = tuple(t for t in " ".join(words[:-1]).replace(",", " ").split() if t)
    if not targets:
        raise InputError(f"usage: {HIT_USAGE}")
    return Hit(targets, shot, by, trilithon)


def _cave(args: list[str]) -> EnterCave | Asked:
    if not args:
        return Asked(Query.CAVE)
    portal = args[-1].lower() == "portal"
    words = args[:-1] if portal else args
    shots = plain_number(words[1]) if len(words) == 2 else None
    if shots is None:
        raise InputError(f"usage: {CAVE_USAGE}")
    return EnterCave(words[0], shots, portal)


def _condition(args: list[str]) -> SetCondition:
    _need(args, 3, "condition ID NAME on|off")
    if args[2] not in ("on", "off"):
        raise InputError(f"usage: condition ID NAME on|off (not {args[2]!r})")
    if args[1] not in CONDITIONS:
        raise InputError(f"unknown condition {args[1]!r} (known: {', '.join(CONDITIONS)})")
    return SetCondition(args[0], Condition(args[1]), args[2] == "on")

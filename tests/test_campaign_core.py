"""The campaign's core called directly, as a script or the board calls it (no command line): an
evening taken step by step through `Campaign.do` with typed steps, each step's JSON the log line
the campaign has always written (logs written before the typed steps replay the same), and each
refusal one line naming what is wrong."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from automa.campaign.asking import Question, TableAnswers, Unanswered
from automa.campaign.battles import campaign_folder
from automa.campaign.cave import FightKraken, fight_kraken
from automa.campaign.commands import (
    BadLine,
    Bet,
    Buy,
    Change,
    EndRoom,
    EnterRoom,
    RoomRewards,
    Share,
    StartCampaign,
    Undo,
    step_from_json,
)
from automa.campaign.log import CampaignError
from automa.campaign.model import HeroBoard
from automa.campaign.rules import new_heroes
from automa.campaign.store import Campaign, open_campaign
from automa.catalog.load import Catalog, load_catalog
from automa.engine.judge import Briefing
from automa.render.campaign_out import log_json, log_text, status_json, status_text
from automa.session.commands import Remove
from automa.session.store import Session
from tests.conftest import unsealed

T = TypeVar("T")
LOGS = Path(__file__).parent / "campaign_logs"
OLD_LOGS = ["monstrosity-visits", "pharaoh-tavern"]  # written before the steps were typed


class Table:
    """The players, scripted: each answer in turn; the questions asked and the lines told are
    kept. Dice are never asked here (virtual dice)."""

    def __init__(self, answers: Sequence[str] = ()) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []
        self.told: list[str] = []

    def text(self, question: Question, parse: Callable[[str], T]) -> T:
        self.asked.append(question.topic)
        return parse(self.answers.pop(0))

    def tell(self, line: str) -> None:
        self.told.append(line)

    def number(self, prompt: str, allowed: Sequence[int], what: str | None = None) -> int:
        self.asked.append(prompt)
        return int(self.answers.pop(0))

    def order(self, prompt: str, items: Sequence[str]) -> list[str]:
        raise AssertionError(prompt)

    def choice(self, prompt: str, options: Sequence[str]) -> str:
        raise AssertionError(prompt)

    def yes_no(self, prompt: str) -> bool:
        raise AssertionError(prompt)

    def token(self, prompt: str, faces: Sequence[str], elsewhere: Mapping[str, str]) -> str:
        self.asked.append(prompt)
        return self.answers.pop(0)

    def instruct(self, briefing: Briefing) -> None:
        pass


def _begun(folder: Path, data: Path | None, catalog: Catalog, **more: Any) -> Campaign:
    start = StartCampaign("monstrosity", new_heroes([("elf", 8), ("dwarf", 9)]), lord="hmotha",
                          seed=3, **more)
    return Campaign.new(folder, start, catalog, data)


def _clear(campaign: Campaign, killer: str) -> int:
    """Every AI piece of the room's battle killed by `killer`: the gold their cards print."""
    assert campaign.state.current_session is not None
    battle = Session.open(campaign.folder / campaign.state.current_session, campaign.catalog)
    gold = 0
    for piece in [p for p in battle.state.battle.pieces if p.side == "ai"]:
        battle.do(Remove(piece.id, f"killed by {killer}"))
        gold += campaign.catalog.monsters[piece.monster or ""].gold or 0
    return gold


def test_an_evening_taken_step_by_step(tmp_path: Path, data: Path) -> None:
    catalog = load_catalog(data)
    campaign = _begun(tmp_path / "evening", data, catalog, visit_pool="pooled")
    assert (campaign.start.lord, campaign.state.current, campaign.state.steps) == (
        "hmotha", None, 0)
    entered = campaign.do(EnterRoom("glaaoth"))
    assert entered.step.session == "rooms/01-glaaoth" and entered.setup is not None
    assert entered.step.playmat == entered.setup.playmat and entered.visit is None
    assert campaign_folder(campaign.folder / entered.step.session) == campaign.folder.resolve()
    gained = _clear(campaign, "dwarf")
    # the Room card's rewards are not in our data: with nobody to ask, one line, nothing logged
    with pytest.raises(Unanswered) as nobody:
        campaign.do(EndRoom(spell_to="dwarf"))
    assert "Glaaoth's Room Level Rewards are not in our data" in str(nobody.value)
    assert campaign.state.current == "glaaoth" and len(campaign.steps) == 1
    table = Table(["2", "yes"])
    ended = campaign.do(EndRoom(spell_to="dwarf"), table)
    assert table.asked == ["gold", "spell"]
    assert ended.step.rewards == RoomRewards(2, True, "asked") and ended.step.room == "glaaoth"
    assert ended.step.kill_gold == (("dwarf", gained),)
    assert "Remembered Glaaoth's rewards" in ended.notes[0]
    dwarf = ended.state.heroes["dwarf"]
    assert (dwarf.gold, dwarf.spells) == (5 + 2 + gained, 1)
    # a visit: the Merchant's menu, gold pooled, an Item card at its printed price, taken back
    visit = campaign.do(EnterRoom("izchak-the-merchant")).visit
    assert visit is not None and visit.offer("map", campaign.state.settings) is not None
    bought = campaign.do(Buy("map", payers=(Share("elf", 1), Share("dwarf", 1))))
    assert (bought.step.price, bought.step.room, bought.offer.id) == (2, "izchak-the-merchant",
                                                                       "map")
    assert bought.state.heroes["elf"].gold == 5 + 2 - 1
    item = campaign.do(Buy("item", hero="elf", price=3, payers=(Share("dwarf"),)))
    assert item.state.heroes["elf"].items == 1 and item.step.payers == (Share("dwarf", 3),)
    undone = campaign.do(Undo())
    assert undone.step == item.step and undone.state.heroes["elf"].items == 0
    campaign.do(EndRoom(changes=(Change("elf", "items", 1),)))
    assert campaign.state.heroes["elf"].items == 1
    assert campaign.state.done == ("glaaoth", "izchak-the-merchant")
    # the folder is the whole truth: read again, the same campaign
    again = open_campaign(campaign.folder, catalog, data)
    assert (again.state, again.steps, again.undone()) == (campaign.state, campaign.steps, {4})


def test_every_step_is_its_log_line_and_back(tmp_path: Path, data: Path) -> None:
    catalog = load_catalog(data)
    campaign = _begun(tmp_path / "c", data, catalog, hidden_cave=True)
    campaign.do(EnterRoom("glaaoth"))
    _clear(campaign, "elf")
    campaign.do(EndRoom(), table=TableAnswers(gold=1, spell=False))
    campaign.do(EnterRoom("althea-the-healer"))
    campaign.do(Buy("heal", hero="elf"))
    campaign.do(Undo())
    lines = (campaign.folder / "campaign.jsonl").read_text(encoding="utf-8").splitlines()
    header = unsealed(json.loads(lines[0]))  # each line's place in the hash chain aside
    assert {"format": header["format"], "version": header["version"],
            **campaign.start.to_json()} == header
    assert StartCampaign.from_json(header) == campaign.start
    assert len(lines) - 1 == len(campaign.steps) == 5
    for line, step in zip(lines[1:], campaign.steps, strict=True):
        assert unsealed(json.loads(line)) == json.loads(json.dumps(step.to_json()))
        assert step_from_json(json.loads(line)) == step


@pytest.mark.parametrize("name", OLD_LOGS)
def test_a_log_written_before_the_typed_steps_replays_the_same(tmp_path: Path, name: str,
                                                               catalog: Catalog) -> None:
    """The status and the log, as text and JSON, byte for byte what the commands printed for
    this log before (tests/campaign_logs, printed by the untyped commands)."""
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(LOGS / f"{name}.jsonl", folder / "campaign.jsonl")
    campaign = open_campaign(folder, catalog, None)

    def printed(data: object) -> str:
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    assert printed(status_json(campaign.state)) == (LOGS / f"{name}.status.json").read_text()
    assert printed(log_json(campaign.steps, campaign.undone())) == \
        (LOGS / f"{name}.log.json").read_text()
    assert status_text(campaign.state) + "\n" == (LOGS / f"{name}.status.txt").read_text()
    assert log_text(campaign.steps, campaign.undone()) + "\n" == \
        (LOGS / f"{name}.log.txt").read_text()
    for line in (LOGS / f"{name}.jsonl").read_text().splitlines()[1:]:
        assert json.dumps(step_from_json(json.loads(line)).to_json()) == line


names = st.sampled_from(["elf", "dwarf", "orc", "zhamanok", "rooms/03-x"])
boards = st.builds(HeroBoard, names, st.integers(1, 20), st.integers(0, 20), st.integers(0, 99),
                   st.integers(0, 5), st.integers(0, 5), st.integers(0, 5), st.booleans(),
                   st.integers(0, 3), st.lists(names, max_size=2).map(tuple))
heroes = st.lists(boards, min_size=1, max_size=3, unique_by=lambda b: b.id).map(tuple)
steps = st.one_of(
    st.builds(EnterRoom, names, st.none() | names, st.none() | names),
    st.builds(lambda spell_to, pairs, raised, changes, room, rewards, gold, boards: EndRoom(
        spell_to if rewards else None, pairs, raised, changes, room, rewards, gold, boards),
        st.none() | names, st.lists(st.tuples(names, names), max_size=2).map(tuple),
        st.lists(names, max_size=2).map(tuple),
        st.lists(st.builds(Change, names, st.sampled_from(["gold", "items", "health"]),
                           st.integers(-9, 9)), max_size=2).map(tuple),
        names, st.none() | st.builds(RoomRewards, st.integers(0, 9), st.booleans(), names),
        st.none() | st.dictionaries(names, st.integers(0, 9)).map(lambda d: tuple(d.items())),
        heroes),
    st.builds(lambda offer, hero, payers, price, room, boards: Buy(
        offer, hero, tuple(Share(h, g) for h, g in payers.items()), price, room, boards),
        names, st.none() | names, st.dictionaries(names, st.integers(0, 9)),
        st.integers(0, 20), names, heroes),
    st.builds(lambda hero, payers, room, boards, drawn, result, reward: Bet(
        "bet", hero, tuple(Share(h, g) for h, g in payers.items()), 2, room, boards,
        drawn=drawn, result=result, reward=reward),
        st.none() | names, st.dictionaries(names, st.integers(0, 9)), names, heroes,
        st.lists(st.sampled_from(["orc", "hero", "centaur"]), min_size=3, max_size=3)
        .map(tuple), st.none() | st.sampled_from(["one-hero", "three-colours"]),
        st.none() | names),
    st.just(Undo()))


@given(steps)
def test_any_logged_step_reads_back_as_itself(step: Any) -> None:
    line = json.loads(json.dumps(step.to_json()))
    assert step_from_json(line) == step


@given(st.integers(0, 30), st.integers(0, 12), st.none() | st.integers(0, 2**63 - 1),
       st.sampled_from(["virtual", "physical"]), st.sampled_from([None, "kraken", "hero"]))
def test_the_kraken_fight_reads_back_as_itself(health: int, shots: int, seed: int | None,
                                               dice: Any, tie: Any) -> None:
    fight = FightKraken(health, shots, seed, dice, tie)
    assert FightKraken.from_json(json.loads(json.dumps(fight.to_json()))) == fight


@pytest.mark.parametrize(("line", "words"), [
    ([1, 2], "not a JSON object"),
    ({"type": "jump"}, "unknown step 'jump'"),
    ({"type": "enter"}, "enter: no 'room'"),
    ({"type": "enter", "room": 3, "session": None}, "'room' is not a name"),
    ({"type": "enter", "room": "glaaoth", "session": ""}, "'session' is neither a name nor null"),
    ({"type": "end-room", "room": "glaaoth", "rewards": None}, "end-room: no 'heroes'"),
    ({"type": "end-room", "room": "glaaoth", "rewards": {"gold": "2", "spell": True},
      "heroes": {}}, "rewards.gold is not a whole number"),
    ({"type": "end-room", "room": "glaaoth", "rewards": None, "heroes": {
        "elf": {"health": 8, "starting_health": 8, "gold": -1, "poison": 0, "items": 0,
                "spells": 0, "alive": True}}}, "hero 'elf''s board.gold"),
    ({"type": "end-room", "room": "glaaoth", "rewards": None, "heroes": {
        "elf": {"health": 8, "starting_health": 8, "gold": 1, "poison": 0, "items": 0,
                "spells": 0, "alive": "yes"}}}, "board.alive is not true or false"),
    ({"type": "end-room", "room": "glaaoth", "rewards": None, "changes": [
        {"hero": "elf", "field": "mana", "amount": 1}], "heroes": {}},
     "'mana' is not one of health"),
    ({"type": "end-room", "room": "glaaoth", "rewards": None, "collected": [["elf"]],
      "heroes": {}}, "[HERO, MONSTER] pairs"),
    ({"type": "visit", "room": "x", "offer": "map", "price": 2, "payers": {"elf": -2},
      "for": None, "heroes": {}}, "payers.elf is not a whole number"),
    ({"type": "visit", "room": "x", "offer": "bet", "price": 2, "payers": {}, "for": None,
      "drawn": ["orc"], "result": "jackpot", "reward": None, "heroes": {}},
     "result 'jackpot' is not one of"),
])
def test_a_bad_line_is_refused_in_one_line(line: Any, words: str) -> None:
    with pytest.raises(BadLine) as refused:
        step_from_json(line)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_each_step_says_in_one_line_why_it_cannot_be_taken(tmp_path: Path, data: Path) -> None:
    catalog = load_catalog(data)
    campaign = _begun(tmp_path / "c", data, catalog)
    state = campaign.state
    reasons = {
        "undo": Undo().check(state), "end": EndRoom().check(state),
        "visit": Buy("map").check(state), "nowhere": EnterRoom("nowhere").check(state),
        "open": EnterRoom("glaaoth").check(state),
    }
    assert reasons["undo"] == "nothing to undo: the campaign has just begun"
    assert reasons["end"] is not None and reasons["end"].startswith("no room is being played")
    assert reasons["visit"] is not None and "no special room is being visited" in reasons["visit"]
    assert reasons["nowhere"] is not None and "is not on the Monstrosity route" in \
        reasons["nowhere"]
    assert reasons["open"] is None
    state = campaign.do(EnterRoom("izchak-the-merchant")).state
    assert EnterRoom("glaaoth").check(state) == ("the heroes are still in izchak-the-merchant: "
                                                 "finish it with `automa campaign end-room` "
                                                 "first")
    assert EndRoom(room="glaaoth").check(state) == "the heroes are in izchak-the-merchant, not " \
                                                   "glaaoth"
    assert "not the campaign's heroes" in str(Buy("map", heroes=new_heroes([("elf", 8)]))
                                              .check(state))
    start = StartCampaign("monstrosity", new_heroes([("elf", 8)]))
    assert start.check(["pharaoh"], ["hmotha"]) == "unknown campaign 'monstrosity' (known: " \
                                                   "pharaoh)"
    assert StartCampaign("pharaoh", ()).check(["pharaoh"], []) == ("name at least one hero, "
                                                                   "e.g. elf=8")
    twice = StartCampaign("pharaoh", new_heroes([("elf", 8), ("elf", 9)]))
    assert "named twice" in str(twice.check(["pharaoh"], []))
    nobody = StartCampaign("pharaoh", new_heroes([("elf", 8)]), lord="nobody")
    assert "unknown Catacomb Lord 'nobody'" in str(nobody.check(["pharaoh"], ["hmotha"]))
    for reason in (*reasons.values(), twice.check(["pharaoh"], [])):
        assert reason is None or "\n" not in reason


def test_a_step_the_campaign_could_not_have_taken_is_named_by_its_line(
        tmp_path: Path, catalog: Catalog) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    lines = (LOGS / "pharaoh-tavern.jsonl").read_text().splitlines()
    entered = lines[1]  # the Tavern entered
    for damaged, number in (([*lines[:2], entered, *lines[2:]], 3),  # entered twice
                            ([lines[0], lines[2], *lines[3:]], 2)):  # a purchase before it
        (folder / "campaign.jsonl").write_text("\n".join(damaged) + "\n")
        with pytest.raises(CampaignError, match=f"campaign.jsonl: line {number}: "):
            open_campaign(folder, catalog, None)


def test_what_nobody_can_answer_refuses_the_step(tmp_path: Path, data: Path) -> None:
    catalog = load_catalog(data)
    start = StartCampaign("pharaoh", new_heroes([("elf", 8)]), lord="hmotha", seed=1)
    campaign = Campaign.new(tmp_path / "c", start, catalog, data)
    campaign.do(EnterRoom("alewife-tavern"))
    with pytest.raises(Unanswered) as nobody:
        campaign.do(Bet("bet"))
    assert nobody.value.question.topic == "bag" and nobody.value.question.fields == (
        "orc", "fire-spirit", "centaur")
    table = Table(["orc=6, fire-spirit=4, centaur=4"])
    bet = campaign.do(Bet("bet"), table)
    assert table.asked == ["bag"] and isinstance(bet.step, Bet)
    assert bet.step.drawn is not None and len(bet.step.drawn) == 3 and bet.notes
    at_table = campaign.do(Bet("bet", drawn=("hero", "hero", "hero"), reward="cure-all"))
    assert at_table.step.result == "three-heroes" and at_table.step.price == 2
    with pytest.raises(CampaignError, match="elf cannot afford 2 gold"):
        campaign.do(Bet("bet"))


def test_the_kraken_fight_by_the_seed_and_at_the_table(catalog: Catalog) -> None:
    # rule: "roll the D12 ... draw one red Damage token for every 4 health (rounded down) and one
    # for each damage-inflicting shot icon"
    fought = fight_kraken(FightKraken(9, 4, seed=7), catalog)
    again = fight_kraken(FightKraken(9, 4, seed=7), catalog)
    assert fought == again and len(fought.fight.tokens) == fought.tokens == 9 // 4 + 4
    table = Table(["5", "0", "1"])
    physical = fight_kraken(FightKraken(4, 1, dice="physical"), catalog, table)
    assert [t.label() for t in physical.fight.tokens] == ["0", "1"]
    assert physical.fight.strength == 5 and not physical.fight.hero_wins
    assert table.told and "red Damage tokens" in table.told[0]
    with pytest.raises(Exception, match="nobody is there to be asked"):
        fight_kraken(FightKraken(4, 1, dice="physical"), catalog)


def test_the_program_in_docs_runs_as_written(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md's campaign taken by a program, run as written."""
    text = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    program = text.split("## A campaign evening", 1)[1].split("```python\n", 1)[1] \
        .split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(program, "docs/cli.md", "exec"), {})
    shown = capsys.readouterr().out
    assert "Pharaoh campaign" in shown and "elf: health 8/8, gold 3" in shown
    steps = (tmp_path / "evening" / "campaign.jsonl").read_text().splitlines()[1:]
    assert [json.loads(line)["type"] for line in steps] == ["enter", "visit", "end-room"]

"""`automa capture` and `automa calibrate --photo` on synthetic phone photos of a battle.

Rules checked, through the commands as a player types them: an empty mat side is kept once and
used by later captures; a photo of the demo battle after the heroes moved finds every piece
where it stands (within 1 cm) and says how far each moved; `--apply` records one move per moved
piece, each undone on its own, and asks about a piece it did not find; `--out` writes a scenario
with the pieces where the photo shows them. Bad input records nothing: a file that is not an
image, a photo with two of the four cards in frame (naming them), an empty photo of another mat
side, the input ending before a doubt is settled. Calibration reads each disc's diameter to
0.5 mm.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from automa.catalog.capture import load_capture_settings
from automa.catalog.load import Catalog
from automa.cli.main import cli
from automa.photo.battle import battle_pieces
from automa.photo.model import DiscKind
from automa.scenario.load import load_scenario
from tests import photo_synth

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "examples" / "demo-battle.toml"
HEROES = ("barbarian", "elf", "wizard")
WITHIN_CM = 1.0


def run(*args: str, data: Path, answers: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data), *args], input=answers,
                              env={"AUTOMA_DATA_DIR": None})


def refused(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("automa: "), result.output
    for word in words:
        assert word in last, last


def flicked(rng: np.random.Generator, start: tuple[float, float], radius: float, width: float,
            length: float, taken: list[tuple[tuple[float, float], float]]
            ) -> tuple[float, float]:
    """Where a flicked disc stops: 3 to 15 cm from `start`, on the mat, 1 cm clear of others."""
    while True:
        distance, angle = rng.uniform(3.0, 15.0), rng.uniform(0, 2 * math.pi)
        x, y = start[0] + distance * math.cos(angle), start[1] + distance * math.sin(angle)
        if (radius + 1 <= x <= width - radius - 1 and radius + 1 <= y <= length - radius - 1
                and all(math.dist((x, y), at) >= radius + r + 1.0 for at, r in taken)):
            return (float(x), float(y))


class Table:
    """The demo battle on the Mausoleum, its heroes flicked to new places, photographed."""

    def __init__(self, root: Path, catalog: Catalog, seed: int) -> None:
        self.root = root
        self.data = root / "data"
        self.data.mkdir()
        self.scenario = load_scenario(DEMO, catalog)
        self.mat = self.scenario.playmat
        self.settings = load_capture_settings(None)
        rng = np.random.default_rng(seed)
        looked_for = battle_pieces(self.scenario.pieces, catalog)
        placed: list[photo_synth.SynthPiece] = []
        for piece in sorted(looked_for, key=lambda p: p.id in HEROES):
            assert piece.at is not None
            at = piece.at
            if piece.id in HEROES:  # flicked up to 15 cm, to a free place
                at = flicked(rng, piece.at, piece.disc.radius, self.mat.width,
                             self.mat.length, [(p.at, p.disc.radius) for p in placed])
            placed.append(photo_synth.SynthPiece(piece.id, piece.disc, at))
        self.truth = {p.id: p.at for p in placed}
        self.pieces = placed
        self.seed = seed

    def photo(self, name: str = "photo.jpg", **options: object) -> Path:
        shot = photo_synth.render(self.seed, self.mat.id, self.mat.width, self.mat.length,
                                  self.settings, self.pieces, photo_synth.Options(**options))
        path = self.root / name
        path.write_bytes(shot.jpeg)
        return path

    def empty(self, name: str = "empty.jpg", **options: object) -> Path:
        shot = photo_synth.empty(self.seed, self.mat.id, self.mat.width, self.mat.length,
                                 self.settings, photo_synth.Options(**options))
        path = self.root / name
        path.write_bytes(shot.jpeg)
        return path

    def keep_empty(self) -> None:
        kept = run("capture", "--empty", str(self.empty()), "--playmat", self.mat.id,
                   data=self.data)
        assert kept.exit_code == 0, kept.output
        assert (self.data / "capture" / f"empty-{self.mat.id}.png").is_file()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory, catalog: Catalog) -> Table:
    made = Table(tmp_path_factory.mktemp("capture"), catalog, seed=11)
    made.keep_empty()
    return made


def test_a_photo_finds_every_piece_where_it_stands(table: Table) -> None:
    result = run("capture", str(table.photo()), str(DEMO), "--json", data=table.data)
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["markers"] == [0, 1, 2, 3]
    assert found["missing"] == [] and found["unknown"] == []
    before = {p.id: p.at for p in table.scenario.pieces}
    assert {p["id"] for p in found["pieces"]} == set(table.truth)
    for piece in found["pieces"]:
        true = table.truth[piece["id"]]
        assert math.dist(piece["at"], true) < WITHIN_CM, piece
        assert piece["moved"] == pytest.approx(math.dist(before[piece["id"]], piece["at"]),
                                               abs=0.02)
        assert 0.0 <= piece["confidence"] <= 1.0


def test_apply_records_one_move_per_moved_piece_each_undone_alone(table: Table,
                                                                   tmp_path: Path) -> None:
    session = tmp_path / "s"
    assert run("new", str(DEMO), "--session", str(session), "--seed", "1",
               data=table.data).exit_code == 0
    done = run("capture", str(table.photo()), "--session", str(session), "--apply",
               data=table.data, answers="\n" * 20)  # Enter takes every piece as found
    assert done.exit_code == 0, done.output
    assert "Recorded 3 moves" in done.output
    status = json.loads(run("status", "--session", str(session), "--json",
                            data=table.data).output)
    for hero in HEROES:
        assert math.dist(status["pieces"][hero]["at"], table.truth[hero]) < WITHIN_CM
    logged = json.loads(run("log", "--session", str(session), "--json", data=table.data).output)
    moves = [entry for entry in logged["inputs"] if entry["type"] == "move"]
    assert sorted(m["piece"] for m in moves) == sorted(HEROES)
    assert run("undo", "--session", str(session), data=table.data).exit_code == 0
    status = json.loads(run("status", "--session", str(session), "--json",
                            data=table.data).output)
    moved_back = [h for h in HEROES if status["pieces"][h]["at"] == list(
        next(p.at for p in table.scenario.pieces if p.id == h))]
    assert len(moved_back) == 1  # one undo takes back one move


def test_a_piece_not_found_is_asked_about(table: Table, tmp_path: Path, catalog: Catalog) -> None:
    """The Wizard is taken off the table before the photo: --apply asks where it is."""
    session = tmp_path / "s"
    assert run("new", str(DEMO), "--session", str(session), "--seed", "1",
               data=table.data).exit_code == 0
    without = [p for p in table.pieces if p.id != "wizard"]
    shot = photo_synth.render(table.seed, table.mat.id, table.mat.width, table.mat.length,
                              table.settings, without)
    photo = tmp_path / "no-wizard.jpg"
    photo.write_bytes(shot.jpeg)
    ended = run("capture", str(photo), "--session", str(session), "--apply", data=table.data,
                answers="")
    refused(ended, "nothing was recorded")
    logged = json.loads(run("log", "--session", str(session), "--json", data=table.data).output)
    assert logged["inputs"] == []
    done = run("capture", str(photo), "--session", str(session), "--apply", data=table.data,
               answers="40,20\n" + "\n" * 20)  # the Wizard first, then Enter
    assert done.exit_code == 0, done.output
    assert "Wizard was not found" in done.output
    status = json.loads(run("status", "--session", str(session), "--json",
                            data=table.data).output)
    assert status["pieces"]["wizard"]["at"] == [40.0, 20.0]


def test_out_writes_the_scenario_as_photographed(table: Table, tmp_path: Path) -> None:
    out = tmp_path / "after.toml"
    done = run("capture", str(table.photo()), str(DEMO), "--out", str(out), data=table.data)
    assert done.exit_code == 0, done.output
    pieces = {p["id"]: p["at"] for p in tomllib.loads(out.read_text())["piece"]}
    for hero in HEROES:
        assert math.dist(pieces[hero], table.truth[hero]) < WITHIN_CM


def test_not_an_image_is_one_line(table: Table, tmp_path: Path) -> None:
    text = tmp_path / "notes.jpg"
    text.write_text("the heroes moved")
    refused(run("capture", str(text), str(DEMO), data=table.data), "notes.jpg", "image")


def test_two_cards_in_frame_are_named(table: Table, tmp_path: Path) -> None:
    """Cards 2 and 3 left in the box: the photo shows 0 and 1 only."""
    settings = table.settings
    shot = None
    for seed in range(table.seed, table.seed + 40):
        candidate = photo_synth.render(seed, table.mat.id, table.mat.width, table.mat.length,
                                       settings, table.pieces, photo_synth.Options(drop=2))
        if candidate.markers == (0, 1, 3):
            shot = candidate
            break
    assert shot is not None
    photo = tmp_path / "three.jpg"
    photo.write_bytes(shot.jpeg)
    assert run("capture", str(photo), str(DEMO), data=table.data).exit_code == 0
    # a card of the three covered by a sheet of paper: two left
    import cv2

    image = cv2.imdecode(np.frombuffer(shot.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert shot.camera is not None
    corners = shot.camera.project(np.array(
        [[*c, 0.0] for c in settings.corners(table.mat.width, table.mat.length)[3]]))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 20
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 20
    image[max(y0, 0):y1, max(x0, 0):x1] = 255
    ok, jpeg = cv2.imencode(".jpg", image)
    assert ok
    photo.write_bytes(jpeg.tobytes())
    refused(run("capture", str(photo), str(DEMO), data=table.data), "0, 1", "all four")


def test_an_empty_photo_of_another_side_is_refused(table: Table) -> None:
    other = table.empty("other.jpg", art_side="throne-room")
    refused(run("capture", str(table.photo()), str(DEMO), "--empty", str(other),
                data=table.data), "mat side")


def test_calibrate_writes_each_discs_diameter(tmp_path: Path, table: Table) -> None:
    """The command's way from photo to data folder: five discs laid apart in the mat's middle,
    as docs/capture.md says, each written as its size (the smallest disc the smallest size).
    The measuring's own accuracy is tests/test_photo_accuracy.py's."""
    sizes = {"extra-small": 0.97, "small": 1.13, "medium": 1.3, "large": 1.58,
             "extra-large": 2.04}
    spots = [(15.0, 30.0), (30.0, 30.0), (45.0, 30.0), (20.0, 55.0), (40.0, 55.0)]
    discs = [photo_synth.SynthPiece(size, DiscKind(size, radius, 1.0), at)
             for (size, radius), at in zip(sizes.items(), spots, strict=True)]
    shot = photo_synth.render(21, table.mat.id, table.mat.width, table.mat.length,
                              table.settings, discs,
                              photo_synth.Options(size=photo_synth.TWELVE_MP))  # full size
    photo = tmp_path / "discs.jpg"
    photo.write_bytes(shot.jpeg)
    out = tmp_path / "mine"
    empty = table.empty("empty-12mp.jpg", size=photo_synth.TWELVE_MP)
    done = run("calibrate", "--out", str(out), "--photo", str(photo), "--empty", str(empty),
               "--playmat", table.mat.id, data=table.data)
    assert done.exit_code == 0, done.output
    written = tomllib.loads((out / "components.toml").read_text())["disc"]
    assert set(written) == set(sizes)
    for size, radius in sizes.items():
        # measured within 0.5 mm, then written to the nearest 0.5 mm: 0.75 mm at most
        assert 2 * written[size]["radius"] == pytest.approx(2 * radius, abs=0.075), size
        assert round(written[size]["radius"] * 40) == written[size]["radius"] * 40  # 0.5 mm


@pytest.mark.parametrize("form", ["session", "scenario"])
def test_out_refuses_a_disc_no_piece_fits(table: Table, tmp_path: Path, form: str) -> None:
    """A disc 4.8 cm across, larger than any piece of the demo battle, lies on the mat: `--out`
    writes no scenario until it is gone from the photo, from a session as from a scenario."""
    photo = table.photo("stray.jpg", stray=DiscKind("stray", 2.4, 1.0))
    if form == "session":
        session = tmp_path / "s"
        assert run("new", str(DEMO), "--session", str(session), "--seed", "1",
                   data=table.data).exit_code == 0
        battle = ["--session", str(session)]
    else:
        battle = [str(DEMO)]
    out = tmp_path / "after.toml"
    refused(run("capture", str(photo), *battle, "--out", str(out), data=table.data),
            "stray.jpg", "fits no piece", "nothing was written")
    assert not out.exists()

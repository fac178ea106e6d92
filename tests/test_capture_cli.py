"""`automa capture` around the vision: which pieces a photo is read for, the moves a capture
proposes, its JSON, the command's arguments, the photo extra's absence, and the data it reads.

Rules checked: a piece is looked for as the disc its card names (a hero as a hero disc), at
its size's thickness; a rider, a devoured piece and a piece aloft are not looked for; a place
an asked battle never measured is not used. A piece found closer than `still` to where it
stood is not moved; one whose place before is unknown always is. Bad arguments, a missing
extra, a missing empty-mat view and a bad capture.toml each give one line and exit 2 (3 for
data). A disc's thickness is no battle's data: measuring it changes no session's digest.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from automa.catalog.capture import load_capture_settings
from automa.catalog.digests import data_changes, data_digests
from automa.catalog.load import Catalog, check_catalog, load_catalog
from automa.cli.main import cli
from automa.model.pieces import Condition
from automa.photo.battle import battle_pieces, capture_json, capture_moves, kept_empty
from automa.photo.model import Capture, FoundPiece, PhotoError, UnknownDisc
from automa.scenario.load import load_scenario

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "examples" / "demo-battle.toml"


def run(*args: str, data_dir: Path | None = None) -> Result:
    env = {"AUTOMA_DATA_DIR": str(data_dir) if data_dir else None}
    return CliRunner().invoke(cli, list(args), env=env)


def refused(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("automa: "), result.output
    for word in words:
        assert word in lines[0], lines[0]


def test_pieces_are_looked_for_as_their_cards_discs(catalog: Catalog) -> None:
    scenario = load_scenario(DEMO, catalog)
    looked_for = {p.id: p for p in battle_pieces(scenario.pieces, catalog)}
    rat = next(p for p in scenario.pieces if p.monster == "sewer-rat")
    assert looked_for[rat.id].disc.size == "extra-small"
    assert looked_for["barbarian"].disc.size == "hero"
    for piece in scenario.pieces:
        kind = looked_for[piece.id].disc
        assert kind.radius == piece.radius
        assert kind.thickness == catalog.components.disc_thickness[kind.size]
        assert looked_for[piece.id].at == piece.at


def test_riders_devoured_and_aloft_are_not_looked_for(catalog: Catalog) -> None:
    scenario = load_scenario(DEMO, catalog)
    pieces = list(scenario.pieces)
    for i, condition in enumerate((Condition.RIDING, Condition.DEVOURED, Condition.ALOFT)):
        pieces[i] = pieces[i].altered(conditions=frozenset({condition}))
    ids = {p.id for p in battle_pieces(pieces, catalog)}
    assert ids == {p.id for p in pieces[3:]}


def test_an_unmeasured_place_is_not_used(catalog: Catalog) -> None:
    scenario = load_scenario(DEMO, catalog)
    looked_for = {p.id: p for p in battle_pieces(scenario.pieces, catalog, {"elf": None})}
    assert looked_for["elf"].at is None
    assert looked_for["barbarian"].at is not None


def _capture(*moved: float | None) -> Capture:
    return Capture((0, 1, 2, 3), tuple(FoundPiece(f"p{i}", (10.0 + i, 20.0), m, 0.9)
                                       for i, m in enumerate(moved)), ("gone",),
                   (UnknownDisc((5.0, 6.0), 2.0),))


def test_a_piece_moves_when_it_moved_at_least_still_or_its_place_was_unknown() -> None:
    settings = load_capture_settings(None)
    moves = capture_moves(_capture(settings.still - 0.01, settings.still, 4.0, None), settings)
    assert [m.piece for m in moves] == ["p1", "p2", "p3"]
    assert moves[0].to == (11.0, 20.0)


def test_the_json_holds_the_contracts_keys() -> None:
    data = capture_json(_capture(0.123456, None))
    assert set(data) == {"markers", "pieces", "missing", "unknown"}
    assert data["pieces"][0] == {"id": "p0", "at": [10.0, 20.0], "moved": 0.12,
                                 "confidence": 0.9}
    assert data["pieces"][1]["moved"] is None
    assert data["missing"] == ["gone"]
    assert data["unknown"] == [{"at": [5.0, 6.0], "radius": 2.0}]


@pytest.mark.parametrize(("args", "words"), [
    ((), ("PHOTO",)),
    (("photo.jpg",), ("--session", "SCENARIO")),
    (("photo.jpg", "battle.toml", "--session", "s"), ("one of them",)),
    (("photo.jpg", "battle.toml", "--apply"), ("--apply", "--session")),
    (("photo.jpg", "--session", "s", "--apply", "--out", "x.toml"), ("one of them",)),
    (("--playmat", "mausoleum"), ("--empty",)),
    (("photo.jpg", "--empty", "e.jpg", "--playmat", "mausoleum"), ("nothing else",)),
])
def test_bad_arguments_are_one_line(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    refused(run("capture", *args), *words)


def test_an_unknown_mat_side_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"\xff\xd8 not really")
    refused(run("capture", "--empty", str(empty), "--playmat", "mausoleun"),
            "mausoleun", "no such playmat")


def test_without_the_extra_the_photo_commands_say_how_to_install_it(tmp_path: Path) -> None:
    """cv2 made unimportable in a child process, as if the extra were not installed."""
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"x")
    code = ("import sys; sys.modules['cv2'] = None; sys.argv = ['automa', 'capture', "
            f"{str(photo)!r}, {str(DEMO)!r}]; from automa.cli.entry import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "automa: the photo commands need the photo extra (cv2 is not installed): "
        "pip install 'catacombs-automa[photo]'"]


def test_no_kept_empty_view_says_how_to_keep_one(tmp_path: Path, catalog: Catalog,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    mat = catalog.playmats["mausoleum"]
    with pytest.raises(PhotoError, match="automa capture --empty PHOTO --playmat mausoleum"):
        kept_empty(mat, load_capture_settings(None), catalog)


def test_a_photo_that_is_not_there_is_named_before_the_empty_view(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # no empty view kept either
    refused(run("capture", str(tmp_path / "IMG_0042.jpg"), str(DEMO)),
            "photo", "IMG_0042.jpg", "cannot be read")


def test_a_bad_capture_file_is_named_by_data_check(tmp_path: Path) -> None:
    (tmp_path / "capture.toml").write_text('[marker.2]\ncorner = "hero-middle"\n'
                                           'offset = [4.0, 4.0]\nprovenance = "house"\n')
    problems = check_catalog(tmp_path)
    assert [(Path(p.file).name, p.record, p.field) for p in problems] == [
        ("capture.toml", "marker.2", "corner")]
    (tmp_path / "capture.toml").write_text('[marker.1]\ncorner = "hero-right"\n'
                                           'offset = [400.0, -4.0]\nprovenance = "house"\n')
    assert "within 50 cm" in str(check_catalog(tmp_path)[0])


def test_your_own_card_places_are_used(tmp_path: Path) -> None:
    (tmp_path / "capture.toml").write_text('[marker.0]\ncorner = "hero-left"\n'
                                           'offset = [-6.0, -3.0]\nprovenance = "house"\n')
    settings = load_capture_settings(tmp_path)
    assert settings.corners(60.0, 90.0)[0][0] == (-8.5, -0.5)  # its top-left corner
    assert settings.cards[1].offset == (4.0, -4.0)  # the others as shipped


def test_measuring_a_discs_thickness_changes_no_battles_data(tmp_path: Path) -> None:
    records = {"playmats.toml": ("mausoleum",)}
    before = data_digests(None, records)
    (tmp_path / "components.toml").write_text('[disc.hero]\nradius = 1.25\nthickness = 0.8\n'
                                              'provenance = "house"\n')
    assert load_catalog(tmp_path).components.disc_thickness["hero"] == 0.8
    assert data_changes(before, tmp_path) == []
    (tmp_path / "components.toml").write_text('[disc.hero]\nradius = 1.3\nthickness = 0.8\n'
                                              'provenance = "house"\n')
    assert data_changes(before, tmp_path) != []

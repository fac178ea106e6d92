"""Bad input to the photo capture (issue 29, point 7): one PhotoError line that names the file
and says what to do, never a traceback, for a file that is not an image, a photo of
something else, too few marker cards, and an empty-mat photo of another mat side."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from automa.catalog.capture import load_capture_settings
from automa.errors import InputError
from automa.model.capture import CaptureSettings
from automa.photo.model import PhotoError
from automa.photo.pipeline import empty_top_view, read_capture, read_empty, write_empty
from tests import photo_synth as ps

W, L = 60.0, 90.0


@pytest.fixture(scope="module")
def settings() -> CaptureSettings:
    return load_capture_settings(None)


def png(pixels: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue()


def one_line(error: pytest.ExceptionInfo[PhotoError], where: str) -> str:
    text = str(error.value)
    assert "\n" not in text and text.startswith(f"{where}: ")
    assert isinstance(error.value, InputError)
    return text


@pytest.mark.parametrize(("data", "words"), [
    (b"", "empty"),
    (b"Positions from a photo: not one.\n" * 20, "not an image"),
    (b"\x89PNG\r\n\x1a\n" + b"\0" * 40, "not an image"),
])
def test_a_file_that_is_no_image_is_one_line(settings: CaptureSettings, data: bytes,
                                             words: str) -> None:
    with pytest.raises(PhotoError) as error:
        empty_top_view(data, "board.jpg", settings, W, L)
    assert words in one_line(error, "board.jpg")


def test_a_photo_cut_short_is_one_line(settings: CaptureSettings) -> None:
    photo = ps.empty(1, "altar", W, L, settings).jpeg
    with pytest.raises(PhotoError) as error:
        empty_top_view(photo[: len(photo) // 2], "cut.jpg", settings, W, L)
    assert "damaged or cut short" in one_line(error, "cut.jpg")


def test_a_picture_too_small_to_hold_the_cards_is_refused(settings: CaptureSettings) -> None:
    tiny = png(np.full((120, 160, 3), 200, np.uint8))
    with pytest.raises(PhotoError) as error:
        empty_top_view(tiny, "tiny.png", settings, W, L)
    assert "too small" in one_line(error, "tiny.png")


@pytest.mark.parametrize("side", [9_000, 14_000])  # 81 MP: our bar; 196 MP: Pillow refuses
def test_a_picture_too_large_for_a_photo_is_refused(settings: CaptureSettings, side: int) -> None:
    out = io.BytesIO()
    Image.new("L", (side, side)).save(out, format="PNG")  # a few kB: a decompression bomb
    with pytest.raises(PhotoError) as error:
        empty_top_view(out.getvalue(), "bomb.png", settings, W, L)
    assert "too large" in one_line(error, "bomb.png")


def test_a_photo_of_something_else_names_the_missing_cards(settings: CaptureSettings) -> None:
    noise = np.random.default_rng(3).integers(0, 256, (900, 1200, 3), dtype=np.uint8)
    with pytest.raises(PhotoError) as error:
        empty_top_view(png(noise), "cat.png", settings, W, L)
    text = one_line(error, "cat.png")
    assert "no marker cards" in text and "automa markers" in text


def test_two_cards_only_says_which_were_seen(settings: CaptureSettings) -> None:
    photo = ps.render(4, "altar", W, L, settings, (), ps.Options(hidden=(1, 3)))
    with pytest.raises(PhotoError) as error:
        empty_top_view(photo.jpeg, "two.jpg", settings, W, L)
    text = one_line(error, "two.jpg")
    assert "markers seen: 0, 2;" in text and "all four" in text


def test_three_cards_are_enough(settings: CaptureSettings) -> None:
    photo = ps.render(5, "altar", W, L, settings, (), ps.Options(drop=2))
    assert photo.markers == (0, 1, 3)
    top = empty_top_view(photo.jpeg, "three.jpg", settings, W, L)
    assert top.dtype == np.uint8 and top.ndim == 3


def test_an_empty_mat_of_another_side_is_refused(settings: CaptureSettings) -> None:
    kinds = ps.data_kinds()
    case = ps.trial(21, settings, kinds, W, L, with_empty=False)
    other = next(side for side in ps.SIDES if side != case.side)
    blank = ps.empty(22, other, W, L, settings)
    empty = empty_top_view(blank.jpeg, "empty.jpg", settings, W, L)
    with pytest.raises(PhotoError) as error:
        read_capture(case.photo.jpeg, "photo.jpg", empty, settings, W, L, case.before)
    assert "not of this mat side" in one_line(error, "photo.jpg")


def test_an_empty_view_kept_for_another_mat_size_is_refused(settings: CaptureSettings) -> None:
    photo = ps.empty(6, "altar", W, L, settings)
    kept = empty_top_view(photo.jpeg, "empty.jpg", settings, W, L)
    with pytest.raises(PhotoError) as error:
        read_capture(photo.jpeg, "photo.jpg", kept[:-10], settings, W, L, ())
    assert "another mat size" in one_line(error, "photo.jpg")


def test_a_kept_empty_view_survives_its_png_and_a_damaged_one_is_one_line(
        settings: CaptureSettings) -> None:
    photo = ps.empty(8, "altar", W, L, settings)
    kept = empty_top_view(photo.jpeg, "empty.jpg", settings, W, L)
    assert np.array_equal(read_empty(write_empty(kept), "altar.png"), kept)
    with pytest.raises(PhotoError) as error:
        read_empty(b"not a png", "altar.png")
    assert "automa capture --empty" in one_line(error, "altar.png")

"""Pages drawn at true size (the check sheet, the marker cards) written as the player names the
file: FILE.pdf, one document; FILE.svg, one file per page (FILE.svg, FILE-2.svg, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from automa.render.check_sheet import Shape

KINDS = (".pdf", ".svg")


def check_sheet_name(path: Path, option: str) -> None:
    """A name the pages can be written as, or one line saying how to name it."""
    from automa.errors import InputError

    if path.suffix.lower() not in KINDS:
        raise InputError(f"{option} {path}: name it FILE.pdf (one document) or FILE.svg (one "
                         f"file per page)")


def write_pages(path: Path, pages: Sequence[list[Shape]], paper: str) -> str:
    """Write the pages atomically; the files written and the pages, in words."""
    from automa.render.check_sheet import page_svg
    from automa.render.pdf_sheet import sheet_pdf
    from automa.storage import atomic_write_bytes

    if path.suffix.lower() == ".pdf":
        atomic_write_bytes(path, sheet_pdf(list(pages), paper))
        written = [str(path)]
    else:
        written = []
        for number, shapes in enumerate(pages, start=1):
            target = path if number == 1 else path.with_name(
                f"{path.stem}-{number}{path.suffix}")
            atomic_write_bytes(target, page_svg(shapes, paper).encode("utf-8"))
            written.append(str(target))
    count = len(pages)
    return f"{', '.join(written)} ({paper.upper()}, {count} page{'s' if count > 1 else ''})"

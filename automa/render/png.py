"""Pictures as PNG, through the optional cairosvg (`pip install 'catacombs-automa[png]'`)."""

from __future__ import annotations

from pathlib import Path

from automa.errors import InputError

PNG_EXTRA = "pip install 'catacombs-automa[png]'"
PNG_SCALE = 2.0  # pixels per SVG pixel: sharp enough to zoom into a crowded corner


def output_kind(path: Path, allowed: tuple[str, ...], option: str) -> str:
    """The file kind a path's suffix asks for, or one line refusing it."""
    kind = path.suffix.lower().lstrip(".")
    if kind not in allowed:
        wanted = " or ".join(f".{a}" for a in allowed)
        raise InputError(f"{option} {path}: write a {wanted} file")
    return kind


def png_bytes(svg: str) -> bytes:
    """The SVG drawn as a PNG; one line naming the extra when cairosvg is not installed."""
    try:
        import cairosvg
    except (ImportError, OSError):  # OSError: the cairo library itself is missing
        raise InputError(f"a PNG needs cairosvg: {PNG_EXTRA} (or write .svg)") from None
    data = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=PNG_SCALE)
    assert isinstance(data, bytes)
    return data

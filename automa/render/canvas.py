"""The picture's frame: mat coordinates (cm) to SVG pixels, the margin round the mat and the
legend's panel, and the parts drawn so far. The mat (svg.py), an activation's overlay
(overlays.py), the legend (legend.py) and the threat map (threat_svg.py) all draw on one."""

from __future__ import annotations

from msgspec import Struct, field

from automa.model.playmat import Playmat
from automa.render.labels import PAD, Box, label_size
from automa.render.markup import esc

SCALE = 10.0  # px per cm
MARGIN = 60.0  # px around the mat: grid labels, and a Clock template hanging over the edge
LEGEND_WIDTH = 300.0  # px, the panel right of the mat
Point = tuple[float, float]


class Canvas(Struct):
    """Mat coordinates (cm, y toward the Monster Start Zone) to SVG pixels (y down)."""

    mat: Playmat
    parts: list[str] = field(default_factory=list)
    blocked: list[Box] = field(default_factory=list)  # text already drawn: labels keep clear
    below: float = 0.0  # px under the bottom margin (asked geometry's tray: render/tray.py)

    @property
    def width(self) -> float:
        return self.mat.width * SCALE + 2 * MARGIN + LEGEND_WIDTH

    @property
    def height(self) -> float:
        return self.mat.length * SCALE + 2 * MARGIN + self.below

    @property
    def mat_box(self) -> Box:
        return Box(self.x(0), self.y(self.mat.length), self.x(self.mat.width), self.y(0))

    def x(self, value: float) -> float:
        return round(MARGIN + value * SCALE, 2)

    def y(self, value: float) -> float:
        return round(MARGIN + (self.mat.length - value) * SCALE, 2)

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, words: str, size: float = 12, fill: str = "#333",
             anchor: str = "start", extra: str = "", block: bool = True) -> None:
        """Text whose baseline starts (or is centred) at x, y; its box blocks labels."""
        width, height = label_size(words, size)
        left = {"start": x - PAD, "middle": x - width / 2, "end": x - width + PAD}[anchor]
        if block:
            self.blocked.append(Box(left, y - size - PAD, left + width, y - size - PAD + height))
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" fill="{fill}" '
                 f'text-anchor="{anchor}"{extra}>{esc(words)}</text>')

    def svg(self, title: str) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" '
                f'height="{self.height:.0f}" viewBox="0 0 {self.width:.0f} {self.height:.0f}" '
                f'font-family="DejaVu Sans, Verdana, sans-serif" data-scale="{SCALE}" '
                f'data-margin="{MARGIN}" data-length="{self.mat.length}">')
        return "\n".join([head, f"<title>{esc(title)}</title>",
                          f'<rect width="{self.width:.0f}" height="{self.height:.0f}" '
                          f'fill="#fff"/>', *self.parts, "</svg>"]) + "\n"

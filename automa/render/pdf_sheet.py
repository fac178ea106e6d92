"""The check sheet's pages as one PDF, written by hand: lines, circles, filled rectangles and
Helvetica text.

Each page's MediaBox is its paper in points (1/72 in), and every length is converted from mm
exactly, so the PDF prints at true size at 100 %. The content streams are left uncompressed.
"""

from __future__ import annotations

from automa.render.check_sheet import PAPERS, Circle, Line, Rect, Shape, Text

PT = 72 / 25.4  # points per mm
KAPPA = 0.5522847498  # Bezier handle length for a quarter circle, as a share of the radius


def _n(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _string(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _width(text: str, size: float) -> float:
    """Helvetica: digits are 0.556 em; other glyphs are near 0.5 em on average."""
    return sum(0.556 if c.isdigit() else 0.5 for c in text) * size


def _content(shapes: list[Shape], height: float) -> bytes:
    def xy(x: float, y: float) -> str:
        return f"{_n(x * PT)} {_n((height - y) * PT)}"

    ops: list[bytes] = [b"0 G 0 g 1 J"]
    for shape in shapes:
        if isinstance(shape, Text):
            x = shape.x - (_width(shape.text, shape.size) / 2 if shape.middle else 0)
            ops.append(f"BT /F1 {_n(shape.size * PT)} Tf {xy(x, shape.y)} Td ".encode()
                       + _string(shape.text) + b" Tj ET")
        elif isinstance(shape, Rect):
            grey = min(max(shape.grey, 0.0), 1.0)
            ops.append(f"{_n(grey)} g {xy(shape.left, shape.top + shape.height)} "
                       f"{_n(shape.width * PT)} {_n(shape.height * PT)} re f 0 g".encode())
        elif isinstance(shape, Circle):
            cx, cy, r, k = shape.cx, shape.cy, shape.r, shape.r * KAPPA
            ops.append(f"{_n(shape.width * PT)} w 0 G [] 0 d {xy(cx + r, cy)} m "
                       f"{xy(cx + r, cy + k)} {xy(cx + k, cy + r)} {xy(cx, cy + r)} c "
                       f"{xy(cx - k, cy + r)} {xy(cx - r, cy + k)} {xy(cx - r, cy)} c "
                       f"{xy(cx - r, cy - k)} {xy(cx - k, cy - r)} {xy(cx, cy - r)} c "
                       f"{xy(cx + k, cy - r)} {xy(cx + r, cy - k)} {xy(cx + r, cy)} c S"
                       .encode())
        elif isinstance(shape, Line):
            style = f"0.53 G [{_n(PT)} {_n(PT)}] 0 d" if shape.grey else "0 G [] 0 d"
            ops.append(f"{_n(shape.width * PT)} w {style} {xy(shape.x1, shape.y1)} m "
                       f"{xy(shape.x2, shape.y2)} l S".encode())
    return b"\n".join(ops) + b"\n"


def sheet_pdf(pages: list[list[Shape]], paper: str) -> bytes:
    """A PDF 1.4 document of the pages."""
    width, height = PAPERS[paper]
    count = len(pages)
    page_ids = [4 + 2 * i for i in range(count)]
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + b" ".join(f"{i} 0 R".encode() for i in page_ids)
        + f"] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for page_id, shapes in zip(page_ids, pages, strict=True):
        stream = _content(shapes, height)
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_n(width * PT)} "
                       f"{_n(height * PT)}] /Resources << /Font << /F1 3 0 R >> >> "
                       f"/Contents {page_id + 1} 0 R >>".encode())
        objects.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream
                       + b"endstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
            .encode())
    return bytes(out)

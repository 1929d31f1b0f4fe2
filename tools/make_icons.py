"""Draw the home-screen icons (static/icon-192.png, static/icon-512.png) with the standard library.

The app's logo, a domino showing five and one, ivory on the table's felt. The felt fills the
whole square with the tile inside the middle 80%, so the icon also works when a phone masks it
to a circle ("maskable"). Run from the repository root: ``python3 tools/make_icons.py``.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

FELT = (0x17, 0x43, 0x2F)
IVORY = (0xFF, 0xFD, 0xF5)
INK = (0x17, 0x43, 0x2F)
SAMPLES = 3  # per pixel and axis: edges are smoothed by averaging 9 samples

# In units of the logo's own 22 × 42 box (templates/_logo.html), centred in the icon.
TILE = (1.0, 1.0, 21.0, 41.0, 4.0)  # x0, y0, x1, y1, corner radius
BORDER = 2.0
DIVIDER = (4.0, 20.0, 18.0, 22.0)
PIPS = [(6, 6, 2), (16, 6, 2), (11, 11, 2), (6, 16, 2), (16, 16, 2), (11, 31, 2.6)]


def _in_rounded(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _colour(x: float, y: float) -> tuple[int, int, int]:
    """The colour at a point of the logo's box (outside it: felt)."""
    x0, y0, x1, y1, r = TILE
    if not _in_rounded(x, y, x0, y0, x1, y1, r):
        return FELT
    inner = _in_rounded(x, y, x0 + BORDER, y0 + BORDER, x1 - BORDER, y1 - BORDER, r - BORDER / 2)
    if not inner:
        return INK
    dx0, dy0, dx1, dy1 = DIVIDER
    if dx0 <= x <= dx1 and dy0 <= y <= dy1:
        return INK
    for px, py, pr in PIPS:
        if (x - px) ** 2 + (y - py) ** 2 <= pr * pr:
            return INK
    return IVORY


def draw(size: int) -> bytes:
    scale = size * 0.72 / 42  # the tile is 72% of the icon's height: inside the safe zone
    left = (size - 22 * scale) / 2
    top = (size - 42 * scale) / 2
    rows = []
    for j in range(size):
        row = bytearray([0])  # PNG filter: none
        for i in range(size):
            total = [0, 0, 0]
            for sj in range(SAMPLES):
                for si in range(SAMPLES):
                    x = (i + (si + 0.5) / SAMPLES - left) / scale
                    y = (j + (sj + 0.5) / SAMPLES - top) / scale
                    for k, v in enumerate(_colour(x, y)):
                        total[k] += v
            row.extend(round(v / SAMPLES**2) for v in total)
        rows.append(bytes(row))
    return _png(size, b"".join(rows))


def _png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    static = Path(__file__).resolve().parent.parent / "static"
    for size in (192, 512):
        (static / f"icon-{size}.png").write_bytes(draw(size))
        print(f"static/icon-{size}.png")

"""The static site's app icons, drawn from this source (no image files in the repository, nothing fetched).

One design, a 4x4 board of letter tiles on the page's accent colour, as SVG text (`ICON_SVG`, shipped as
static/icon.svg) and as PNGs of any size (written by a small PNG encoder here), which the web app manifest
lists: an installable page needs 192 and 512 pixel PNGs on most phones.
"""

from __future__ import annotations

import struct
import zlib

ACCENT = (0x1F, 0x5F, 0xBF)  # the page's --accent (style.css)
TILE = (0xF5, 0xF0, 0xE1)
MARK = (0xE0, 0x8A, 0x1E)  # one tile in another colour: the first letter of a word
GRID = 4
MARGIN = 0.14  # of the side, around the board (inside a maskable icon's safe zone)
GAP = 0.035

ICON_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<rect width="100" height="100" fill="#1f5fbf"/>
{tiles}
</svg>
"""


def _tiles(side: float) -> list[tuple[float, float, float, tuple[int, int, int]]]:
    """(x, y, size, colour) of each tile on a square of `side`."""
    inner = side * (1 - 2 * MARGIN)
    gap = side * GAP
    size = (inner - gap * (GRID - 1)) / GRID
    out = []
    for r in range(GRID):
        for c in range(GRID):
            x = side * MARGIN + c * (size + gap)
            y = side * MARGIN + r * (size + gap)
            out.append((x, y, size, MARK if (r, c) == (1, 1) else TILE))
    return out


def icon_svg() -> str:
    """The icon as SVG text."""
    rects = [
        f'<rect x="{x:.2f}" y="{y:.2f}" width="{s:.2f}" height="{s:.2f}" rx="{s * 0.12:.2f}" '
        f'fill="#{col[0]:02x}{col[1]:02x}{col[2]:02x}"/>'
        for x, y, s, col in _tiles(100)
    ]
    return ICON_SVG.format(tiles="\n".join(rects))


def icon_png(side: int) -> bytes:
    """The icon as a `side` x `side` RGB PNG (square tiles: the SVG's corners are rounded)."""
    pixels = [bytearray(bytes(ACCENT) * side) for _ in range(side)]
    for x, y, s, col in _tiles(side):
        x0, y0, x1, y1 = round(x), round(y), round(x + s), round(y + s)
        for row in pixels[y0:y1]:
            row[3 * x0 : 3 * x1] = bytes(col) * (x1 - x0)
    raw = b"".join(b"\0" + bytes(row) for row in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")

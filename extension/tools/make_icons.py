"""Draw the toolbar icons (no image library needed): lines of text with one link block struck out.

Run once after changing the design: ``python3 extension/tools/make_icons.py``.
"""

import struct
import zlib
from pathlib import Path

BLUE = (21, 101, 192, 255)
WHITE = (255, 255, 255, 255)
PINK = (216, 27, 96, 255)
CLEAR = (0, 0, 0, 0)


def pixel(x: float, y: float) -> tuple[int, int, int, int]:
    """Colour at (x, y) in the unit square."""
    r = 0.18  # corner radius
    cx = min(max(x, r), 1 - r)
    cy = min(max(y, r), 1 - r)
    if (x - cx) ** 2 + (y - cy) ** 2 > r * r:
        return CLEAR
    lines = [(0.22, 0.30, 0.78), (0.40, 0.48, 0.78), (0.58, 0.66, 0.56)]
    for top, bottom, right in lines:
        if top <= y <= bottom and 0.22 <= x <= right:
            return WHITE
    if 0.72 <= y <= 0.84 and 0.62 <= x <= 0.84:
        return PINK
    return BLUE


def png(size: int) -> bytes:
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            # 4x4 supersampling for smooth corners
            acc = [0, 0, 0, 0]
            for sj in range(4):
                for si in range(4):
                    c = pixel((i + (si + 0.5) / 4) / size, (j + (sj + 0.5) / 4) / size)
                    for k in range(4):
                        acc[k] += c[k]
            row.extend(v // 16 for v in acc)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = Path(__file__).resolve().parent.parent / "icons"
    for size in (16, 32, 48, 128):
        (out / f"icon-{size}.png").write_bytes(png(size))

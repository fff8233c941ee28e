"""Where things are on the table: hex <-> pixel conversion and the labelled table areas.

Vocabulary from Red Blob Games' hex-grid guide: axial coordinates (q, r), pointy-top hexagons,
`size` = centre-to-corner distance. The world decides which face of a tile looks along which
axial direction; the app only needs the screen angle of each direction to draw the LEDs.
"""

import math

SQRT3 = math.sqrt(3.0)

# Axial directions of a pointy-top grid, clockwise on screen (y grows downwards), from east.
# Direction index d points at screen angle d * 60 degrees.
DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def direction_angle(d: int) -> float:
    """Screen angle (radians, clockwise from east) of axial direction index d."""
    return math.radians(60.0 * (d % 6))


def cube_round(qf: float, rf: float) -> tuple:
    """Round fractional axial coordinates to the nearest hex (the guide's cube rounding)."""
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return int(q), int(r)


def hex_distance(a: tuple, b: tuple) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


class HexLayout:
    """Pointy-top hex grid with its (0, 0) cell centred on pixel `origin`."""

    def __init__(self, size: float, origin: tuple):
        self.size = float(size)
        self.origin = (float(origin[0]), float(origin[1]))

    def to_pixel(self, q: float, r: float) -> tuple:
        x = self.size * (SQRT3 * q + SQRT3 / 2.0 * r) + self.origin[0]
        y = self.size * (1.5 * r) + self.origin[1]
        return x, y

    def to_fractional_hex(self, x: float, y: float) -> tuple:
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        return SQRT3 / 3.0 * px - py / 3.0, 2.0 / 3.0 * py

    def to_hex(self, x: float, y: float) -> tuple:
        return cube_round(*self.to_fractional_hex(x, y))

    def corners(self, x: float, y: float, scale: float = 1.0) -> list:
        """The six corners of the hexagon centred on (x, y), clockwise from the upper right."""
        s = self.size * scale
        out = []
        for i in range(6):
            a = math.radians(60.0 * i - 30.0)
            out.append((x + s * math.cos(a), y + s * math.sin(a)))
        return out

    def cells_in_rect(self, rect: tuple) -> list:
        """Axial cells whose centres lie inside rect (x, y, w, h), sorted for determinism."""
        x0, y0, w, h = rect
        cells = set()
        for px, py in ((x0, y0), (x0 + w, y0), (x0, y0 + h), (x0 + w, y0 + h)):
            cells.add(self.to_hex(px, py))
        qs = [c[0] for c in cells]
        rs = [c[1] for c in cells]
        out = []
        for r in range(min(rs) - 1, max(rs) + 2):
            for q in range(min(qs) - 2 - abs(r), max(qs) + 2 + abs(r)):
                cx, cy = self.to_pixel(q, r)
                if x0 <= cx <= x0 + w and y0 <= cy <= y0 + h:
                    out.append((q, r))
        return sorted(out, key=lambda c: (c[1], c[0]))


class Area:
    """A labelled region of the table (hand, jungle, gem board, discard)."""

    def __init__(self, name: str, label: str, rect: tuple):
        self.name = name
        self.label = label
        self.rect = rect

    def contains(self, x: float, y: float) -> bool:
        x0, y0, w, h = self.rect
        return x0 <= x < x0 + w and y0 <= y < y0 + h


class Table:
    """The play area left of the side panel: a hex grid and the five labelled areas.

    Hand B sits at the top (the far player), hand A at the bottom, the jungle in the middle
    with the gem board to its right and the discard pile at the far right.
    """

    def __init__(self, width: int, height: int, size: float = 30.0):
        self.width = width
        self.height = height
        self.layout = HexLayout(size, (width / 2.0, height / 2.0))
        band = int(size * 3.6)
        margin = 12
        mid_top = band + 2 * margin
        mid_h = height - 2 * band - 4 * margin
        third = (width - 4 * margin) // 3
        hand_w = min(width - 2 * margin, int(size * 14))
        hx = (width - hand_w) // 2
        self.areas = [
            Area("hand_b", "Hand B (far player)", (hx, margin, hand_w, band)),
            Area("jungle", "Jungle", (margin, mid_top, third + 40, mid_h)),
            Area("board", "Gem board", (2 * margin + third + 40, mid_top, third - 20, mid_h)),
            Area("discard", "Discard", (3 * margin + 2 * third + 20, mid_top, third - 20, mid_h)),
            Area("hand_a", "Hand A (near player)", (hx, height - band - margin, hand_w, band)),
        ]

    def area(self, name: str) -> Area:
        for a in self.areas:
            if a.name == name:
                return a
        raise KeyError(name)

    def area_at(self, x: float, y: float):
        for a in self.areas:
            if a.contains(x, y):
                return a
        return None

    def area_of_cell(self, q: int, r: int):
        return self.area_at(*self.layout.to_pixel(q, r))

    def centre_cell(self, name: str) -> tuple:
        x0, y0, w, h = self.area(name).rect
        return self.layout.to_hex(x0 + w / 2.0, y0 + h / 2.0)

    def on_table(self, q: int, r: int) -> bool:
        x, y = self.layout.to_pixel(q, r)
        s = self.layout.size
        return s * 0.8 <= x <= self.width - s * 0.8 and s <= y <= self.height - s

"""Where things are on the table: hex <-> pixel conversion and the labelled table areas.

Vocabulary from Red Blob Games' hex-grid guide: axial coordinates (q, r), `size` = centre-to-
corner distance. The grid is the world's (simulator.world.grid): flat-top hexagons, direction 0
north and directions clockwise, face f of a tile with rotation rot looking along direction
(f + rot) % 6. The app only adds pixels: where a cell is, and the screen angle of a direction.
"""

import math

from simulator.world.grid import DIRECTIONS, face_direction

SQRT3 = math.sqrt(3.0)

__all__ = ["DIRECTIONS", "Area", "HexLayout", "Table", "face_direction"]


def direction_angle(d: int) -> float:
    """Screen angle (radians, clockwise from east, y down) of world direction d (0 = north)."""
    return math.radians(-90.0 + 60.0 * (d % 6))


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
    """Flat-top hex grid with its (0, 0) cell centred on pixel `origin`."""

    def __init__(self, size: float, origin: tuple):
        self.size = float(size)
        self.origin = (float(origin[0]), float(origin[1]))

    def to_pixel(self, q: float, r: float) -> tuple:
        x = self.size * 1.5 * q + self.origin[0]
        y = self.size * SQRT3 * (r + q / 2.0) + self.origin[1]
        return x, y

    def to_fractional_hex(self, x: float, y: float) -> tuple:
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        return 2.0 / 3.0 * px, -px / 3.0 + SQRT3 / 3.0 * py

    def to_hex(self, x: float, y: float) -> tuple:
        return cube_round(*self.to_fractional_hex(x, y))

    def corners(self, x: float, y: float, scale: float = 1.0) -> list:
        """The six corners of the hexagon centred on (x, y), clockwise from the east corner."""
        s = self.size * scale
        return [
            (x + s * math.cos(math.radians(60.0 * i)), y + s * math.sin(math.radians(60.0 * i)))
            for i in range(6)
        ]

    def cells_in_rect(self, rect: tuple) -> list:
        """Axial cells whose centres lie inside rect (x, y, w, h), sorted for determinism."""
        x0, y0, w, h = rect
        q0, _ = self.to_hex(x0, y0)
        q1, _ = self.to_hex(x0 + w, y0)
        out = []
        for q in range(q0 - 1, q1 + 2):
            _, r0 = self.to_hex(self.to_pixel(q, 0)[0], y0)
            _, r1 = self.to_hex(self.to_pixel(q, 0)[0], y0 + h)
            for r in range(r0 - 1, r1 + 2):
                cx, cy = self.to_pixel(q, r)
                if x0 <= cx <= x0 + w and y0 <= cy <= y0 + h:
                    out.append((q, r))
        return sorted(out, key=lambda c: (c[1], c[0]))


LABEL_PX = 30  # an area's label strip: tiles are kept off it


class Area:
    """A labelled region of the table (hand, jungle, gem board, discard)."""

    def __init__(self, name: str, label: str, rect: tuple, label_px: int = LABEL_PX):
        self.name = name
        self.label = label
        self.rect = rect
        self.label_px = label_px

    def label_strip(self) -> tuple:
        """The rect (x, y, w, h) across the area's top that its label is written in."""
        x0, y0, w, _ = self.rect
        return (x0, y0, w, self.label_px)

    def contains(self, x: float, y: float) -> bool:
        x0, y0, w, h = self.rect
        return x0 <= x < x0 + w and y0 <= y < y0 + h


class Table:
    """The play area left of the side panel: a hex grid and the labelled areas the game's table
    holds (`areas(width, height, size, margin, label_px)` -> [(name, label, rect)], from the
    game's host module: simulator.games). Without one, the default game's table. The first area
    is where the starting cluster lies (`start_area`).
    """

    def __init__(
        self, width: int, height: int, size: float = 30.0, label_px: int = LABEL_PX, areas=None
    ):
        self.width = width
        self.height = height
        self.label_px = label_px  # the height of an area's label strip
        self.layout = HexLayout(size, (width / 2.0, height / 2.0))
        if areas is None:
            from simulator.games import host_game

            areas = host_game().table_areas
        margin = 12
        self.areas = [
            Area(name, label, rect, label_px)
            for name, label, rect in areas(width, height, size, margin, label_px)
        ]
        self.start_area = self.areas[0].name

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
        """Whether a tile may lie on cell (q, r): wholly on the table, and off every area's
        label strip (so a dropped tile never hides "Jungle" or "Hand A")."""
        x, y = self.layout.to_pixel(q, r)
        s = self.layout.size
        if not (s <= x <= self.width - s and s * 0.87 <= y <= self.height - s * 0.87):
            return False
        return not self.covers_label(q, r)

    def covers_label(self, q: int, r: int) -> bool:
        """Whether a tile on cell (q, r) would cover part of an area's label strip."""
        x, y = self.layout.to_pixel(q, r)
        return any(self.hexagon_meets(x, y, a.label_strip()) for a in self.areas)

    def below_label(self, q: int, r: int) -> tuple:
        """The cell (q, r), or if a tile there would cover an area's label, the first cell
        below it that does not (a drop on "Gem board" lands on the board, under its label)."""
        for _ in range(4):
            if not self.covers_label(q, r):
                break
            r += 1  # one cell straight down
        return q, r

    def hexagon_meets(self, x: float, y: float, rect: tuple) -> bool:
        """Whether the hexagon centred on (x, y) overlaps rect (x, y, w, h) (touching is not).

        A flat-top hexagon is widest at its centre's height and narrows by 1/sqrt(3) per pixel
        above or below it, so it meets the rect where the rect's height nearest the centre
        leaves it wide enough to reach the rect across."""
        rx, ry, rw, rh = rect
        s = self.layout.size
        v = max(0.0, ry - y, y - (ry + rh))  # vertical gap from the centre to the rect
        half_width = s - v / SQRT3
        gap = max(0.0, rx - x, x - (rx + rw))
        return v < s * SQRT3 / 2.0 and gap < half_width

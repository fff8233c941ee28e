"""Drawing the table: felt, labelled areas, tiles with their glows, dragging and the link overlay.

The static table (felt, areas, labels) is rendered once; a frame is one background blit, the
tiles (see glow.TileArt), and a few lines of text from a small cache.
"""

import math

import pygame

from simulator.app.fonts import ui_font
from simulator.app.glow import TileArt
from simulator.app.layout import direction_angle

FELT = (22, 58, 44)
AREA_FILL = (30, 72, 56)
AREA_EDGE = (64, 112, 90)
LABEL = (150, 190, 170)
TEXT = (225, 230, 225)
LINK_OK = (90, 230, 120)
LINK_EXPIRED = (200, 70, 70)
DOT_EDGE = (10, 10, 12)
TEXT_CACHE_LIMIT = 512
MARK_HEX = 34.0  # the hex size that words on tiles are sized for (the 1280x800 window's)
CAPTION_MIN_SCALE = 0.85  # words under tiles never smaller: about 9 px letters, on a dark strip
CAPTION_BACK = (12, 30, 22)


class TextCache:
    """Rendered text surfaces by (string, size, colour): panels redraw the same words every frame.

    Sizes are given for the 1280x800 window; `scale` draws them that many times larger (the
    side panel grows with the window), in the simulator's UI font (fonts.py)."""

    def __init__(self, scale: float = 1.0):
        self.scale = scale
        self._fonts = {}
        self._cache = {}

    def font(self, size: int):
        f = self._fonts.get(size)
        if f is None:
            f = ui_font(size, self.scale)
            self._fonts[size] = f
        return f

    def render(self, text: str, size: int = 20, color=TEXT):
        key = (text, size, color)
        surf = self._cache.get(key)
        if surf is None:
            if len(self._cache) > TEXT_CACHE_LIMIT:
                self._cache.clear()
            surf, _ = self.font(size).render(text, color)
            self._cache[key] = surf
        return surf

    def blit(self, target, text, pos, size=20, color=TEXT, anchor="topleft"):
        surf = self.render(text, size, color)
        rect = surf.get_rect(**{anchor: pos})
        target.blit(surf, rect)
        return rect


class Painter:
    """Draws the table. Area labels are sized with the side panel (`text`); words on a tile
    with the tile, so a cluster shrunk to fit the jungle keeps them inside its tiles."""

    def __init__(self, table, text: TextCache):
        self.table = table
        self.text = text
        self.tile_text = TextCache(table.layout.size / MARK_HEX)
        self.caption_text = TextCache(max(table.layout.size / MARK_HEX, CAPTION_MIN_SCALE))
        self.art = TileArt(table.layout.size)
        self.background = self._background()

    def _background(self):
        surf = pygame.Surface((self.table.width, self.table.height))
        surf.fill(FELT)
        inset = self.table.label_px / 30.0  # label strips grow with the window
        for area in self.table.areas:
            rect = pygame.Rect(area.rect)
            pygame.draw.rect(surf, AREA_FILL, rect, border_radius=14)
            pygame.draw.rect(surf, AREA_EDGE, rect, width=2, border_radius=14)
            at = (rect.x + round(12 * inset), rect.y + round(6 * inset))
            self.text.blit(surf, area.label, at, 22, LABEL)
        return surf

    def draw_table(self, surface):
        surface.blit(self.background, (0, 0))

    def draw_tile(self, surface, centre, leds, dirs, hidden=False, marks=(), captions=()):
        """One tile; `marks` are words written on it, `captions` words under it. A shard shown
        face up gets its captions on it only when hidden: they would cover its value spots."""
        text = self.tile_text
        line = self.table.layout.size * 12.0 / MARK_HEX
        self.art.draw(surface, centre, leds, dirs)
        if hidden:
            marks, captions = list(marks) + list(captions), ()
        if hidden and not marks:  # with words on it, the dim green back says "hidden" enough
            text.blit(surface, "?", centre, 30, (170, 210, 170), "center")
        top = centre[1] - line / 2 * (len(marks) - 1)  # the words centred on the tile
        for i, mark in enumerate(marks):
            text.blit(surface, mark, (centre[0], top + line * i), 16, TEXT, "center")
        # under its bottom edge, readable at any tile size and on any glow
        caption = self.caption_text
        below = centre[1] + self.table.layout.size * 0.87 + 1
        for words in captions:
            surf = caption.render(words, 16, TEXT)
            rect = surf.get_rect(midtop=(centre[0], below))
            pygame.draw.rect(surface, CAPTION_BACK, rect.inflate(4, 0), border_radius=3)
            surface.blit(surf, rect)
            below = rect.bottom

    def draw_links(self, surface, centre, dirs, info):
        """Debug overlay: a dot per face (green linked, red expired) with the value received."""
        face_in = info.get("face_in") or [0] * 6
        expired = info.get("expired") or [True] * 6
        apothem = self.table.layout.size * 0.866
        for f in range(6):
            a = direction_angle(dirs[f])
            x = centre[0] + 0.80 * apothem * math.cos(a)
            y = centre[1] + 0.80 * apothem * math.sin(a)
            color = LINK_EXPIRED if expired[f] else LINK_OK
            pygame.draw.circle(surface, DOT_EDGE, (int(x), int(y)), 5)  # readable on any glow
            pygame.draw.circle(surface, color, (int(x), int(y)), 4)
            if not expired[f]:
                vx = centre[0] + 0.52 * apothem * math.cos(a)
                vy = centre[1] + 0.52 * apothem * math.sin(a)
                self.tile_text.blit(surface, str(face_in[f]), (vx, vy), 15, TEXT, "center")

    def draw_outline(self, surface, centre, color, width=2):
        pygame.draw.polygon(
            surface, color, self.table.layout.corners(centre[0], centre[1], 0.95), width
        )

    def draw_knife(self, surface, p0, p1):
        pygame.draw.line(surface, (240, 240, 200), p0, p1, 2)
        pygame.draw.circle(surface, (240, 240, 200), p0, 4)

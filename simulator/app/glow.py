"""Tile art: a hexagonal body and six LED glows that blend toward the centre.

The expensive part (the glow shapes) is computed once per hex size with numpy. Drawing a tile is
then one body blit plus six additive blits of a glow mask tinted to the LED's colour; tinted
masks are cached by (direction, colour), so a steady table costs only blits.
"""

import math

import numpy
import pygame

from simulator.app.layout import SQRT3, direction_angle

BODY = (34, 34, 40)
RIM = (70, 70, 82)
TINT_CACHE_LIMIT = 4096
SCREEN_GAMMA = 2.2  # an 8-bit screen value v gives light in proportion to (v / 255) ** 2.2
# An LED channel's 5-bit level is its light (PWM duty): level 6 gives 6/31 of full light.
SCREEN_LEVEL = tuple(round(255 * (level / 31) ** (1 / SCREEN_GAMMA)) for level in range(32))


def to_rgb8(c: int) -> tuple:
    """15-bit colour r<<10|g<<5|b (5-bit channels) -> 8-bit RGB giving the LED's share of light.

    Written linearly (6 -> 49) a dim face would show 3 % of full light instead of 19 %: the
    discard pile and the face-down green would look almost off, unlike on a real tile."""
    return SCREEN_LEVEL[(c >> 10) & 31], SCREEN_LEVEL[(c >> 5) & 31], SCREEN_LEVEL[c & 31]


def _hex_coverage(px, py, apothem):
    """Anti-aliased inside-ness of a flat-top hexagon (its edges face the six directions)."""
    inside = None
    for d in range(6):
        a = direction_angle(d)
        dist = apothem - (px * math.cos(a) + py * math.sin(a))
        inside = dist if inside is None else numpy.minimum(inside, dist)
    return numpy.clip(inside + 0.5, 0.0, 1.0)


def _grey_surface(intensity):
    """A surface whose RGB channels all hold intensity (0..1), for tinting with BLEND_MULT."""
    v = (numpy.clip(intensity, 0.0, 1.0) * 255.0 + 0.5).astype(numpy.uint8)
    rgb = numpy.repeat(v[:, :, None], 3, axis=2)
    return pygame.surfarray.make_surface(rgb)


class TileArt:
    """Draws tiles of one size. `size` is the hex centre-to-corner distance in pixels."""

    def __init__(self, size: float, inset: float = 0.95):
        self.size = size
        s = size * inset
        self.width = math.ceil(SQRT3 * s) + 4
        self.height = math.ceil(2 * s) + 4
        cx, cy = (self.width - 1) / 2.0, (self.height - 1) / 2.0
        xs = numpy.arange(self.width, dtype=numpy.float64)[:, None] - cx
        ys = numpy.arange(self.height, dtype=numpy.float64)[None, :] - cy
        px = numpy.broadcast_to(xs, (self.width, self.height))
        py = numpy.broadcast_to(ys, (self.width, self.height))
        apothem = s * SQRT3 / 2.0
        cover = _hex_coverage(px, py, apothem)
        inner = _hex_coverage(px, py, apothem - 2.0)
        self.body = self._body_surface(cover, inner, px, py, s)
        self.masks = []
        for d in range(6):
            a = direction_angle(d)
            lx, ly = 0.80 * apothem * math.cos(a), 0.80 * apothem * math.sin(a)
            dist2 = (px - lx) ** 2 + (py - ly) ** 2
            wide = numpy.exp(-dist2 / (0.48 * s) ** 2)
            spot = numpy.exp(-dist2 / (0.15 * s) ** 2)
            self.masks.append(_grey_surface((0.55 * wide + 0.75 * spot) * inner))
        self._tinted = {}
        self.offset = (self.width / 2.0, self.height / 2.0)

    def _body_surface(self, cover, inner, px, py, s):
        rgba = numpy.zeros((self.width, self.height, 4), dtype=numpy.uint8)
        shade = 1.0 - 0.25 * numpy.sqrt(px**2 + py**2) / s
        rim = cover - inner
        for i in range(3):
            rgba[:, :, i] = numpy.clip(BODY[i] * shade * inner + RIM[i] * rim, 0, 255).astype(
                numpy.uint8
            )
        rgba[:, :, 3] = (cover * 255).astype(numpy.uint8)
        surf = pygame.Surface((self.width, self.height), pygame.SRCALPHA, 32)
        pygame.surfarray.pixels3d(surf)[:] = rgba[:, :, :3]
        pygame.surfarray.pixels_alpha(surf)[:] = rgba[:, :, 3]
        return surf

    def tinted(self, d: int, color15: int):
        key = (d, color15)
        surf = self._tinted.get(key)
        if surf is None:
            if len(self._tinted) > TINT_CACHE_LIMIT:
                self._tinted.clear()
            surf = self.masks[d].copy()
            surf.fill(to_rgb8(color15), special_flags=pygame.BLEND_MULT)
            self._tinted[key] = surf
        return surf

    def draw(self, target, centre: tuple, face_colors, face_dirs):
        """Blit one tile centred on `centre`: face f's colour glows toward direction face_dirs[f]."""
        x = round(centre[0] - self.offset[0])
        y = round(centre[1] - self.offset[1])
        target.blit(self.body, (x, y))
        for f in range(6):
            c = face_colors[f]
            if c:
                target.blit(
                    self.tinted(face_dirs[f] % 6, c), (x, y), special_flags=pygame.BLEND_ADD
                )

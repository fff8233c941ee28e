"""A pygame window showing the physical tiles' states, drawn with the simulator's tile art.

Tiles are laid out in rows in order of first appearance (the serial link does not say where a
tile lies on the table); under each: the end of its serial number, its state and shard. The
tiles grow with the window and shrink to fit however many there are.
Used live by `blinks monitor --mirror` and offline by host_tools.mirror.replay_log.
"""

import math
import time

from host_tools.bridge.tile_states import Session

FACE_DIRS = [0, 1, 2, 3, 4, 5]
SIZE = 44  # a tile's hex size (centre to corner) in the default window
PER_ROW = 6
MARGIN = 20
SIZE_LIMITS = (12, 64)  # smallest and largest hex size drawn
DEFAULT_WINDOW = (PER_ROW * SIZE * 2 + 2 * MARGIN, 3 * SIZE * 3 + 2 * MARGIN)
FPS = 30


def grid_for(count, window):
    """(columns, hex size) that fit `count` tiles, each 2 sizes wide and 3 tall with its
    label, into the window: as large as they can be, within SIZE_LIMITS."""
    width, height = window[0] - 2 * MARGIN, window[1] - 2 * MARGIN
    best = (PER_ROW, SIZE_LIMITS[0])
    for columns in range(1, max(count, PER_ROW) + 1):
        rows = math.ceil(max(count, 1) / columns)
        size = min(width / (2.0 * columns), height / (3.0 * rows), SIZE_LIMITS[1])
        if size > best[1]:
            best = (columns, size)
    return best[0], int(best[1])


class Mirror:
    def __init__(self, title="blinks monitor --mirror", session=None, clock=None, size=None):
        import pygame

        from simulator.app.draw import TextCache

        self.pygame = pygame
        pygame.display.init()  # not pygame.init(): a log viewer needs no sound
        pygame.font.init()
        self.window = tuple(size or DEFAULT_WINDOW)
        self.screen = pygame.display.set_mode(self.window)
        pygame.display.set_caption(title)
        self.text = TextCache()
        self.session = session or Session()
        self._t0 = time.monotonic()
        self.clock = clock or (lambda: time.monotonic() - self._t0)
        self._next_frame = 0.0
        self.frames = 0
        self._arts = {}
        self.columns, self.size = grid_for(0, self.window)

    def art(self):
        from simulator.app.glow import TileArt

        art = self._arts.get(self.size)
        if art is None:
            art = self._arts[self.size] = TileArt(self.size)
        return art

    def update(self, rec):
        """Take a record (or None) and redraw when a frame is due; False once the window closes."""
        self.session.apply(rec)
        for event in self.pygame.event.get():
            if event.type == self.pygame.QUIT:
                return False
        now = time.monotonic()
        if now >= self._next_frame:
            self._next_frame = now + 1.0 / FPS
            self.draw(self.clock())
        return True

    def centre(self, i):
        row, col = divmod(i, self.columns)
        s = self.size  # a column is 2 sizes wide; a row 3 tall: the tile, then its label
        return (MARGIN + s * (1.0 + 2.0 * col), MARGIN + s * (1.0 + 3.0 * row))

    def draw(self, now_s):
        self.columns, self.size = grid_for(len(self.session.order), self.window)
        art = self.art()
        label_size = max(11, round(self.size * 0.36))
        self.screen.fill((22, 58, 44))
        for i, tile in enumerate(self.session.order):
            view = self.session.views[tile]
            c = self.centre(i)
            art.draw(self.screen, c, view.leds(now_s), FACE_DIRS)
            label = f"{tile[-4:]} {view.state}" + (f" {view.shard}" if view.shard else "")
            colour = (225, 230, 225) if view.connected else (200, 90, 90)
            below = (c[0], c[1] + self.size * 1.05)
            self.text.blit(self.screen, label, below, label_size, colour, "center")
        self.pygame.display.flip()
        self.frames += 1

    def pixel(self, i):
        """The colour at the middle of tile i's face-0 glow (for tests)."""
        x, y = self.centre(i)
        return tuple(self.screen.get_at((int(x + self.size * 0.6), int(y)))[:3])

    def close(self):
        self.pygame.display.quit()

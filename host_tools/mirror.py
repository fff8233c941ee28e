"""A pygame window showing the physical tiles' states, drawn with the simulator's tile art.

Tiles are laid out in rows in order of first appearance (the serial link does not say where a
tile lies on the table); under each: the end of its serial number, its state and shard.
Used live by `blinks monitor --mirror` and offline by host_tools.replay_log.
"""

import time

from host_tools.tile_states import Session

FACE_DIRS = [0, 1, 2, 3, 4, 5]
SIZE = 44
PER_ROW = 6
FPS = 30


class Mirror:
    def __init__(self, title="blinks monitor --mirror", session=None, clock=None):
        import pygame

        from simulator.app.draw import TextCache
        from simulator.app.glow import TileArt

        self.pygame = pygame
        pygame.display.init()  # not pygame.init(): a log viewer needs no sound
        pygame.font.init()
        self.screen = pygame.display.set_mode((PER_ROW * SIZE * 2 + 40, 3 * SIZE * 3 + 40))
        pygame.display.set_caption(title)
        self.art = TileArt(SIZE)
        self.text = TextCache()
        self.session = session or Session()
        self._t0 = time.monotonic()
        self.clock = clock or (lambda: time.monotonic() - self._t0)
        self._next_frame = 0.0
        self.frames = 0

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
        row, col = divmod(i, PER_ROW)
        return (SIZE * 1.2 + col * SIZE * 2.0, SIZE * 1.2 + row * SIZE * 3.0)

    def draw(self, now_s):
        self.screen.fill((22, 58, 44))
        for i, tile in enumerate(self.session.order):
            view = self.session.views[tile]
            c = self.centre(i)
            self.art.draw(self.screen, c, view.leds(now_s), FACE_DIRS)
            label = f"{tile[-4:]} {view.state}" + (f" {view.shard}" if view.shard else "")
            colour = (225, 230, 225) if view.connected else (200, 90, 90)
            self.text.blit(self.screen, label, (c[0], c[1] + SIZE * 1.05), 16, colour, "center")
        self.pygame.display.flip()
        self.frames += 1

    def pixel(self, i):
        """The colour at the middle of tile i's face-0 glow (for tests)."""
        x, y = self.centre(i)
        return tuple(self.screen.get_at((int(x + SIZE * 0.6), int(y)))[:3])

    def close(self):
        self.pygame.display.quit()

"""Drive the simulator app headless with synthetic pygame events, as a playtester's hand would.

(Imported by the app tests; the module name is unique so it cannot clash with other test dirs.)
"""

import bot_window  # first: it sets SDL's dummy driver before pygame loads
import pygame
from bot_window import FRAME_MS

from simulator.world.grid import DIRECTIONS


def app_args(**kw):
    """The options of `blinks sim` on 18 tiles at speed 1 (the game's own table)."""
    return bot_window.app_args(**{"tiles": 18, "speed": 1, **kw})


class Hands:
    """Mouse and frames: every gesture goes through SimApp.handle_event and SimApp.update."""

    def __init__(self, app):
        self.app = app

    def frames(self, ms):
        end = self.app.world.now + ms
        while self.app.world.now < end:
            self.app.update(min(FRAME_MS, end - self.app.world.now))

    def at(self, tid):
        q, r, _ = self.app.world.position(tid)
        return self.cell(q, r)

    def cell(self, q, r):
        x, y = self.app.table.layout.to_pixel(q, r)
        return round(x), round(y)

    def event(self, kind, **fields):
        self.app.handle_event(pygame.event.Event(kind, **fields))

    def down(self, pos, button=1, mod=0):
        self.event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        self.event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button, mod=mod)

    def up(self, pos, button=1):
        self.event(pygame.MOUSEBUTTONUP, pos=pos, button=button)

    def move(self, pos):
        self.event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0))

    def clicks(self, tid, n):
        pos = self.at(tid)
        for i in range(n):
            if i:
                self.frames(140)
            self.down(pos)
            self.frames(60)
            self.up(pos)
        self.frames(400)

    def hold(self, tid, ms):
        pos = self.at(tid)
        self.down(pos)
        self.frames(ms)
        self.up(pos)

    def drag(self, start, end, button=3, mod=0, steps=4):
        self.down(start, button, mod)
        for i in range(1, steps + 1):
            self.move(
                (
                    start[0] + (end[0] - start[0]) * i // steps,
                    start[1] + (end[1] - start[1]) * i // steps,
                )
            )
            self.frames(20)
        self.up(end, button)

    def deal(self, tid=0):
        """Hold a tile 6 s and wait until every tile shows face down."""
        world = self.app.world
        self.hold(tid, 6100)
        assert world.run_until(
            lambda: all(world.inspect(t).get("state") == "face down" for t in world.tiles), 30000
        )


def lone_cell(app, area, avoid=()):
    """A free cell in an area with no occupied neighbour (so a tile put there is alone)."""
    world = app.world
    for q, r in app.table.layout.cells_in_rect(app.table.area(area).rect):
        around = [(q + dq, r + dr) for dq, dr in DIRECTIONS] + [(q, r)]
        if all(world.tile_at(*c) is None and c not in avoid for c in around) and app.table.on_table(
            q, r
        ):
            return q, r
    raise AssertionError("no free cell in " + area)


def edge_tile(app):
    """A tile of the jungle cluster with a free neighbouring cell (easy to pick up)."""
    world = app.world
    for tid in world.tiles:
        q, r, _ = world.position(tid)
        if (
            app.table.area_of_cell(q, r).name == "jungle"
            and sum(world.tile_at(q + dq, r + dr) is None for dq, dr in DIRECTIONS) >= 3
        ):
            return tid
    raise AssertionError("no edge tile")

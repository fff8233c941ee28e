"""Mouse and keyboard gestures, turned into table operations.

Chosen gestures (documented in the side panel and docs/simulator.md):
- left button down / up on a tile is that tile's button, at the current simulated time, so
  clicks, double and triple clicks, 2 s and 6 s holds behave as on hardware;
- right-drag (or Ctrl+left-drag) carries one tile; with Shift, its whole cluster. Carried tiles
  are lifted off the table (they keep running, alone) and on release snap to the nearest free
  cells, joining whatever they touch;
- left-drag that starts on empty felt draws a knife line; on release every cluster it crosses is
  split and the smaller part slides away;
- mouse wheel over a tile, or R / Shift+R, rotates it (while carrying one tile: the carried tile).
"""

import pygame

DRAG_BUTTONS = (2, 3)


class Drag:
    """Tiles being carried: lifted at the start, placed as a group on drop."""

    def __init__(self, app, tids: list, grab_tid: int, pos: tuple):
        self.app = app
        self.tids = tids
        self.pos = pos
        layout = app.table.layout
        self.origin = []  # (tid, q, r, rot) where they came from
        self.offsets = {}
        for tid in tids:
            q, r, rot = app.world.position(tid)
            self.origin.append((tid, q, r, rot))
            cx, cy = layout.to_pixel(q, r)
            self.offsets[tid] = (cx - pos[0], cy - pos[1])
        self.grab = grab_tid
        for tid in tids:
            app.ops.lift(tid)

    def rotate(self, steps: int):
        if len(self.origin) == 1:
            tid, q, r, rot = self.origin[0]
            self.origin[0] = (tid, q, r, (rot + steps) % 6)

    def rotation(self, tid):
        for t, _, _, rot in self.origin:
            if t == tid:
                return rot
        return 0

    def centre(self, tid):
        dx, dy = self.offsets[tid]
        return self.pos[0] + dx, self.pos[1] + dy

    def target(self):
        """Placements if dropped now: the grabbed tile's cell under the mouse (moved down under
        an area's label if it is on one, so it lands in that area), the rest in shape."""
        table = self.app.table
        for tid, q, r, _ in self.origin:
            if tid == self.grab:
                gq, gr = table.below_label(*table.layout.to_hex(*self.centre(tid)))
                dq, dr = gq - q, gr - r
        return [(tid, q + dq, r + dr, rot) for tid, q, r, rot in self.origin]

    def drop(self):
        ops = self.app.ops
        placed = ops.move_group(self.target())
        if placed is None:
            placed = ops.move_group(self.origin)
        return placed


class Gestures:
    def __init__(self, app):
        self.app = app
        self.pressed = None  # tile whose button the left mouse button holds
        self.drag = None
        self.knife = None  # [start, end] in pixels

    def handle(self, ev):
        app = self.app
        if ev.type == pygame.MOUSEMOTION:
            app.hover = app.tile_at_pixel(ev.pos) if self.drag is None else self.drag.grab
            if self.drag is not None:
                self.drag.pos = ev.pos
            if self.knife is not None:
                self.knife[1] = ev.pos
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (1, 2, 3):
            self._down(ev)
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button in (1, 2, 3):
            self._up(ev)
        elif ev.type == pygame.MOUSEWHEEL:
            self._rotate(1 if ev.y < 0 else -1)
        elif ev.type == pygame.KEYDOWN:
            self._key(ev)

    def _down(self, ev):
        app = self.app
        mods = pygame.key.get_mods() | getattr(ev, "mod", 0)
        if ev.button == 1 and app.click_controls(ev.pos):
            return
        coin = app.panel.coin_at(ev.pos)
        if coin is not None and ev.button == 1:
            app.flip_token(*coin)
            return
        if app.replaying:
            return
        tid = app.tile_at_pixel(ev.pos)
        carry = ev.button in DRAG_BUTTONS or (ev.button == 1 and mods & pygame.KMOD_CTRL)
        if tid is not None and app.locked(tid, "carry" if carry else "press"):
            return
        if tid is None and ev.button == 1 and app.on_table(ev.pos) and app.locked(None, "knife"):
            return
        if tid is not None and carry and self.drag is None and self.pressed is None:
            whole = ev.button == 2 or bool(mods & pygame.KMOD_SHIFT)
            tids = app.ops.cluster_of(tid) if whole else [tid]
            self.drag = Drag(app, tids, tid, ev.pos)
        elif tid is not None and ev.button == 1 and self.pressed is None and self.drag is None:
            self.pressed = tid
            app.ops.press(tid)
        elif tid is None and ev.button == 1 and app.on_table(ev.pos):
            self.knife = [ev.pos, ev.pos]

    def _up(self, ev):
        app = self.app
        if ev.button == 1 and self.pressed is not None:
            app.ops.release(self.pressed)
            self.pressed = None
        if self.drag is not None and (ev.button in DRAG_BUTTONS or ev.button == 1):
            self.drag.pos = ev.pos
            self.drag.drop()
            self.drag = None
        if ev.button == 1 and self.knife is not None:
            start = self.knife[0]
            self.knife = None
            app.ops.split(app.table.layout, start, ev.pos)

    def _rotate(self, steps):
        app = self.app
        if self.drag is not None:
            self.drag.rotate(steps)
        elif (
            app.hover is not None
            and not app.replaying
            and app.world.position(app.hover) is not None
            and not app.locked(app.hover, "rotate")
        ):
            app.ops.rotate(app.hover, steps)

    def _key(self, ev):
        app = self.app
        k = ev.key
        shift = (pygame.key.get_mods() | getattr(ev, "mod", 0)) & pygame.KMOD_SHIFT
        if k == pygame.K_SPACE:
            app.clock.toggle_pause()
        elif k in (pygame.K_n, pygame.K_PERIOD):
            app.clock.step()
        elif k == pygame.K_s:
            app.clock.cycle_speed()
        elif k == pygame.K_d:
            app.overlay = not app.overlay
        elif k == pygame.K_v and not app.view_locked and app.can_view_as_player():
            app.view_as = {None: "A", "A": "B", "B": None}[app.view_as]
        elif k == pygame.K_r:
            self._rotate(-1 if shift else 1)
        elif k in (pygame.K_ESCAPE, pygame.K_q):
            app.quit = True

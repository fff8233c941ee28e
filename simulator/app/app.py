"""The simulator window's model: a world, its clock, the gestures, and what each frame shows.

`SimApp` never opens a window itself: `update(real_ms)` runs simulated time, `handle_event(ev)`
takes pygame events, `render(surface)` draws a frame. The cli wraps those in a loop; tests
call them directly with synthetic events.

Hooks for other front ends (kept simple on purpose):
- the app reads tiles only through the world's public reads (`tiles`, `position`, `leds`,
  `inspect`, `logs`, `tile_at`, `now`), so a mirror of physical tiles can stand in for the world;
- a tile whose `inspect()` says `"micropython": True` (co-simulation) gets a badge;
- `title` is the side panel's heading (the emulated tiles' window names its own);
- `controllers` (e.g. a bot) get `on_frame(app)` after the world advances each frame and may
  use `app.ops` to act like a player, so their moves are recorded too. A controller may also
  offer `click(pos) -> bool` (a left click on the panel it drew), `marks(tid) -> list` (words
  written on a tile), `locks(tid, action) -> bool` (refuse a person's "press", "carry",
  "rotate" or "knife" (tid None) while it owns the tiles), `draw_panel(surface, panel, x, y)`
  (it then owns the middle of the side panel: tokens and inspector make way for it) and
  `on_close(app)` (the window is closing: keep what must not be lost).
"""

import pygame

from simulator.app.clock import SimClock
from simulator.app.draw import Painter, TextCache
from simulator.app.input import Gestures
from simulator.app.layout import LABEL_PX, Table, face_direction
from simulator.app.panels import Panel, Tokens
from simulator.app.table_ops import TableOps
from simulator.app.world_setup import cluster_fits

WIDTH, HEIGHT = 1280, 800
PANEL_WIDTH = 310  # in the 1280x800 window; it grows with bigger ones (ui_scale)
HEX_SIZE = 34.0
SMALLEST_HEX = 8.0  # a cluster of 60 tiles in a 1100x700 window needs about 14
BACK = (2 << 5,) * 6  # what a hidden piece shows: a dim green back, like "face down"


def ui_scale(size: tuple) -> float:
    """How much larger than in the 1280x800 window the side panel, its text and the areas'
    labels are drawn: more in a bigger window (1920x1080: 1.35), never less."""
    return max(1.0, min(size[0] / WIDTH, size[1] / HEIGHT))


def panel_width(size: tuple) -> int:
    return round(PANEL_WIDTH * ui_scale(size))


def table_for(size: tuple, tiles: int = 18, areas=None, fits=None) -> Table:
    """The table left of the side panel for a window size; hexes scale with the window (a
    bigger window shows bigger tiles, not the same tiles lost in bigger areas), and shrink
    as far as it takes for the starting cluster of `tiles` to lie inside the start area
    (or until `fits(table)` says a front end's own cluster does). `areas` is what the
    game's table holds (simulator.games; None: the default game's)."""
    width = size[0] - panel_width(size)
    scale = min(width / (WIDTH - PANEL_WIDTH), size[1] / HEIGHT)
    label_px = round(LABEL_PX * ui_scale(size))
    hex_size = HEX_SIZE * scale
    table = Table(width, size[1], hex_size, label_px, areas)
    fits = fits or (lambda table: cluster_fits(table, tiles))
    while hex_size > SMALLEST_HEX and not fits(table):
        hex_size *= 0.95
        table = Table(width, size[1], hex_size, label_px, areas)
    return table


class ReplayError(ValueError):
    """A recording whose events do not fit the table (e.g. edited by hand)."""


def face_dirs(rotation: int) -> list:
    """World direction of each face 0..5 of a tile with this rotation (the world's rule)."""
    return [face_direction(f, rotation) for f in range(6)]


class SimApp:
    def __init__(
        self,
        world,
        game_name: str,
        seed: int,
        note=None,
        recorder=None,
        replay=None,
        size=(WIDTH, HEIGHT),
        players=None,
        fits=None,
    ):
        self.world = world
        self.players = players  # the seats the table lays out (games with a choice)
        self.game_name = game_name
        self.seed = seed
        self.note = note
        self.recorder = recorder
        self.replay = replay
        self.width, self.height = size
        from simulator.games import host_game, table_areas

        self.host = host_game(game_name)  # what the game's table holds, its tip, its tokens
        areas = table_areas(self.host, players)
        self.table = table_for(size, len(world.tiles), areas, fits)  # fits: see table_for
        self.ops = TableOps(world, recorder, on_table=self.table.on_table)
        self.clock = SimClock()
        self.tokens = Tokens()
        pygame.font.init()  # idempotent; text needs it even with no window
        scale = ui_scale(size)
        self.text = TextCache(scale)
        self.painter = Painter(self.table, self.text)
        panel = panel_width(size)
        self.panel = Panel(self.width - panel, panel, self.height, self.text, scale)
        self.gestures = Gestures(self)
        self.controllers = []
        self.view_as = None
        self.view_locked = False  # a bot game keeps the view as its human player
        self.overlay = False
        self.badge_micropython = False  # set by a co-simulation front end: badge tiles always
        self.title = "Blinks simulator"  # the side panel's heading (a front end may name its own)
        self.hover = None
        self.quit = False

    # -- reads used by panels and gestures ------------------------------------------------
    @property
    def replaying(self) -> bool:
        return self.replay is not None and not self.replay.done

    def on_table(self, pos) -> bool:
        return 0 <= pos[0] < self.table.width and 0 <= pos[1] < self.table.height

    def tile_at_pixel(self, pos):
        if not self.on_table(pos):
            return None
        q, r = self.table.layout.to_hex(*pos)
        return self.world.tile_at(q, r)

    def inspect(self, tid) -> dict:
        try:
            return self.world.inspect(tid) or {}
        except Exception as exc:  # noqa: BLE001 - a broken inspect() must not take the window down
            return {"state": f"inspect failed: {exc}"}

    def area_name(self, tid):
        pos = self.world.position(tid)
        if pos is None:
            return None
        area = self.table.area_of_cell(pos[0], pos[1])
        return None if area is None else area.name

    def home_area(self, tid):
        """The area a tile lies in; for a tile being carried, the area it was lifted from."""
        drag = self.gestures.drag
        for t, q, r, _ in drag.origin if drag is not None else ():
            if t == tid:
                area = self.table.area_of_cell(q, r)
                return None if area is None else area.name
        return self.area_name(tid)

    def can_view_as_player(self) -> bool:
        """Whether viewing the table as one player hides anything: the game says which of a
        hand's pieces their holder cannot see (VIEW_HIDES); without them the V key is off."""
        return bool(getattr(self.host, "VIEW_HIDES", ()))

    def hidden(self, tid) -> bool:
        """Viewing as A (or B): a piece in A's (B's) own hand that the game hides from its
        holder (its VIEW_HIDES states) must not be seen by A (B), nor while they carry it out
        of the hand."""
        if self.view_as is None:
            return False
        if self.home_area(tid) != "hand_" + self.view_as.lower():
            return False
        return self.inspect(tid).get("state") in getattr(self.host, "VIEW_HIDES", ())

    def piece_shown(self, tid, info=None) -> str:
        """The piece the inspector may show (Lost Gems' shard): while viewing as a player, only
        pieces that player could read on the table (in one of the game's FACE_UP states, when
        it names them, and not hidden in their own hand)."""
        info = self.inspect(tid) if info is None else info
        face_up = getattr(self.host, "FACE_UP", None)
        if self.view_as is not None and (
            self.hidden(tid) or (face_up is not None and info.get("state") not in face_up)
        ):
            return "hidden"
        return info.get(getattr(self.host, "PIECE", "shard")) or "-"

    def shown_leds(self, tid) -> list:
        return list(BACK) if self.hidden(tid) else list(self.world.leds(tid))

    def tip(self):
        """A hint for the first minute: how to deal (the game's DEAL_TIP), while the tiles wait
        for one."""
        tip = getattr(self.host, "DEAL_TIP", None)
        if tip and self.world.tiles and self.inspect(self.world.tiles[0]).get("state") == "undealt":
            return tip
        return None

    def click_controls(self, pos) -> bool:
        """A left click offered to the controllers' on-screen controls; True if one took it."""
        for controller in self.controllers:
            click = getattr(controller, "click", None)
            if click is not None and click(pos):
                return True
        return False

    def locked(self, tid, action: str) -> bool:
        """Whether a controller refuses this gesture of the person's now."""
        for controller in self.controllers:
            locks = getattr(controller, "locks", None)
            if locks is not None and locks(tid, action):
                return True
        return False

    def panel_owner(self):
        """The controller that draws the middle of the side panel, if any."""
        for controller in self.controllers:
            if hasattr(controller, "draw_panel"):
                return controller
        return None

    def flip_token(self, kind: str, i: int):
        (self.tokens.flip_hint if kind == "hint" else self.tokens.flip_error)(i)
        if self.recorder is not None:
            self.recorder.record(
                self.world.now, "tokens", hints=self.tokens.hints, errors=self.tokens.errors
            )

    # -- time and input ---------------------------------------------------------------------
    def handle_event(self, ev):
        if ev.type == pygame.QUIT:
            self.quit = True
        else:
            self.gestures.handle(ev)

    def advance(self, ms: int):
        """Run ms of simulated time, performing recorded events exactly at their times."""
        target = self.world.now + ms
        while self.replaying and self.replay.next_time() <= target:
            event = self.replay.pop()
            if event["t"] > self.world.now:
                self.world.advance(event["t"] - self.world.now)
            try:
                self._apply(event)
            except (ValueError, KeyError, IndexError) as exc:  # OccupiedError is a ValueError
                self.replay.index = len(self.replay.events)  # stop replaying, keep the table
                raise ReplayError(f"recorded event {event} cannot be replayed: {exc}") from None
        if target > self.world.now:
            self.world.advance(target - self.world.now)

    def _apply(self, event):
        if event["op"] == "tokens":
            self.tokens.hints, self.tokens.errors = event["hints"], event["errors"]
            if self.recorder is not None:
                self.recorder.record(
                    self.world.now, "tokens", hints=event["hints"], errors=event["errors"]
                )
        else:
            self.ops.apply(event)

    def update(self, real_ms: float, limit=None) -> int:
        """One frame's worth of simulated time (capped, see clock.py), never past `limit` ms.

        Returns the simulated ms run."""
        ms = self.clock.frame(real_ms)
        if limit is not None:
            ms = max(0, min(ms, limit - self.world.now))
        if ms:
            self.advance(ms)
        for controller in self.controllers:
            controller.on_frame(self)
        return ms

    def close(self):
        for controller in self.controllers:
            on_close = getattr(controller, "on_close", None)
            if on_close is not None:
                on_close(self)
        if self.recorder is not None:
            self.recorder.close(self.world.now)
        if self.badge_micropython:  # co-simulated tiles: end their MicroPython processes
            from simulator.cosim import close_runners

            close_runners(self.world)

    # -- drawing ----------------------------------------------------------------------------
    def render(self, surface):
        painter = self.painter
        layout = self.table.layout
        painter.draw_table(surface)
        drag = self.gestures.drag
        carried = set(drag.tids) if drag is not None else set()
        for tid in self.world.tiles:
            pos = self.world.position(tid)
            if pos is None or tid in carried:
                continue
            centre = layout.to_pixel(pos[0], pos[1])
            self._draw_tile(surface, tid, centre, pos[2])
        if drag is not None:
            for tid, q, r, _ in drag.target():
                painter.draw_outline(surface, layout.to_pixel(q, r), (200, 200, 160), 1)
            for tid in sorted(drag.tids):
                self._draw_tile(surface, tid, drag.centre(tid), drag.rotation(tid))
        if self.hover is not None and self.world.position(self.hover) is not None:
            pos = self.world.position(self.hover)
            painter.draw_outline(surface, layout.to_pixel(pos[0], pos[1]), (235, 235, 200), 2)
        knife = self.gestures.knife
        if knife is not None:
            painter.draw_knife(surface, knife[0], knife[1])
        self.panel.draw(surface, self)

    def _draw_tile(self, surface, tid, centre, rotation):
        dirs = face_dirs(rotation)
        hidden = self.hidden(tid)
        info = self.inspect(tid) if self.overlay else None
        marks = []
        if self.overlay:
            marks.append(str(tid))
        if info is None and self.badge_micropython:
            info = self.inspect(tid)
        if info is not None and info.get("micropython"):
            marks.append("uPy")
        captions = []  # a controller's words go under a tile, off its value spots
        for controller in self.controllers:
            if hasattr(controller, "marks"):
                captions.extend(controller.marks(tid))
        leds = self.shown_leds(tid)
        self.painter.draw_tile(surface, centre, leds, dirs, hidden, marks, captions)
        if self.overlay:
            self.painter.draw_links(surface, centre, dirs, info)

"""`blinks emu --window`: the emulated tiles on the simulator's table, with its look and gestures.

The window is the simulator's own app (simulator/app: SimApp's table, tile art, side panel and
gestures) over an EmuWorld (world.py), so a left click is the tile's button, a right drag
moves a tile and rewires its faces to its new neighbours, and so on, as in `blinks sim`. The
middle of the side panel is this module's (`EmuPanel`): the tile under the mouse (or the one
last touched) with its port, state, heap and log, or every tile's heap and last line; a note
when the emulator runs slower than real time; and, until a game has booted, how to flash one.

The tiles' serial ports work as without the window: `PORT <i> <path>` lines on stdout as
each comes up, then how to flash them (stderr), for `blinks flash`, `blinks monitor` and
mpremote from another terminal. With the dummy video driver nobody watches: emulated time
runs in lockstep with the frames as fast as the emulator goes, `--run-for S` seconds of it,
and `--screenshot FILE` is the last frame, as `blinks sim` does.
"""

import os
import re
import signal
import sys
import threading

from host_tools.emu.cluster import EmuCluster, EmuError
from host_tools.emu.node_env import EmuSetupError
from host_tools.emu.world import EmuWorld
from simulator.app.display import headless, hide_pygame_banner, open_display, save_screenshot
from simulator.output_path import output_problem

TITLE = "Emulated tiles"
FPS = 30  # frames a second while a hand is at work (the emulator needs the CPU more)
IDLE_FPS = 15  # ... and while nobody touches anything (a frame costs ~8 ms)
FRAME_MS = 1000.0 / 60.0  # a headless frame, as `blinks sim` runs them
NO_GAME_AFTER_MS = 3000  # emulated ms after which tiles that booted no game are said to have none
HELP = (
    "Left button on a tile: its button, held as",
    "  long as you hold it (click, double, 6 s...)",
    "Right-drag (or Ctrl+left): move a tile; it",
    "  is wired to every tile it then touches",
    "Shift+right-drag: move its cluster",
    "Left-drag on empty felt: knife split",
    "Wheel or R / Shift+R: rotate a tile",
    "D ids, wired faces  Space pause  S speed",
)


def window_problem(args):
    """What is wrong with the window's options, or None (found before anything starts)."""
    window = getattr(args, "window", False)
    run_for = getattr(args, "run_for", None)
    screenshot = getattr(args, "screenshot", None)
    table = getattr(args, "table", None)
    if not window:
        for name, value in (
            ("--run-for", run_for),
            ("--screenshot", screenshot),
            ("--table", table),
        ):
            if value is not None:
                return f"{name} goes with --window"
        return None
    if run_for is not None and not (run_for >= 0 and run_for != float("inf")):
        return f"--run-for takes emulated seconds, 0 or more, not {run_for:g}"
    if screenshot is not None:
        if screenshot == "":
            return "--screenshot needs a file name"
        if output_problem(screenshot):
            return f"--screenshot {screenshot}: {output_problem(screenshot)}"
    if table is not None:
        from simulator.games import game_names

        if table not in game_names():
            return f"--table must be one of {', '.join(game_names())}, not {table!r}"
        from simulator.games import host_game

        not_on_tiles = getattr(host_game(table), "NOT_ON_TILES", None)
        if not_on_tiles:
            return f"--table {table}: {not_on_tiles}"
    return None


def centred(table, cells, anywhere=True):
    """The cluster's cells [(q, r)] moved as a whole to the middle of the table's start area
    (the jungle) if they lie inside it there, else to the table's middle: [(q, r, rotation)].
    With `anywhere` False, None unless they lie inside the start area."""
    mq = round(sum(q for q, _ in cells) / len(cells))
    mr = round(sum(r for _, r in cells) / len(cells))
    cq, cr = table.centre_cell(table.start_area)
    moved = [(q - mq + cq, r - mr + cr, 0) for q, r in cells]
    x0, y0, w, h = table.area(table.start_area).rect
    s, apothem = table.layout.size, table.layout.size * 0.866
    for q, r, _ in moved:
        x, y = table.layout.to_pixel(q, r)
        inside = x0 <= x - s and x + s <= x0 + w and y0 + table.label_px <= y - apothem
        if not (inside and y + apothem <= y0 + h and table.on_table(q, r)):
            break
    else:
        return moved
    if not anywhere:
        return None
    return [(q - mq, r - mr, 0) for q, r in cells]  # (0, 0) is the table's middle


def make_app(cluster, table=None, lockstep=True, seed=0, size=None, wall=None):
    """The simulator's app over an EmuWorld of `cluster` (started), its tiles laid in the
    middle of `table`'s start area (a game's table, default Lost Gems'), with the EmuPanel."""
    import time

    from simulator.app.app import HEIGHT, WIDTH, SimApp

    world = EmuWorld(cluster, lockstep=lockstep, wall=wall or time.monotonic)
    cells = list(cluster.cells)

    sizes = []

    def fits(table):  # tiles up to a third smaller to lie in the jungle, else across the table
        sizes.append(table.layout.size)
        if centred(table, cells, anywhere=False) is not None:
            return True
        middle = centred(table, cells)
        on_table = all(table.on_table(q, r) for q, r, _ in middle)
        return on_table and table.layout.size <= sizes[0] * 2 / 3

    app = SimApp(world, table or "lostgems", seed, size=size or (WIDTH, HEIGHT), fits=fits)
    app.title = TITLE
    world.lay_out(centred(app.table, cells))
    app.controllers.append(EmuPanel(app, world))
    return app


class EmuPanel:
    """The side panel's middle for emulated tiles, and the pacing of emulated time (a
    controller of SimApp: app.py's hooks)."""

    def __init__(self, app, world):
        self.app = app
        self.world = world
        self.cluster = world.cluster

    @property
    def HELP(self):  # the name the panel looks for
        if self.app.can_view_as_player():
            return (*HELP, "V view as A / B / all   Esc quit")
        return (*HELP, "Esc quit")

    def on_frame(self, app):
        self.world.pump()
        app.note = self.world.lag_note()
        ahead = self.world.ahead_ms()
        if app.note and ahead >= 500:
            app.note += f"; your last input plays {ahead / 1000:.1f} s later on its tile"

    # -- what the panel says --------------------------------------------------------------------
    def games(self):
        """The game each tile booted (None: none yet)."""
        return [self.world.inspect(i).get("game") for i in self.world.tiles]

    def hint(self):
        """The line for a newcomer: what is going on, and what to do next."""
        world, cluster = self.world, self.cluster
        up = sum(event.is_set() for event in cluster.up)
        if up < cluster.n:
            return f"Starting MicroPython on the tiles ({up} of {cluster.n} up)..."
        games = self.games()
        if not any(games):
            if world.now < NO_GAME_AFTER_MS:
                return None
            folder = os.path.dirname(cluster.ports[0])
            return (
                "No game on the tiles yet. Flash one from another terminal: the two lines this "
                f"command printed (export BLINKS_PORTS=..., blinks flash --all). Ports: {folder}/"
                f"tty0 to tty{cluster.n - 1}."
            )
        host = self.app.host
        firmware = ":".join(getattr(host, "FIRMWARE", ()))
        others = sorted({g for g in games if g and g != firmware})
        if others:
            return f"The tiles run {', '.join(others)}; the table is {host.NAME}'s (--table NAME)."
        tip = getattr(host, "DEAL_TIP", None)
        states = [world.inspect(i).get("state") for i in world.tiles]
        if tip and all(s in (None, "undealt") for s in states):
            return tip
        return None

    def draw_panel(self, surface, panel, x, y):
        from simulator.app.panels import DIM, WARN, wrap

        app, t, px = self.app, panel.text, panel.px
        hint = self.hint()
        if hint:
            for line in wrap(hint, 40):
                y = t.blit(surface, line, (x, y), 18, WARN).bottom
            y += px(8)
        if getattr(app.host, "TOKENS", False):  # the table's coins, as the simulator shows them
            y = panel._draw_tokens(surface, app.tokens, x, y) + px(10)
        tid = app.hover if app.hover is not None else app.ops.last_touched
        if tid is None:
            self._draw_all(surface, panel, x, y)
            return
        y = self._draw_tile(surface, panel, tid, x, y)
        if app.view_as is not None:
            t.blit(surface, "(log hidden while viewing as a player)", (x, y), 16, DIM)
            return
        lines = [part for line in self.world.logs(tid) for part in wrap(line, 46)[:2]]
        height = t.font(16).get_sized_height()
        fits = max(0, int((panel.bottom - px(6) - y) // max(1, height)))
        for line in lines[-fits:] if fits else ():
            y = t.blit(surface, line, (x, y), 16, DIM).bottom

    def _draw_tile(self, surface, panel, tid, x, y):
        from simulator.app.panels import DIM, TEXT_COLOR, wrap

        app, world, t, px = self.app, self.world, panel.text, panel.px
        info = world.inspect(tid)
        pos = world.position(tid)
        where = "lifted" if pos is None else "({}, {}) rot {}".format(*pos)
        area = app.area_name(tid)
        words = getattr(app.host, "AREA_WORDS", {}).get(area) or (
            app.table.area(area).label if area else ""
        )
        y = t.blit(surface, f"Tile {tid}  {where}  {words}", (x, y), 22).bottom + px(2)
        for line in wrap(f"port {self.cluster.ports[tid]}", 46)[:2]:
            y = t.blit(surface, line, (x, y), 16, DIM).bottom
        piece = getattr(app.host, "PIECE", "shard")
        shown = app.piece_shown(tid, info)
        state = info.get("state") or ("no game" if info.get("game") is None else "-")
        y = t.blit(surface, f"state: {state}   {piece}: {shown}", (x, y), 20).bottom
        y = t.blit(surface, heap_words(info, world.now), (x, y), 18, TEXT_COLOR).bottom
        return y + px(6)

    def _draw_all(self, surface, panel, x, y):
        from simulator.app.panels import DIM, TEXT_COLOR

        world, t = self.world, panel.text
        y = t.blit(surface, "Tile  heap free  last line", (x, y), 16, DIM).bottom
        height = t.font(16).get_sized_height()
        for tid in world.tiles:
            if y + height > panel.bottom:
                break
            info = world.inspect(tid)
            heap = info.get("heap")
            kb = f"{heap['free'] / 1024:.0f}K" if heap else "-"
            logs = world.logs(tid)
            last = TILE_ID.sub("", logs[-1]) if logs else ""  # the row already says which tile
            room = panel.x + panel.width - panel.px(8) - x
            line = fitted(t.font(16), f"{tid:>2}  {kb:>5}  {last}", room)
            y = t.blit(surface, line, (x, y), 16, TEXT_COLOR if logs else DIM).bottom
        t.blit(surface, "(point at a tile for its log)", (x, y + panel.px(4)), 16, DIM)


TILE_ID = re.compile(r" tile=[0-9a-f]+")


def fitted(font, text, width):
    """`text`, shortened with an ellipsis until `font` draws it within `width` pixels."""
    if font.get_rect(text).width <= width:
        return text
    while text and font.get_rect(text + "…").width > width:
        text = text[:-1]
    return text.rstrip() + "…"


def heap_words(info, now_ms):
    """ "heap: 149.2 KB free, 40.1 KB used (12 s ago)", or why there is no figure."""
    heap = info.get("heap")
    if heap is None:
        if info.get("game") is None:
            return "heap: (a game logs it once booted)"
        return "heap: not logged yet"
    age = max(0, (now_ms - info.get("heap_ms", now_ms)) / 1000)
    return (
        f"heap: {heap['free'] / 1024:.1f} KB free, {heap['used'] / 1024:.1f} KB used "
        f"({age:.0f} s ago)"
    )


def announce(cluster, told, game=None):
    """Print `PORT <i> <path>` for each tile newly up (stdout), and once all are, how to flash
    them (stderr), as `blinks emu` without the window does, or with `game` (--game) what they
    hold and how to watch them. Returns the tiles told so far."""
    for i in range(cluster.n):
        if i not in told and cluster.up[i].is_set():
            told.add(i)
            print(f"PORT {i} {cluster.ports[i]}", flush=True)
            if len(told) == cluster.n:
                then = (
                    f"blinks emu: they hold {game}, dealt by a 6 s hold on tile 0; to watch "
                    "them, in another terminal:\n"
                    if game
                    else "blinks emu: to flash them, in another terminal:\n"
                )
                print(
                    f"blinks emu: {cluster.n} tile(s) ({cluster.shape}) in the window; close it "
                    "or Ctrl-C to stop\n"
                    + then
                    + f"  export BLINKS_PORTS={os.pathsep.join(cluster.ports)}\n"
                    + (
                        "  blinks monitor --all"
                        if game
                        else "  blinks flash --all && blinks monitor --all"
                    ),
                    file=sys.stderr,
                    flush=True,
                )
    return told


def run_loop(app, screen, stop, run_for=None, game=None):
    """Frames until the window closes, `stop` is set, or `run_for` emulated seconds pass; with
    the dummy driver (nobody watches), until `run_for` (0 if not given), in lockstep."""
    import pygame

    world, cluster = app.world, app.world.cluster
    unwatched = headless()
    limit = None if run_for is None else round(run_for * 1000)
    if unwatched and limit is None:
        limit = 0
    ticker = pygame.time.Clock()
    told = set()
    while not app.quit and not stop.is_set():
        events = pygame.event.get()
        for ev in events:
            app.handle_event(ev)
        gestures = app.gestures
        busy = bool(events) or gestures.drag is not None or gestures.pressed is not None
        announce(cluster, told, game)
        if limit is not None and world.now >= limit:
            break
        real_ms = FRAME_MS if unwatched else ticker.tick(FPS if busy else IDLE_FPS)
        ran = app.update(real_ms, limit)
        if not cluster.alive():
            raise EmuError("the emulator stopped")
        if unwatched and not ran:
            break
        if not unwatched:
            app.render(screen)
            pygame.display.flip()
    announce(cluster, told, game)
    app.render(screen)
    pygame.display.flip()


BOOTED_MS = 2500  # emulated ms by which flashed tiles have booted and linked up
DEAL_HOLD_MS = 6300  # a 6 s hold (runtime/button.py LONG_LONG_PRESS_MS) and a little more


def flash_game(game, cluster, firmware):
    """Give the cluster's tiles, before they start, `game`'s build as `blinks uf2`'s file
    leaves it on a Pico (host_tools.emu.flashed): made on the host, at once."""
    from host_tools.bridge.tile_uf2 import TileUf2Error
    from host_tools.emu.flashed import give_tiles, uf2_chip
    from simulator.mpy.build import BuildError, build

    try:
        give_tiles(uf2_chip(build(game), firmware), cluster.state_dir, cluster.n)
    except (BuildError, TileUf2Error) as exc:
        raise EmuError(f"cannot put {game} on the tiles: {exc}") from None


def run_window(args, firmware, bootrom, transceiver):
    """`blinks emu --window`: exit 0, 1 (the emulator failed), 2 (no window, bad input)."""
    hide_pygame_banner()
    import pygame

    no_window = open_display("blinks emu --window")
    if no_window:
        print(no_window, file=sys.stderr)
        return 2
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        cluster = EmuCluster(
            tiles=args.tiles,
            shape=args.shape,
            firmware=firmware,
            bootrom=bootrom,
            state_dir=args.state,
            mode="driven",  # the window says how far emulated time runs
            seed=args.seed,
            loss=args.loss,
            transceiver=transceiver,
        )
    except ValueError as exc:
        pygame.quit()
        print(f"blinks emu: {exc}", file=sys.stderr)
        return 2
    unwatched = headless()
    status = 0
    app = None
    try:
        if getattr(args, "game", None):
            flash_game(args.game, cluster, firmware)
        cluster.start(wait_up=False)
        if getattr(args, "game", None):
            # after the tiles have booted and found their neighbours, a 6 s hold deals
            cluster.press(0, DEAL_HOLD_MS, at_ms=BOOTED_MS)
        app = make_app(cluster, args.table, lockstep=unwatched, seed=args.seed)
        screen = pygame.display.set_mode((app.width, app.height))
        pygame.display.set_caption(f"blinks emu --window - {args.tiles} tile(s)")
        run_loop(app, screen, stop, args.run_for, getattr(args, "game", None))
        if args.screenshot:
            try:
                save_screenshot(screen, args.screenshot)
            except (pygame.error, OSError) as exc:
                print(
                    f"blinks emu: cannot save the screenshot {args.screenshot}: {exc}",
                    file=sys.stderr,
                )
                status = 2
    except (EmuSetupError, EmuError) as exc:
        print(f"blinks emu: {exc}", file=sys.stderr)
        status = 1
    finally:
        if app is not None:
            app.close()
        cluster.stop()
        pygame.quit()
    return status

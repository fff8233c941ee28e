"""Device entry: pick the HAL, load the game named in tile_config.json, run the loop.

`blinks flash` installs the firmware in its own directory fw/<build>/ and rewrites the
FIRMWARE_DIR line below to point at it; replacing main.py (by a rename) is the single atomic
step that switches a tile to new firmware. FIRMWARE_DIR None means the modules are already on
sys.path (CPython, or `MICROPYPATH=firmware micropython firmware/main.py`).

A boot that cannot load the game prints why and returns to the REPL, so the tile can always be
re-flashed. Lines starting `BLINKS ` are the bridge's (boot, fatal errors); the game logs its own.

On an rp2 board (hal/recovery.py): too old a MicroPython is refused with both versions named; a
crash restarts the tile and is counted; three quick crashes, or the button held at power-up,
boot into safe mode (no game, the REPL free); Ctrl-C from the host stops the game cleanly. The
loop runs a pass every `hal.pass_ms` (slower while the tile sleeps, faster while it listens
after deep sleep) and idles in between; once the cluster has settled asleep, a HAL that can (an
rp2 tile on battery) stops its clocks until its button, a face or USB power wakes it.

While awake the loop logs `BLINKS heap free=<bytes> used=<bytes>` after the first pass (the
game set up) and then every HEAP_LOG_MS, after a collection (so the figures are the live
objects', as the bench's rp2_heap_free_kb): the only report of a tile's MicroPython heap that
needs no REPL (`blinks emu --window` shows it). The check between passes allocates nothing; only
the line, once a minute, does.
"""

FIRMWARE_DIR = None

import gc
import sys
import time

CONFIG_FILE = "tile_config.json"
DEFAULT_GAME = "games.lostgems:LostGems"
HEAP_LOG_MS = 60000  # how often an awake tile logs its heap


def use_firmware_dir():
    if FIRMWARE_DIR and FIRMWARE_DIR not in sys.path:
        sys.path.insert(0, FIRMWARE_DIR)


def read_config():
    """The config as a dict; a missing or unreadable file means the default game."""
    import json

    path = (FIRMWARE_DIR + "/" if FIRMWARE_DIR else "") + CONFIG_FILE
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"game": DEFAULT_GAME}


def make_hal():
    """The rp2 HAL on an rp2 board, the headless one anywhere else (unix port, CPython).

    sys.platform rather than `import rp2`: on CPython the rp2 type stubs can make `rp2` import
    as an empty namespace package.
    """
    if sys.platform == "rp2":
        from hal.rp2_hal import Rp2Hal

        return Rp2Hal()
    from hal.headless import HeadlessHal

    return HeadlessHal()


def load_game_class(name):
    """'games.lostgems:LostGems' -> the class."""
    module_name, _, class_name = name.partition(":")
    module = __import__(module_name)
    for part in module_name.split(".")[1:]:
        module = getattr(module, part)
    return getattr(module, class_name)


def boot():
    """Everything that can fail at boot; returns (hal, tile)."""
    from runtime.tile import Tile

    use_firmware_dir()
    config = read_config()
    game_class = load_game_class(config.get("game", DEFAULT_GAME))
    hal = make_hal()
    tile = Tile(hal, game_class)
    hal.log(
        "BLINKS boot tile={} fw={} game={}".format(
            hex_of(hal.serial_number()), FIRMWARE_DIR or "-", config.get("game", DEFAULT_GAME)
        )
    )
    return hal, tile


def report(exc):
    if hasattr(sys, "print_exception"):
        sys.print_exception(exc)  # MicroPython
    else:  # CPython (MicroPython has no traceback module, so the type check must not see it)
        __import__("traceback").print_exception(exc)


def sleep_ms(ms):
    if hasattr(time, "sleep_ms"):
        time.sleep_ms(ms)
    else:
        time.sleep(ms / 1000)


def hex_of(data):
    return "".join(f"{b:02x}" for b in data)


def check_release():
    """The rp2 HAL's MicroPython requirement; a message when this board is too old, else None."""
    from hal.requirements import min_release, too_old

    release = __import__("os").uname().release
    if too_old(release):
        return f"BLINKS needs MicroPython {min_release()} or newer; this board runs {release}: flash a newer UF2"
    return None


def forget_modules(kept):
    """Drop the modules imported since `kept` was taken and collect, so the REPL a failed boot
    falls back to, and a re-flash through it, has the heap back: a half-imported game would
    otherwise hold it (on a board-sized heap a re-flash then failed to compile its 2 KB
    chunks). Only on MicroPython: a CPython process that called main() keeps its modules."""
    if sys.implementation.name != "micropython":
        return
    for name in list(sys.modules):
        if name not in kept:
            del sys.modules[name]
    __import__("gc").collect()


def main():
    kept = set(sys.modules)
    use_firmware_dir()
    recovery = None
    if sys.platform == "rp2":
        from hal import board
        from hal.recovery import Recovery

        problem = check_release()
        if problem:
            print(problem)
            return
        recovery = Recovery(board.BUTTON_PIN)
        if recovery.crashes:
            print(f"BLINKS crashes={recovery.crashes} last={recovery.last_reason}")
        reason = recovery.safe_mode_reason()
        if reason:
            print(f"BLINKS safe mode: {reason}; the REPL is free for a re-flash")
            return
    try:
        hal, tile = boot()
    except Exception as exc:  # noqa: BLE001  never brick a tile: report and fall back to the REPL
        print("BLINKS boot failed:", repr(exc))
        report(exc)
        forget_modules(kept)  # a game that fails to import does so before the HAL starts
        return
    run(hal, tile, recovery)


def flush_log(hal):
    """The game's last log lines before the tile stops or restarts (a second at most)."""
    serial_log = getattr(hal, "serial_log", None)
    if serial_log is not None:
        serial_log.flush(1000)


def log_heap(hal):
    """`BLINKS heap free=<bytes> used=<bytes>` after a collection; nothing where the gc module
    cannot say (CPython)."""
    if hasattr(gc, "mem_free"):
        gc.collect()
        hal.log(f"BLINKS heap free={gc.mem_free()} used={gc.mem_alloc()}")


def run(hal, tile, recovery):
    """The game loop: a pass every hal.pass_ms (hal.sleep_pass_ms while the tile sleeps,
    hal.listen_pass_ms while it listens after deep sleep, hal.share_pass_ms while it shares a
    build)."""
    awake_ms = getattr(hal, "pass_ms", 20)
    asleep_ms = getattr(hal, "sleep_pass_ms", awake_ms)
    sharing_ms = getattr(hal, "share_pass_ms", awake_ms)
    listening_ms = getattr(hal, "listen_pass_ms", sharing_ms)
    idle = getattr(hal, "idle", sleep_ms)  # the rp2 HAL writes its log lines meanwhile
    deep_sleep = getattr(hal, "deep_sleep", None)
    waking = False  # back from deep sleep, and not yet up for good (hal.woke_for_good)
    if recovery is not None:
        recovery.start(hal.millis())
    due = heap_due = hal.millis()
    try:
        while True:
            tile.step()
            now = hal.millis()
            if recovery is not None:
                recovery.feed(now)
            if now >= heap_due and not tile.asleep:
                log_heap(hal)
                heap_due = now + HEAP_LOG_MS
            if deep_sleep is not None and tile.settled_asleep() and hal.can_deep_sleep():
                # until the button, a face or USB wakes it (its clock stood still)
                source = deep_sleep()
                due = now = hal.millis()
                tile.woke_from_deep_sleep(now, source)
                waking = True
            elif waking and not (tile.asleep and hal.can_deep_sleep()):
                waking = False  # its game woke, or USB power keeps it up
                hal.woke_for_good(now)
            if tile.asleep and not tile.listening:
                due += asleep_ms
            elif tile.listening:  # woken from deep sleep
                due += listening_ms
            elif tile.hurry:  # sending or receiving a build (runtime/share.py)
                due += sharing_ms
            else:
                due += awake_ms
            if due > now:
                idle(due - now)
            else:
                due = now  # a slow pass: start the next one at once, without catching up
                idle(0)
    except KeyboardInterrupt:
        if recovery is not None:
            recovery.stopped_by_host()
        flush_log(hal)
        print("BLINKS stopped")
    except Exception as exc:  # noqa: BLE001  report, then restart (rp2) or fall back to the REPL
        if recovery is not None:
            recovery.disarm()  # a host that does not read must not turn the crash into a hang
        flush_log(hal)
        print("BLINKS game crashed:", repr(exc))
        report(exc)
        if recovery is not None:
            recovery.crashed(hal.millis(), exc)


if __name__ == "__main__":
    main()

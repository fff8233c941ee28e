"""`blinks diag`'s conversation with the tiles: every tile at once, one phase at a time.

Each tile is stopped (Ctrl-C: the game's loop takes it as "stopped by host", not a crash, and
disarms the watchdog) and soft-reset inside the raw REPL, where MicroPython does not run
main.py: the game's state machines, DMA channels and pins are freed and the heap is whole. The
checks run from RAM, sent as source (firmware/hal/diag_probe.py, then firmware/hal/diag.py)
with the tile's own build (the fw/<build>/ main.py names) first on sys.path, so they drive the
HAL the tile's game runs on. Nothing is written on the tile; at the end each tile leaves the
raw REPL and soft-reboots into its game, whatever happened before.

The phases, and why each runs where it does:

1. probe, every tile at once: release, board, serial, build; the game's pass time and heap
   (its neighbours run their probe too, so they talk to it meanwhile). Then a soft reset, so the
   probe's HAL is freed and its heap figure is the game's alone.
2. load, every tile at once: the link checks' source, and one Diag on the game's HAL.
3. echo, one tile at a time: a face must send while nothing else lights its detector.
4. discover, every tile at once: each face hears who touches it (diag_report pairs them).
5. exchange, every tile at once: N frames each way on every touching pair.
6. sweep, one direction of one pair at a time: B's PIO block is patched, and a tile's faces
   share a block, so two sweeps never share a tile.
7. pixels, every tile at once; 8. button, one tile at a time, with a prompt.

A tile that fails a phase (no answer, an exception on the tile) is left out of the later ones
and reported with the reason; the others go on.
"""

import json
import os
import threading
import time

from mpremote.transport import TransportError

from host_tools.bridge.diag_report import build_report, hearing, pairs_from, with_expected
from host_tools.bridge.link import LinkError, close, connect
from simulator.mpy.firmware_tree import FIRMWARE

PROBE_SOURCE = os.path.join(FIRMWARE, "hal", "diag_probe.py")
DIAG_SOURCE = os.path.join(FIRMWARE, "hal", "diag.py")

# A tile prints a dot every 250 ms of its own time during a phase, so a silence this long means
# it hangs. An emulated tile (`blinks emu`) can run 50 times slower than a board.
QUIET_S = 60.0
# No tile holds the command longer than this, whatever it does (a board needs under a minute).
SESSION_S = 3600.0
DISCOVER_MS = 1500
FRAMES = 50  # each way, on every touching pair
WARM_MS = 2000  # hal/diag.py: how long a side waits for the other to start its phase
REPLY_MS = 30  # hal/diag.py: how long an answer may take
SWEEP_MS = WARM_MS + 32 * 8 * (REPLY_MS + 10) + 2000  # B's longest wait: every step times out
EXCHANGE_MS = WARM_MS + FRAMES * (REPLY_MS + 10) + 1000
PIXEL_MS = 1000  # each face lit for a second
BUTTON_S = 15.0


class TileError(Exception):
    """A tile could not run a phase: unreachable, hung, or an exception on the tile."""


def parse_result(out):
    """The JSON line a phase ends with (after its heartbeat dots)."""
    text = out.decode(errors="replace").replace("\r", "")
    lines = [line.lstrip(".") for line in text.split("\n")]
    lines = [line for line in lines if line.strip()]
    if not lines:
        raise TileError("the tile printed no result")
    try:
        return json.loads(lines[-1])
    except ValueError:
        raise TileError(f"the tile printed {lines[-1][:80]!r}, not a result") from None


def tile_exception(err):
    """The last line of a traceback the tile printed: what it raised."""
    lines = [line for line in err.decode(errors="replace").replace("\r", "").split("\n") if line]
    return lines[-1] if lines else "an error with no message"


class TileSession:
    """One tile in the raw REPL for the whole diag: its phases, run one at a time."""

    def __init__(self, index, port):
        self.index = index
        self.port = port
        self.transport = None
        self.error = None  # why the tile dropped out, or None
        self.probe = None
        self.hello = None
        self.echo = None
        self.discover = None
        self.exchange = None
        self.sweeps = {}  # face -> what the face measured as A
        self.pixels = None
        self.button = None

    @property
    def alive(self):
        return self.transport is not None and self.error is None

    def open(self):
        """Stop the game (Ctrl-C), then a soft reset in the raw REPL: nothing of it is left."""
        self.transport = connect(self.port, overall=SESSION_S)
        self.soft_reset()

    def soft_reset(self):
        t = self.transport
        t.serial.write(b"\x04")  # Ctrl-D at the raw REPL's prompt: soft reset, main.py not run
        for ending in (b"soft reboot\r\n", b"raw REPL; CTRL-B to exit\r\n"):
            if not t.read_until(1, ending, timeout=QUIET_S).endswith(ending):
                raise TileError(f"no soft reset within {QUIET_S:.0f} s")

    def start(self, code):
        """Send code; it runs while we wait for it elsewhere (finish)."""
        self.transport.exec_raw_no_follow(code)

    def finish(self):
        try:
            out, err = self.transport.follow(QUIET_S)
        except LinkError:
            raise
        except TransportError:  # follow() gave up waiting for the end of the output
            raise TileError(f"the tile went silent for {QUIET_S:.0f} s (hung?)") from None
        if err:
            raise TileError(f"the tile raised {tile_exception(err)}")
        return parse_result(out)

    def call(self, code):
        self.start(code)
        return self.finish()

    def run_probe(self):
        with open(PROBE_SOURCE) as f:
            source = f.read()
        self.probe = self.call(source + "\nreport(probe())\n")
        if self.probe.get("error"):
            raise TileError(self.probe["error"])

    def load(self):
        """A fresh VM (the probe's HAL freed), the build on sys.path, the checks, one Diag."""
        self.soft_reset()
        with open(DIAG_SOURCE) as f:
            source = f.read()
        fw = self.probe["firmware_dir"]
        head = f"import sys\nsys.path.insert(0, {fw!r})\n"
        self.hello = self.call(head + source + "\n_d = Diag()\nreport(_d.hello())\n")

    def phase(self, call):
        """One of Diag's phases, by its call text (`echo()`); its result."""
        return self.call(f"report(_d.{call})")

    def close(self):
        if self.transport is not None:
            close(self.transport, restart=True)
            self.transport = None


def each_at_once(sessions, work):
    """work(session) on every live session, each on its own thread; a failure drops the tile.

    Ctrl-C waits for the running phases (each ends by its own deadline on the tile), so that
    every tile can then be restarted into its game."""
    threads = []
    for s in sessions:
        if s.error is None:
            th = threading.Thread(target=_guarded, args=(s, work), daemon=True)
            th.start()
            threads.append(th)
    interrupted = False
    for th in threads:
        while th.is_alive():
            try:
                th.join(0.2)
            except KeyboardInterrupt:
                interrupted = True
    if interrupted:
        raise KeyboardInterrupt


def _guarded(s, work):
    try:
        work(s)
    except (LinkError, TileError) as exc:
        s.error = str(exc)
    except Exception as exc:  # noqa: BLE001  a port that vanishes mid-phase: the tile drops out
        s.error = f"{type(exc).__name__}: {exc}"


def sweep(a, face_a, b, face_b):
    """Face face_a of tile a measures its shortest reply gap with tile b's face_b answering."""
    try:
        b.start(f"report(_d.sweep_answer({face_b}, {SWEEP_MS}))")
    except (LinkError, TileError, OSError) as exc:
        b.error = str(exc)
        return
    _guarded(a, lambda s: a.sweeps.__setitem__(face_a, s.phase(f"sweep_send({face_a})")))
    try:
        b.finish()
    except (LinkError, TileError, OSError) as exc:
        b.error = str(exc)


class DiagRun:
    """The diag of the tiles on `ports`, phase by phase; `say` tells the person what to do.

    `expect`: the pairs of faces the person put together ([((tile, face), (tile, face))]),
    so that one that hears nothing is told from a face with no neighbour (diag_report)."""

    def __init__(self, ports, expect=(), pixels=True, button=True, button_s=BUTTON_S, say=print):
        self.sessions = [TileSession(i, p) for i, p in enumerate(ports)]
        self.expect = list(expect)
        self.pixels = pixels
        self.button = button
        self.button_s = button_s
        self.say = say
        self.heard = {}
        self.strangers = {}
        self.pairs = []  # [((tile, face), (tile, face))], initiator first

    def report(self):
        return build_report(
            self.sessions,
            self.pairs,
            self.heard,
            self.strangers,
            self.expect,
            FRAMES,
            {"pixels": self.pixels, "button": self.button, "button_s": self.button_s},
        )

    def live(self):
        return [s for s in self.sessions if s.alive]

    def run(self):
        """Every phase, then every tile back to its game; the report (build_report's JSON),
        with the seconds each phase took (wall clock) under "seconds"."""
        steps = [
            ("open", lambda: each_at_once(self.sessions, TileSession.open)),
            ("probe", lambda: each_at_once(self.sessions, TileSession.run_probe)),
            ("load", lambda: each_at_once(self.sessions, TileSession.load)),
            ("echo", self._echo),
            ("discover", self._discover),
            ("exchange", self._exchange),
            ("sweep", self._sweeps),
        ]
        if self.pixels:
            steps.append(("pixels", self._pixels))
        if self.button:
            steps.append(("button", self._buttons))
        seconds = {}
        try:
            for name, step in steps:
                start = time.monotonic()
                step()
                seconds[name] = round(time.monotonic() - start, 1)
        finally:
            start = time.monotonic()
            for s in self.sessions:
                s.close()
            seconds["restart"] = round(time.monotonic() - start, 1)
        report = self.report()
        report["seconds"] = seconds
        return report

    def _echo(self):
        for s in self.live():  # one tile at a time: nothing else may light a detector
            _guarded(s, lambda s: setattr(s, "echo", s.phase("echo()")))

    def _discover(self):
        each_at_once(
            self.sessions, lambda s: setattr(s, "discover", s.phase(f"discover({DISCOVER_MS})"))
        )
        self.heard, self.strangers = hearing(
            [(s.index, (s.hello or {}).get("serial"), s.discover) for s in self.sessions]
        )
        self.pairs = with_expected(pairs_from(self.heard), self.expect)

    def _sweeps(self):
        for (ta, fa), (tb, fb) in self.pairs:
            a, b = self.sessions[ta], self.sessions[tb]
            for x, fx, y, fy in ((a, fa, b, fb), (b, fb, a, fa)):
                if x.alive and y.alive:
                    sweep(x, fx, y, fy)

    def _pixels(self):
        if not self.live():
            return
        self.say(
            "watch the tiles: each lights its faces white one at a time, "
            "face 0 (the top) first, then clockwise"
        )
        each_at_once(self.sessions, lambda s: setattr(s, "pixels", s.phase(f"pixels({PIXEL_MS})")))

    def _buttons(self):
        ms = int(self.button_s * 1000)
        for s in self.live():
            self.say(
                f"press the button on tile {s.index} ({s.port}) now "
                f"(it lights blue; {self.button_s:.0f} s)"
            )
            _guarded(s, lambda s: setattr(s, "button", s.phase(f"button({ms})")))

    def _exchange(self):
        roles = {s.index: [0] * 6 for s in self.sessions}
        for (ta, fa), (tb, fb) in self.pairs:
            roles[ta][fa] = 1
            roles[tb][fb] = 2

        def work(s):
            if any(roles[s.index]):
                s.exchange = s.phase(f"exchange({roles[s.index]}, {FRAMES}, {EXCHANGE_MS})")

        each_at_once(self.sessions, work)

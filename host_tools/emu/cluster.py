"""A cluster of emulated tiles: official MicroPython on emulated RP2040s, wired face to face.

One Node process (js/cluster.mjs) runs every board; this side gives each tile a serial port
(a pseudo-terminal, behind a stable path like /dev/ttyACM0) that `blinks flash`, `blinks
monitor` and mpremote use as they use a real board's USB serial, and drives the boards' pins:
the button, power, and the IR link's frame loss. Each tile's flash is an image file in the
state folder: stopping the cluster and starting it again on the same folder is a power cut.

    with EmuCluster(tiles=6, shape="blob", state_dir="emu") as cluster:
        print(cluster.ports)               # one serial port path per tile
        cluster.advance(500)               # driven mode: run 500 ms of emulated time
        cluster.press(0, 6000)             # hold tile 0's button for 6 s of emulated time
        cluster.leds(0)                    # the colours its WS2812 pixels show now

Modes: "realtime" (emulated time never runs ahead of the wall clock: for people), "fast" (flat
out) and "driven" (time moves only in `advance`: repeatable runs for tests). Each face's
detector is a model of the transceiver's receiver (transceiver.py; the datasheets' worst case
unless `transceiver=` says otherwise).
"""

import base64
import hashlib
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time

from hal import board

from host_tools.emu import images
from host_tools.emu.node_env import harness_dir, node_command
from host_tools.emu.tile_port import TilePort
from host_tools.emu.transceiver import DATASHEET_WORST
from simulator.world import grid, shapes

SHAPES = {"blob": shapes.blob, "line": shapes.line, "ring": shapes.ring}
OUTPUT_KEEP = 1 << 20  # bytes of each tile's serial output kept for inspection
LIFTED_APART = 100  # a lifted tile lies alone: cells this far apart never touch
HOST_POLL_MS = 50  # how often the pump looks whether a host process opened a port


def layout(n, shape):
    """Cells of the shape and the face-to-face wires between them: [(a, face, b, face)]."""
    cells = SHAPES[shape](n)
    where = {cell: i for i, cell in enumerate(cells)}
    wires = []
    for a, (q, r) in enumerate(cells):
        for face in range(3):  # each pair once: faces 0-2 of a meet faces 3-5 of b
            b = where.get(grid.neighbour_cell(q, r, face))
            if b is not None:
                wires.append((a, face, b, (face + 3) % 6))
    return cells, wires


def pixel_colour(rgb):
    """A decoded pixel (8-bit, as capped by board.PIXEL_MAX) back as the game's 15-bit colour."""
    r, g, b = (round(v * 31 / board.PIXEL_MAX) for v in rgb)
    return r << 10 | g << 5 | b


class EmuError(RuntimeError):
    pass


class EmuCluster:
    def __init__(
        self,
        tiles=1,
        shape="blob",
        firmware=None,
        bootrom=None,
        state_dir=None,
        mode="realtime",
        seed=0,
        loss=0.0,
        transceiver=DATASHEET_WORST,
        slice_us=None,
    ):
        if shape not in SHAPES:
            raise ValueError(f"shape must be one of {', '.join(SHAPES)}")
        self.n = tiles
        self.shape = shape
        self.cells, self.wires = layout(tiles, shape)
        self.firmware = images.firmware_path(firmware)
        self.bootrom = images.bootrom_path(bootrom)
        self._own_state = state_dir is None
        self.state_dir = os.path.abspath(state_dir or tempfile.mkdtemp(prefix="blinks-emu-"))
        os.makedirs(self.state_dir, exist_ok=True)
        self.mode = mode
        self.seed = seed
        self.loss = loss
        self.transceiver = transceiver
        self.slice_us = slice_us  # how far a CPU may run ahead of the fabric: speed only
        self.ports = [os.path.join(self.state_dir, f"tty{i}") for i in range(tiles)]
        self.now_ms = 0.0
        self.up = [threading.Event() for _ in range(tiles)]
        self.led_frames = [[] for _ in range(tiles)]  # (ms, [rgb * 6]) in order
        self.resets = [[] for _ in range(tiles)]  # (ms, cause)
        self.dormancy = [[] for _ in range(tiles)]  # (ms, "asleep" | "awake"): DORMANT
        self.output = [bytearray() for _ in range(tiles)]
        self._proc = None
        self._ports = []
        self._lock = threading.Lock()
        self._at = threading.Condition()
        self._replies = []
        self._reader = None
        self._running = False

    # ---- lifecycle ---------------------------------------------------------------------------
    def serial_of(self, i):
        """Tile i's 8-byte machine.unique_id(): kept in the state folder (tile<i>.id) from its
        first start, so a tile keeps it across restarts, as a board keeps its flash chip; made
        from the cluster's seed and the tile's index, never from the folder's path, so the same
        seed in a fresh folder gives the same tiles and the same run (ids made from a temporary
        folder's name had dealt a different table, and another rp2_deal_ms, every run)."""
        try:
            with open(self.id_path(i)) as f:
                serial = bytes.fromhex(f.read().strip())
            if len(serial) == 8:
                return serial
        except (OSError, ValueError):
            pass
        return hashlib.sha256(f"blinks-emu {self.seed} {i}".encode()).digest()[:8]

    def id_path(self, i):
        return os.path.join(self.state_dir, f"tile{i}.id")

    def flash_path(self, i):
        return os.path.join(self.state_dir, f"tile{i}.flash")

    def start(self, wait_up=True, timeout=120):
        node = node_command()
        folder = harness_dir()
        config = {
            "bootrom": self.bootrom,
            "firmware": self.firmware,
            "tiles": [
                {
                    "index": i,
                    "flash": self.flash_path(i),
                    "serial": self.serial_of(i).hex(),
                    "seed": (self.seed * 7919 + i * 104729 + 1) & 0xFFFFFFFF,
                }
                for i in range(self.n)
            ],
            "wires": self.wires,
            "pins": {
                "tx": list(board.IR_TX_PINS),
                "rx": list(board.IR_RX_PINS),
                "button": board.BUTTON_PIN,
                "pixel": board.PIXEL_PIN,
                "pixels": board.PIXEL_COUNT,
                "vbus": board.VBUS_SENSE_PIN,
            },
            "mode": self.mode,
            "seed": self.seed,
            "loss": self.loss,
            "transceiver": self.transceiver.as_config(),
            "slice_us": self.slice_us,
            "log": os.path.join(self.state_dir, "emulator.log"),
        }
        for i in range(self.n):
            if not os.path.exists(self.id_path(i)):
                serial = self.serial_of(i).hex()
                with open(self.id_path(i), "w") as f:
                    f.write(serial + "\n")
        self._ports = [TilePort(path) for path in self.ports]
        self._host_open = [False] * self.n
        for tile, port in zip(config["tiles"], self._ports):
            tile["pty_fd"] = port.master  # the emulator writes the device's output there
        config_path = os.path.join(self.state_dir, "cluster.json")
        with open(config_path, "w") as f:
            json.dump(config, f)
        self._proc = subprocess.Popen(
            [node, os.path.join(folder, "cluster.mjs"), config_path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=folder,
            pass_fds=[port.master for port in self._ports],
            start_new_session=True,  # Ctrl-C at a terminal reaches us, and we stop it
        )
        self._running = True
        self._reader = threading.Thread(target=self._pump, daemon=True)
        self._reader.start()
        if wait_up:
            self.wait_up(range(self.n), timeout)
        return self

    def wait_up(self, tiles, timeout=120):
        deadline = time.monotonic() + timeout
        for i in tiles:
            while not self.up[i].wait(0.2):
                if self.mode == "driven":
                    self.advance(20)
                if time.monotonic() > deadline or not self.alive():
                    raise EmuError(f"tile {i} did not come up ({self._exit_note()})")

    def wait_reset(self, tile, count, timeout=120):
        """Wait until `tile` has restarted `count` times in all; returns the last (ms, cause)."""
        deadline = time.monotonic() + timeout
        while len(self.resets[tile]) < count:
            if time.monotonic() > deadline or not self.alive():
                raise EmuError(f"tile {tile} did not restart ({self._exit_note()})")
            if self.mode == "driven":
                self.advance(20)
            else:
                time.sleep(0.05)
        return self.resets[tile][-1]

    def alive(self):
        return self._proc is not None and self._proc.poll() is None

    def _exit_note(self):
        if self._proc is None:
            return "not started"
        code = self._proc.poll()
        return "still running" if code is None else f"emulator exited with {code}"

    def stop(self):
        """Stop the emulator (a power cut for every tile: the flash images stay as they are)."""
        self._running = False
        if self._proc is not None:
            if self._proc.poll() is None:
                try:
                    os.killpg(self._proc.pid, signal.SIGTERM)
                    self._proc.wait(10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    os.killpg(self._proc.pid, signal.SIGKILL)
                    self._proc.wait(10)
            self._proc.stdin.close()
            self._proc.stdout.close()
        if self._reader is not None:
            self._reader.join(5)
        for port in self._ports:
            port.close()
        self._ports = []
        if self._own_state:
            shutil.rmtree(self.state_dir, ignore_errors=True)

    def kill(self):
        """Stop the emulator abruptly (SIGKILL), as a power cut at any instant."""
        if self._proc is not None and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGKILL)
        own, self._own_state = self._own_state, False
        self.stop()
        self._own_state = own

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # ---- commands ----------------------------------------------------------------------------
    def _send(self, **msg):
        with self._lock:
            self._send_locked(**msg)

    def _send_locked(self, **msg):
        try:
            self._proc.stdin.write((json.dumps(msg) + "\n").encode())
            self._proc.stdin.flush()
        except (BrokenPipeError, ValueError) as exc:
            raise EmuError(f"the emulator is gone ({self._exit_note()})") from exc

    def advance(self, ms, timeout=600):
        """Driven mode: run every tile `ms` of emulated time further; returns the new time."""
        target = self.now_ms + ms
        with self._at:
            self._send(cmd="run_until", t=target)
            self.mode = "driven"
            deadline = time.monotonic() + timeout
            while self.now_ms < target - 1e-6:
                if not self._at.wait(0.5) and (time.monotonic() > deadline or not self.alive()):
                    raise EmuError(f"emulated time stuck at {self.now_ms} ms ({self._exit_note()})")
        return self.now_ms

    def run_to(self, t_ms):
        """Driven mode, without waiting: let emulated time run on to `t_ms`; `now_ms` is there
        once it has arrived (what `advance` waits for)."""
        self.mode = "driven"
        self._send(cmd="run_until", t=t_ms)

    def set_mode(self, mode):
        self.mode = mode
        self._send(cmd="mode", mode=mode)

    def button(self, tile, down, at_ms=None):
        """Press (down) or release the button of `tile` at emulated time `at_ms` (default now)."""
        self._send(cmd="button", tile=tile, down=down, at=self.now_ms if at_ms is None else at_ms)

    def press(self, tile, ms, at_ms=None):
        """Hold the button for `ms` of emulated time, starting at `at_ms` (default now)."""
        start = self.now_ms if at_ms is None else at_ms
        self.button(tile, True, start)
        self.button(tile, False, start + ms)
        return start + ms

    def clicks(self, tile, count, at_ms=None, down_ms=60, gap_ms=140):
        """`count` clicks as a person makes them (see simulator.world: 60 ms down, 140 ms up)."""
        t = self.now_ms if at_ms is None else at_ms
        for _ in range(count):
            t = self.press(tile, down_ms, t) + gap_ms
        return t

    def power(self, tile, on):
        self._send(cmd="power", tile=tile, on=on)

    def usb_power(self, tile, on, at_ms=None):
        """USB power plugged into `tile` (on) or out at `at_ms` (default now): its VBUS sense
        pin goes high or low (the emulated USB host is not changed)."""
        self._send(cmd="vbus", tile=tile, high=on, at=self.now_ms if at_ms is None else at_ms)

    def shine(self, tile, faces, pulses, every_ms=None, until_ms=None):
        """Light that is no tile's on `faces` of `tile` (host_tools/emu/ambient.py's shapes):
        `pulses` [(on_ms, off_ms), ...] in emulated ms, none before now; with `every_ms`, again
        that much later each time, none from `until_ms` on (a lamp left on, a key held)."""
        repeat = {} if every_ms is None else {"every": every_ms}
        if until_ms is not None:
            repeat["until"] = until_ms
        self._send(
            cmd="shine", tile=tile, faces=list(faces), pulses=[list(p) for p in pulses], **repeat
        )

    def lift(self, tile):
        """Take `tile` away from all its neighbours: it lies alone, on a spot of its own far from
        the others (its port stays)."""
        self.cells[tile] = (LIFTED_APART * (tile + 1), LIFTED_APART)
        self._send(cmd="part", tile=tile)

    def place(self, tile, beside, face):
        """Wire face `face` of tile `beside` to the opposite face of `tile`: one pair only, and
        `cells` is not told (move_to lays a tile down among others)."""
        self._send(cmd="join", a=beside, fa=face, b=tile, fb=(face + 3) % 6)

    def tile_on(self, cell):
        """The tile lying on `cell` (axial q, r), or None."""
        return next((i for i, c in enumerate(self.cells) if c == tuple(cell)), None)

    def move_to(self, tile, cell):
        """Pick `tile` up and lay it on `cell`: each of its faces touching a tile is wired, as a
        tile put down among others touches all of them. ValueError if another tile is there."""
        cell = tuple(cell)
        there = self.tile_on(cell)
        if there is not None and there != tile:
            raise ValueError(f"tile {there} lies there")
        self.lift(tile)
        self.cells[tile] = cell
        for face in range(6):
            other = self.tile_on(grid.neighbour_cell(*cell, face))
            if other is not None:
                self.place(tile, other, (face + 3) % 6)

    def rewire(self, tile, wires, cell=None):
        """Take `tile` from all its neighbours and put it against others: `wires` holds (face
        of tile, other tile, face of other) for every face it touches, so a turned tile touches
        by the faces it turns to them (move_to lays tiles as they were started, unturned).
        `cell`: where it now lies, for `cells` (else it is where lift puts it)."""
        self.lift(tile)
        if cell is not None:
            self.cells[tile] = tuple(cell)
        for face, other, other_face in wires:
            self._send(cmd="join", a=other, fa=other_face, b=tile, fb=face)

    def set_loss(self, loss):
        self._send(cmd="loss", loss=loss)

    def set_transceiver(self, transceiver):
        """Every face's detector takes these figures (transceiver.Transceiver) from now on."""
        self.transceiver = transceiver
        self._send(cmd="transceiver", model=transceiver.as_config())

    def write(self, tile, data):
        """Bytes to a tile's USB serial, as a host would send them."""
        self._send(cmd="serial", tile=tile, data=base64.b64encode(bytes(data)).decode())

    def stats(self, timeout=30):
        with self._at:
            self._send(cmd="stats")
            deadline = time.monotonic() + timeout
            while not self._replies:
                if not self._at.wait(0.5) and time.monotonic() > deadline:
                    raise EmuError("no stats from the emulator")
            return self._replies.pop(0)

    # ---- what the tiles show -----------------------------------------------------------------
    def leds(self, tile):
        """The six pixel colours (r, g, b) the tile shows now; None before its first write."""
        frames = self.led_frames[tile]
        return frames[-1][1] if frames else None

    def colours(self, tile):
        """The same as the game's 15-bit colours (what it passed to set_color), or None."""
        rgb = self.leds(tile)
        return None if rgb is None else [pixel_colour(p) for p in rgb]

    def log_lines(self, tile):
        """The tile's serial output as complete lines (a line still arriving is left out: the
        firmware writes its log a byte at a time between passes)."""
        text = bytes(self.output[tile]).decode(errors="replace").replace("\r", "")
        return text.split("\n")[:-1]

    # ---- the pump: emulator events out, host bytes in ----------------------------------------
    def _pump(self):
        out = self._proc.stdout.fileno()
        buf = b""
        while self._running:
            poll = select.poll()
            poll.register(out, select.POLLIN)
            for i, port in enumerate(self._ports):
                if self._host_open[i]:
                    poll.register(port.master, select.POLLIN)  # what the host writes
            try:
                ready = poll.poll(HOST_POLL_MS)
            except (OSError, ValueError):
                return
            for fd, ev in ready:
                if fd == out:
                    try:
                        chunk = (
                            os.read(fd, 1 << 16) if ev & (select.POLLIN | select.POLLHUP) else b""
                        )
                    except OSError:  # the cluster was closed under us (stop() closes the pipe)
                        chunk = b""
                    if not chunk:
                        self._running = False
                        with self._at:
                            self._at.notify_all()
                        return
                    buf += chunk
                    *lines, buf = buf.split(b"\n")
                    for line in lines:
                        self._event(json.loads(line))
            self._watch_hosts()  # before forwarding: the device sees DTR before the bytes
            for fd, ev in ready:
                tile = next((i for i, p in enumerate(self._ports) if p.master == fd), None)
                if tile is not None and ev & select.POLLIN:
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        continue
                    if data:
                        self.write(tile, data)

    def _watch_hosts(self):
        """Tell the emulator when a host process opens or closes a tile's port (its DTR)."""
        with self._lock:
            for i, port in enumerate(self._ports):
                now_open = port.host_open()
                if now_open != self._host_open[i]:
                    port.drop_unread()
                    self._host_open[i] = now_open
                    self._send_locked(cmd="host", tile=i, open=now_open)

    def hold_port(self, tile):
        """Open tile's port and never read it: a host that connects (sets DTR) and then does
        not read. Once the terminal is full (about 20 KB here, as a computer's serial driver
        holds a few KB), the device's USB stops sending and MicroPython's print blocks."""
        self._ports[tile].hold()
        self._watch_hosts()

    def release_port(self, tile):
        self._ports[tile].release()
        self._watch_hosts()

    def _event(self, msg):
        ev = msg["ev"]
        if ev == "serial":
            data = base64.b64decode(msg["data"])
            tile = msg["tile"]
            self.output[tile] += data
            if len(self.output[tile]) > OUTPUT_KEEP:
                del self.output[tile][: len(self.output[tile]) - OUTPUT_KEEP]
        elif ev == "leds":
            self.led_frames[msg["tile"]].append((msg["t"], [tuple(p) for p in msg["rgb"]]))
        elif ev == "up":
            self.up[msg["tile"]].set()
        elif ev == "reset":
            self.resets[msg["tile"]].append((msg["t"], msg["cause"]))
            self.up[msg["tile"]].clear()
        elif ev == "dormant":
            self.dormancy[msg["tile"]].append((msg["t"], "asleep" if msg["asleep"] else "awake"))
        elif ev in ("at", "stats"):
            with self._at:
                if ev == "at":
                    self.now_ms = msg["t"]
                else:
                    self.now_ms = max(self.now_ms, msg["t"])
                    self._replies.append(msg)
                self._at.notify_all()

"""The world's side of co-simulation: a tile runner that forwards to a `micropython` process.

The world drives every tile through its SimHal and a runner with `step()`, `inspect()` and
`reset()`; in-process, the runner is the runtime's `Tile`. `MpyTileRunner` has the same face but
runs the firmware in a real MicroPython process: each step it drains the SimHal's inputs into one
request, and replays the reply's outputs (frames, LED frames, log lines, saves) on the SimHal.
Entropy and storage reads are answered from the SimHal while the step runs, so the firmware sees
exactly the values an in-process tile would, and a co-simulated run matches it bit for bit.
"""

import os
import select
import shutil
import subprocess
import sys
import tempfile

from simulator.cosim import protocol
from simulator.mpy import host_micropython
from simulator.mpy.firmware_tree import FIRMWARE

FACE_COUNT = 6
HERE = os.path.dirname(os.path.abspath(__file__))
HOST_SCRIPT = os.path.join(HERE, "tile_host.py")
BOARD_HEAP = host_micropython.BOARD_HEAP  # what a tile's MicroPython has left for the firmware
REPLY_TIMEOUT_S = 60.0  # a step that takes this long has hung (an endless loop in the firmware)


class CosimError(RuntimeError):
    """The MicroPython side failed, hung, or disagreed with the world."""


def firmware_root():
    """The folder that holds runtime/, games/, hal/ (copied to a board's root on real tiles)."""
    return FIRMWARE


_compiled = {}  # firmware folder -> its compiled build's folder, once per process


def compiled_firmware(firmware_dir=FIRMWARE):
    """The firmware as `blinks flash` lays it on a tile's flash: every module compiled to .mpy
    (simulator.mpy.build), written once per build under the system's temporary folder; returns
    that build's folder. Tiles on MicroPython import it, as a real tile imports its build: the
    same bytecode in the heap, and no parse trees of a compile left between the game's objects
    (compiling the sources on a board-sized heap fragmented it until 640 bytes did not
    fit in 108K free)."""
    if firmware_dir not in _compiled:
        from simulator.mpy.build import build

        image = build(firmware_dir=firmware_dir).for_arch(host_micropython.native_arch())
        root = os.path.join(tempfile.gettempdir(), f"blinks-cosim-{image.build}-{image.arch}")
        if not os.path.isdir(root):
            staging = tempfile.mkdtemp(prefix=".blinks-cosim-")
            image.write_under(staging)
            try:
                os.rename(staging, root)  # whole or not at all, whoever writes it first
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)
        _compiled[firmware_dir] = os.path.join(root, *image.fw_dir.split("/"))
    return _compiled[firmware_dir]


def micropython_command():
    """The host's MicroPython (simulator.mpy.host_micropython), or CosimError when it has none."""
    found = host_micropython.micropython_command()
    if not found:
        raise CosimError(host_micropython.not_found_message())
    return found


def game_location(game_class):
    """('module:Class', import root) for a game class, so the tile host can import it too."""
    module_name = game_class.__module__
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    if (
        module_name == "__main__"
        or not path
        or getattr(module, game_class.__name__, None) is not game_class
    ):
        raise CosimError(
            f"{game_class.__name__} must be defined at the top level of an importable module"
            " to run on MicroPython"
        )
    root = os.path.dirname(os.path.abspath(path))
    depth = module_name.count(".") + (1 if os.path.basename(path) == "__init__.py" else 0)
    for _ in range(depth):
        root = os.path.dirname(root)
    return f"{module_name}:{game_class.__name__}", root


class MpyTileRunner:
    """Runs one tile's firmware in a MicroPython process, in lockstep with the world.

    `interpreter="cpython"` runs the same tile host under this Python instead, which separates
    faults in the protocol from differences between MicroPython and CPython.
    """

    def __init__(
        self, hal, game_class, heap=BOARD_HEAP, interpreter="micropython", timeout_s=REPLY_TIMEOUT_S
    ):
        self.hal = hal
        self.timeout_s = timeout_s
        self.game_class = game_class
        self.interpreter = interpreter
        self.micropython = interpreter == "micropython"
        self.stray_output = []  # lines the firmware printed instead of logging
        self._spec, game_root = game_location(game_class)
        self._buffer = bytearray()
        self._booting = False
        env = dict(os.environ)
        if interpreter == "micropython":
            # the compiled build a tile runs; the game's own root if it lies elsewhere
            roots = [compiled_firmware(), HERE] + ([game_root] if game_root != FIRMWARE else [])
        else:
            roots = [firmware_root(), HERE, game_root]
        path = os.pathsep.join(dict.fromkeys(roots))  # no duplicates, order kept
        if interpreter == "micropython":
            command = [micropython_command(), "-X", "heapsize=" + heap, HOST_SCRIPT]
            env["MICROPYPATH"] = ".frozen" + os.pathsep + path  # the port's frozen modules too
        elif interpreter == "cpython":
            command = [sys.executable, HOST_SCRIPT]
            env["PYTHONPATH"] = path
        else:
            raise ValueError(f"interpreter must be 'micropython' or 'cpython', not {interpreter!r}")
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            bufsize=0,
            close_fds=True,
        )
        self._boot()

    # --- the runner interface the world uses ---

    def step(self):
        """One loop pass of the firmware at the world's current time, replayed on the SimHal."""
        self._settle()
        hal = self.hal
        now = hal.millis()
        frames = []
        for face in range(FACE_COUNT):
            for ms, data in hal.receive_frames(face):
                frames.append([face, ms, protocol.to_hex(data)])
        self._write(
            {
                "op": "step",
                "t": now,
                "b": [[ms, down] for ms, down in hal.button_edges()],
                "f": frames,
                # faces the SimHal would refuse a frame on (its rule, as the IR model applies it);
                # a mismatch cannot pass silently: every replayed send is checked below
                "busy": [face for face in range(FACE_COUNT) if hal.face_busy(face)],
            }
        )
        reply = self._read_reply("done")
        for face, data in reply["s"]:
            if not hal.send_frame(face, protocol.from_hex(data)):
                raise CosimError(f"face {face} was busy in the world but free in MicroPython")
        for colors in reply["c"]:
            hal.show(colors)
        for line in reply["l"]:
            hal.log(line)
        for blob in reply["v"]:
            hal.save(protocol.from_hex(blob))

    def inspect(self):
        """The tile's `inspect()` as it crossed the pipe in JSON (tuples arrive as lists), plus
        "micropython": True so a window can mark the tile, and on MicroPython "heap":
        {"used": live bytes, "free": bytes left} of its board-sized heap."""
        self._settle()
        self._write({"op": "inspect"})
        view = self._read_reply("inspect")["v"]
        view["micropython"] = self.micropython
        return view

    def reset(self):
        """Power cycle: a fresh game instance in the same process; storage stays in the world."""
        self._settle()
        self._boot()

    def close(self):
        """End the MicroPython process (the world calls this when it is done with the tile)."""
        process = self._process
        if process.poll() is None:
            try:
                process.stdin.close()
                process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
        self._stderr.close()

    def __del__(self):
        # A world dropped without close(): do not leave the process behind.
        process = getattr(self, "_process", None)
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    # --- the pipe ---

    def _boot(self):
        """Ask for a fresh Tile built at the world's time now. The reply is read at the next
        request, so the processes of a whole cluster start up side by side; the firmware's boot
        draws entropy from this tile's own generator, which nothing else touches meanwhile."""
        hal = self.hal
        serial = protocol.to_hex(hal.serial_number())
        self._write({"op": "boot", "t": hal.millis(), "game": self._spec, "serial": serial})
        self._booting = True

    def _settle(self):
        """Finish a boot still under way (a game that fails to build raises here)."""
        if self._booting:
            self._booting = False
            self._read_reply("ready")

    def _write(self, message):
        data = memoryview(protocol.frame(message))
        fd = self._process.stdin.fileno()
        try:
            while data:
                data = data[os.write(fd, data) :]
        except BrokenPipeError:
            raise CosimError(f"the MicroPython process ended: {self._stderr_text()}") from None

    def _read_reply(self, expected):
        """The next reply, answering the firmware's HAL calls on the way."""
        while True:
            message = self._read_message()
            op = message["op"]
            if op == "call":
                self._write({"op": "ret", "v": self._answer(message["m"])})
            elif op == "error":
                raise CosimError(f"firmware failed under {self.interpreter}:\n{message['trace']}")
            elif op == expected:
                return message
            else:
                raise CosimError(f"expected a {expected!r} reply, got {op!r}")

    def _answer(self, method):
        if method == "entropy":
            return self.hal.entropy()
        if method == "load":
            return protocol.to_hex(self.hal.load())
        raise CosimError(f"the tile host asked for an unknown HAL call {method!r}")

    def _read_message(self):
        while True:
            line = self._read_line()
            if line.startswith(b"{"):
                try:
                    return protocol.decode(line)
                except ValueError:
                    pass
            self.stray_output.append(line.decode("utf-8", "replace"))

    def _read_line(self):
        fd = self._process.stdout.fileno()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([fd], [], [], self.timeout_s)
            if not ready:
                self._process.kill()  # its state is unknown now: it cannot go on in lockstep
                self._process.wait()
                raise CosimError(
                    f"no reply from the tile's process in {self.timeout_s:g} s:"
                    " the firmware hangs (or the machine is far too slow)"
                )
            chunk = os.read(fd, 65536)
            if not chunk:
                self._process.wait()
                raise CosimError(f"the MicroPython process ended: {self._stderr_text()}")
            self._buffer += chunk
        end = self._buffer.index(b"\n")
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        return line

    def _stderr_text(self):
        self._stderr.seek(0)
        text = self._stderr.read().decode("utf-8", "replace").strip()
        return text[-2000:] or f"(nothing on stderr, exit code {self._process.poll()})"

"""The tile host: runs one tile's firmware inside a `micropython` process, driven over stdin/stdout.

Started by `simulator.cosim.runner.MpyTileRunner` as

    MICROPYPATH=<the compiled build>:<simulator/cosim>[:<game root>] micropython -X heapsize=192K tile_host.py

It answers one request line with one reply line (see protocol), so the world drives the
firmware step by step and a co-simulated run is as deterministic as an in-process one. It also
runs under CPython (PYTHONPATH instead of MICROPYPATH), which the tests use to tell protocol
faults apart from MicroPython differences.
"""

import gc
import sys

from runtime.tile import Tile

try:  # CPython, imported as part of the simulator package (the tests do)
    from simulator.cosim import protocol
    from simulator.cosim.pipe_hal import CosimHal
except ImportError:  # the tile host process: simulator/cosim is on MICROPYPATH / PYTHONPATH
    import protocol  # type: ignore[import-not-found, no-redef]
    from pipe_hal import CosimHal  # type: ignore[import-not-found, no-redef]


def load_game(spec):
    """'package.module:Class' -> the class (imported from the MICROPYPATH roots)."""
    module_name, _, class_name = spec.partition(":")
    __import__(module_name)
    return getattr(sys.modules[module_name], class_name)


def format_exception(exc):
    """The traceback as text, on MicroPython and on CPython."""
    try:
        import io

        buf = io.StringIO()
        sys.print_exception(exc, buf)  # MicroPython
        return buf.getvalue()
    except AttributeError:
        import traceback

        return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


class TileHost:
    """One tile, one pipe: decode a request, act, encode the reply."""

    def __init__(self, stdin, stdout):
        self._in = stdin
        self._out = stdout
        self.hal = None
        self.tile = None
        self.stopped = None  # the traceback of the failure that stopped the tile

    def send(self, message):
        self._out.write(protocol.encode(message))
        flush = getattr(self._out, "flush", None)
        if flush:
            flush()

    def receive(self):
        request = protocol.read_request(self._in)
        if request is None:
            raise ValueError("the world closed the pipe in the middle of a step")
        return request

    def call(self, method):
        """Ask the world for a HAL answer in the middle of a step."""
        self.send({"op": "call", "m": method})
        reply = self.receive()
        if reply["op"] != "ret":
            raise ValueError(f"expected the answer to {method}, got {reply['op']!r}")
        value = reply["v"]
        return protocol.from_hex(value) if method == "load" else value

    def boot(self, request):
        self.hal = CosimHal(request["t"], protocol.from_hex(request["serial"]), self.call)
        self.tile = Tile(self.hal, load_game(request["game"]))
        self.stopped = None
        return {"op": "ready"}

    def step(self, request):
        hal = self.hal
        frames = [(face, ms, protocol.from_hex(data)) for face, ms, data in request["f"]]
        hal.begin_step(request["t"], request["b"], frames, request["busy"])
        self.tile.step()
        return {
            "op": "done",
            "s": [[face, protocol.to_hex(data)] for face, data in hal.sent],
            "c": hal.shown,
            "l": hal.logged,
            "v": [protocol.to_hex(blob) for blob in hal.saved],
        }

    def inspect(self):
        # "heap": what the firmware really holds on MicroPython (live bytes after a collection,
        # and what is left of the board-sized heap); absent under CPython.
        view = self.tile.inspect()
        if hasattr(gc, "mem_alloc"):
            gc.collect()
            view["heap"] = {"used": gc.mem_alloc(), "free": gc.mem_free()}
        return {"op": "inspect", "v": view}

    def handle(self, request):
        op = request["op"]
        if op == "boot":
            return self.boot(request)
        if self.stopped is not None:
            return {"op": "error", "trace": self.stopped}
        if op == "step":
            return self.step(request)
        if op == "inspect":
            return self.inspect()
        raise ValueError(f"unknown request {op!r}")

    def serve(self):
        """Answer requests until the world closes the pipe."""
        while True:
            try:
                request = protocol.read_request(self._in)
            except ValueError as exc:  # out of step with the world: say so once and stop
                self.send({"op": "error", "trace": "bad request: " + str(exc)})
                return
            if request is None:
                return
            try:
                reply = self.handle(request)
            except Exception as exc:  # noqa: BLE001 - any firmware failure is reported to the world
                self.stopped = format_exception(exc)
                reply = {"op": "error", "trace": self.stopped}
            self.send(reply)


def main():
    TileHost(sys.stdin.buffer, sys.stdout.buffer).serve()


if __name__ == "__main__":
    main()

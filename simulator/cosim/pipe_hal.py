"""The co-simulation HAL: the runtime's hardware, as seen from inside a `micropython` process.

The world owns the real state (clock, links, storage, the per-tile seed); this HAL holds only
what one step needs. Each step request fills it (time, raw button edges, received frames, which
faces are still transmitting) and each step reply carries back what the firmware did (frames
sent, LED frames shown, log lines, saves). The two rare calls whose answer only the world knows
(entropy, load) go over the pipe at once, so the firmware gets exactly the values the world's
in-process HAL would give it. Inputs the firmware did not collect in a step stay queued here,
just as they would stay queued in the world's HAL.

Runs under MicroPython and CPython: no typing, no dict-order dependence.
"""

from runtime.hal_contract import Hal

FACE_COUNT = 6


class CosimHal(Hal):
    """A Hal whose inputs arrive in step requests and whose outputs leave in step replies."""

    def __init__(self, now, serial, call):
        # `call(method)` asks the world for the answer to a HAL call (see protocol.CALLS).
        self._serial = serial
        self._call = call
        self._now = now
        self._edges = []
        self._frames = [[] for _ in range(FACE_COUNT)]
        self._busy = [False] * FACE_COUNT
        self.rx_frame = b""
        self.rx_ms = 0
        self.begin_step(now, [], [], [])

    def begin_step(self, now, edges, frames, busy):
        """Take one step request's inputs; clears the outputs of the previous step."""
        self._now = now
        for ms, down in edges:
            self._edges.append((ms, down))
        for face, ms, data in frames:
            self._frames[face].append((ms, data))
        self._busy = [False] * FACE_COUNT
        for face in busy:
            self._busy[face] = True
        self.sent = []
        self.shown = []
        self.logged = []
        self.saved = []

    # --- the Hal interface (firmware/runtime/hal_contract.py) ---

    def millis(self):
        return self._now

    def button_edges(self):
        edges = self._edges
        self._edges = []
        return edges

    def send_frame(self, face, data):
        # A face that was transmitting when the step began, or that already started a frame in
        # this step, refuses: the world checks each answer when it replays the sends.
        if self._busy[face]:
            return False
        self._busy[face] = True
        self.sent.append((face, bytes(data)))
        return True

    def receive_frame(self, face):
        frames = self._frames[face]
        if not frames:
            return 0
        self.rx_ms, self.rx_frame = frames.pop(0)
        return len(self.rx_frame)

    def show(self, colors):
        self.shown.append([int(c) for c in colors])

    def entropy(self):
        return self._call("entropy")

    def serial_number(self):
        return self._serial

    def load(self):
        # A save made earlier in this step has not reached the world yet: answer it here.
        if self.saved:
            return self.saved[-1]
        return self._call("load")

    def save(self, data):
        self.saved.append(bytes(data))

    def log(self, text):
        self.logged.append(str(text))

"""The simulator's HAL: one per tile, the queues between a tile's runtime and the world.

The world writes inputs into it (button edges, frames arriving on faces) and reads outputs from
it (LED colours, log lines, storage). Frames a tile sends go to the world's infrared model
(`IrModel.transmit`), which decides if, when and how they arrive at the paired face. A SimHal is
also what a co-simulation runner forwards a real MicroPython process's HAL calls to.
"""

import random

from runtime.hal_contract import Hal

FACES = 6
LOG_LINES = 200
_EMPTY = ()


class SimHal(Hal):
    """A tile's hardware, simulated. `world` provides `now` and `ir` (the link model)."""

    def __init__(self, world, tile_id: int, seed: int):
        self.world = world
        self._transmit = world.ir.transmit
        self.tile_id = tile_id
        rng = random.Random(seed)
        self._entropy = random.Random(rng.getrandbits(64))
        self._serial = bytes(rng.getrandbits(8) for _ in range(8))
        self.edges: list[tuple[int, bool]] = []  # (ms, down) not yet taken by the runtime
        self.inbox: list[list[tuple[int, bytes]]] = [
            [] for _ in range(FACES)
        ]  # (arrival ms, bytes), in arrival order
        self.tx_until = [0] * FACES  # a face transmits until this ms
        self.rx_until = [0] * FACES  # light from the neighbour reaches the face until this ms
        self.peers: list[tuple[SimHal, int] | None] = [
            None
        ] * FACES  # (other SimHal, other face) or None
        self.leds = [0] * FACES
        self.rx_frame = b""  # the frame receive_frame() last handed over, and when it arrived
        self.rx_ms = 0
        self.storage: bytes | None = None
        self.builds = None  # a build store (simulator/world/build_store.py) makes it share
        self.log_lines: list[tuple[int, str]] = []

    def clear_queues(self) -> None:
        """Forget inputs not yet taken (a power cycle)."""
        self.edges = []
        for f in range(FACES):
            self.inbox[f] = []

    # ---- Hal ----

    def millis(self) -> int:
        return self.world.now

    def button_edges(self):
        edges = self.edges
        if not edges:
            return _EMPTY
        self.edges = []
        return edges

    def send_frame(self, face: int, data) -> bool:
        return self._transmit(self, face, data)

    def send_frames(self, face: int, frames) -> int:
        return self.world.ir.transmit_train(self, face, frames)

    def build_store(self):
        return self.builds

    def face_busy(self, face: int) -> bool:
        """Whether `send_frame` on this face would be refused now: still transmitting, or a
        frame arriving (carrier sense). Not part of `Hal`: a co-simulated tile is told this
        before its pass, so it must agree with `IrModel.transmit`."""
        now = self.world.now
        return self.tx_until[face] > now or self.rx_until[face] > now

    def receive_frames(self, face: int):
        """Every frame that has arrived on a face, as (ms, bytes) (the co-simulation forwards
        them to its MicroPython process, where the runtime takes them with receive_frame)."""
        box = self.inbox[face]
        if not box:
            return _EMPTY
        now = self.world.now
        if box[-1][0] <= now:
            self.inbox[face] = []
            return box
        if box[0][0] > now:  # everything still on the way
            return _EMPTY
        ready = [fr for fr in box if fr[0] <= now]
        self.inbox[face] = [fr for fr in box if fr[0] > now]
        return ready

    def receive_frame(self, face: int) -> int:
        box = self.inbox[face]
        if not box or box[0][0] > self.world.now:
            return 0
        self.rx_ms, self.rx_frame = box.pop(0)
        return len(self.rx_frame)

    def show(self, colors) -> None:
        self.leds[:] = colors

    def entropy(self) -> int:
        return self._entropy.getrandbits(32)

    def serial_number(self) -> bytes:
        return self._serial

    def load(self):
        return self.storage

    def save(self, data) -> None:
        self.storage = bytes(data)  # one assignment: atomic, like write-then-rename on a tile

    def log(self, text: str) -> None:
        lines = self.log_lines
        lines.append((self.world.now, str(text)))
        if len(lines) > LOG_LINES:
            del lines[: len(lines) - LOG_LINES]

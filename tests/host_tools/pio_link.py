"""Infrared faces on the rp2040-pio-emulator: the firmware's PIO program, two faces in light.

Each face is one state machine running `ir_face` (firmware/hal/ir_pio.py) on its own clock,
with its own rate (clock skew) and start phase. Faces are stepped in time order, so what one
face's emitter does reaches the other face's detector with the link's latency, as light does;
a face also sees its own light (the transceiver's echo) when `echo` is set. Around each state
machine, the parts of the rp2 HAL that are not PIO are modelled as the hardware does them: a
DMA channel empties the RX FIFO into a ring buffer as soon as a byte is pushed and another
keeps the TX FIFO full from the frame's halfwords; the CPU reads the ring with the HAL's own
FrameReader only every `drain_clocks`, so a slow loop pass shows up as ring overflow.

pioemu has no STATUS source for MOV (RP2040 datasheet 3.4.8); `status_source` adds it with the
meaning the firmware configures (EXECCTRL.STATUS_N: all ones while the TX FIFO holds fewer).
This is test scaffolding: nothing here runs on a tile.
"""

import contextlib
from collections import deque
from dataclasses import replace

import pioemu.emulation as pioemu_emulation
import pioemu.instructions.pull as pioemu_pull
import pioemu.instructions.push as pioemu_push
import pioemu.primitive_operations as pioemu_primitives
from hal.ir_frames import MAX_WIRE, FrameReader, encode_words
from pio_dsl import FIRMWARE_PIO, load_pio_module
from pioemu import State, emulate
from pioemu.instruction_decoder import InstructionDecoder

PIO = load_pio_module(FIRMWARE_PIO)
PROGRAM = PIO.ir_face
CLOCKS_PER_BIT = PIO.CLOCKS_PER_BIT
QUIET_CLOCKS = PIO.QUIET_CLOCKS
DEAF_CLOCKS = PIO.DEAF_CLOCKS
TX_PIN = 0
RX_PIN = 1
RING_BYTES = 512
IDLE_LOOP = 4  # clocks of one turn of the idle loop (wrap_target .. wrap)


def _quick_replace(state, **changes):
    """dataclasses.replace for pioemu's State without re-running its __init__: the same new
    object, built five times faster (pioemu builds one several times an instruction)."""
    new = object.__new__(type(state))
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


for _module in (pioemu_emulation, pioemu_primitives, pioemu_push, pioemu_pull):
    _module.replace = _quick_replace


@contextlib.contextmanager
def status_source(status_n):
    """Within the block, pioemu's MOV reads STATUS as the TX-FIFO level test."""

    class WithStatus(InstructionDecoder):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.mov_sources[5] = lambda state: (
                0xFFFFFFFF if len(state.transmit_fifo) < status_n else 0
            )

    saved = pioemu_emulation.InstructionDecoder
    pioemu_emulation.InstructionDecoder = WithStatus
    try:
        yield
    finally:
        pioemu_emulation.InstructionDecoder = saved


class Face:
    """One face: a state machine, its DMA-fed FIFOs and the CPU's frame reader.

    Time is counted in nominal clocks (a bit is CLOCKS_PER_BIT of them); this face's clock k
    ticks at `phase + k / rate`."""

    def __init__(self, name, rate=1.0, phase=0.0):
        self.name = name
        self.rate = rate
        self.phase = phase
        self.light_sources = []  # (face, latency in nominal clocks)
        self.tx_edges = [(float("-inf"), 0)]  # (time, emitter level), in time order
        self.pending = deque()  # TX halfwords the DMA has not yet moved to the FIFO
        self.ring = bytearray(RING_BYTES)
        self.written = 0  # bytes the RX DMA put in the ring (a running count)
        self.read_pos = 0
        self.overflows = 0
        self.reader = FrameReader()
        self.frames = []
        self._cursor = {}
        self._start(State(pin_directions=1 << TX_PIN, pin_values=1 << RX_PIN))

    def _start(self, state):
        """(Re)start the emulator from `state`."""
        with status_source(PROGRAM.status_n):
            self._steps = emulate(
                PROGRAM.opcodes,
                stop_when=lambda op, s: False,
                initial_state=state,
                input_source=self._pins,
                shift_isr_right=True,
                shift_osr_right=True,
                out_base=TX_PIN,
                out_count=1,
                set_base=TX_PIN,
                set_count=1,
                jmp_pin=RX_PIN,
                wrap_target=PROGRAM.wrap_target,
                wrap_top=PROGRAM.wrap,
            )
            self.state = state
            self.now = self.phase + state.clock / self.rate  # time of the next instruction
            self._step()  # build the emulator's decoder while the STATUS patch is on

    def hears(self, face, latency=0.5):
        """Light from `face`'s emitter reaches this face's detector `latency` clocks later."""
        self.light_sources.append((face, latency))

    def send(self, frame):
        words = [0] * MAX_WIRE
        n = encode_words(frame, words)
        self.pending.extend(w | w << 16 for w in words[:n])  # a 16-bit DMA write, replicated

    @property
    def sending(self):
        """Bytes still queued, or the machine in its send path (up to the end of `deaf`)."""
        pc = self.state.program_counter
        in_send = PROGRAM.labels["send"] <= pc <= PROGRAM.labels["deaf"]
        return bool(self.pending or self.state.transmit_fifo) or in_send

    def level_at(self, t):
        """The emitter's level at time t."""
        edges = self.tx_edges
        i = len(edges) - 1
        while edges[i][0] > t:
            i -= 1
        return edges[i][1]

    def _pins(self, state: State) -> int:
        t = self.phase + state.clock / self.rate
        for face, latency in self.light_sources:
            if face.level_at(t - latency):
                return 0  # light: the detector output is low
        return 1 << RX_PIN

    def _step(self):
        before, after = next(self._steps)
        if after.pin_values & 1 != before.pin_values & 1:
            self.tx_edges.append((self.phase + before.clock / self.rate, after.pin_values & 1))
        rx = after.receive_fifo
        while rx:
            self.ring[self.written % RING_BYTES] = rx.popleft() & 0xFF
            self.written += 1
        tx = after.transmit_fifo
        while self.pending and len(tx) < 4:
            tx.append(self.pending.popleft())
        self.state = after
        self.now = self.phase + after.clock / self.rate

    def idle_until(self, t):
        """Skip whole turns of the idle loop up to time t, when nothing can change before then:
        the machine is at the loop's head, has nothing to send, and every light source it sees
        is dark and known to stay dark until t. The loop's state repeats every IDLE_LOOP clocks,
        so skipping whole turns is exact (it only saves emulator steps)."""
        if self.state.program_counter != PROGRAM.wrap_target or self.pending:
            return
        if self.state.transmit_fifo:
            return
        for face, latency in self.light_sources:
            last_time, level = face.tx_edges[-1]
            if level or last_time + latency > self.now:
                return
            if face is not self:
                t = min(t, face.now + latency)
        turns = int((t - self.now) * self.rate) // IDLE_LOOP
        if turns > 0:
            clock = self.state.clock + turns * IDLE_LOOP
            self._start(replace(self.state, clock=clock))

    def drain(self):
        """The CPU's pass: read what the DMA wrote since the last pass."""
        if self.written - self.read_pos > RING_BYTES:
            self.overflows += 1
            self.read_pos = self.written - RING_BYTES
        while self.read_pos != self.written:
            self.read_pos = self.reader.read(self.ring, self.read_pos, self.written, RING_BYTES - 1)
            if self.reader.length:
                self.frames.append(bytes(self.reader.frame[: self.reader.length]))


class Lamp:
    """Stray light that a test switches on and off: a light source with no state machine."""

    now = float("inf")

    def __init__(self):
        self.tx_edges = [(float("-inf"), 0)]

    level_at = Face.level_at

    def flash(self, start, clocks):
        self.tx_edges += [(start, 1), (start + clocks, 0)]


class Air:
    """Faces stepped in time order; the CPU drains every face every `drain_clocks`."""

    def __init__(self, faces, drain_clocks):
        self.faces = faces
        self.drain_clocks = drain_clocks
        self.next_drain = drain_clocks

    def run_until(self, t):
        while True:
            face = min(self.faces, key=lambda f: f.now)
            if face.now >= t:
                break
            if face.now >= self.next_drain:
                for f in self.faces:
                    f.drain()
                self.next_drain += self.drain_clocks
            face.idle_until(min(t, self.next_drain))
            if face.now < t:
                face._step()

    def run_while(self, busy, limit):
        """Run until `busy()` is false (checked every bit time) or `limit` clocks passed."""
        end = min(f.now for f in self.faces) + limit
        t = min(f.now for f in self.faces)
        while busy() and t < end:
            t += CLOCKS_PER_BIT
            self.run_until(t)

    def send(self, face, frame, limit=100_000):
        """`face` sends `frame`; run until it is done sending."""
        face.send(frame)
        self.run_while(lambda: face.sending, limit)

    def drain_all(self):
        for f in self.faces:
            f.drain()

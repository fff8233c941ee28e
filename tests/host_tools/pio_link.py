"""Infrared faces on the rp2040-pio-emulator: the firmware's PIO program, faces in light.

Each face is one state machine running a face program (by default `ir_face`, firmware/hal/
ir_pio.py) on its own clock, with its own rate (clock skew) and start phase. Faces are stepped
in time order. What one face's emitter does reaches a detector through the transceiver model
of host_tools/emu/transceiver.py (the same figures the emulated tiles use): each rising edge of
light becomes a detector pulse of its own width, a little late and jittered; a face sees its
own light (the echo) and, after its own light goes out, its detector is blind or rings for the
recovery time. Around each state machine, the parts of the rp2 HAL that are not PIO are
modelled as the hardware does them: a DMA channel empties the RX FIFO into a ring buffer as
soon as a byte is pushed and another keeps the TX FIFO full from the frame's halfwords; the
CPU reads the ring with the HAL's own FrameReader only every `drain_clocks`, so a slow loop pass
shows up as ring overflow.

Time is counted in ticks of 1/32 of a bit (the firmware's state machine clock; a program that
runs 16 clocks a bit advances 2 ticks a clock). pioemu has no STATUS source for MOV (RP2040
datasheet 3.4.8); `status_source` adds it with the meaning the firmware configures
(EXECCTRL.STATUS_N: all ones while the TX FIFO holds fewer). This is test scaffolding: nothing
here runs on a tile.
"""

import contextlib
import random
from bisect import bisect_right
from collections import deque
from dataclasses import replace

import pioemu.emulation as pioemu_emulation
import pioemu.instructions.pull as pioemu_pull
import pioemu.instructions.push as pioemu_push
import pioemu.primitive_operations as pioemu_primitives
from hal.ir_frames import DARK_BYTES, MAX_WORDS, FrameReader, encode_words
from hal.ir_phy import bit_us
from pio_dsl import FIRMWARE_PIO, load_pio_module
from pioemu import State, emulate
from pioemu.instruction_decoder import InstructionDecoder

from host_tools.emu.transceiver import DATASHEET_WORST, IDEAL

PIO = load_pio_module(FIRMWARE_PIO)
PROGRAM = PIO.ir_face
TICKS_PER_BIT = 32
CLOCKS_PER_BIT = PIO.CLOCKS_PER_BIT
QUIET_CLOCKS = PIO.QUIET_CLOCKS
TX_PIN = 0
RX_PIN = 1
RING_BYTES = 512
US_PER_TICK = bit_us() / TICKS_PER_BIT


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


def idle_loop_clocks(program):
    """Clocks of one turn of the idle loop (wrap_target .. wrap): every instruction there takes
    one clock (no delays), and a dark line takes the whole loop."""
    return program.wrap - program.wrap_target + 1


class Detector:
    """A face's transceiver receiver (host_tools.emu.transceiver), in ticks: the pulses it
    outputs for the light of its sources. Each source's rising edge of light gives one pulse,
    drawn once; after the face's own light goes out the detector is blind (its pulses are
    dropped) or rings (random pulses) for `recovery_us`."""

    def __init__(self, owner, model, seed):
        self.owner = owner
        self.model = model
        self.rng = random.Random(seed)
        self.sources = []  # (face or lamp, extra delay in ticks)
        self.seen = {}  # id(source) -> tx edges already turned into pulses
        self.pulses = []  # (start, end) in ticks, in the order drawn
        self.ring_until = float("-inf")  # spurious pulses drawn up to here
        self.ring_next = None  # the next spurious pulse, once drawn

    def hears(self, source, extra_delay=0.0):
        self.sources.append((source, extra_delay))
        self.seen[id(source)] = 1  # edge 0 is the (-inf, dark) sentinel

    def _draw(self, edge_time):
        m = self.model
        start = edge_time + (m.delay_us + self.rng.uniform(0, m.jitter_us)) / US_PER_TICK
        width = self.rng.uniform(m.pulse_min_us, m.pulse_max_us) / US_PER_TICK
        return start, start + width

    def _blind(self, t):
        """True when the owner's detector cannot answer light at t: its own light went out
        less than recovery_us before (its own light itself it does see: the echo)."""
        recovery = self.model.recovery_us / US_PER_TICK
        edges = self.owner.tx_edges
        when, level = edges[bisect_right(edges, (t, 2)) - 1]
        return recovery > 0 and level == 0 and t - when < recovery

    def _ring(self, t):
        """Random pulses, 2 to 20 us apart, while the owner's detector recovers from its own
        light (recovery_mode "ring"), drawn in time order up to t."""
        recovery = self.model.recovery_us / US_PER_TICK
        edges = self.owner.tx_edges
        while True:
            if self.ring_next is None:
                c = self.ring_until
                when, level = edges[bisect_right(edges, (c, 2)) - 1]
                if not (level == 0 and c < when + recovery):
                    later = [w for w, lv in edges[bisect_right(edges, (c, 2)) :] if lv == 0]
                    if not later or later[0] > t:
                        return
                    c = later[0]
                self.ring_next = c + self.rng.uniform(2, 20) / US_PER_TICK
            start = self.ring_next
            if start > t:
                return
            if self._blind(start):
                width = self.rng.uniform(self.model.pulse_min_us, self.model.pulse_max_us)
                self.pulses.append((start, start + width / US_PER_TICK))
            self.ring_until = start
            self.ring_next = None

    def low_at(self, t):
        """The detector output at t: True while it signals light (RXD low)."""
        for source, extra in self.sources:
            edges = source.tx_edges
            i = self.seen[id(source)]
            while i < len(edges) and edges[i][0] + extra <= t:
                when, level = edges[i]
                if level:
                    start, end = self._draw(when + extra)
                    own = source is self.owner
                    if own or not self._blind(start):
                        self.pulses.append((start, end))
                i += 1
            self.seen[id(source)] = i
        if self.model.recovery_mode == "ring" and self.model.recovery_us:
            self._ring(t)
        pulses = self.pulses  # the face's time only moves on: a pulse that ended is done
        if pulses and min(end for _, end in pulses) <= t:
            pulses = self.pulses = [p for p in pulses if p[1] > t]
        for start, _ in pulses:
            if start <= t:
                return True
        return False


class Face:
    """One face: a state machine, its DMA-fed FIFOs, its detector and the CPU's frame reader.

    This face's clock k ticks at `phase + k * ticks_per_clock / rate`."""

    def __init__(self, name, rate=1.0, phase=0.0, model=IDEAL, seed=0, pio=PIO, dark=True):
        self.name = name
        self.rate = rate
        self.phase = phase
        self.program = pio.ir_face
        self.ticks_per_clock = TICKS_PER_BIT / pio.CLOCKS_PER_BIT
        self.idle_clocks = idle_loop_clocks(self.program)
        self.dark = dark  # the frame's dark bytes go out after it (the firmware's turnaround)
        self.detector = Detector(self, model, seed)
        self.tx_edges = [(float("-inf"), 0)]  # (time, emitter level), in time order
        self.pending = deque()  # TX halfwords the DMA has not yet moved to the FIFO
        self.ring = bytearray(RING_BYTES)
        self.written = 0  # bytes the RX DMA put in the ring (a running count)
        self.read_pos = 0
        self.overflows = 0
        self.reader = FrameReader()
        self.frames = []
        self._start(State(pin_directions=1 << TX_PIN, pin_values=1 << RX_PIN))

    def _time(self, clock):
        return self.phase + clock * self.ticks_per_clock / self.rate

    def _start(self, state):
        """(Re)start the emulator from `state`."""
        program = self.program
        with status_source(program.status_n):
            self._steps = emulate(
                program.opcodes,
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
                wrap_target=program.wrap_target,
                wrap_top=program.wrap,
            )
            self.state = state
            self.now = self._time(state.clock)  # time of the next instruction
            self._step()  # build the emulator's decoder while the STATUS patch is on

    def hears(self, source, extra_delay=0.0):
        """Light from `source` (a face or a Lamp) reaches this face's detector; `extra_delay`
        ticks on top of the model's own delay."""
        self.detector.hears(source, extra_delay)

    def send(self, frame):
        words = [0] * MAX_WORDS
        n = encode_words(frame, words)
        if not self.dark:
            n -= DARK_BYTES
        self.pending.extend(w | w << 16 for w in words[:n])  # a 16-bit DMA write, replicated

    @property
    def sending(self):
        """Bytes still queued, or the machine in its send path."""
        pc = self.state.program_counter
        in_send = pc >= self.program.labels["send"]
        return bool(self.pending or self.state.transmit_fifo) or in_send

    def level_at(self, t):
        """The emitter's level at time t."""
        edges = self.tx_edges
        i = len(edges) - 1
        while edges[i][0] > t:
            i -= 1
        return edges[i][1]

    def _pins(self, state: State) -> int:
        if self.detector.low_at(self._time(state.clock)):
            return 0  # the detector signals light: RXD low
        return 1 << RX_PIN

    def _step(self):
        before, after = next(self._steps)
        if after.pin_values & 1 != before.pin_values & 1:
            self.tx_edges.append((self._time(before.clock), after.pin_values & 1))
        rx = after.receive_fifo
        while rx:
            self.ring[self.written % RING_BYTES] = rx.popleft() & 0xFF
            self.written += 1
        tx = after.transmit_fifo
        while self.pending and len(tx) < 4:
            tx.append(self.pending.popleft())
        self.state = after
        self.now = self._time(after.clock)

    def quiet_until(self):
        """When light may next reach this face's detector: never before every source's next
        edge could (a face's next instruction, plus the model's delay)."""
        t = float("inf")
        for source, extra in self.detector.sources:
            last_time, level = source.tx_edges[-1]
            if level or last_time + extra + 40 > self.now:
                return self.now  # light on, or pulses of it may still be due
            t = min(t, source.now + extra)
        return t

    def idle_until(self, t):
        """Skip whole turns of the idle loop up to time t, when nothing can change before then:
        the machine is at the loop's head, has nothing to send, nothing is lit near it and no
        detector pulse or ringing is pending. The loop's state repeats every turn, so skipping
        whole turns is exact (it only saves emulator steps)."""
        if self.state.program_counter != self.program.wrap_target or self.pending:
            return
        if self.state.transmit_fifo:
            return
        if any(end > self.now for _, end in self.detector.pulses):
            return
        if self.detector.model.recovery_mode == "ring" and self.detector.model.recovery_us:
            offs = [w for w, level in self.tx_edges[1:] if level == 0]
            if offs and offs[-1] + self.detector.model.recovery_us / US_PER_TICK > self.now:
                return
        t = min(t, self.quiet_until())
        turn = self.idle_clocks * self.ticks_per_clock / self.rate
        turns = int((t - self.now) / turn)
        if turns > 0:
            clock = self.state.clock + turns * self.idle_clocks
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

    def flash(self, start, ticks):
        self.tx_edges += [(start, 1), (start + ticks, 0)]


def pair(model=IDEAL, skew=0.0, phase=0.0, seed=0, pio=PIO, dark=True):
    """Faces a and b facing each other, each seeing its own light too (the echo)."""
    a = Face("a", model=model, seed=seed * 2 + 1, pio=pio, dark=dark)
    b = Face("b", rate=1.0 + skew, phase=phase, model=model, seed=seed * 2 + 2, pio=pio, dark=dark)
    b.hears(a)
    a.hears(b)
    if model.echo:
        a.hears(a)
        b.hears(b)
    return a, b


class Air:
    """Faces stepped in time order; the CPU drains every face every `drain_clocks` ticks."""

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
        """Run until `busy()` is false (checked every bit time) or `limit` ticks passed."""
        end = min(f.now for f in self.faces) + limit
        t = min(f.now for f in self.faces)
        while busy() and t < end:
            t += TICKS_PER_BIT
            self.run_until(t)

    def send(self, face, frame, limit=100_000):
        """`face` sends `frame`; run until it is done sending."""
        face.send(frame)
        self.run_while(lambda: face.sending, limit)

    def drain_all(self):
        for f in self.faces:
            f.drain()


def ping_pong(datagrams, model, pio=PIO, dark=True, seed=0, skew=0.0, drain_ms=20):
    """`datagrams` 24-byte datagram frames, half from face a, each answered by face b: b queues
    its answer while a's frame is on the air, so its state machine sends it the moment the
    turnaround allows, the hardest case for a's receiver. Returns how many arrived exactly once
    (and nothing else arrived)."""
    rng = random.Random(seed)
    a, b = pair(model=model, skew=skew, phase=rng.random() * TICKS_PER_BIT, seed=seed, pio=pio,
                dark=dark)  # fmt: skip
    air = Air([a, b], int(drain_ms * 1000 / US_PER_TICK))
    pings, pongs = [], []
    for _ in range(datagrams // 2):
        ping = bytes(rng.randrange(256) for _ in range(24))
        pong = bytes(rng.randrange(256) for _ in range(24))
        pings.append(ping)
        pongs.append(pong)
        a.send(ping)
        lit = len(a.tx_edges)
        air.run_while(lambda lit=lit: len(a.tx_edges) == lit, 100_000)  # a's frame begins
        air.run_until(a.now + rng.uniform(3, 20) * TICKS_PER_BIT)
        b.send(pong)
        air.run_while(lambda: a.sending or b.sending, 400_000)
        air.run_until(max(a.now, b.now) + 200 + rng.random() * 3000)
    air.run_until(max(a.now, b.now) + 5000)
    air.drain_all()
    once = sum(b.frames.count(x) == 1 for x in pings) + sum(a.frames.count(x) == 1 for x in pongs)
    strays = len(a.frames) + len(b.frames) - once
    return once - strays


__all__ = ["DATASHEET_WORST", "IDEAL", "Air", "Face", "Lamp", "pair", "ping_pong"]

"""A tile's link checks for `blinks diag`, run on the tile itself (docs/hardware.md, Bring-up).

The host (host_tools/bridge/diag.py) sends this file's source through the raw REPL after a
soft reset, with the build's folder first on sys.path, makes one Diag and calls one phase at a
time on every tile; it pairs the faces and judges them. Nothing is written on the tile, and the
host soft-resets it into its game at the end. A phase prints a dot every BEAT_MS of the tile's
time (the host's read timeout counts from the last byte, so a slow emulated tile is not taken
for a hung one), then one line of JSON.

Everything goes through the game's own HAL (hal.rp2_hal.Rp2Hal: the face PIO program, the DMA
rings, the pixels, the button), so a face that passes here is one the game talks through.

- echo: each face sends one frame while its neighbours are silent (the host runs this phase one
  tile at a time). A Pin IRQ counts the falling edges of its detector (RXD) meanwhile: a
  TFBS4711 echoes its own light, so edges mean the transceiver is powered and its RXD wired.
  The same window before sending is the baseline (a neighbour that talks makes it unknown).
  Bytes in the face's ring from its own frame mean the echo is not suppressed: the receiver
  still rings when the face listens again (634 us after its last light).
- discover: every face sends ID frames (`I`, the 8-byte serial, the face) at random intervals
  and notes who it hears; the host pairs the faces from what each heard.
- exchange: on each touching pair the host names one face initiator and the other responder;
  they ping-pong N frames of a fixed pattern (`X` + PATTERN) each way through the HAL's
  send_frame/receive_frame. Each face counts frames sent, received, bad ones and their bit
  errors against the pattern. A warm-up of one-byte `W` frames first waits (WARM_MS at most)
  until the other side answers, so a tile that starts its phase later loses no counted frame.
- sweep: the shortest reply gap that still works, measured on one face's receiver (A) with its
  neighbour (B) answering. A sends `S x x_next` + PATTERN with no dark bytes after it, so A
  listens again as soon as its stop bit ends and the gap tested is the transceiver's, not the
  firmware's deliberate deafness. B queues its answer (`R x` + PATTERN) as soon as A's frame
  starts arriving, so B's state machine answers the moment its quiet time allows: 2 bit times
  plus the quiet loop's (x + 1) turns of QUIET_TURN (99) clocks after A's last light
  (`gap_us`). B's quiet time is set by rewriting the immediate of the program's first
  instruction, `set(x, 25)`, in its PIO block's instruction memory: a copy of the program with
  another immediate is what it amounts to, but a second 31-word copy cannot be loaded (the
  game's program leaves one word of the 32 free in each block). Each frame tells B the x for
  the next one, and B's answer says the x its state machine waited with, so every answer is
  credited to the gap it used. A goes from x = 31 (877 us) down, BATCH frames each, and stops
  at the first x where an answer is missing or wrong. The firmware's own x (25, 716 us: its
  `turnaround_us`) is one of the steps. B writes the original word back at the end; the soft
  reset that ends the diag reloads the program anyway.
- pixels: each face lit white in turn for a person to watch.
- button: the tile lights blue and waits for its button, read from the pin, then for its
  release (a button held as the host restarts the tile would boot it into safe mode).
"""

import binascii
import json
import time

from hal import board
from hal.ir_faces import READ_ADDR, RX_COUNT, TRANS_COUNT_TRIG
from hal.ir_frames import DARK_BYTES, encode_words, tx_word
from hal.ir_phy import CLOCKS_PER_BIT, QUIET_CLOCKS, QUIET_OUTER, bit_us, deaf_us, turnaround_us

# The board's own modules (machine, rp2 through hal.ir_pio and hal.rp2_hal) are imported where
# they are used, so this module imports anywhere: on the unix port a flashed build's modules
# are all imported by the tests, and the pure parts here are tested on CPython.

BEAT_MS = 250
# A fixed pattern: all zeros and ones, alternating bits, every single bit, and the three bytes
# the framing escapes (BOF, EOF, ESC), so a frame exercises the escapes too.
PATTERN = bytes(
    (0x00, 0xFF, 0x55, 0xAA, 0xC0, 0xC1, 0x7D, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40)
    + (0x80, 0xFE, 0xFD, 0xFB, 0xF7, 0xEF, 0xDF, 0xBF, 0x7F, 0x33, 0xCC, 0x0F, 0xF0)
)
X_FRAME = b"X" + PATTERN
WARM = b"W"
END = b"E"
ECHO_FRAME = bytes(16)  # zeros: a pulse in every bit
REPLY_MS = 30  # an answer is due within ~8 ms (frame, gap, answer); later ones are lost
WARM_MS = 2000
BATCH = 8
X_TOP = 31  # the largest immediate `set` takes
QUIET_TURN = (QUIET_CLOCKS - 1) // QUIET_OUTER  # clocks a turn of the quiet loop's outer count
FIRMWARE_X = QUIET_OUTER - 1  # the immediate of hal/ir_pio.py's `set(x, 25)`
PIO_BASE = (0x50200000, 0x50300000)  # PIO0 and PIO1, the same on the RP2040 and RP2350
INSTR_MEM0 = 0x048
STEADY_MS = 20  # a button level that lasts this long is no bounce
RELEASE_MS = 10000
WHITE = 0x7FFF
BLUE = 0x001F


def gap_us(x):
    """From the other face's last light to the answer's first, with `set(x, <x>)`: the last two
    bits of its EOF, then the quiet loop (one clock, then x + 1 turns). x = 25 gives the
    firmware's turnaround_us()."""
    return (2 * CLOCKS_PER_BIT + 1 + (x + 1) * QUIET_TURN) * bit_us() / CLOCKS_PER_BIT


def bit_errors(got, want):
    """Bits that differ between a received frame and the pattern; 8 for each missing or extra
    byte."""
    errors = 8 * abs(len(got) - len(want))
    for i in range(min(len(got), len(want))):
        x = got[i] ^ want[i]
        while x:
            errors += x & 1
            x >>= 1
    return errors


def _written(link):
    return RX_COUNT - link.rx.count  # the stubs omit DMA.count: `link` is left untyped


def _tx_busy(link):
    return link.tx.active() or link.sm.tx_fifo()


def _encode(link, data):
    """Encode a frame into the face's own word buffer; its count, dark bytes included."""
    link.sent = None  # the HAL's cached encoding of a face value is gone
    return encode_words(data, link.words)


def _kick(link, count):
    """Send the first `count` words of the face's buffer (what the HAL's send_frame does)."""
    regs = link.tx_regs
    regs[READ_ADDR] = link.words_at
    regs[TRANS_COUNT_TRIG] = count


def _send(link, data, dark):
    """Send one frame with `dark` dark bytes after it (the HAL's send_frame sends DARK_BYTES)."""
    _kick(link, _encode(link, data) - DARK_BYTES + dark)


class Diag:
    """The checks of one tile, on the game's own HAL: one instance for the whole diag."""

    def __init__(self):
        from hal.ir_pio import ir_face
        from hal.rp2_hal import Rp2Hal

        first = ir_face[0][0]  # type: ignore[index]  # asm_pio's result is a list
        if first >> 13 != 0b111 or (first >> 5) & 7 != 1 or first & 31 != FIRMWARE_X:
            raise ValueError(f"the face program does not start with set(x, {FIRMWARE_X})")
        self.hal = Rp2Hal()
        self.links = self.hal._links
        self.serial = self.hal.serial_number()
        self.hal.show([0] * 6)
        self._beat_at = time.ticks_ms()

    def hello(self):
        return {
            "serial": binascii.hexlify(self.serial).decode(),
            "reply_gap_us_firmware": round(turnaround_us(), 1),
            "deaf_us_firmware": round(deaf_us(), 1),
            "firmware_x": FIRMWARE_X,
            "batch": BATCH,
            "gap_us": [round(gap_us(x), 1) for x in range(X_TOP + 1)],
        }

    # ---- helpers -----------------------------------------------------------------------------
    def _beat(self):
        now = time.ticks_ms()
        if time.ticks_diff(now, self._beat_at) >= BEAT_MS:
            self._beat_at = now
            print(".", end="")

    def _drain(self, face):
        while self.hal.receive_frame(face):
            pass

    def _frame(self, face):
        """The next whole frame heard on `face` (bytes), or None."""
        n = self.hal.receive_frame(face)
        return bytes(self.hal.rx_frame[:n]) if n else None

    def _wait_idle(self, link, ms=100):
        start = time.ticks_ms()
        while _tx_busy(link) and time.ticks_diff(time.ticks_ms(), start) < ms:
            time.sleep_ms(1)

    # ---- phases ------------------------------------------------------------------------------
    def echo(self):
        return {"faces": [self._echo(face) for face in range(6)]}

    def _echo(self, face):
        import machine

        link = self.links[face]
        self._wait_idle(link)
        self._drain(face)
        count = [0]

        def edge(pin):
            count[0] += 1

        pin = machine.Pin(board.IR_RX_PINS[face], machine.Pin.IN, machine.Pin.PULL_UP)
        pin.irq(edge, machine.Pin.IRQ_FALLING, hard=True)
        time.sleep_ms(5)  # the baseline: what the detector does while the face is dark
        baseline = count[0]
        before = _written(link)
        _send(link, ECHO_FRAME, DARK_BYTES)
        self._wait_idle(link)
        time.sleep_ms(3)  # the last byte, the dark bytes, and then some listening
        pin.irq(None)
        return {
            "face": face,
            "baseline_edges": baseline,
            "echo_edges": count[0] - baseline,
            "own_bytes": _written(link) - before,
        }

    def discover(self, ms):
        hal = self.hal
        ids = [b"I" + self.serial + bytes((face,)) for face in range(6)]
        heard = [{} for _ in range(6)]  # type: list
        other = [0] * 6
        for face in range(6):
            self._drain(face)
        start = time.ticks_ms()
        due = [time.ticks_add(start, hal.entropy() % 20) for _ in range(6)]
        now = start
        while time.ticks_diff(now, start) < ms:
            for face in range(6):
                if time.ticks_diff(now, due[face]) >= 0 and hal.send_frame(face, ids[face]):
                    due[face] = time.ticks_add(now, 10 + hal.entropy() % 30)
                frame = self._frame(face)
                while frame is not None:
                    if len(frame) == 10 and frame[0] == ord("I"):
                        key = binascii.hexlify(frame[1:9]).decode() + ":" + str(frame[9])
                        heard[face][key] = heard[face].get(key, 0) + 1
                    else:
                        other[face] += 1
                    frame = self._frame(face)
            time.sleep_ms(1)
            self._beat()
            now = time.ticks_ms()
        for link in self.links:
            self._wait_idle(link)
        faces = []
        for face in range(6):
            keys = sorted(heard[face])
            faces.append(
                {
                    "face": face,
                    "heard": [
                        [k.split(":")[0], int(k.split(":")[1]), heard[face][k]] for k in keys
                    ],
                    "other": other[face],
                }
            )
        return {"faces": faces}

    def exchange(self, roles, n, ms):
        """roles[face]: 0 none, 1 initiator, 2 responder. N frames each way, counted."""
        hal = self.hal
        sent = [0] * 6
        received = [0] * 6
        bad = [0] * 6
        errors = [0] * 6
        warm = [r == 1 for r in roles]  # initiators first wait for their responder
        waiting = [False] * 6
        owe = [False] * 6
        done = [r == 0 for r in roles]
        since = [0] * 6  # type: list
        for face in range(6):
            self._drain(face)
        start = time.ticks_ms()
        while not all(done):
            now = time.ticks_ms()
            if time.ticks_diff(now, start) > ms:
                break
            for face in range(6):
                if done[face]:
                    continue
                frame = self._frame(face)
                if roles[face] == 1:
                    if warm[face]:
                        if frame == WARM or time.ticks_diff(now, start) > WARM_MS:
                            warm[face] = False
                            self._drain(face)
                        elif time.ticks_diff(now, since[face]) > REPLY_MS and hal.send_frame(
                            face, WARM
                        ):
                            since[face] = now
                        continue
                    if waiting[face]:
                        if frame is not None and len(frame) > 1:
                            waiting[face] = False
                            received[face] += 1
                            if frame != X_FRAME:
                                bad[face] += 1
                                errors[face] += bit_errors(frame, X_FRAME)
                        elif time.ticks_diff(now, since[face]) > REPLY_MS:
                            waiting[face] = False  # the answer is lost
                    elif sent[face] < n:
                        if hal.send_frame(face, X_FRAME):
                            sent[face] += 1
                            waiting[face] = True
                            since[face] = now
                    elif hal.send_frame(face, END):
                        done[face] = True
                else:
                    if frame == END:
                        done[face] = True
                        continue
                    if frame == WARM:
                        hal.send_frame(face, WARM)
                    elif frame is not None:
                        received[face] += 1
                        if frame != X_FRAME:
                            bad[face] += 1
                            errors[face] += bit_errors(frame, X_FRAME)
                        owe[face] = True
                    if owe[face] and hal.send_frame(face, X_FRAME):
                        owe[face] = False
                        sent[face] += 1
            time.sleep_ms(1)
            self._beat()
        for link in self.links:
            self._wait_idle(link)
        return {
            "faces": [
                {
                    "face": face,
                    "sent": sent[face],
                    "received": received[face],
                    "bad": bad[face],
                    "bit_errors": errors[face],
                }
                for face in range(6)
                if roles[face]
            ]
        }

    def sweep_send(self, face):
        """A's side of the reply-gap sweep on `face` (see the module's docstring). Each step
        also says how long after its frame's last byte left the FIFO the answer's first byte
        arrived (median, us): it shrinks by the step (27 us) when B's patched quiet time is
        what the answers wait for."""
        import gc

        link = self.links[face]
        self._wait_idle(link)
        self._drain(face)
        count = _encode(link, b"S" + bytes((X_TOP, X_TOP)) + PATTERN)
        answers = [b"R" + bytes((x,)) + PATTERN for x in range(X_TOP + 1)]
        gc.collect()  # no collection in the middle of a step, if it can be helped
        steps = []
        # warm-up: until B answers at all (it may start its phase a little later)
        start = time.ticks_ms()
        answered = False
        while not answered and time.ticks_diff(time.ticks_ms(), start) < WARM_MS:
            answered = self._ask(link, face, count, X_TOP, X_TOP)[0] is not None
            self._beat()
        best = None
        if answered:
            for x in range(X_TOP, -1, -1):
                ok = 0
                after = []
                for k in range(BATCH):
                    x_next = x if k < BATCH - 1 or x == 0 else x - 1
                    answer, first = self._ask(link, face, count, x, x_next)
                    if answer == answers[x]:
                        ok += 1
                    if first is not None:
                        after.append(first)
                    self._beat()
                after.sort()
                steps.append([x, ok, after[len(after) // 2] if after else None])
                if ok < BATCH:
                    break
                best = x
        self._wait_idle(link)
        # B stops on END; a few tries, as an answer may be on its way back
        for _ in range(3):
            self._drain(face)
            _send(link, END, DARK_BYTES)
            self._wait_idle(link)
            time.sleep_ms(5)
        self._drain(face)
        return {
            "face": face,
            "answered": answered,
            "steps": steps,
            "x_min": best,
            "reply_gap_us_min": None if best is None else round(gap_us(best), 1),
        }

    def _ask(self, link, face, count, x, x_next):
        """Send the encoded sweep frame for x and x_next, with no dark bytes after it: (the
        answer heard or None, us from its last byte leaving the FIFO to the answer's first byte
        in the ring, or None)."""
        self._wait_idle(link)
        self._drain(face)
        words = link.words
        words[2] = tx_word(x)  # BOF, `S`, x, x_next: no byte here needs escaping
        words[3] = tx_word(x_next)
        _kick(link, count - DARK_BYTES)
        start = time.ticks_ms()
        while _tx_busy(link) and time.ticks_diff(time.ticks_ms(), start) < REPLY_MS:
            pass
        sent_at = time.ticks_us()
        heard = _written(link)
        first = None
        while time.ticks_diff(time.ticks_ms(), start) < REPLY_MS:  # only the ring's count here
            if _written(link) != heard:
                first = time.ticks_diff(time.ticks_us(), sent_at)
                break
        while time.ticks_diff(time.ticks_ms(), start) < REPLY_MS:
            frame = self._frame(face)
            if frame is not None and len(frame) > 1:
                return frame, first
        return None, first

    def sweep_answer(self, face, ms):
        """B's side: answer each of A's frames as early as the quiet time set by A allows.

        Nothing in the loop allocates or touches the filesystem: `import machine` looks for a
        machine.py on the filesystem first (MicroPython 1.21+ lets one extend a built-in
        module), 7 ms on an emulated tile, and a pause that long made B queue its answers after
        A's frame had ended, so they all waited the same time whatever x was."""
        import gc

        import machine

        from hal.ir_pio import ir_face

        hal = self.hal
        link = self.links[face]
        block = face >> 2  # faces 0-3 on PIO0, 4-5 on PIO1 (hal/ir_links.make_links)
        address = PIO_BASE[block] + INSTR_MEM0 + 4 * ir_face[1 + block]  # type: ignore[index]
        first_word = ir_face[0][0] & ~31  # type: ignore[index]  # set(x, 0)
        mem32 = machine.mem32
        self._wait_idle(link)
        self._drain(face)
        count = _encode(link, b"R" + bytes((X_TOP,)) + PATTERN)
        words = link.words
        x = X_TOP
        mem32[address] = first_word | x
        gc.collect()
        answered = 0
        last = _written(link)
        start = time.ticks_ms()
        ended = False
        try:
            while not ended and time.ticks_diff(time.ticks_ms(), start) < ms:
                written = _written(link)
                if _tx_busy(link):
                    last = written  # bytes heard while an answer waits belong to its frame
                elif written != last:
                    words[2] = tx_word(x)  # BOF, `R`, x: the x its state machine waits with
                    _kick(link, count)
                    last = written
                    answered += 1
                n = hal.receive_frame(face)
                if n:
                    frame = hal.rx_frame
                    if n >= 3 and frame[0] == 0x53 and frame[2] <= X_TOP:  # `S x x_next`
                        x = frame[2]
                        mem32[address] = first_word | x
                    elif n == 1 and frame[0] == END[0]:
                        ended = True
                self._beat()
        finally:
            mem32[address] = first_word | FIRMWARE_X
        self._wait_idle(link)
        return {"face": face, "answered": answered, "ended": ended}

    def pixels(self, ms):
        for face in range(6):
            colours = [0] * 6
            colours[face] = WHITE
            self.hal.show(colours)
            self._sleep(ms)
        self.hal.show([0] * 6)
        return {"pixels": "shown"}

    def button(self, ms):
        """Wait for a press (held STEADY_MS), then for its release: the host restarts the tile
        next, and a button still held then would boot it into safe mode (hal/recovery.py)."""
        pin = self.hal._button
        if pin.value() == 0:
            self._sleep(300)
            if pin.value() == 0:
                return {"button": "stuck"}
        self.hal.show([BLUE] * 6)  # this tile is the one asking
        pressed = self._level(pin, 0, ms)
        self.hal.show([0] * 6)
        if pressed is None:
            return {"button": "not pressed"}
        released = self._level(pin, 1, RELEASE_MS)
        if released is None:
            return {"button": "held", "after_ms": pressed}
        return {"button": "pressed", "after_ms": pressed, "held_ms": released}

    def _level(self, pin, level, ms):
        """Milliseconds until `pin` reads `level` for STEADY_MS (no bounce), or None."""
        start = time.ticks_ms()
        since = None
        while time.ticks_diff(time.ticks_ms(), start) < ms:
            now = time.ticks_ms()
            if pin.value() != level:
                since = None
            elif since is None:
                since = now
            elif time.ticks_diff(now, since) >= STEADY_MS:
                return time.ticks_diff(since, start)
            time.sleep_ms(2)
            self._beat()
        return None

    def _sleep(self, ms):
        start = time.ticks_ms()
        while time.ticks_diff(time.ticks_ms(), start) < ms:
            time.sleep_ms(min(BEAT_MS, ms))
            self._beat()


def report(result):
    """One line of JSON after the dots: what the host reads."""
    print()
    print(json.dumps(result))

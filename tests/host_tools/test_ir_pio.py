"""The face's PIO program on the rp2040-pio-emulator, with the rp2 HAL's ring and frame reader.

What a builder's tile must do with real light, through the datasheet's transceiver (pulses of
1 to 4 us, jitter, its own light echoed, 300 us blind after it): bytes go out as IrDA SIR
pulses; a face hears its neighbour whatever their clocks' skew and phase, however late the CPU
reads the ring; it never hears its own light; it does not start sending in the middle of a
neighbour's frame; and a garbled byte costs one frame, not the next. The turnaround's margin
has its own tests (test_ir_turnaround.py).
"""

import random

import pytest
from hal import ir_phy
from hal.ir_frames import BOF, DARK_BYTES, EOF, wire_bytes
from pio_link import (
    DATASHEET_WORST,
    IDEAL,
    PROGRAM,
    QUIET_CLOCKS,
    TICKS_PER_BIT,
    US_PER_TICK,
    Air,
    Face,
    Lamp,
    pair,
)

CLOCKS_PER_BIT = TICKS_PER_BIT  # the firmware's machine runs a clock a tick
MS = 1000 / US_PER_TICK  # ticks per millisecond
PASS_CLOCKS = int(20 * MS)  # the CPU reads the rings once a 20 ms pass
GC_CLOCKS = int(12 * MS)  # ... and a garbage collection may hold it up this much longer
DEAF_TICKS = (3 + DARK_BYTES * 10) * TICKS_PER_BIT  # from a face's last light to listening


def datagram(rng):
    """A datagram-layer frame as the runtime sends it: 8 header/CRC bytes and 16 of payload."""
    return bytes(rng.randrange(256) for _ in range(ir_phy.DATAGRAM_BYTES))


def link(skew=0.0, phase=0.0, drain=PASS_CLOCKS, model=DATASHEET_WORST, seed=0):
    """Face a sends to face b; b's clock runs `skew` faster; each face sees its own echo."""
    a, b = pair(model=model, skew=skew, phase=phase, seed=seed)
    return a, b, Air([a, b], drain)


def until_lit(air, face):
    """Run until `face` lights: a machine waits out its quiet time (80 bits) before its first
    byte, from power-up too."""
    lit = len(face.tx_edges)
    air.run_while(lambda: len(face.tx_edges) == lit, 100_000)


def pulses(face):
    """(start, length) of each pulse of light the face's emitter made, in its clocks."""
    edges = face.tx_edges[1:]
    return [(on[0], off[0] - on[0]) for on, off in zip(edges[::2], edges[1::2])]


def test_the_program_fits_one_pio_block():
    assert len(PROGRAM.opcodes) <= 32
    assert PROGRAM.status_n == 1  # mov(x, status): is the TX FIFO empty?


def test_a_byte_goes_out_as_sir_pulses():
    a, _, air = link()
    air.send(a, b"\x00")  # on the air: BOF 0xC0, 0x00, EOF 0xC1
    got = pulses(a)
    assert all(length == 6 for _, length in got), "every pulse lasts 3/16 of a bit (1.63 us)"
    # each byte: a start pulse, then a pulse for every 0 bit (LSB first)
    first = got[0][0]
    bits = sorted({round((start - first) / CLOCKS_PER_BIT) for start, _ in got})
    expected = []
    for i, byte in enumerate((BOF, 0x00, EOF)):
        expected.append(10 * i)
        expected += [10 * i + 1 + k for k in range(8) if not byte >> k & 1]
    assert bits == expected


@pytest.mark.parametrize("skew", [-0.02, 0.0, 0.02])
def test_datagrams_arrive_exactly_once_across_skew_phase_and_slow_passes(skew):
    """60 datagrams, each from a random phase of the receiver's clock, through the datasheet's
    transceiver; the receiver's CPU reads its ring only every 20 ms plus a garbage collection,
    while the sender sends back to back. (`bench/run.py` sends 1,000 the same way:
    `ir_pio_delivered`.)"""
    rng = random.Random(int(skew * 1000) + 7)
    a, b, air = link(
        skew=skew, phase=rng.random() * CLOCKS_PER_BIT, drain=PASS_CLOCKS + GC_CLOCKS, seed=7
    )
    sent = [datagram(rng) for _ in range(60)]
    for frame in sent:
        air.send(a, frame)
        air.run_until(a.now + rng.random() * 3 * CLOCKS_PER_BIT)  # a new phase for each one
    air.run_until(a.now + PASS_CLOCKS + GC_CLOCKS)
    air.drain_all()
    assert b.frames == sent
    assert b.overflows == 0 and b.reader.dropped == 0
    assert a.frames == [], "the sender heard nothing of its own light"


def test_random_skew_in_both_directions():
    rng = random.Random(11)
    for k in range(10):
        a, b, air = link(skew=rng.uniform(-0.02, 0.02), phase=rng.random() * 80, seed=k)
        ping, pong = datagram(rng), datagram(rng)
        air.send(a, ping)
        air.send(b, pong)
        air.run_until(b.now + 200)
        air.drain_all()
        assert (b.frames, a.frames) == ([ping], [pong])


def test_a_lone_face_hears_none_of_its_own_frames():
    rng = random.Random(3)
    lone = Face("lone", model=DATASHEET_WORST)
    lone.hears(lone)  # the transceiver's echo of its own light
    air = Air([lone], PASS_CLOCKS)
    for _ in range(40):
        air.send(lone, datagram(rng))
    air.run_until(lone.now + PASS_CLOCKS)
    air.drain_all()
    assert lone.written == 0, "not one byte pushed"
    assert lone.frames == []


def test_a_face_waits_for_the_neighbours_frame_before_sending():
    """b queues a frame just after a's frame began: b's machine holds it until a's frame
    ended (carrier sense), so both arrive whole."""
    rng = random.Random(5)
    a, b, air = link()
    first, second = datagram(rng), datagram(rng)
    a.send(first)
    until_lit(air, a)
    air.run_until(a.now + 5 * 10 * CLOCKS_PER_BIT)  # a is five bytes into its frame
    b.send(second)
    air.run_while(lambda: a.sending or b.sending, 200_000)
    air.run_until(max(a.now, b.now) + 400)
    air.drain_all()
    assert b.frames == [first] and a.frames == [second]
    a_on = [t for t, level in a.tx_edges[1:] if level]
    b_on = [t for t, level in b.tx_edges[1:] if level]
    assert b_on[0] > a_on[-1], "b's first pulse came after a's last one"


def test_a_face_waits_quiet_bits_after_the_neighbours_frame():
    """b queued its frame while a's was on the air: b's first pulse comes no sooner than
    QUIET_CLOCKS after a's last pulse, after a listens again, so a hears it."""
    rng = random.Random(6)
    a, b, air = link()
    first, second = datagram(rng), datagram(rng)
    a.send(first)
    until_lit(air, a)
    air.run_until(a.now + 20 * CLOCKS_PER_BIT)
    b.send(second)
    air.run_while(lambda: a.sending or b.sending, 200_000)
    air.run_until(max(a.now, b.now) + 400)
    air.drain_all()
    a_last_off = [t for t, level in a.tx_edges[1:] if not level][-1]
    b_first_on = next(t for t, level in b.tx_edges[1:] if level)
    assert b_first_on - a_last_off >= QUIET_CLOCKS
    assert b_first_on - a_last_off > DEAF_TICKS + CLOCKS_PER_BIT  # not in a's deaf time
    assert a.frames == [second]


def test_a_face_is_deaf_while_its_dark_bytes_go_out_and_listens_after():
    """A pulse of stray light just before a face's dark bytes end is not heard; one a few
    bits after they end is (as a byte of noise)."""
    heard = {}
    for delay in (-40, 3 * CLOCKS_PER_BIT):
        lone = Face("lone", model=IDEAL)
        lamp = Lamp()
        lone.hears(lamp)
        air = Air([lone], PASS_CLOCKS)
        air.send(lone, b"\x55")
        end_of_frame = lone.now  # its last dark byte's stop bit is over
        last_light = [t for t, level in lone.tx_edges[1:] if not level][-1]
        assert end_of_frame - last_light >= DEAF_TICKS - CLOCKS_PER_BIT
        lamp.flash(end_of_frame + delay, 6)
        air.run_until(end_of_frame + 400)
        heard[delay] = lone.written
    assert heard[-40] == 0
    assert heard[3 * CLOCKS_PER_BIT] >= 1


def test_a_garbled_byte_loses_that_frame_only():
    """A burst of stray light in the middle of one frame: that frame is dropped (cut short or
    failing its check); the frames after it arrive intact."""
    rng = random.Random(9)
    a, b, air = link()
    lamp = Lamp()
    b.hears(lamp)
    frames = [datagram(rng) for _ in range(3)]
    air.send(a, frames[0])
    a.send(frames[1])
    until_lit(air, a)
    air.run_until(a.now + 8 * 10 * CLOCKS_PER_BIT)  # a is eight bytes into frames[1]
    start = max(a.now, b.now) + 2
    for k in range(12):  # a flicker over about one byte
        lamp.flash(start + 26 * k, 6)
    air.run_while(lambda: a.sending, 100_000)
    air.send(a, frames[2])
    air.run_until(a.now + 400)
    air.drain_all()
    assert b.frames[0] == frames[0] and b.frames[-1] == frames[2]
    assert frames[1] not in b.frames and len(b.frames) <= 3


def test_the_wire_bytes_are_delimited():
    frame = bytes([BOF, 1, EOF, 0x7D, 2])
    wire = wire_bytes(frame)
    assert wire[0] == BOF and wire[-1] == EOF
    assert BOF not in wire[1:-1] and EOF not in wire[1:-1]

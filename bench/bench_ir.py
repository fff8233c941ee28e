"""The infrared link's figures (issue: real tiles that play).

- ir_bit_rate: the board's bit rate (hal/board.py), bit/s.
- ir_frame_ms: a 16-byte datagram on the air (its 24-byte frame, BOF and EOF included), ms.
- ir_pio_delivered (full runs only): of 1,000 datagrams sent through the face's PIO program on
  rp2040-pio-emulator (tests/host_tools/pio_link.py), at random phases, with the receiver's
  clock 2 % fast or slow and its CPU draining the DMA ring only every 32 ms (a 20 ms pass plus a
  garbage collection), how many arrived exactly once. Goal: all (1000). It takes ~2 minutes.
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def frame_ms():
    from hal import ir_phy

    return round(ir_phy.frame_us(bytes(ir_phy.DATAGRAM_BYTES)) / 1000, 3)


def pio_delivered(count=1000):
    sys.path.insert(0, os.path.join(ROOT, "tests", "host_tools"))
    from hal import ir_phy
    from pio_link import CLOCKS_PER_BIT, Air, Face

    ms = 16 * 115.2
    rng = random.Random(1000)
    delivered = 0
    for skew in (-0.02, 0.02):
        a = Face("a")
        b = Face("b", rate=1.0 + skew, phase=rng.random() * CLOCKS_PER_BIT)
        b.hears(a)
        a.hears(b)
        a.hears(a, latency=1.0)
        b.hears(b, latency=1.0)
        air = Air([a, b], int(32 * ms))
        sent = [
            bytes(rng.randrange(256) for _ in range(ir_phy.DATAGRAM_BYTES))
            for _ in range(count // 2)
        ]
        for frame in sent:
            air.send(a, frame)
            air.run_until(a.now + rng.random() * 3 * CLOCKS_PER_BIT)
        air.run_until(a.now + 40 * ms)
        air.drain_all()
        delivered += sum(1 for got, want in zip(b.frames, sent) if got == want)
        delivered -= abs(len(b.frames) - len(sent))  # a duplicate or a stray frame costs one
    return delivered


def run(quick: bool) -> dict:
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from hal import board

    figures = {"ir_bit_rate": board.IR_BIT_RATE, "ir_frame_ms": frame_ms()}
    if not quick:
        figures["ir_pio_delivered"] = pio_delivered()
    return figures

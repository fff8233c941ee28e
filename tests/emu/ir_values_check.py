# MicroPython script for an emulated rp2 tile (tests/emu/test_emu_ir_values.py prepends FW and
# ARGS): the viper take_values (hal/ir_values.py) against the plain IrFaces.receive_values
# (hal/ir_faces.py) on the same rings, round after round of random traffic: values, datagram-
# sized frames, noise and frames cut across passes. Prints RESULT rounds mismatches. (Viper's
# pointers are the rp2's 32-bit addresses: the unix port's 64-bit ones do not fit them.)
import random
import sys

sys.path.insert(0, FW)  # noqa: F821  set by the test

from array import array

import uctypes
from hal.ir_faces import RING_BYTES, RING_MASK, RX_COUNT, IrFaces
from hal.ir_frames import FrameReader, wire_bytes
from hal.ir_values import take_values


class Channel:
    def __init__(self, cell):
        self.cell = cell

    @property
    def count(self):
        return self.cell[0]


class Link:
    def __init__(self):
        self.ring = bytearray(RING_BYTES)
        self.reader = FrameReader()
        self.overruns = 0
        self.cell = array("I", [RX_COUNT])
        self.rx = Channel(self.cell)

    def arrive(self, data):
        written = RX_COUNT - self.cell[0]
        for b in data:
            self.ring[written & RING_MASK] = b
            written += 1
        self.cell[0] = RX_COUNT - written


EDGES = (0xC0, 0xC1, 0x7D, 0x00, 0x5D, 0xFF)  # BOF, EOF, ESC and some plain bytes


def traffic(rng):
    kind = rng.randint(0, 6)
    if kind == 6:  # four raw bytes shaped like a value, maybe holding a byte that needs escaping
        return bytes((0xC0, EDGES[rng.randint(0, 5)], EDGES[rng.randint(0, 5)], 0xC1))
    if kind == 0:
        return b""
    if kind <= 2:  # a face value: 2 bytes, sometimes ones that need escaping
        return wire_bytes(bytes([rng.getrandbits(8), rng.getrandbits(8)]))
    if kind == 3:
        return wire_bytes(bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 24))))
    if kind == 4:
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 6)))  # noise, cut frames
    return wire_bytes(b"\x10\x20") + wire_bytes(b"\x30\x40")  # two values in one pass


class Rng:
    """The few draws needed, from MicroPython's random module (no Random class there)."""

    def __init__(self, seed):
        random.seed(seed)

    def randint(self, a, b):
        return random.randint(a, b)

    def getrandbits(self, n):
        return random.getrandbits(n)


def main(seed, rounds):
    rng = Rng(seed)
    plain, fast = IrFaces([Link() for _ in range(6)]), IrFaces([Link() for _ in range(6)])
    counts = array("I", [uctypes.addressof(link.cell) for link in fast._links])
    rings = array("I", [uctypes.addressof(link.ring) for link in fast._links])
    pairs_plain, pairs_fast = bytearray(12), bytearray(12)
    mismatches = 0
    for _ in range(rounds):
        for face in range(6):
            data = traffic(rng)
            plain._links[face].arrive(data)
            fast._links[face].arrive(data)
        a = plain.receive_values(pairs_plain)
        b = take_values(counts, rings, fast.reads, fast.receiving, pairs_fast)
        same = a == b and list(plain.reads) == list(fast.reads)
        same = same and all(pairs_plain[i] == pairs_fast[i] for i in range(12) if a >> (i // 2) & 1)
        if not same:
            mismatches += 1
        for hal, got in ((plain, a), (fast, b)):
            for face in range(6):  # the rest of the pass, as the runtime takes it
                if got >> (face + 8) & 1:
                    n = hal.receive_frame(face)
                    while n:
                        n = hal.receive_frame(face) if hal.rx_more else 0
    print("RESULT", rounds, mismatches)


main(*ARGS)  # noqa: F821  set by the test

# MicroPython script for an emulated rp2 tile (tests/emu/test_emu_ir_values.py prepends FW and
# ARGS): the viper encoder (hal/ir_encode.py) against the Python one (hal/ir_frames.py) on random
# frames, escapes made likely, at random places in a bulk buffer: the same words everywhere in
# the buffer, the same returned end, and the same ValueError for a frame that is empty, too long
# or does not fit. Prints RESULT rounds mismatches errors, then TIMING with each encoder's
# microseconds for a 268-byte frame (the bench's concern, not the test's).
import random
import sys
import time
from array import array

sys.path.insert(0, FW)  # noqa: F821  set by the test

from hal import ir_encode, ir_frames

SIZE = 1200


def encode(fn, data, at):
    out = array("H", [0x5555] * SIZE)
    try:
        end = fn(data, out, at)
    except ValueError as exc:
        return ("error", str(exc)), out
    return end, out


def main(seed, rounds):
    random.seed(seed)
    mismatches = errors = 0
    for _ in range(rounds):
        n = random.choice((0, 1, 2, random.randint(1, 268), 268, 272, 273))
        data = bytes(random.choice((0xC0, 0xC1, 0x7D, random.getrandbits(8))) for _ in range(n))
        at = random.choice((0, random.randint(0, SIZE - 1), SIZE - 300, SIZE - 600))
        if random.getrandbits(1):
            data = memoryview(bytearray(b"xx" + data))[2:]  # a window's frames are views
        py = encode(ir_frames.encode_words, data, at)
        vi = encode(ir_encode.encode_words, data, at)
        if py[0] != vi[0] or (not isinstance(py[0], tuple) and py[1] != vi[1]):
            mismatches += 1
        if isinstance(py[0], tuple):
            errors += 1
    print("RESULT", rounds, mismatches, errors > 0)
    frame = bytes(random.getrandbits(8) for _ in range(268))
    out = array("H", range(SIZE))
    times = []
    for fn in (ir_frames.encode_words, ir_encode.encode_words):
        t = time.ticks_us()
        for _ in range(10):
            fn(frame, out, 0)
        times.append(time.ticks_diff(time.ticks_us(), t) // 10)
    print("TIMING python_us={} viper_us={}".format(*times))


main(*ARGS)  # noqa: F821  set by the test

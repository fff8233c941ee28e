# MicroPython script for an emulated rp2 tile (tests/emu/test_emu_ir_values.py prepends FW and
# ARGS): the viper send_values (hal/ir_send.py, from the DMA and PIO registers) against what the
# Python send_frame (hal/ir_faces.py) would do, on the tile's own links. Each round stops the
# state machines (so nothing drains while the two paths look), then leaves each face free, with
# a frame's DMA running, with words waiting in its TX FIFO alone, or with its reader mid-frame,
# and its buffer holding the asked value or another frame. A face started must have been asked
# and free, and its channel must have read the value's own words; an asked free face must have
# been started (the viper way, or the Python way when its buffer held another frame); no other
# face's channel may have moved. Prints RESULT rounds mismatches started_viper started_python.
import random
import sys
import time

sys.path.insert(0, FW)  # noqa: F821  set by the test

from hal.ir_faces import READ_ADDR
from hal.rp2_hal import Rp2Hal
from runtime.link import VALUE_FRAME


def free(hal, face):
    link = hal._links[face]
    return not (link.sm.tx_fifo() or link.tx.active() or hal.receiving[face])


def main(seed, rounds):
    random.seed(seed)
    hal = Rp2Hal()
    values = bytearray(6)
    mismatches = viper = python = 0
    for _ in range(rounds):
        for link in hal._links:
            link.sm.active(1)
        time.sleep_ms(5)  # every frame of the last round out
        for link in hal._links:
            link.sm.active(0)
        mask = random.getrandbits(6)
        for face in range(6):
            link = hal._links[face]
            values[face] = random.randint(0, 3)  # few values: a buffer often holds the one asked
            hal.receiving[face] = 0
            kind = random.randint(0, 4)
            if kind == 1:
                hal.send_frame(face, bytes(random.randint(1, 24)))  # DMA busy, another frame held
            elif kind == 2:
                link.sm.put(0)  # words in the FIFO, the DMA idle
            elif kind == 3:
                hal.receiving[face] = 1
        before = [free(hal, face) for face in range(6)]
        for face in range(6):
            if before[face]:
                hal._links[face].tx_regs[READ_ADDR] = 0  # an idle channel: only a start moves it
        held = bytes(hal.tx_value)
        sent = hal.send_values(values, mask)
        for face in range(6):
            link = hal._links[face]
            asked = mask >> face & 1
            if sent >> face & 1:
                progress = link.tx_regs[READ_ADDR] - link.words_at
                ok = asked and before[face] and 0 < progress <= 2 * link.count
                ok = ok and hal.tx_value[face] == values[face]
                ok = ok and link.sent is VALUE_FRAME[values[face]]
                if held[face] == values[face]:
                    viper += 1
                else:
                    python += 1
            else:
                ok = not (asked and before[face])
                ok = ok and not (before[face] and link.tx_regs[READ_ADDR])
            mismatches += not ok
    for link in hal._links:
        link.sm.active(1)
    print("RESULT", rounds, mismatches, viper > 0, python > 0)


main(*ARGS)  # noqa: F821  set by the test

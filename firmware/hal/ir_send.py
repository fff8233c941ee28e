"""The faces' plain values of a pass sent in one viper call (MicroPython only).

A pass sends each face its plain value frame, again and again. The Python way costs a call a
face and, inside it, two calls to ask the face's DMA channel and state machine whether it is
busy and half a dozen attribute reads: ~50 us a face on an RP2040 (the emulated one's count).
Here the busy checks and the two register writes that start the channel (hal/ir_faces.py's
send_frame) read and write memory straight, for all six faces at once. A face whose word buffer
holds another frame (`held` differs) is left to the Python path, which encodes it once.

The table, made once by Rp2Hal: for face f, words 5f..5f+4 are its TX channel's register block
address, its PIO block's FSTAT address, its TXEMPTY bit there, its word buffer's address and
that buffer's transfer count (the frame's words, dark bytes included); word 30 is the BUSY bit
of a channel's CTRL register. Viper's integers are machine words: all of these are below 2**32.
"""

import micropython
from micropython import const

_CTRL = const(3)  # a DMA channel's CTRL_TRIG, by word (RP2040 datasheet 2.5.7)
_TRANS_COUNT_TRIG = const(7)  # AL1_TRANS_COUNT_TRIG: writing the count starts the channel


@micropython.viper
def send_values(table: ptr32, values: ptr8, held: ptr8, receiving: ptr8, mask: int) -> int:
    """Start face f's frame for each bit f of `mask` where the face is idle (its channel not
    busy, its TX FIFO empty, its reader not inside a frame) and its buffer holds `values[f]`.
    Returns bit f for each face started, bit 8 + f for an idle face whose buffer holds another
    frame."""
    busy = table[30]
    sent = 0
    face = 0
    while face < 6:
        if (mask >> face) & 1 and not receiving[face]:
            row = face * 5
            regs = ptr32(table[row])
            if not (regs[_CTRL] & busy) and ptr32(table[row + 1])[0] & table[row + 2]:
                if held[face] == values[face]:
                    regs[0] = table[row + 3]  # READ_ADDR: the frame's first word
                    regs[_TRANS_COUNT_TRIG] = table[row + 4]
                    sent |= 1 << face
                else:
                    sent |= 0x100 << face
        face += 1
    return sent

"""A frame's transmitter halfwords written in viper (MicroPython only).

hal/ir_frames.encode_words does it a byte at a time in Python: 3.2 ms for a 268-byte bulk frame
on an RP2040 (the emulated one's count), so a window of eight cost the sender 26 ms of encoding
on top of its 190 ms on the air. Here the same table lookups run as machine code over the
frame's bytes. The checks (a frame's length, room in the buffer) are ir_frames' own, made
before a word is written; the words are the same, which tests/emu/ir_encode_check.py checks on
an emulated tile.
"""

import micropython
from micropython import const

from hal.ir_frames import SPECIAL, TX_WORD, check_fits

_BOF = const(0xC0)
_EOF = const(0xC1)
_ESC = const(0x7D)
_ESC_XOR = const(0x20)
_DARK_BYTES = const(7)


@micropython.viper
def _encode(data: ptr8, n: int, out: ptr16, at: int, words: ptr16, special: ptr8) -> int:
    out[at] = words[_BOF]
    i = at + 1
    k = 0
    while k < n:
        b = data[k]
        if special[b]:
            out[i] = words[_ESC]
            i += 1
            b ^= _ESC_XOR
        out[i] = words[b]
        i += 1
        k += 1
    out[i] = words[_EOF]
    i += 1
    end = i + _DARK_BYTES
    while i < end:
        out[i] = 0  # a byte time of darkness
        i += 1
    return i


def encode_words(data, out, at=0) -> int:
    """hal/ir_frames.encode_words, the same words and the same errors, in viper."""
    check_fits(data, out, at)
    return _encode(data, len(data), out, at, TX_WORD, SPECIAL)

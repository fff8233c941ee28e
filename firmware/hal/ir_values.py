"""The six faces' values of a pass, taken in one viper call (MicroPython only).

What IrFaces.receive_values (hal/ir_faces.py) does, on raw memory: each face's DMA transfer
count is read straight from its register and its ring byte by byte through pointers, so the
common case of a pass (a plain value frame on every face) costs a few microseconds instead of a
Python call a face. It reads and writes the same arrays the Python path does (the read
positions, the half-read flags), so either path can take any face's bytes; the host tests run
both on the same rings and compare (tests/firmware/test_ir_values.py, on the unix port).

Viper's integers are machine words: every figure here is below 2**31 (the DMA counts, below
RX_COUNT; addresses of RAM and registers).
"""

import micropython
from micropython import const

_RX_COUNT = const(0x0FFFFFFF)  # hal/ir_faces.RX_COUNT
_RING_BYTES = const(512)  # hal/ir_faces.RING_BYTES
_RING_MASK = const(511)
_BOF = const(0xC0)  # hal/ir_frames.py
_EOF = const(0xC1)
_ESC = const(0x7D)


@micropython.viper
def take_values(counts: ptr32, rings: ptr32, reads: ptr32, receiving: ptr8, pairs: ptr8) -> int:
    """`counts`: each face's DMA TRANS_COUNT register address; `rings`: each ring's address;
    `reads`, `receiving`, `pairs` and the result as IrFaces.receive_values has them."""
    got = 0
    face = 0
    while face < 6:
        written = _RX_COUNT - int(ptr32(counts[face])[0])
        read = int(reads[face])
        left = written - read
        if left != 0:
            taken = False
            if left >= 4 and left <= _RING_BYTES and not receiving[face]:
                ring = ptr8(rings[face])
                a = ring[(read + 1) & _RING_MASK]
                b = ring[(read + 2) & _RING_MASK]
                if (
                    ring[read & _RING_MASK] == _BOF
                    and ring[(read + 3) & _RING_MASK] == _EOF
                    and a != _BOF
                    and a != _EOF
                    and a != _ESC
                    and b != _BOF
                    and b != _EOF
                    and b != _ESC
                ):
                    pairs[2 * face] = a
                    pairs[2 * face + 1] = b
                    reads[face] = read + 4
                    got |= 1 << face
                    taken = True
                    if left != 4:
                        got |= 0x100 << face
            if not taken:
                got |= 0x100 << face
        face += 1
    return got

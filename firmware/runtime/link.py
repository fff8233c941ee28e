"""Byte-level framing of the infrared link. Pure functions and constant tables, no state.

A frame's length tells its kind, so no bit flip can turn a datagram into a value or back:

* value frame, 2 bytes: the value byte (bits 0-5 the face value, bit 6 the press flag, bit 7
  odd parity) and a check byte, VALUE_CHECK[value byte & 127]. The 128 frames form a code of
  minimum distance 6: every error of up to 5 flipped bits is caught, where one parity bit let
  any two flips through (a game then had to wait for a value to hold before trusting it).
* sleep frame, 2 bytes: exactly SLEEP_FRAME. A tile falling asleep sends it on every face so its
  neighbours fall asleep with it (the reference's viral warm sleep). It lies 5 bit flips away
  from every value frame, and a value frame 5 flips away from it.
* datagram-layer frame, 8 to 24 bytes:
  `kind, value byte, sender id, acked id, seq << 4 | ack, payload (0-16 bytes), crc24 (3 bytes)`.
  `kind` is DATA (carries a payload to deliver) or ACK (acknowledges only). The value byte keeps
  the face value flowing while datagrams are exchanged. `sender id` names the sending face: a
  random byte drawn at power-up, plus the face index (mod 256), and `seq` (1-15) counts that
  face's datagrams, so a receiver can tell a resent duplicate (same id and seq) from a new
  datagram, even after a neighbour is swapped or turned (a tile-wide id let another face of the
  same tile, numbering its own datagrams, repeat an id and seq the receiver had taken).
  `acked id`/`ack` name the last datagram this side delivered. CRC-24/OpenPGP over the rest: at
  these lengths (up to 192 bits) it catches every error of up to 5 flipped bits and all but
  2^-24 of the others, where a CRC-16 let one in 2^16 frames hit by 4 or more flips through
  (at 1 % bit flips a long frame has 4 or more flips 3 % of the time).

What the checks cost on air: a value frame is 8 bits longer (16 instead of 8 data bits), a
datagram frame 8 bits longer (24-bit CRC instead of 16): at 4 kbit/s with start and stop bits,
2.5 ms more per frame.

Every decoder returns None (never raises) for a frame that fails its checks.
"""

MAX_PAYLOAD = 16
KIND_DATA = 0xA5
KIND_ACK = 0x5A
VALUE_LEN = 2
SLEEP_FRAME = b"\x83\x6e"  # 5 flips from every value frame (tests/firmware/test_rt_link.py)
HEADER = 5  # kind, value, sender id, acked id, seq/ack
TRAILER = 3  # the CRC-24
DATAGRAM_MIN = HEADER + TRAILER
DATAGRAM_MAX = HEADER + MAX_PAYLOAD + TRAILER


def _build_parity():
    odd = bytearray(256)
    for b in range(256):
        n = 0
        x = b
        while x:
            n += x & 1
            x >>= 1
        odd[b] = n & 1
    return bytes(odd)


ODD = _build_parity()  # ODD[b] == 1 when byte b has an odd number of one bits


def _build_value_bytes():
    out = bytearray(128)
    for v in range(128):
        out[v] = v if ODD[v] else v | 0x80
    return bytes(out)


VALUE_BYTE = _build_value_bytes()  # VALUE_BYTE[value | flag << 6] -> encoded byte

# The check byte of a value frame is linear in the 7 data bits: the XOR of these rows, one per
# set bit. Found by search: with the parity bit, every two frames differ in 6 bits or more.
_CHECK_ROWS = (0x27, 0x56, 0xBE, 0x6C, 0xDB, 0xE2, 0x95)


def _build_value_checks():
    out = bytearray(128)
    for v in range(128):
        c = 0
        for i in range(7):
            if v >> i & 1:
                c ^= _CHECK_ROWS[i]
        out[v] = c
    return bytes(out)


VALUE_CHECK = _build_value_checks()  # VALUE_CHECK[value | flag << 6] -> check byte
# One preallocated 2-byte frame per (value, flag), so sending values allocates nothing.
VALUE_FRAME = tuple(bytes((VALUE_BYTE[i], VALUE_CHECK[i])) for i in range(128))


def is_value_frame(data, n=-1) -> bool:
    """True for a well-formed 2-byte value frame (parity and check byte); `n` is the frame's
    length when `data` is a longer buffer holding it."""
    if n < 0:
        n = len(data)
    return n == VALUE_LEN and ODD[data[0]] == 1 and VALUE_CHECK[data[0] & 127] == data[1]


def _build_crc_table():
    hi = bytearray(256)
    mid = bytearray(256)
    lo = bytearray(256)
    for i in range(256):
        c = i << 16
        for _ in range(8):
            c = ((c << 1) ^ 0x864CFB) if c & 0x800000 else (c << 1)
            c &= 0xFFFFFF
        hi[i] = c >> 16
        mid[i] = c >> 8 & 0xFF
        lo[i] = c & 0xFF
    return bytes(hi), bytes(mid), bytes(lo)


_CRC_HI, _CRC_MID, _CRC_LO = _build_crc_table()


def crc24(data, end: int) -> int:
    """CRC-24/OpenPGP (poly 0x864CFB, init 0xB704CE) of data[0:end]; small ints throughout."""
    crc = 0xB704CE
    hi = _CRC_HI
    mid = _CRC_MID
    lo = _CRC_LO
    for i in range(end):
        j = (crc >> 16) ^ data[i]
        crc = ((crc & 0xFFFF) << 8 ^ hi[j] << 16 ^ mid[j] << 8) | lo[j]
    return crc


def encode_value(value: int, flag: bool) -> int:
    """The value byte for a value 0-63 and the press flag."""
    return VALUE_BYTE[(value & 63) | (64 if flag else 0)]


def encode_datagram(kind, value_byte, sender_id, acked_id, seq, ack, payload=b""):
    """A complete datagram-layer frame (bytes)."""
    n = len(payload)
    frame = bytearray(HEADER + n + TRAILER)
    frame[0] = kind
    frame[1] = value_byte
    frame[2] = sender_id
    frame[3] = acked_id
    frame[4] = seq << 4 | ack
    frame[HEADER : HEADER + n] = payload
    crc = crc24(frame, HEADER + n)
    frame[HEADER + n] = crc >> 16
    frame[HEADER + n + 1] = crc >> 8 & 0xFF
    frame[HEADER + n + 2] = crc & 0xFF
    return bytes(frame)


def payload(frame):
    """The payload bytes of a datagram-layer frame (checked or not)."""
    return frame[HEADER : len(frame) - TRAILER]


def check_datagram(frame, n=-1) -> bool:
    """True when a datagram-layer frame is well formed: length, kind, value parity, seq, CRC.
    `n` is the frame's length when `frame` is a longer buffer holding it."""
    if n < 0:
        n = len(frame)
    if n < DATAGRAM_MIN or n > DATAGRAM_MAX:
        return False
    kind = frame[0]
    if kind == KIND_DATA:
        if frame[4] >> 4 == 0:
            return False
    elif kind != KIND_ACK or n != DATAGRAM_MIN:
        return False
    if not ODD[frame[1]]:
        return False
    return crc24(frame, n - TRAILER) == (frame[n - 3] << 16 | frame[n - 2] << 8 | frame[n - 1])

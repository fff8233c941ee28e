"""Byte-level framing of the infrared link. Pure functions and constant tables, no state.

A frame's length tells its kind, so no bit flip can turn one kind into another:

* value frame, 1 byte: bits 0-5 the face value, bit 6 the press flag, bit 7 odd parity
  (the byte always has an odd number of ones). Parity catches every single-bit error.
* sleep frame, 2 bytes: exactly SLEEP_FRAME. A tile falling asleep sends it on every face so its
  neighbours fall asleep with it (the reference's viral warm sleep). Both bytes have even parity,
  so a value byte can never be part of it.
* datagram-layer frame, 7 to 23 bytes:
  `kind, value byte, sender id, acked id, seq << 4 | ack, payload (0-16 bytes), crc16 hi, lo`.
  `kind` is DATA (carries a payload to deliver) or ACK (acknowledges only). The value byte keeps
  the face value flowing while datagrams are exchanged. `sender id` is a random byte drawn at
  power-up and `seq` (1-15) counts the sender's datagrams on that face, so a receiver can tell a
  resent duplicate (same id and seq) from a new datagram, even after a neighbour is swapped.
  `acked id`/`ack` name the last datagram this side delivered. CRC-16/CCITT over the rest.

Every decoder returns None (never raises) for a frame that fails its checks.
"""

MAX_PAYLOAD = 16
KIND_DATA = 0xA5
KIND_ACK = 0x5A
KIND_SLEEP = 0x3C
SLEEP_FRAME = bytes((KIND_SLEEP, KIND_SLEEP ^ 0xFF))
HEADER = 5  # kind, value, sender id, acked id, seq/ack
DATAGRAM_MIN = HEADER + 2
DATAGRAM_MAX = HEADER + MAX_PAYLOAD + 2


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
# One preallocated 1-byte frame per (value, flag), so sending values allocates nothing.
VALUE_FRAME = tuple(bytes((VALUE_BYTE[i],)) for i in range(128))


def _build_crc_table():
    hi = bytearray(256)
    lo = bytearray(256)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
            c &= 0xFFFF
        hi[i] = c >> 8
        lo[i] = c & 0xFF
    return bytes(hi), bytes(lo)


_CRC_HI, _CRC_LO = _build_crc_table()


def crc16(data, end: int) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of data[0:end]."""
    crc = 0xFFFF
    hi = _CRC_HI
    lo = _CRC_LO
    for i in range(end):
        j = (crc >> 8) ^ data[i]
        crc = ((crc & 0xFF) << 8 ^ hi[j] << 8) | lo[j]
    return crc


def encode_value(value: int, flag: bool) -> int:
    """The value byte for a value 0-63 and the press flag."""
    return VALUE_BYTE[(value & 63) | (64 if flag else 0)]


def encode_datagram(kind, value_byte, sender_id, acked_id, seq, ack, payload=b""):
    """A complete datagram-layer frame (bytes)."""
    n = len(payload)
    frame = bytearray(HEADER + n + 2)
    frame[0] = kind
    frame[1] = value_byte
    frame[2] = sender_id
    frame[3] = acked_id
    frame[4] = seq << 4 | ack
    frame[HEADER : HEADER + n] = payload
    crc = crc16(frame, HEADER + n)
    frame[HEADER + n] = crc >> 8
    frame[HEADER + n + 1] = crc & 0xFF
    return bytes(frame)


def check_datagram(frame) -> bool:
    """True when a datagram-layer frame is well formed: length, kind, value parity, seq, CRC."""
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
    return crc16(frame, n - 2) == (frame[n - 2] << 8 | frame[n - 1])

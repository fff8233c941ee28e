"""Frame encoding and checks: value codes, CRC, lengths (CPython and MicroPython)."""

from runtime import link


def test_every_value_byte_has_odd_parity_and_round_trips():
    for v in range(64):
        for flag in (False, True):
            b = link.encode_value(v, flag)
            assert link.ODD[b] == 1
            assert b & 63 == v
            assert bool(b & 64) == flag
            frame = link.VALUE_FRAME[v | (64 if flag else 0)]
            assert frame[0] == b and len(frame) == link.VALUE_LEN
            assert link.is_value_frame(frame)


def bits(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


def distance(a, b):
    return sum(bits(a[i] ^ b[i]) for i in range(len(a)))


def test_any_two_value_frames_differ_in_six_bits_or_more():
    frames = link.VALUE_FRAME
    worst = min(distance(frames[i], frames[j]) for i in range(128) for j in range(i))
    assert worst == 6


def test_every_value_frame_with_up_to_five_flipped_bits_is_caught():
    # flips of 1, 2 and 3 bits exhaustively; 4 and 5 over every window of 8 consecutive bits
    for i in range(0, 128, 3):
        frame = link.VALUE_FRAME[i]
        for a in range(16):
            for b in range(a, 16):
                for c in range(b, 16):
                    mask = (1 << a) | (1 << b) | (1 << c)
                    bad = bytes((frame[0] ^ (mask >> 8), frame[1] ^ (mask & 255)))
                    assert bad == frame or not link.is_value_frame(bad), (i, a, b, c)
        for start in range(9):
            for mask in range(256):
                if 4 <= bits(mask) <= 5:
                    m = mask << start
                    bad = bytes((frame[0] ^ (m >> 8), frame[1] ^ (m & 255)))
                    assert not link.is_value_frame(bad)


def test_the_sleep_frame_is_five_flips_away_from_every_value_frame():
    assert len(link.SLEEP_FRAME) == link.VALUE_LEN
    assert min(distance(link.SLEEP_FRAME, f) for f in link.VALUE_FRAME) == 5


def test_crc24_matches_the_openpgp_check_value():
    assert link.crc24(b"123456789", 9) == 0x21CF02


def test_datagram_frames_round_trip():
    for n in range(17):
        payload = bytes(range(n))
        fr = link.encode_datagram(link.KIND_DATA, link.encode_value(9, False), 7, 3, 5, 2, payload)
        assert len(fr) == n + 8
        assert link.check_datagram(fr)
        assert link.payload(fr) == payload
    ack = link.encode_datagram(link.KIND_ACK, link.encode_value(1, True), 7, 3, 0, 2)
    assert link.check_datagram(ack)


def test_single_and_double_bit_flips_in_datagrams_are_caught():
    # (the CRC-24 catches up to 5 flips at these lengths: tests/firmware/test_link_fuzz.py)
    fr = link.encode_datagram(
        link.KIND_DATA, link.encode_value(33, False), 200, 17, 9, 4, b"lost gems!"
    )
    nbits = len(fr) * 8
    for i in range(nbits):
        bad = bytearray(fr)
        bad[i >> 3] ^= 1 << (i & 7)
        assert not link.check_datagram(bytes(bad))
        for j in range(i + 1, nbits, 5):
            worse = bytearray(bad)
            worse[j >> 3] ^= 1 << (j & 7)
            assert not link.check_datagram(bytes(worse))


def test_wrong_lengths_kinds_and_seq_are_rejected():
    good = link.encode_datagram(link.KIND_DATA, link.encode_value(1, False), 1, 0, 1, 0, b"x")
    assert not link.check_datagram(good[:7])
    assert not link.check_datagram(good + bytes(20))
    assert not link.check_datagram(b"")
    zero_seq = link.encode_datagram(link.KIND_DATA, link.encode_value(1, False), 1, 0, 0, 0)
    assert not link.check_datagram(zero_seq)
    other = link.encode_datagram(0x33, link.encode_value(1, False), 1, 0, 1, 0)
    assert not link.check_datagram(other)
    long_ack = link.encode_datagram(link.KIND_ACK, link.encode_value(1, False), 1, 0, 0, 0, b"x")
    assert not link.check_datagram(long_ack)

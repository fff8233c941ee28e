"""Frame encoding and checks: parity, CRC, lengths (CPython and MicroPython)."""

from runtime import link


def test_every_value_byte_has_odd_parity_and_round_trips():
    for v in range(64):
        for flag in (False, True):
            b = link.encode_value(v, flag)
            assert link.ODD[b] == 1
            assert b & 63 == v
            assert bool(b & 64) == flag
            assert link.VALUE_FRAME[v | (64 if flag else 0)] == bytes((b,))


def test_any_single_bit_flip_in_a_value_byte_is_caught():
    for i in range(128):
        b = link.VALUE_BYTE[i]
        for bit in range(8):
            assert link.ODD[b ^ (1 << bit)] == 0


def test_crc16_matches_the_ccitt_false_check_value():
    assert link.crc16(b"123456789", 9) == 0x29B1


def test_datagram_frames_round_trip():
    for n in range(17):
        payload = bytes(range(n))
        fr = link.encode_datagram(link.KIND_DATA, link.encode_value(9, False), 7, 3, 5, 2, payload)
        assert len(fr) == n + 7
        assert link.check_datagram(fr)
        assert fr[link.HEADER : -2] == payload
    ack = link.encode_datagram(link.KIND_ACK, link.encode_value(1, True), 7, 3, 0, 2)
    assert link.check_datagram(ack)


def test_single_and_double_bit_flips_in_datagrams_are_caught():
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
    assert not link.check_datagram(good[:6])
    assert not link.check_datagram(good + bytes(20))
    assert not link.check_datagram(b"")
    zero_seq = link.encode_datagram(link.KIND_DATA, link.encode_value(1, False), 1, 0, 0, 0)
    assert not link.check_datagram(zero_seq)
    other = link.encode_datagram(0x33, link.encode_value(1, False), 1, 0, 1, 0)
    assert not link.check_datagram(other)
    long_ack = link.encode_datagram(link.KIND_ACK, link.encode_value(1, False), 1, 0, 0, 0, b"x")
    assert not link.check_datagram(long_ack)

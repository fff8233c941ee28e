"""Fuzzing the receive path (CPython only, hypothesis): no frame can crash a tile, every frame is
either taken or counted as dropped, and only well-formed datagrams are delivered."""

from hypothesis import given, settings
from hypothesis import strategies as st
from rt_hal import make, run_to
from runtime import link

# a HAL never hands over an empty frame: receive_frame's length 0 means none is left
frames = st.lists(st.tuples(st.integers(0, 5), st.binary(min_size=1, max_size=30)), max_size=40)


def valid(data):
    return link.is_value_frame(data) or link.check_datagram(data) or data == link.SLEEP_FRAME


@settings(max_examples=300, deadline=None)
@given(frames)
def test_any_bytes_on_any_face_never_raise_and_are_counted(batch):
    hal, tile = make()
    for i, (face, data) in enumerate(batch):
        hal.rx[face].append((i, data))
    run_to(hal, tile, 50)
    bad = sum(1 for _, data in batch if not valid(data))
    assert tile.inspect()["frames_dropped"] == bad
    for f in range(6):
        got = tile.get_datagram_on_face(f)
        if got is not None:
            sources = [
                d
                for face, d in batch
                if face == f and link.check_datagram(d) and d[0] == link.KIND_DATA
            ]
            assert any(link.payload(d) == got for d in sources)


@settings(max_examples=300, deadline=None)
@given(
    st.binary(min_size=0, max_size=16),
    st.lists(st.integers(0, 191), min_size=1, max_size=5, unique=True),
)
def test_up_to_five_flipped_bits_never_pass_the_datagram_check(payload, bits):
    frame = link.encode_datagram(link.KIND_DATA, link.encode_value(3, False), 1, 2, 3, 4, payload)
    bad = bytearray(frame)
    flipped = {b % (len(frame) * 8) for b in bits}
    for bit in flipped:
        bad[bit >> 3] ^= 1 << (bit & 7)
    assert not link.check_datagram(bytes(bad))

"""The frame reader turns what a face heard back into frames, however the CPU slices the ring.

The rp2 HAL reads each face's DMA ring once a pass, so a frame can be split anywhere between two
reads, and the ring wraps. (Face values skip the reader on a tile: test_ir_faces.py holds that
shortcut to the reader's answers.)
"""

from hal.ir_frames import BOF, EOF, ESC, MAX_FRAME, FrameReader, wire_bytes
from hypothesis import given, settings
from hypothesis import strategies as st

MASK = 63  # a small ring, so streams wrap often
SPECIALS = st.sampled_from([BOF, EOF, ESC, 0x5D, 0xE0, 0xE1])
BYTE = st.one_of(st.integers(0, 255), SPECIALS)
FRAME = st.one_of(
    st.lists(BYTE, min_size=2, max_size=2),  # face values, most of the traffic
    st.lists(BYTE, min_size=1, max_size=MAX_FRAME),
).map(bytes)


def read_all(stream, cuts):
    """Feed `stream` through a ring of MASK + 1 bytes, the CPU reading at each cut (and at
    least once a ringful, as the HAL must to keep up)."""
    ring = bytearray(MASK + 1)
    reader = FrameReader()
    frames = []
    written = pos = 0
    stops = sorted({min(c, len(stream)) for c in cuts} | {len(stream)})
    for stop in stops:
        while written < stop:
            step = min(stop, written + MASK + 1)
            while written < step:
                ring[written & MASK] = stream[written]
                written += 1
            while True:
                pos = reader.read(ring, pos, written, MASK)
                if not reader.length:
                    break
                frames.append(bytes(reader.frame[: reader.length]))
    return frames, reader


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(FRAME, st.binary(max_size=3)), max_size=12),
    st.lists(st.integers(0, 400), max_size=20),
)
def test_every_frame_comes_back_once_whatever_the_cuts(frames, cuts):
    # noise between frames never holds BOF, EOF or ESC here: a frame's own bytes are all that
    # count, and noise without a BOF is skipped
    stream = b"".join(
        wire_bytes(frame) + bytes(b for b in noise if b not in (BOF, EOF, ESC))
        for frame, noise in frames
    )
    got, reader = read_all(stream, cuts)
    assert got == [frame for frame, _ in frames]
    assert reader.dropped == 0 and not reader.receiving


@settings(max_examples=200, deadline=None)
@given(st.lists(FRAME, min_size=2, max_size=8), st.data())
def test_a_frame_cut_short_is_lost_alone(frames, data):
    # a frame that loses its end (a byte garbled into nothing) is dropped when the next BOF
    # comes, and the next frame arrives whole
    lost = data.draw(st.integers(0, len(frames) - 2))
    parts = [wire_bytes(frame) for frame in frames]
    parts[lost] = parts[lost][:-1]  # its EOF never arrived
    got, reader = read_all(b"".join(parts), data.draw(st.lists(st.integers(0, 300))))
    assert got == frames[:lost] + frames[lost + 1 :]
    assert reader.dropped == 1


def test_a_face_value_split_between_two_reads_still_arrives():
    ring = bytearray(MASK + 1)
    reader = FrameReader()
    wire = wire_bytes(b"\x85\x33")
    start = MASK - 1  # across the ring's end as well
    for i, b in enumerate(wire):
        ring[(start + i) & MASK] = b
    pos = reader.read(ring, start, start + 2, MASK)
    assert reader.length == 0 and reader.receiving
    pos = reader.read(ring, pos, start + len(wire), MASK)
    assert bytes(reader.frame[: reader.length]) == b"\x85\x33" and pos == start + len(wire)
    assert not reader.receiving

"""The rp2 HAL's faces (hal/ir_faces.py) on stand-in links: what a DMA channel wrote into a
face's ring comes back as frames, however the passes slice it, and a send drives the channel.

Face values are taken from the ring without the FrameReader's byte loop; these tests hold that
shortcut to the same answers as the loop (noise, escapes, frames split across reads or across
the ring's end), and a ring the CPU fell behind on to being skipped, never misread.
"""

from array import array

from hal.ir_faces import READ_ADDR, RING_BYTES, RING_MASK, RX_COUNT, TRANS_COUNT_TRIG, IrFaces
from hal.ir_frames import (
    BITS_PER_BYTE,
    BOF,
    BULK_WORDS,
    EOF,
    ESC,
    KNOCK_DARK_BYTES,
    MAX_FRAME,
    MAX_WIRE,
    FrameReader,
    encode_words,
    wire_bytes,
)
from hypothesis import given, settings
from hypothesis import strategies as st

SPECIALS = st.sampled_from([BOF, EOF, ESC, 0x5D, 0xE0, 0xE1])
BYTE = st.one_of(st.integers(0, 255), SPECIALS)
FRAME = st.one_of(
    st.lists(BYTE, min_size=2, max_size=2),  # face values, most of the traffic
    st.lists(BYTE, min_size=1, max_size=MAX_FRAME),
).map(bytes)


class Channel:
    """A DMA channel as the faces read it: `count` runs down from RX_COUNT as bytes arrive."""

    def __init__(self):
        self.count = RX_COUNT
        self.busy = False

    def active(self):
        return self.busy


class Machine:
    def __init__(self):
        self.fifo = 0

    def tx_fifo(self):
        return self.fifo


class Link:
    """The FaceLink fields IrFaces uses (hal/ir_links.py), with the hardware left out."""

    def __init__(self):
        self.ring = bytearray(RING_BYTES)
        self.read = 0
        self.reader = FrameReader()
        self.overruns = 0
        self.rx = Channel()
        self.sm = Machine()
        self.tx = Channel()
        self.tx_regs = [0] * 16
        self.words = array("H", bytes(2 * MAX_WIRE))
        self.words_at = 0x20001000
        self.sent = None
        self.count = 0
        self.bulk = None

    def arrive(self, data):
        """The RX channel writes `data` into the ring."""
        written = RX_COUNT - self.rx.count
        for b in data:
            self.ring[written & RING_MASK] = b
            written += 1
        self.rx.count = RX_COUNT - written


def faces():
    links = [Link() for _ in range(6)]
    return IrFaces(links), links


def take_all(hal, face):
    """One pass's frames on a face, taken as the runtime takes them (runtime/faces.py)."""
    frames = []
    n = hal.receive_frame(face)
    while n:
        frames.append(bytes(hal.rx_frame[:n]))
        n = hal.receive_frame(face) if hal.rx_more else 0
    return frames


def passes(stream, cuts, face=2):
    """The frames a face takes when `stream` arrives cut at `cuts`, a pass at each cut (and at
    least one a ringful, as a tile must to keep up)."""
    hal, links = faces()
    got = []
    done = 0
    for stop in sorted({min(c, len(stream)) for c in cuts} | {len(stream)}):
        while done < stop:
            step = min(stop, done + RING_BYTES)
            links[face].arrive(stream[done:step])
            done = step
            got += take_all(hal, face)
    return got, links[face]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(FRAME, st.binary(max_size=3)), max_size=12),
    st.lists(st.integers(0, 400), max_size=20),
    st.integers(0, RING_BYTES - 1),
)
def test_every_frame_comes_back_once_whatever_the_passes(frames, cuts, start):
    # noise between frames never holds BOF, EOF or ESC here: a frame's own bytes are all that
    # count, and noise without a BOF is skipped. `start` bytes of noise come first, so frames
    # cross the ring's end anywhere.
    stream = bytes(start) + b"".join(
        wire_bytes(frame) + bytes(b for b in noise if b not in (BOF, EOF, ESC))
        for frame, noise in frames
    )
    got, link = passes(stream, [c + start for c in cuts])
    assert got == [frame for frame, _ in frames]
    assert link.reader.dropped == 0 and not link.reader.receiving and link.overruns == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(FRAME, min_size=2, max_size=8), st.data())
def test_a_frame_cut_short_is_lost_alone(frames, data):
    lost = data.draw(st.integers(0, len(frames) - 2))
    parts = [wire_bytes(frame) for frame in frames]
    parts[lost] = parts[lost][:-1]  # its EOF never arrived
    got, link = passes(b"".join(parts), data.draw(st.lists(st.integers(0, 300))))
    assert got == frames[:lost] + frames[lost + 1 :]
    assert link.reader.dropped == 1


def test_a_face_value_split_across_two_passes_and_the_ring_end_arrives_once():
    hal, links = faces()
    links[0].arrive(bytes(RING_BYTES - 2))  # noise up to two bytes before the ring's end
    assert take_all(hal, 0) == []
    wire = wire_bytes(b"\x85\x33")
    links[0].arrive(wire[:2])
    assert take_all(hal, 0) == [] and links[0].reader.receiving
    links[0].arrive(wire[2:] + wire)
    assert take_all(hal, 0) == [b"\x85\x33", b"\x85\x33"]


def test_rx_more_tells_whether_bytes_are_left_after_a_frame():
    hal, links = faces()
    wire = wire_bytes(b"\x85\x33")
    links[4].arrive(wire + wire[:2])
    assert hal.receive_frame(4) == 2 and hal.rx_more  # half a frame follows
    assert hal.receive_frame(4) == 0
    links[4].arrive(wire[2:])
    assert hal.receive_frame(4) == 2 and not hal.rx_more


def test_a_ring_the_cpu_fell_behind_on_is_skipped_not_misread():
    hal, links = faces()
    wire = wire_bytes(b"\x85\x33")
    links[1].arrive(wire * (RING_BYTES // len(wire) + 1))  # more than a ringful in one pass
    assert take_all(hal, 1) == [] and links[1].overruns == 1
    links[1].arrive(wire)
    assert take_all(hal, 1) == [b"\x85\x33"]


def test_a_send_waits_for_the_face_and_then_starts_the_channel_on_the_frame():
    hal, links = faces()
    link = links[3]
    frame = b"\x85\x33"
    link.sm.fifo = 1  # the previous frame's last bytes are still in the FIFO
    assert not hal.send_frame(3, frame)
    link.sm.fifo = 0
    link.tx.busy = True  # the channel is still feeding it
    assert not hal.send_frame(3, frame)
    link.tx.busy = False
    link.arrive(wire_bytes(frame)[:2])  # a neighbour's frame is arriving
    take_all(hal, 3)
    assert not hal.send_frame(3, frame) and link.tx_regs[TRANS_COUNT_TRIG] == 0
    link.arrive(wire_bytes(frame)[2:])
    take_all(hal, 3)
    assert hal.send_frame(3, frame)
    expected = array("H", bytes(2 * MAX_WIRE))
    count = encode_words(frame, expected)
    assert link.tx_regs[READ_ADDR] == link.words_at and link.tx_regs[TRANS_COUNT_TRIG] == count
    assert link.words[:count] == expected[:count]
    link.words[0] = 0  # a face value sent again is not encoded again: bytes cannot change
    assert hal.send_frame(3, frame) and link.words[0] == 0
    assert hal.send_frame(3, bytearray(frame)) and link.words[0] == expected[0]


def test_a_window_of_bulk_frames_goes_out_back_to_back_in_one_transfer():
    hal, links = faces()
    link = links[2]
    frames = [bytes([i]) * 268 for i in (1, 0xC0, 0xC1, 7, 9)]  # 2 all escapes (twice as long)
    link.tx.busy = True
    assert hal.send_frames(2, frames) == 0  # busy: nothing queued
    link.tx.busy = False
    assert hal.send_frames(2, frames) == 2  # the third does not fit after an escaped one
    expected = array("H", bytes(2 * BULK_WORDS * 2))
    end = 0
    for frame in frames[:2]:
        end = encode_words(frame, expected, end)
    assert link.tx_regs[TRANS_COUNT_TRIG] == end and link.bulk[:end] == expected[:end]
    assert link.tx_regs[READ_ADDR] != link.words_at  # the bulk buffer, not the frame one
    heard = FrameReader()
    wire = b"".join(wire_bytes(f) for f in frames[:2])
    ring = bytearray(4096)
    ring[: len(wire)] = wire
    pos = 0
    for frame in frames[:2]:  # a receiver takes them one after another
        pos = heard.read(ring, pos, len(wire), 4095)
        assert bytes(heard.frame[: heard.length]) == frame
    assert hal.send_frames(2, frames[2:]) == 3  # plain ones: four would fit


def test_a_frame_whose_tail_never_came_is_forgotten_after_a_pass_with_no_byte():
    # Both ends of a link each inside the other's cut frame would never send again: a share at
    # 30 % loss stalled so. A frame still arriving between passes is kept.
    hal, links = faces()
    link = links[5]
    pairs = bytearray(12)
    wire = wire_bytes(bytes(range(40)))
    link.arrive(wire[:20])  # the rest of its light was lost
    hal.receive_values(pairs)
    assert take_all(hal, 5) == [] and link.reader.receiving
    assert not hal.send_frame(5, b"\x85\x33")
    link.arrive(wire[20:30])
    hal.receive_values(pairs)  # bytes came since the last pass: the frame goes on
    assert take_all(hal, 5) == [] and link.reader.receiving
    hal.receive_values(pairs)  # a pass with no byte since the last: the frame is over
    assert not link.reader.receiving and link.reader.dropped == 1
    assert hal.send_frame(5, b"\x85\x33")
    link.arrive(wire)
    hal.receive_values(pairs)
    assert take_all(hal, 5) == [bytes(range(40))]


def test_a_knock_is_the_frame_8_ms_of_darkness_and_the_frame_again_in_one_transfer():
    hal, links = faces()
    link = links[4]
    frame = b"\x85\x33"
    link.tx.busy = True
    assert not hal.knock(4, frame) and link.tx_regs[TRANS_COUNT_TRIG] == 0
    link.tx.busy = False
    assert hal.knock(4, frame)
    one = array("H", bytes(2 * MAX_WIRE))
    n = encode_words(frame, one)
    end = link.tx_regs[TRANS_COUNT_TRIG]
    assert end == 2 * n + KNOCK_DARK_BYTES
    words = list(link.bulk[:end])
    assert words[:n] == list(one[:n]) and words[n + KNOCK_DARK_BYTES :] == list(one[:n])
    assert words[n : n + KNOCK_DARK_BYTES] == [0] * KNOCK_DARK_BYTES  # no light at all
    assert KNOCK_DARK_BYTES * BITS_PER_BYTE / 115200 >= 0.008  # 8 ms at 115.2 kbit/s

"""The infrared model on its own: time on air, half-duplex, carrier sense, loss, bit flips.

Tiles here run a do-nothing runner (the world's runner seam), so the test alone sends frames.
"""

import math

import pytest
from hal import board, ir_phy
from hal.ir_frames import BOF, EOF, ESC, wire_length
from hypothesis import given, settings
from hypothesis import strategies as st
from runtime import link

from simulator.world import World


class Silent:
    """A runner that never sends: the test drives the HAL by hand."""

    def __init__(self, hal, game_class):
        self.hal = hal
        self.steps = 0

    def step(self):
        self.steps += 1

    def inspect(self):
        return {"steps": self.steps}

    def reset(self):
        self.steps = 0


def pair(**kw):
    w = World(seed=1, **kw)
    a = w.add_tile(None, 0, 0, runner=Silent)
    b = w.add_tile(None, 0, 1, runner=Silent)  # south of a: a's face 3 meets b's face 0
    return w, w.hal(a), w.hal(b)


def test_runner_seam_is_stepped_every_loop_ms():
    w, _ha, _hb = pair()
    w.advance(1000)
    steps = w.inspect(0)["steps"]
    assert 1000 / 21 <= steps <= 1000 / 19 + 1


def test_time_on_air_follows_the_bit_rate_and_the_boards_framing():
    w, ha, hb = pair(bit_rate=4000)
    # on the air a frame is BOF, its bytes (escaped), EOF: 10 bits a byte (hal/ir_frames.py)
    assert [w.ir.frame_airtime(bytes(n)) for n in (1, 7, 23)] == [8, 23, 63]
    assert w.ir.frame_airtime(bytes([BOF, EOF, ESC])) == w.ir.airtime(2 + 6)
    for data in (b"\x85", bytes(range(0xBC, 0xC4)), bytes([ESC] * 5)):
        assert w.ir.frame_airtime(data) == w.ir.airtime(wire_length(data))
    start = w.now
    assert ha.send_frame(3, b"\x85")
    assert list(hb.receive_frames(0)) == []
    w.advance(7)
    assert list(hb.receive_frames(0)) == []
    w.advance(1)
    assert hb.receive_frames(0) == [(start + 8, b"\x85")]
    slow, _, _ = pair(bit_rate=1000)
    assert slow.ir.frame_airtime(b"\x85") == 30


def test_the_default_rate_is_the_boards():
    w, _, _ = pair()
    assert w.ir.bit_rate == board.IR_BIT_RATE == 115200
    # a face value and a full datagram: 1 ms and 3 ms on the air (the board's figures, rounded up)
    assert w.ir.frame_airtime(b"\x85") == 1
    assert ir_phy.DATAGRAM_BYTES == link.DATAGRAM_MAX  # the PHY's figure is the link's longest
    datagram = bytes(ir_phy.DATAGRAM_BYTES)
    assert w.ir.frame_airtime(datagram) == math.ceil(ir_phy.frame_us(datagram) / 1000) == 3


def test_a_face_is_busy_while_it_transmits_and_while_a_frame_arrives():
    w, ha, hb = pair()
    assert ha.send_frame(3, bytes(7))  # 18 ms on air
    assert not ha.send_frame(3, b"\x85")  # still transmitting
    assert not hb.send_frame(0, b"\x85")  # carrier sensed: a frame is arriving
    assert hb.send_frame(1, b"\x85")  # other faces are free
    w.advance(18)
    assert ha.send_frame(3, b"\x85") and hb.send_frame(2, b"\x85")


def test_half_duplex_loses_a_frame_that_arrives_while_the_face_transmits():
    w, ha, hb = pair(ir_loss=1.0)
    assert ha.send_frame(3, bytes(7))  # lost, yet b still senses its carrier ...
    assert not hb.send_frame(0, b"\x85")
    w.advance(18)
    assert hb.send_frame(0, b"\x85") and w.ir.lost == 2
    w2, ha2, hb2 = pair()
    hb2.tx_until[0] = w2.now + 50  # b is transmitting (a frame a could not hear)
    assert ha2.send_frame(3, b"\x85")
    w2.advance(10)
    assert list(hb2.receive_frames(0)) == [] and w2.ir.collided == 1


def test_loss_and_bit_flip_rates_match_their_probabilities():
    w, ha, hb = pair(ir_loss=0.3)
    for _ in range(2000):
        assert ha.send_frame(3, b"\x85")
        w.advance(3)
        hb.receive_frames(0)
    assert 0.26 < w.ir.lost / 2000 < 0.34
    w, ha, hb = pair(bit_flip=0.01)
    changed_bits = 0
    for _ in range(500):
        ha.send_frame(3, bytes(20))
        w.advance(50)
        for _, data in hb.receive_frames(0):
            changed_bits += sum((x).bit_count() for x in data)
    assert 0.008 < changed_bits / (500 * 160) < 0.012


def test_frames_in_flight_are_lost_when_a_tile_is_lifted():
    w, ha, hb = pair()
    ha.send_frame(3, bytes(7))
    w.lift(1)
    w.advance(30)
    assert list(hb.receive_frames(0)) == []
    assert ha.send_frame(3, b"\x85")  # into the void: accepted, nobody hears it
    assert w.ir.trace is None


def test_bad_link_parameters_are_refused():
    for kw in ({"ir_loss": -0.1}, {"bit_flip": 2}, {"bit_rate": 0}, {"loop_ms": 1}):
        with pytest.raises(ValueError):
            World(**kw)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([1000, 4000, 9600, 57600, 115200]),
    st.lists(st.sampled_from([0, 1, 0x5D, 0x7E, BOF, EOF, ESC, 0xFF]), min_size=1, max_size=40),
)
def test_time_on_air_is_the_boards_framed_length_at_any_rate(rate, data):
    # the model skips counting escapes where they cannot change the whole ms: never wrongly
    w, _, _ = pair(bit_rate=rate)
    for frame in (bytes(data), bytearray(data)):
        assert w.ir.frame_airtime(frame) == w.ir.airtime(wire_length(frame))

"""Face values, expiry, ping-pong, probes and datagrams on one tile (CPython and MicroPython)."""

from rt_hal import make, run_to
from runtime import link


def value_frame(v, flag=False):
    return link.VALUE_FRAME[v | (64 if flag else 0)]


def data_frame(sender, seq, payload, value=0, acked_id=0, ack=0):
    return link.encode_datagram(
        link.KIND_DATA, link.encode_value(value, False), sender, acked_id, seq, ack, payload
    )


def ack_frame(acked_id, ack, sender=99, value=0):
    return link.encode_datagram(
        link.KIND_ACK, link.encode_value(value, False), sender, acked_id, 0, ack
    )


def sent_on(hal, face, since=0):
    return [d for t, f, d in hal.sent if f == face and t >= since]


def test_received_value_expires_200ms_after_the_last_valid_frame():
    hal, tile = make()
    hal.rx[1].append((95, value_frame(42)))
    run_to(hal, tile, 100)
    assert tile.get_last_value_received_on_face(1) == 42
    assert not tile.is_value_received_on_face_expired(1)
    assert tile.is_value_received_on_face_expired(0)
    run_to(hal, tile, 295, every=1)
    assert not tile.is_value_received_on_face_expired(1)
    run_to(hal, tile, 296, every=1)
    assert tile.is_value_received_on_face_expired(1)
    assert tile.get_last_value_received_on_face(1) == 42  # the last value is kept


def test_is_alone_until_a_neighbour_speaks():
    hal, tile = make()
    run_to(hal, tile, 100)
    assert tile.is_alone()
    hal.rx[4].append((105, value_frame(3)))
    run_to(hal, tile, 110)
    assert not tile.is_alone()
    run_to(hal, tile, 400)
    assert tile.is_alone()


def test_heard_faces_are_the_faces_not_expired_as_bits():
    hal, tile = make()
    run_to(hal, tile, 10)
    assert tile.heard_faces() == 0
    hal.rx[1].append((15, value_frame(5)))
    hal.rx[4].append((15, value_frame(9)))
    run_to(hal, tile, 20)
    assert tile.heard_faces() == 0b010010
    hal.rx[4].append((150, value_frame(9)))
    run_to(hal, tile, 215, every=1)  # face 1 heard 200 ms ago (at 15): its last moment
    assert tile.heard_faces() == 0b010010
    run_to(hal, tile, 216, every=1)
    assert tile.heard_faces() == 0b010000
    for f in range(6):
        assert (tile.heard_faces() >> f & 1) == (not tile.is_value_received_on_face_expired(f))
    for f in range(6):
        hal.rx[f].append((220, value_frame(f)))
    run_to(hal, tile, 230)
    assert tile.heard_faces() == 0b111111  # a tile inside a cluster
    for f in range(1, 6):
        hal.rx[f].append((300, value_frame(f)))
    run_to(hal, tile, 421, every=1)  # face 0 heard at 220, 201 ms ago
    assert tile.heard_faces() == 0b111110


def test_nonzero_faces_are_the_faces_heard_saying_something_other_than_0():
    hal, tile = make()
    run_to(hal, tile, 10)
    assert tile.nonzero_faces() == 0
    for f in range(6):
        hal.rx[f].append((15, value_frame(7 if f in (2, 5) else 0)))
    run_to(hal, tile, 20)
    assert tile.nonzero_faces() == 0b100100
    hal.rx[2].append((150, value_frame(0)))
    hal.rx[5].append((150, value_frame(3)))
    run_to(hal, tile, 160)
    assert tile.nonzero_faces() == 0b100000
    run_to(hal, tile, 400)  # every face expired; face 5 still holds its last value, 3
    assert tile.get_last_value_received_on_face(5) == 3 and tile.nonzero_faces() == 0


def test_a_hal_that_says_a_face_has_nothing_left_is_not_asked_again_that_pass():
    hal, tile = make()
    asked = []
    receive = hal.receive_frame

    def receive_frame(face):
        asked.append(face)
        n = receive(face)
        hal.rx_more = len(hal.rx[face]) > 0
        return n

    hal.receive_frame = receive_frame
    hal.rx[1].append((5, value_frame(7)))
    hal.rx[1].append((6, value_frame(9)))
    run_to(hal, tile, 10)
    assert tile.get_last_value_received_on_face(1) == 9
    assert asked.count(1) == 2 and asked.count(0) == 1  # no call that would have returned 0


def test_did_value_on_face_change_reports_each_change_once():
    hal, tile = make()
    run_to(hal, tile, 10)
    assert not tile.did_value_on_face_change(0)
    hal.rx[0].append((15, value_frame(7)))
    run_to(hal, tile, 20)
    assert tile.did_value_on_face_change(0)
    assert not tile.did_value_on_face_change(0)
    hal.rx[0].append((25, value_frame(7)))
    run_to(hal, tile, 30)
    assert not tile.did_value_on_face_change(0)


def test_values_are_sent_with_parity_and_clamped_to_63():
    hal, tile = make()
    tile.set_value_sent_on_face(100, 2)
    tile.set_value_sent_on_face(5, 3)
    run_to(hal, tile, 10)
    assert sent_on(hal, 2)[-1] == value_frame(63)
    assert sent_on(hal, 3)[-1] == value_frame(5)


def test_bad_face_index_and_negative_value_raise_value_error():
    _hal, tile = make()
    for call in (
        lambda: tile.set_color_on_face(0, 6),
        lambda: tile.set_value_sent_on_face(1, -1),
        lambda: tile.get_last_value_received_on_face(7),
        lambda: tile.send_datagram_on_face(b"x", 6),
        lambda: tile.set_value_sent_on_face(-1, 0),
        lambda: tile.is_value_received_on_face_expired(-1),
    ):
        try:
            call()
        except ValueError:
            continue
        raise AssertionError("no ValueError")


def test_probe_every_150ms_plus_face_index_and_reply_at_once():
    hal, tile = make()
    run_to(hal, tile, 1000, every=1)
    times = [t for t, f, d in hal.sent if f == 5]
    gaps = [times[i + 1] - times[i] for i in range(len(times) - 1)]
    assert gaps and all(g == 155 for g in gaps)
    n = len(sent_on(hal, 2))
    hal.rx[2].append((1000, value_frame(1)))
    run_to(hal, tile, 1001, every=1)
    assert len(sent_on(hal, 2)) == n + 1  # a reply on the very next pass


def test_a_busy_transmitter_gets_the_frame_on_a_later_pass():
    hal, tile = make()
    hal.busy[1] = True
    hal.rx[1].append((5, value_frame(1)))
    run_to(hal, tile, 10)
    assert sent_on(hal, 1) == []
    hal.busy[1] = False
    run_to(hal, tile, 20)
    assert len(sent_on(hal, 1)) == 1


def test_corrupt_frames_are_dropped_and_counted_never_raised():
    hal, tile = make()
    hal.rx[0].append((5, value_frame(12)))
    bad = bytearray(data_frame(1, 1, b"abc"))
    bad[6] ^= 4
    good = value_frame(40)
    two_flips = bytes((good[0] ^ 3, good[1]))  # parity still odd: only the check byte tells
    for fr in (b"\x00", bytes(bad), b"\x01\x02", bytes(40), two_flips, good[:1]):
        hal.rx[0].append((6, fr))
    run_to(hal, tile, 10)
    assert tile.inspect()["frames_dropped"] == 6
    assert tile.get_last_value_received_on_face(0) == 12
    assert not tile.is_datagram_ready_on_face(0)


def test_datagram_is_sent_until_acknowledged_then_pending_clears():
    hal, tile = make()
    hal.rx[3].append((5, value_frame(1)))
    run_to(hal, tile, 10)
    assert tile.send_datagram_on_face(b"gem", 3)
    assert tile.is_datagram_pending_on_face(3)
    assert not tile.send_datagram_on_face(b"two", 3)  # one at a time per face
    for t in range(20, 200, 20):  # the neighbour keeps talking but does not ack
        hal.rx[3].append((t - 5, value_frame(1)))
        run_to(hal, tile, t)
    frames = [d for d in sent_on(hal, 3, 10) if len(d) > link.VALUE_LEN]
    assert len(frames) >= 5
    for d in frames:
        assert link.check_datagram(d) and d[0] == link.KIND_DATA and link.payload(d) == b"gem"
    my_id, seq = frames[0][2], frames[0][4] >> 4
    hal.rx[3].append((205, ack_frame(my_id, seq)))
    run_to(hal, tile, 210)
    assert not tile.is_datagram_pending_on_face(3)
    assert tile.send_datagram_on_face(b"two", 3)


def test_an_ack_for_another_tile_does_not_clear_pending():
    hal, tile = make()
    hal.rx[0].append((5, value_frame(1)))
    run_to(hal, tile, 10)
    tile.send_datagram_on_face(b"x", 0)
    hal.rx[0].append((15, value_frame(1)))  # the neighbour speaks: we reply with the data
    run_to(hal, tile, 20)
    d = next(d for d in sent_on(hal, 0) if len(d) > link.VALUE_LEN)
    hal.rx[0].append((25, ack_frame((d[2] + 1) & 255, d[4] >> 4)))
    run_to(hal, tile, 30)
    assert tile.is_datagram_pending_on_face(0)


def test_received_datagram_is_delivered_once_and_every_copy_acked():
    hal, tile = make()
    fr = data_frame(77, 4, b"R1")
    hal.rx[1].append((5, fr))
    run_to(hal, tile, 10)
    assert tile.is_datagram_ready_on_face(1)
    assert tile.get_datagram_on_face(1) == b"R1"
    acks = [d for d in sent_on(hal, 1) if len(d) > link.VALUE_LEN]
    assert acks[-1][0] == link.KIND_ACK and acks[-1][3] == 77 and acks[-1][4] & 15 == 4
    assert tile.datagram_faces() == 0b000010
    tile.mark_datagram_read_on_face(1)
    assert tile.get_datagram_on_face(1) is None and tile.datagram_faces() == 0
    hal.rx[1].append((15, fr))  # the ack was lost: the same datagram again
    run_to(hal, tile, 20)
    assert not tile.is_datagram_ready_on_face(1)
    acks = [d for d in sent_on(hal, 1, 15) if len(d) > link.VALUE_LEN]
    assert acks and acks[-1][3] == 77 and acks[-1][4] & 15 == 4


def test_a_full_inbox_holds_the_next_datagram_back_unacknowledged():
    hal, tile = make()
    hal.rx[1].append((5, data_frame(77, 4, b"one")))
    run_to(hal, tile, 10)
    hal.rx[1].append((15, data_frame(77, 5, b"two")))
    run_to(hal, tile, 20)
    assert tile.get_datagram_on_face(1) == b"one"
    last = sent_on(hal, 1, 15)
    assert all(len(d) == link.VALUE_LEN or d[4] & 15 == 4 for d in last)  # seq 5 not acked
    tile.mark_datagram_read_on_face(1)
    hal.rx[1].append((25, data_frame(77, 5, b"two")))
    run_to(hal, tile, 30)
    assert tile.get_datagram_on_face(1) == b"two"


def test_pending_datagram_is_dropped_1000ms_after_the_last_valid_frame():
    hal, tile = make()
    hal.rx[2].append((5, value_frame(1)))
    run_to(hal, tile, 10)
    assert tile.send_datagram_on_face(b"bye", 2)
    run_to(hal, tile, 300)
    assert tile.is_value_received_on_face_expired(2)
    assert tile.is_datagram_pending_on_face(2)  # a short flicker of expiry does not lose it
    run_to(hal, tile, 1005)
    assert tile.is_datagram_pending_on_face(2)
    run_to(hal, tile, 1006)
    assert not tile.is_datagram_pending_on_face(2)
    assert tile.send_datagram_on_face(b"nobody", 2)  # accepted, but nobody is there to take it
    run_to(hal, tile, 1016)
    assert not tile.is_datagram_pending_on_face(2)


def test_datagram_size_limit():
    hal, tile = make()
    hal.rx[0].append((5, value_frame(1)))
    run_to(hal, tile, 10)
    try:
        tile.send_datagram_on_face(bytes(17), 0)
        raise AssertionError("17 bytes accepted")
    except ValueError:
        pass
    assert not tile.is_datagram_pending_on_face(0)
    assert tile.send_datagram_on_face(bytes(16), 0)


def test_send_on_an_expired_face_is_accepted_then_dropped_at_the_next_pass():
    # as on the reference: send refuses only while a datagram is pending; with nobody there to
    # acknowledge it, the datagram is dropped when the face's expiry is next checked
    hal, tile = make()
    run_to(hal, tile, 10)
    assert tile.is_value_received_on_face_expired(4)
    assert tile.send_datagram_on_face(b"hello", 4)
    assert tile.is_datagram_pending_on_face(4)
    assert not tile.send_datagram_on_face(b"again", 4)
    run_to(hal, tile, 20)
    assert not tile.is_datagram_pending_on_face(4)
    assert tile.send_datagram_on_face(b"again", 4)


def test_each_face_sends_under_its_own_id_and_takes_acks_for_it_only():
    # each face numbers its own datagrams, so each is a sender of its own: with one id per
    # tile, a neighbour that turned to another face took that face's first datagram for a
    # repeat of the first one it had from the old face, acknowledged it and dropped it
    hal, tile = make()
    hal.rx[0].append((5, value_frame(1)))
    hal.rx[1].append((5, value_frame(1)))
    run_to(hal, tile, 10)
    assert tile.send_datagram_on_face(b"a", 0) and tile.send_datagram_on_face(b"b", 1)
    run_to(hal, tile, 30)
    d0 = next(d for d in sent_on(hal, 0) if len(d) > link.VALUE_LEN)
    d1 = next(d for d in sent_on(hal, 1) if len(d) > link.VALUE_LEN)
    assert d0[4] >> 4 == d1[4] >> 4 == 1 and d0[2] != d1[2]
    hal.rx[1].append((35, ack_frame(d0[2], 1)))  # face 0's ack, heard on face 1
    run_to(hal, tile, 40)
    assert tile.is_datagram_pending_on_face(1)
    hal.rx[1].append((45, ack_frame(d1[2], 1)))
    run_to(hal, tile, 50)
    assert not tile.is_datagram_pending_on_face(1)


def test_a_face_silent_for_5s_forgets_what_it_delivered():
    # a neighbour back after a while (or another in its place) starts a new link: a datagram
    # with the id and seq of the last one delivered is new, not a repeat
    hal, tile = make()
    hal.rx[1].append((5, data_frame(77, 4, b"old")))
    run_to(hal, tile, 10)
    assert tile.get_datagram_on_face(1) == b"old"
    tile.mark_datagram_read_on_face(1)
    run_to(hal, tile, 4895)  # (this HAL hands a frame over at the next pass, whatever its ms)
    hal.rx[1].append((4900, data_frame(77, 4, b"old")))  # within 5 s: a repeat
    run_to(hal, tile, 4910)
    assert not tile.is_datagram_ready_on_face(1)
    run_to(hal, tile, 9915)
    hal.rx[1].append((9920, value_frame(3)))  # back after 5020 ms of silence
    run_to(hal, tile, 9930)
    acks = [d for d in sent_on(hal, 1, 9920) if len(d) > link.VALUE_LEN]
    assert tile.send_datagram_on_face(b"mine", 1)
    run_to(hal, tile, 9950)
    mine = [d for d in sent_on(hal, 1, 9930) if len(d) > link.VALUE_LEN]
    assert not acks and mine and all(d[4] & 15 == 0 for d in mine)  # no stale ack rides along
    hal.rx[1].append((9955, data_frame(77, 4, b"new")))
    run_to(hal, tile, 9960)
    assert tile.get_datagram_on_face(1) == b"new"


def test_a_face_that_hears_nobody_knocks_and_one_that_hears_a_neighbour_does_not():
    hal, tile = make()
    knocks = []

    def knock(face, data):
        knocks.append((hal.t, face, bytes(data)))
        return hal.send_frame(face, data)

    hal.knock = knock
    run_to(hal, tile, 10)
    assert sorted(f for t, f, d in knocks) == [0, 1, 2, 3, 4, 5]  # nobody heard yet
    assert all(d == value_frame(0) for t, f, d in knocks)
    hal.rx[2].extend((t, value_frame(9)) for t in range(15, 400, 50))  # a neighbour talks
    knocks.clear()
    run_to(hal, tile, 400)
    assert 2 not in {f for t, f, d in knocks}  # replies and probes to a neighbour: plain
    assert [t for t, f, d in hal.sent if f == 2 and t > 15][:1] == [20]  # the ping-pong reply
    assert {f for t, f, d in knocks} == {0, 1, 3, 4, 5}  # the others still knock, at probe pace
    assert len([t for t, f, d in knocks if f == 0]) == 2  # every 150 ms

"""Sharing a build in the world: the protocol, the spreading and the progress display run the
runtime's own code (runtime/share.py, bulk.py, receive.py) over the world's IR model, with a
stand-in build of the real one's size in memory (simulator/world/build_store.py)."""

import hashlib

from runtime import bulk
from runtime.share import SHARE_CLICKS
from share_world import NEW, OLD, cluster, outcome, settled, share_from, share_lines


def test_a_line_of_three_gets_the_build_hop_by_hop_and_each_restarts_into_it():
    w, stores = cluster(3, "line")
    share_from(w, stores, 0)
    assert w.run_until(lambda: outcome(w) is not None, 120000)
    assert outcome(w)["tiles"] == "3" and outcome(w)["failed"] == "0"
    assert [s.running() for s in stores] == [NEW] * 3
    assert [s.restarts for s in stores] == [0, 1, 1]
    want = stores[0].build_files(NEW)
    for s in stores[1:]:
        assert s.build_files(NEW) == want  # every file, byte for byte, and main.py
        assert not any(p.startswith(f"fw/{OLD}") or p.endswith(".tmp") for p in s.data)
    # tile 2 got it from tile 1, after tile 1 restarted into it
    assert share_lines(w, 2, f"receive session={outcome(w)['session']}")
    assert share_lines(w, 1, "relay session=")
    assert w.run_until(lambda: settled(w, stores), 5000)


def test_a_receiver_shows_its_progress_on_its_faces():
    w, stores = cluster(2, "line")
    share_from(w, stores, 0)
    seen = {}
    limit = w.now + 60000
    while w.now < limit and stores[1].running() != NEW:
        w.advance(100)
        share = w.runner(1)._share
        if share is not None and share.receiver is not None:
            done, total = share.receiver.progress()
            lit = sum(1 for c in w.leds(1) if c == 0x3FF)  # colors.CYAN: the part received
            seen[done * 6 // total] = lit
    assert stores[1].running() == NEW
    assert len(seen) >= 4  # the faces filled step by step
    for sixths, lit in seen.items():
        assert lit in (sixths, sixths + 1)  # the next face blinks


def test_a_tile_that_holds_the_build_is_sent_nothing_and_passes_it_on():
    w, stores = cluster(3, "line", holders=(0, 1))
    w.ir.trace = []
    share_from(w, stores, 0)
    assert w.run_until(lambda: outcome(w) is not None, 120000)
    assert outcome(w)["tiles"] == "3" and stores[2].running() == NEW
    data_to_1 = [e for e in w.ir.trace if e[1] == 0 and e[3][0] == bulk.DATA]
    assert data_to_1 == []
    assert any(e[1] == 1 and e[3][0] == bulk.DATA for e in w.ir.trace)
    assert share_lines(w, 0, "has it")
    assert stores[1].restarts == 0


def test_a_tile_set_to_refuse_keeps_its_build_and_the_root_names_it():
    w, stores = cluster(3, "line")
    stores[1].refusing = True
    share_from(w, stores, 0)
    assert w.run_until(lambda: outcome(w) is not None, 60000)
    assert outcome(w)["tiles"] == "1" and outcome(w)["failed"] == "1"
    assert [s.running() for s in stores] == [NEW, OLD, OLD]
    serial = w.hal(1).serial_number().hex()
    assert share_lines(w, 0, f"failed tile={serial} reason=set to refuse shares")


def test_a_build_the_tile_cannot_load_is_refused_with_the_reason():
    w, stores = cluster(2, "line")
    stores[1].mpy_version = 5  # an older MicroPython: .mpy v5
    share_from(w, stores, 0)
    assert w.run_until(lambda: outcome(w) is not None, 60000)
    assert stores[1].running() == OLD
    assert share_lines(w, 0, "loads other .mpy files (.mpy v5 here, the build's v6)")
    w, stores = cluster(2, "line", seed=2)
    stores[1].micropython = (1, 22, 0)
    share_from(w, stores, 0)
    assert w.run_until(lambda: outcome(w) is not None, 60000)
    assert share_lines(w, 0, "its MicroPython is too old (1.26.0)")


def test_no_room_is_refused_before_anything_is_written():
    w, stores = cluster(2, "line")
    stores[1].room = sum(len(d) for d in stores[1].data.values()) + 20000
    share_from(w, stores, 0)
    assert w.run_until(lambda: outcome(w) is not None, 60000)
    assert stores[1].running() == OLD and share_lines(w, 0, "no room for the build")
    assert not any(p.startswith(f"fw/{NEW}") for p in stores[1].data)


def test_a_receiver_reset_mid_transfer_keeps_its_build_and_a_later_share_resumes():
    w, stores = cluster(2, "line")
    share_from(w, stores, 0)
    assert w.run_until(lambda: share_lines(w, 1, "receive"), 10000)
    w.advance(3000)  # part of the build is there
    got_first = stores[1].size(f"fw/{NEW}/mod00.mpy")
    w.reset_tile(1)  # the power goes
    assert stores[1].running() == OLD
    assert w.run_until(lambda: outcome(w) is not None, 120000)
    # the root polled it again: the receiver came back, asked from where it stopped, and ended
    assert stores[1].running() == NEW and outcome(w)["tiles"] == "2"
    received = [line for line in share_lines(w, 1, "received build=")]
    pulled = int(received[-1].split("pulled=")[1].split()[0])
    assert got_first > 0 and pulled < 60000 - 5000


def test_a_tile_pulled_away_is_reported_lost_and_keeps_its_old_build():
    w, stores = cluster(2, "line")
    share_from(w, stores, 0)
    assert w.run_until(lambda: share_lines(w, 1, "receive"), 10000)
    w.advance(2000)
    w.lift(1)
    assert w.run_until(lambda: outcome(w) is not None, 60000)
    assert outcome(w)["failed"] == "1" and share_lines(w, 0, "reason=lost at")
    assert w.run_until(lambda: not w.runner(1).sharing, 30000)
    assert stores[1].running() == OLD  # never a partial build


def test_the_gesture_seeds_and_no_game_ever_sees_it():
    w, stores = cluster(2, "line")
    w.lift(1)
    w.advance(500)
    game = w.runner(0).game
    for _ in range(SHARE_CLICKS):
        w.press(0)
        w.advance(60)
        w.release(0)
        w.advance(140)
    w.advance(400)
    assert share_lines(w, 0, "start session=") and share_lines(w, 0, " seed")
    assert w.runner(0).sharing
    assert not w.runner(0)._button.multi and game.tile.button_click_count() != SHARE_CLICKS
    w.place(1, 0, 1)  # a tile touched to the seed while it seeds gets the build
    assert w.run_until(lambda: stores[1].running() == NEW, 60000)
    assert w.run_until(lambda: share_lines(w, 0, "done tiles=1"), 10000)
    w.lift(1)  # taken away and touched to it again: it has it, and counts once
    w.advance(2000)
    w.place(1, 0, 1)
    w.advance(3000)
    w.click(0)  # a press ends the seeding
    assert w.run_until(lambda: outcome(w) is not None, 5000)
    assert outcome(w)["tiles"] == "2"


def test_a_six_tile_blob_under_loss_ends_with_every_tile_holding_it():
    w, stores = cluster(6, "blob", loss=0.3, seed=4)
    share_from(w, stores, 0)
    assert w.run_until(lambda: outcome(w) is not None, 300000)
    assert outcome(w)["tiles"] == "6" and outcome(w)["failed"] == "0"
    digest = hashlib.sha256(repr(sorted(stores[0].build_files(NEW).items())).encode()).digest()
    for s in stores:
        assert hashlib.sha256(repr(sorted(s.build_files(NEW).items())).encode()).digest() == digest


def test_a_relay_whose_power_goes_while_it_serves_leaves_a_second_share_nothing_in_the_way():
    w, stores = cluster(3, "line")
    share_from(w, stores, 0)
    assert w.run_until(lambda: share_lines(w, 2, "receive session="), 60000)
    w.advance(1500)  # tile 2 is pulling from tile 1
    w.reset_tile(1)  # tile 1's power goes and comes back
    assert w.run_until(lambda: outcome(w) is not None, 120000)
    share_from(w, stores, 0)  # a second share, at once: tile 2 may still be in the first
    assert w.run_until(lambda: len(share_lines(w, 0, "share done")) == 2, 120000)
    assert outcome(w)["tiles"] == "3" and outcome(w)["failed"] == "0"
    assert [s.running() for s in stores] == [NEW] * 3


def test_no_probe_goes_out_on_a_face_while_a_build_flows_on_it():
    # the faces are half duplex: a probe sent as the other side's REQ or DATA begins costs that
    # frame, so while bytes flow neither end probes (or resends a datagram) on that face
    w, stores = cluster(2, "line")
    share_from(w, stores, 0)
    assert w.run_until(lambda: share_lines(w, 1, "receive session="), 10000)
    share = w.runner(1)._share
    assert w.run_until(lambda: share.receiver is not None and share.receiver.phase == 3, 10000)
    plain = {0: [], 1: []}  # (face) of each frame that is not a bulk one, per tile
    for tid in (0, 1):
        hal = w.hal(tid)
        send = hal.send_frame

        def logged(face, data, tid=tid, send=send):
            ok = send(face, data)
            if ok:
                plain[tid].append(face)
            return ok

        hal.send_frame = logged
    w.advance(3000)
    assert share.receiver is not None and share.receiver.phase == 3  # still pulling
    parent = share.parent
    child = w.runner(0)._share.kid.index(2)  # K_WANT: the face the root serves
    assert plain[1].count(parent) == 0 and plain[0].count(child) == 0
    assert len(plain[1]) > 20 and len(plain[0]) > 20  # the other faces probed all along

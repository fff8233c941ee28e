"""Faces between tiles: pairing with rotation, expiry, is_alone, datagrams over bad links."""

from wg_games import Beacon, Courier, expected_datagram

from simulator.world import World, grid, shapes


def test_rotated_tiles_see_each_other_on_the_geometrically_right_faces():
    for direction in range(6):
        for rot_a in range(6):
            for rot_b in range(0, 6, 1):
                w = World(seed=direction * 36 + rot_a * 6 + rot_b)
                a = w.add_tile(Beacon, 0, 0, rotation=rot_a)
                q, r = grid.neighbour_cell(0, 0, direction)
                b = w.add_tile(Beacon, q, r, rotation=rot_b)
                w.runner(a).game.number = 11
                w.runner(b).game.number = 22
                face_a = (direction - rot_a) % 6
                face_b = (direction + 3 - rot_b) % 6
                assert w.neighbours(a) == {face_a: (b, face_b)}
                assert w.neighbours(b) == {face_b: (a, face_a)}
                w.advance(400)
                view_a = w.runner(a).game.face_view()
                view_b = w.runner(b).game.face_view()
                assert view_a == [22 if f == face_a else None for f in range(6)]
                assert view_b == [11 if f == face_b else None for f in range(6)]


def test_rotate_moves_the_link_to_another_face():
    w = World(seed=3)
    a = w.add_tile(Beacon, 0, 0)
    b = w.add_tile(Beacon, 0, -1)  # north of a
    w.advance(300)
    assert w.runner(a).game.face_view()[0] == 1
    w.rotate(a, 2)  # face 4 now points north
    w.advance(400)
    view = w.runner(a).game.face_view()
    assert view[4] == 1 and view[0] is None
    assert w.neighbours(b) == {3: (a, 4)}


def test_a_face_expires_200ms_after_its_last_valid_frame_once_the_neighbour_is_lifted():
    w = World(seed=5)
    a = w.add_tile(Beacon, 0, 0)
    b = w.add_tile(Beacon, 1, 0)
    w.ir.trace = []
    w.advance(1000)
    face = next(iter(w.neighbours(a)))
    game = w.runner(a).game
    assert game.face_view()[face] == 1 and not w.inspect(a)["expired"][face]
    lifted_at = w.now
    w.lift(b)
    w.advance(400)
    last = max(
        t + 3
        for t, tid, f, d, o in w.ir.trace  # arrival of the last frame a got
        if tid == b and o == "delivered" and t < lifted_at
    )
    assert last <= lifted_at
    for t, view in game.seen:
        if t > lifted_at - 100:
            assert (view[face] is None) == (t - last > 200), (t, last)
    assert any(view[face] is None for t, view in game.seen)


def test_is_alone_follows_the_neighbours():
    w = World(seed=2)

    class Lonely(Beacon):
        def loop(self):
            super().loop()
            self.alone = self.tile.is_alone()

    a = w.add_tile(Lonely, 0, 0)
    w.advance(300)
    assert w.runner(a).game.alone
    b = w.add_tile(Lonely, -1, 1)
    w.advance(300)
    assert not w.runner(a).game.alone and not w.runner(b).game.alone
    w.place(b, 5, 5)
    w.advance(300)
    assert w.runner(a).game.alone and w.runner(b).game.alone


def courier_pair(seed, loss=0.0, flips=0.0, count=40, ms=60000):
    w = World(seed=seed, ir_loss=loss, bit_flip=flips)
    a = w.add_tile(Courier, 0, 0, rotation=seed % 6)
    b = w.add_tile(Courier, 0, 1, rotation=(seed * 5) % 6)
    for t in (a, b):
        w.runner(t).game.limit = count
    fa, fb = (face for face in (next(iter(w.neighbours(a))), next(iter(w.neighbours(b)))))
    w.run_until(
        lambda: len(w.runner(a).game.got[fa]) >= count and len(w.runner(b).game.got[fb]) >= count,
        ms,
    )
    return w, w.runner(a).game, w.runner(b).game, fa, fb


def test_datagrams_arrive_exactly_once_and_in_order_at_30_percent_frame_loss():
    for seed in range(6):
        w, ga, gb, fa, fb = courier_pair(seed, loss=0.3)
        reached = w.ir.lost + w.ir.delivered + w.ir.collided
        assert 0.2 < w.ir.lost / reached < 0.4  # the loss really happened
        assert gb.got[fb] == list(range(40)), seed
        assert ga.got[fa] == list(range(40)), seed
        assert ga.bad == [] and gb.bad == []


def test_random_bit_flips_never_crash_a_tile_or_deliver_wrong_data():
    for seed in range(3):
        w, ga, gb, fa, fb = courier_pair(seed, flips=0.005)
        w.ir.bit_flip = 0.0  # flips stop; what is on its way arrives and is read
        w.advance(200)
        dropped = w.inspect(0)["frames_dropped"] + w.inspect(1)["frames_dropped"]
        assert w.ir.flipped > 50
        assert dropped == w.ir.flipped  # every corrupted frame, value or datagram, is caught
        assert ga.bad == [] and gb.bad == []
        assert gb.got[fb] == list(range(40)) and ga.got[fa] == list(range(40))


def test_heavy_corruption_is_survived():
    _w, ga, gb, fa, fb = courier_pair(9, loss=0.2, flips=0.05, count=5, ms=20000)
    assert ga.bad == [] and gb.bad == []
    for got in (ga.got[fa], gb.got[fb]):
        assert got == sorted(set(got))  # never twice, never out of order


def test_datagram_payloads_are_checked_by_the_courier():
    assert expected_datagram(2, 17) == bytes([2, 17, 119, 120])


def test_a_cluster_of_18_exchanges_datagrams_exactly_once_on_every_link_at_30_percent_loss():
    w = World(seed=21, ir_loss=0.3, bit_flip=0.001)
    tiles = [
        w.add_tile(Courier, q, r, rotation=(i * 5) % 6) for i, (q, r) in enumerate(shapes.blob(18))
    ]
    for t in tiles:
        w.runner(t).game.limit = 20
    links = [(t, f) for t in tiles for f in w.neighbours(t)]
    cells = set(shapes.blob(18))
    touching = sum(1 for q, r in cells for d in range(6) if grid.neighbour_cell(q, r, d) in cells)
    assert len(links) == touching == 76
    assert w.run_until(lambda: all(len(w.runner(t).game.got[f]) >= 20 for t, f in links), 60000)
    for t, f in links:
        assert w.runner(t).game.got[f] == list(range(20)), (t, f)
    assert all(w.runner(t).game.bad == [] for t in tiles)


def courier_trio():
    """Tiles a and b side by side (a's face 0 touches b's face 3) and c off the table, all
    sending numbered datagrams (wg_games.Courier) only when told to (`limit`)."""
    w = World(seed=3)
    a = w.add_tile(Courier, 0, 0)
    b = w.add_tile(Courier, *grid.neighbour_cell(0, 0, 0))
    c = w.add_tile(Courier, None)
    assert w.neighbours(a) == {0: (b, 3)}
    return w, a, b, c


def test_a_datagram_from_another_face_of_a_tile_is_not_taken_for_a_repeat():
    """Seed 15 of the Waterfall bot game lost a PULL this way: a tile's datagrams are numbered
    per face, so after the tile is turned another of its faces starts at the same number the
    neighbour last took from it; the neighbour acknowledged the new datagram as a repeat and
    dropped it, and the sender, acknowledged, forgot it."""
    w, a, b, _ = courier_trio()
    w.runner(a).game.limit = 1
    w.advance(300)
    assert w.runner(b).game.got[3] == [0]  # datagram 0 of a's face 0, its first
    w.rotate(a, 1)  # at once: a's face 5 now touches b's face 3
    assert w.neighbours(a) == {5: (b, 3)}
    w.advance(300)
    assert w.runner(b).game.got[3] == [0, 0]  # datagram 0 of a's face 5, its first too
    assert w.runner(b).game.bad == []


def test_a_datagram_is_not_taken_for_a_repeat_of_one_from_before_the_link_was_broken():
    """A face numbers its datagrams 1-15 and starts again: after 15 datagrams to another tile,
    a tile back beside its old neighbour sends the number that neighbour last took from it. A
    face that heard nothing for 5 s forgets what it took (its sender gave up on anything it
    had not acknowledged long before)."""
    w, a, b, c = courier_trio()
    ga, gb = w.runner(a).game, w.runner(b).game
    ga.limit = 1
    w.advance(300)
    assert gb.got[3] == [0]
    w.lift(b)
    w.place(c, *grid.neighbour_cell(0, 0, 0))
    ga.limit = 15  # 14 more to c: a's face 0 has used every number once
    assert w.run_until(lambda: len(w.runner(c).game.got[3]) == 14, 5000)
    w.advance(100)  # its acknowledgement back: a holds nothing for c
    assert not w.runner(a).is_datagram_pending_on_face(0)
    w.lift(c)
    w.advance(5100)  # b was away for over 5 s (on the seed-15 table, 7.7 s)
    w.place(b, *grid.neighbour_cell(0, 0, 0))
    ga.limit = 16
    w.advance(500)
    assert gb.got[3] == [0, 15]
    assert gb.bad == []

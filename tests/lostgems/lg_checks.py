"""Unit checks of Lost Gems' pure parts, runnable by pytest (CPython) and by real MicroPython.

Under MicroPython: `MICROPYPATH=firmware:tests/lostgems micropython tests/lostgems/lg_checks.py`
runs every check_* function and prints `ok <count>` (test_micropython.py does that).
The deal checks run the real `Deal` state machine on a tiny in-test message bus (no runtime):
each bus tile delivers a datagram to its neighbour at once, optionally losing the face.
"""

from games.lostgems import board, display, shards, store
from games.lostgems import deal as deal_mod
from games.lostgems.courier import Courier


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return True
    return False


# -- shards ---------------------------------------------------------------------------------
def check_shard_codes_round_trip():
    for text in ("R1", "R2", "R3", "Y1", "Y3", "B1", "B2", "B3"):
        assert shards.name(shards.parse(text)) == text
    assert shards.name(shards.NO_SHARD) is None


def check_bad_shards_are_refused():
    for bad in ("R4", "G1", "r1", "R", "R11", "", None, 5):
        assert raises(ValueError, shards.parse, bad), bad
    assert raises(ValueError, shards.code, 3, 1)
    assert raises(ValueError, shards.code, 0, 0)


def check_decks_have_the_rulebook_values():
    for colours, size in ((1, 6), (2, 12), (3, 18)):
        d = shards.deck(colours)
        assert len(d) == size
        for c in range(colours):
            values = sorted(shards.value_of(s) for s in d if shards.colour_of(s) == c)
            assert values == [1, 1, 1, 2, 2, 3]
    assert raises(ValueError, shards.deck, 4)
    assert [shards.colours_for_cluster(n) for n in (5, 6, 12, 17, 18, 24)] == [0, 1, 2, 0, 3, 0]


def check_pack_round_trips_every_length():
    full = shards.deck(3)
    for n in range(19):
        packed = shards.pack(full[:n])
        assert len(packed) == (n + 1) // 2
        assert shards.unpack(packed, n) == full[:n]
    assert raises(ValueError, shards.unpack, b"\x1f", 2)
    assert raises(ValueError, shards.unpack, b"\x11", 3)


class Lcg:
    """A little deterministic generator standing in for the tile's random(limit)."""

    def __init__(self, seed):
        self.x = seed

    def random(self, limit):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x % (limit + 1)


def check_shuffle_is_a_permutation_and_depends_on_the_seed():
    a = shards.shuffle(shards.deck(3), Lcg(1).random)
    b = shards.shuffle(shards.deck(3), Lcg(2).random)
    assert sorted(a) == sorted(shards.deck(3)) == sorted(b)
    assert a != b
    assert a == shards.shuffle(shards.deck(3), Lcg(1).random)


# -- board ----------------------------------------------------------------------------------
def check_board_value_fits_six_bits_and_merges_by_colour():
    b = board.play(board.EMPTY, shards.parse("R1"))
    assert b == 1 and board.score(b) == 1
    y = board.play(board.play(board.EMPTY, shards.parse("Y1")), shards.parse("Y2"))
    m = board.merge(b, y)
    assert board.describe(m) == {"R": 1, "Y": 2, "B": 0}
    assert board.merge(m, b) == m and board.merge(board.EMPTY, m) == m
    assert board.with_highest(board.FULL, 1, 0) == 0b110011
    assert board.score(board.FULL) == 9


def check_playable_means_one_more_than_the_highest():
    assert board.is_playable(board.EMPTY, shards.parse("B1"))
    assert not board.is_playable(board.EMPTY, shards.parse("B2"))
    b = board.play(board.EMPTY, shards.parse("B1"))
    assert board.is_playable(b, shards.parse("B2"))
    assert not board.is_playable(b, shards.parse("B1"))
    assert not board.is_playable(b, shards.parse("R2"))


def check_completion_is_reported_once():
    b2 = board.with_highest(board.EMPTY, 2, 2)
    b3 = board.play(b2, shards.parse("B3"))
    assert board.completed(b2, b3) == [2]
    assert board.completed(b3, b3) == []


# -- store ----------------------------------------------------------------------------------
def check_saved_states_round_trip():
    for state in store.SAVED_STATES:
        blob = store.encode(state, shards.parse("Y2"), 0b011001, 4)
        assert len(blob) == store.SIZE
        assert store.decode(blob) == (state, shards.parse("Y2"), 0b011001, 4)
    assert raises(ValueError, store.encode, store.DEALING, 0, 0, 0)


def check_damaged_blobs_are_refused():
    blob = store.encode(store.PLAYED, shards.parse("R1"), 1, 1)
    assert store.decode(None) is None
    assert store.decode(b"") is None
    assert store.decode(blob[:-1]) is None
    assert store.decode(b"XX" + blob[2:]) is None
    broken = bytearray(blob)
    broken[4] ^= 1
    assert store.decode(bytes(broken)) is None


# -- display --------------------------------------------------------------------------------
def check_revealed_shows_value_as_spots():
    for text, faces in (("R1", (0,)), ("Y2", (0, 3)), ("B3", (0, 2, 4))):
        frame = display.revealed(shards.parse(text))
        bright = [f for f in range(6) if frame[f] == max(frame)]
        assert tuple(bright) == faces, (text, frame)
        assert min(frame) > 0
    assert max(display.discarded(shards.parse("B3"))) < max(display.revealed(shards.parse("B3")))


def check_flashes_alternate_and_animations_move():
    assert display.error(0) != display.error(display.FLASH_MS)
    assert display.error(0) == display.error(2 * display.FLASH_MS)
    assert display.undealt(0) != display.undealt(display.BREATHE_MS // 2)
    assert display.dealing(0, 0) != display.dealing(0, 3)
    assert display.copper_spin(0) != display.copper_spin(display.SPIN_STEP_MS)


def check_count_lights_a_tile_at_its_rank():
    s = shards.parse("R2")
    step = display.COUNT_STEP_MS
    dark = display.counting(s, False, 2 * step - 1, 2, 0)
    lit = display.counting(s, False, 2 * step + 200, 2, 0)
    assert max(dark) < max(lit)
    assert lit == display.played(s, False, 0)


# -- the courier ----------------------------------------------------------------------------
class LinkTile:
    """One face's link as the courier sees it: expired or not, a datagram pending or not."""

    def __init__(self):
        self.expired = False
        self.pending = False
        self.sent = []

    def is_value_received_on_face_expired(self, f):
        return self.expired

    def is_datagram_pending_on_face(self, f):
        return self.pending

    def send_datagram_on_face(self, data, f):
        if self.expired or self.pending:
            return False
        self.sent.append((f, data))
        self.pending = True
        return True


def check_courier_sends_in_order_one_at_a_time():
    t = LinkTile()
    c = Courier(t)
    c.send(2, b"a")
    c.send(2, b"b")
    c.poll()
    assert t.sent == [(2, b"a")]
    c.poll()  # still waiting for the acknowledgement
    assert t.sent == [(2, b"a")]
    t.pending = False  # acknowledged
    c.poll()
    assert t.sent == [(2, b"a"), (2, b"b")]
    t.pending = False
    c.poll()
    assert c.idle(2)


def check_courier_sends_again_when_the_face_expired_in_flight():
    t = LinkTile()
    c = Courier(t)
    c.send(0, b"x")
    c.poll()
    t.expired = True  # the runtime drops a pending datagram when its face expires
    t.pending = False
    c.poll()
    assert t.sent == [(0, b"x")]
    t.expired = False
    c.poll()
    assert t.sent == [(0, b"x"), (0, b"x")]
    t.pending = False
    c.poll()
    assert c.idle(0)


# -- the deal protocol on a tiny bus --------------------------------------------------------
class BusTile:
    """Just the tile calls Deal and Courier make, wired to neighbours by a bus."""

    def __init__(self, bus, index, seed):
        self.bus = bus
        self.index = index
        self.rng = Lcg(seed)
        self.inbox = []

    def is_value_received_on_face_expired(self, f):
        return self.bus.link(self.index, f) is None

    def is_datagram_pending_on_face(self, f):
        return False

    def send_datagram_on_face(self, data, f):
        other = self.bus.link(self.index, f)
        if other is None:
            return False
        self.bus.queue.append((other[0], other[1], bytes(data)))
        return True

    def random(self, limit):
        return self.rng.random(limit)

    def randomize(self):
        pass


class Host:
    def __init__(self):
        self.events = []
        self.shard = None

    def deal_joined(self, now):
        self.events.append("joined")

    def deal_committed(self, shard, now):
        self.shard = shard
        self.events.append("committed")

    def deal_aborted(self, now):
        self.events.append("aborted")

    def deal_failed(self, reason, now):
        self.events.append("failed")

    def deal_finished(self, size, now):
        self.events.append("finished")


class Bus:
    """Tiles on a line (face 0 to the right, face 3 to the left) or any adjacency given."""

    def __init__(self, links, count):
        self.links = links  # (tile, face) -> (tile, face)
        self.queue = []
        self.tiles = [BusTile(self, i, 7 + i) for i in range(count)]
        self.hosts = [Host() for _ in range(count)]
        self.couriers = [Courier(t) for t in self.tiles]
        self.deals = [
            deal_mod.Deal(self.tiles[i], self.couriers[i], self.hosts[i]) for i in range(count)
        ]
        self.now = 0

    def link(self, i, f):
        return self.links.get((i, f))

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            for i in range(len(self.tiles)):
                self.deals[i].poll(self.now)
                self.couriers[i].poll()
            queue, self.queue = self.queue, []
            for to, face, data in queue:
                self.deals[to].receive(face, data, self.now)
            self.now += 10


def line_links(n):
    links = {}
    for i in range(n - 1):
        links[(i, 0)] = (i + 1, 3)
        links[(i + 1, 3)] = (i, 0)
    return links


def check_deal_on_a_line_gives_every_shard_once():
    for n in (6, 12, 18):
        bus = Bus(line_links(n), n)
        bus.run(50)  # faces become present
        bus.deals[n // 2].start(bus.now)
        bus.run(2000)
        got = sorted(h.shard for h in bus.hosts)
        assert got == sorted(shards.deck(n // 6)), (n, got)
        assert "finished" in bus.hosts[n // 2].events
        assert all(h.events[-1] in ("committed", "finished") for h in bus.hosts)


def check_wrong_size_deals_nothing_and_fails_on_the_root():
    bus = Bus(line_links(7), 7)
    bus.run(50)
    bus.deals[0].start(bus.now)
    bus.run(2000)
    assert bus.hosts[0].events == ["joined", "aborted", "failed"]
    assert all(h.shard is None for h in bus.hosts)
    assert all(h.events == ["joined", "aborted"] for h in bus.hosts[1:])
    assert bus.deals[0].result.startswith("cluster of 7")


def check_a_lost_tile_before_the_commit_aborts_everywhere():
    bus = Bus(line_links(6), 6)
    bus.run(50)
    bus.deals[0].start(bus.now)
    bus.run(10)  # JOIN is on its way; now cut the far tile off
    del bus.links[(4, 0)]
    del bus.links[(5, 3)]
    bus.run(deal_mod.TILE_TIMEOUT_MS + 2000)
    assert all(h.shard is None for h in bus.hosts)
    assert bus.hosts[0].events[-1] == "failed"


def check_garbage_deal_messages_never_raise():
    """Every kind of deal message, cut to every length and filled with odd bytes, carrying the
    deal under way, from any face, at every phase: a tile ignores what it cannot use."""
    rng = Lcg(3)
    odd = (0, 1, 5, 6, 11, 17, 18, 200, 255)
    phases = set()
    for trial in range(4):
        bus = Bus(line_links(6), 6)
        bus.run(50)
        bus.deals[trial].start(bus.now)
        for _ in range(120):
            bus.run(10)
            for d in bus.deals:
                phases.add(d.phase)
                body = bytes(odd[rng.random(len(odd) - 1)] for _ in range(13))
                data = bytes((0x41 + rng.random(8), d.id >> 8, d.id & 255)) + body
                data = data[: rng.random(16)]
                if deal_mod.is_deal_message(data):
                    d.receive(rng.random(5), data, bus.now)
    assert len(phases) >= 6, phases


def run_all():
    names = sorted(n for n in globals() if n.startswith("check_"))
    for n in names:
        globals()[n]()
    return len(names)


if __name__ == "__main__":
    print("ok", run_all())

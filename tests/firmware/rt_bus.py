"""A tiny bus for the deal protocol alone: tiles wired face to face, no runtime underneath.

Every 10 ms each tile polls its Deal and Courier, then every datagram sent is delivered to the
neighbour at once, or lost with probability `loss` (the courier thinks it went through, so the
deal's own repeats must recover it). `lift`, `place` and `reset` do what hands do. Plain Python
for CPython and MicroPython alike.
"""

from runtime.courier import Courier
from runtime.deal import Deal


class Lcg:
    """A little deterministic generator standing in for the tile's random(limit)."""

    def __init__(self, seed):
        self.x = seed

    def random(self, limit):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % (limit + 1)


class BusTile:
    """Just the tile calls Deal and Courier make, wired to neighbours by the bus."""

    def __init__(self, bus, index, seed):
        self.bus = bus
        self.index = index
        self.rng = Lcg(seed)

    def is_value_received_on_face_expired(self, f):
        return self.bus.link(self.index, f) is None

    def heard_faces(self):
        heard = 0
        for f in range(6):
            if not self.is_value_received_on_face_expired(f):
                heard |= 1 << f
        return heard

    def is_datagram_pending_on_face(self, f):
        return False

    def send_datagram_on_face(self, data, f):
        other = self.bus.link(self.index, f)
        if other is None:
            return False
        if self.bus.loss and self.bus.rng.random(999) < self.bus.loss * 1000:
            return True  # lost on the way
        self.bus.queue.append((other[0], other[1], bytes(data)))
        return True

    def random(self, limit):
        return self.rng.random(limit)

    def randomize(self):
        pass


class Host:
    """A game that deals the items 1, 2, ... 15, 1, 2, ... and notes what it is told; `record` is
    what it would have saved."""

    def __init__(self, sizes):
        self.sizes = sizes
        self.events = []
        self.item = None  # the item it shows (None: whatever it showed before any deal)
        self.pending = None
        self.record = None
        self.deal = None

    def deal_deck(self, size):
        if size not in self.sizes:
            return f"no game for {size} tiles"
        items = [1 + i % 15 for i in range(size)]
        rng = Lcg(size)
        for i in range(size - 1, 0, -1):
            j = rng.random(i)
            items[i], items[j] = items[j], items[i]
        return items

    def deal_dealing(self, item, now):
        self.pending = item
        self.events.append("dealing")
        if self.deal.root:
            self.record = self.deal.record()

    def deal_voted(self, now):
        self.events.append("voted")
        self.record = self.deal.record()

    def deal_committed(self, item, now):
        self.item = item
        self.pending = None
        self.events.append(f"finished {self.deal.size}" if self.deal.root else "committed")
        self.record = self.deal.record()

    def deal_aborted(self, now):
        self.pending = None
        self.events.append("aborted")
        self.record = self.deal.record()

    def deal_uncertain(self, now):
        self.events.append("uncertain")

    def deal_failed(self, reason, now):
        self.events.append("failed: " + reason)
        self.record = self.deal.record()


class Bus:
    """Tiles on a line (face 0 to the right, face 3 to the left) or any adjacency given."""

    def __init__(self, links, count, sizes=(6, 12, 18), loss=0.0, seed=7):
        self.links = links  # (tile, face) -> (tile, face)
        self.queue = []
        self.loss = loss
        self.rng = Lcg(seed)
        self.tiles = [BusTile(self, i, seed + i) for i in range(count)]
        self.hosts = [Host(sizes) for _ in range(count)]
        self.couriers = [None] * count
        self.deals = [None] * count
        for i in range(count):
            self.reset(i)
        self.now = 0

    def link(self, i, f):
        return self.links.get((i, f))

    def reset(self, i):
        """Power cycle: a fresh courier and deal, restored from what the host saved."""
        self.couriers[i] = Courier(self.tiles[i])
        d = Deal(self.tiles[i], self.couriers[i], self.hosts[i])
        self.deals[i] = d
        self.hosts[i].deal = d
        d.restore(self.hosts[i].record, getattr(self, "now", 0))

    def lift(self, i):
        """Take tile i away: every link it has is cut (returned, to put it back)."""
        cut = {}
        for key in list(self.links):
            if key[0] == i or self.links[key][0] == i:
                cut[key] = self.links.pop(key)
        return cut

    def place(self, cut):
        self.links.update(cut)

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

    def run_until(self, done, ms):
        end = self.now + ms
        while self.now < end:
            if done():
                return True
            self.run(10)
        return done()

    def shown(self):
        """The item each tile shows (None: none dealt yet)."""
        return [h.item for h in self.hosts]


def line_links(n):
    links = {}
    for i in range(n - 1):
        links[(i, 0)] = (i + 1, 3)
        links[(i + 1, 3)] = (i, 0)
    return links

"""The deal: a cluster counts itself and hands out one shuffled deck, over face messages only.

Protocol (datagrams, all tagged with a 16-bit deal id chosen by the held tile, the root):
1. JOIN floods out from the root. The first JOIN a tile hears makes the sender its parent; it
   asks its other present faces in turn. A tile already in this deal answers NOTCHILD, a tile
   busy with another deal answers BUSY. Each tile sends SIZE (its subtree size) to its parent
   once every asked face has answered, so the root learns the cluster's size.
2. The root checks the size (6, 12, 18), shuffles the deck with the tile's random after
   randomize(), keeps one shard and sends each child a DECK of exactly its subtree's size; each
   tile keeps the first shard of its DECK and splits the rest between its children (faces in
   order 0..5). A tile whose whole subtree holds its shards answers READY.
3. Two-phase commit: only when every tile is READY does the root send COMMIT down the tree; a
   tile shows its new shard face down only on COMMIT, then answers DONE. Any failure before the
   commit (wrong size, a concurrent deal, a timeout) sends ABORT down instead, every tile goes
   back to what it showed before, and the root flashes orange. So a deal hands out every shard
   exactly once, or nothing at all.

Two deals at once (two players holding two tiles): a tile is busy from its JOIN until its
children have committed: it answers other deals' JOINs with BUSY and its own hold starts
nothing. So a second hold that fires after the first deal reached its tile joins that deal,
and two deals that meet both fail. A tile that hears a JOIN again (the
courier repeats) after answering NOTCHILD or BUSY may join late; its parent answers its SIZE
with ABORT. A new deal does not drop what the courier still holds for the last one (a DONE).

Lossy links: every message is idempotent and repeated by the courier when a face expired while
it was in flight, and repeated again after RESEND_MS without progress. A face counts as present
when it received a frame in the last PRESENT_MS (lossy links go quiet for a second or more now
and then); an asked face is waited for however long it stays silent, because guessing it empty
could miss six tiles and deal a wrong-sized game. A tile that really left makes the deal time
out: the root gives up after ROOT_TIMEOUT_MS, any other tile after TILE_TIMEOUT_MS. A tile taken
away between READY and COMMIT gives up too (it cannot know what the root decided) while the
others keep their new shards: the root, still without every DONE TILE_TIMEOUT_MS after its
commit, reports the deal failed (orange), so the players deal again.
"""

from games.lostgems import shards

try:
    from micropython import const
except ImportError:  # CPython: const() marks MicroPython's compile-time constants, plain ints here

    def const(value):  # type: ignore[misc]  # stubs type MicroPython's generic const()
        return value


# Message kinds (first byte). Private const() names cost no RAM on a tile: the compiler inlines them.
_JOIN = const(0x41)
_SIZE = const(0x42)
_NOTCHILD = const(0x43)
_BUSY = const(0x44)
_DECK = const(0x45)
_READY = const(0x46)
_COMMIT = const(0x47)
_DONE = const(0x48)
_ABORT = const(0x49)

# Phases; PHASES names them for inspect().
_IDLE = const(0)
_COUNTING = const(1)
_SIZED = const(2)
_DISTRIBUTING = const(3)
_PREPARED = const(4)
_COMMITTING = const(5)
_FINISHED = const(6)
_ABORTED = const(7)
PHASES = (
    "idle",
    "counting",
    "sized",
    "distributing",
    "prepared",
    "committing",
    "finished",
    "aborted",
)

_PRESENT_MS = const(3000)
_RESEND_MS = const(1000)
_ROOT_TIMEOUT_MS = const(20000)
TILE_TIMEOUT_MS = const(24000)
_NEVER = const(-1000000000)


def is_deal_message(data):
    return len(data) >= 3 and _JOIN <= data[0] <= _ABORT


def message(kind, deal_id, extra=b""):
    return bytes((kind, deal_id >> 8, deal_id & 255)) + bytes(extra)


class Deal:
    """One tile's side of the deal protocol. `host` is the game, told about joins and outcomes."""

    def __init__(self, tile, courier, host):
        self.tile = tile
        self.courier = courier
        self.host = host
        self.id = 0
        self.phase = _IDLE
        self.root = False
        self.parent = -1
        self.depth = 0
        self.child: list = [0] * 6  # None: asked, no answer yet; 0: not a child; n: subtree size
        self.answered = [
            False
        ] * 6  # per face, while distributing and committing: the child answered
        self.size = 0
        self.conflict = False
        self.shard = shards.NO_SHARD
        self.started = 0
        self.progress = 0
        self.last_seen = [_NEVER] * 6
        self.result = ""
        self.decks: list = [
            None
        ] * 6  # per face, while distributing: the DECK message sent to that child

    def active(self):
        """True between joining and committing (the tile is showing `dealing`)."""
        return _COUNTING <= self.phase <= _PREPARED

    def heard_within(self, now, ms):
        """True when any face received a valid frame in the last `ms` (last_seen is kept by poll)."""
        for f in range(6):
            if now - self.last_seen[f] < ms:
                return True
        return False

    # -- starting ---------------------------------------------------------------------------
    def start(self, now):
        """The held tile starts a deal (replacing any earlier one in the cluster). A tile that
        is already in a deal under way (until its children committed) stays in it: two players
        holding two tiles make one deal, not one tile dropping out of the first deal with its
        shard uncommitted."""
        if _COUNTING <= self.phase <= _COMMITTING:
            return
        t = self.tile
        t.randomize()
        new_id = self.id
        while new_id == self.id:
            new_id = t.random(65534) + 1
        self._begin(new_id, -1, 0, now)

    def _begin(self, deal_id, parent, depth, now):
        # what is still queued for an earlier deal goes out first (a DONE our parent there
        # waits for, say); receivers ignore messages of a deal they are not in
        self.id = deal_id
        self.root = parent < 0
        self.parent = parent
        self.depth = depth
        self.phase = _COUNTING
        self.conflict = False
        self.shard = shards.NO_SHARD
        self.started = now
        self.progress = now
        self.result = ""
        self.host.deal_joined(now)
        for f in range(6):
            if f != parent and now - self.last_seen[f] < _PRESENT_MS:  # a neighbour is there
                self.child[f] = None
                self.courier.send(f, message(_JOIN, deal_id, (min(depth + 1, 255),)))
            else:
                self.child[f] = 0
        self._check_counted(now)

    # -- the phases -------------------------------------------------------------------------
    def _check_counted(self, now):
        if self.phase != _COUNTING:
            return
        total = 1
        for f in range(6):
            if self.child[f] is None:
                return
            total += self.child[f]
        self.size = total
        self.progress = now
        if not self.root:
            self.phase = _SIZED
            self._send_size()
            return
        colours = shards.colours_for_cluster(total)
        if self.conflict:
            self.fail("another deal at the same time", now)
        elif colours == 0:
            self.fail(f"cluster of {total} tiles (deal needs 6, 12 or 18)", now)
        else:
            cards = shards.shuffle(shards.deck(colours), self.tile.random)
            self._distribute(cards, now)

    def _send_size(self):
        flags = 1 if self.conflict else 0
        self.courier.send(self.parent, message(_SIZE, self.id, (min(self.size, 255), flags)))

    def _distribute(self, cards, now):
        """Keep the first shard; each child gets the next `subtree size` shards, faces 0..5."""
        self.shard = cards[0]
        self.decks = [None] * 6
        self.answered = [False] * 6
        first = 1
        self.phase = _DISTRIBUTING
        self.progress = now
        for f in range(6):
            n = self.child[f]
            if n:
                deck = message(_DECK, self.id, bytes((n,)) + shards.pack(cards[first : first + n]))
                first += n
                self.decks[f] = deck
                self.courier.send(f, deck)
        self._check_answers(now)

    def _check_answers(self, now):
        """Move on once every child answered this phase: READY while distributing, DONE while
        committing (the root commits, then finishes; any other tile answers its parent)."""
        if self.phase != _DISTRIBUTING and self.phase != _COMMITTING:
            return
        for f in range(6):
            if self.child[f] and not self.answered[f]:
                return
        self.progress = now
        if self.phase == _DISTRIBUTING:
            if self.root:
                self._commit(now)
            else:
                self.phase = _PREPARED
                self.courier.send(self.parent, message(_READY, self.id))
            return
        self.phase = _FINISHED
        if self.root:
            self.result = f"dealt {self.size}"
            self.host.deal_finished(self.size, now)
        else:
            self.courier.send(self.parent, message(_DONE, self.id))

    def _commit(self, now):
        self.phase = _COMMITTING
        self.answered = [False] * 6
        self.progress = self.started = now  # the root waits for DONE from here (see poll)
        self.host.deal_committed(self.shard, now)
        for f in range(6):
            if self.child[f]:
                self.courier.send(f, message(_COMMIT, self.id))
        self._check_answers(now)

    def fail(self, reason, now):
        """Root: give up before the commit; everyone goes back to what they showed."""
        self.result = reason
        self._abort(now)
        self.host.deal_failed(reason, now)

    def _abort(self, now):
        for f in range(6):
            if f != self.parent and self.child[f] != 0:
                self.courier.send(f, message(_ABORT, self.id))
        self.phase = _ABORTED
        self.progress = now
        self.host.deal_aborted(now)

    # -- receiving --------------------------------------------------------------------------
    def receive(self, face, data, now):
        """Handle one deal datagram from `face` (malformed ones are ignored)."""
        kind = data[0]
        deal_id = data[1] << 8 | data[2]
        if kind == _JOIN and len(data) == 4:
            self._on_join(face, deal_id, data[3], now)
            return
        if deal_id != self.id:
            return
        if kind == _SIZE and len(data) == 5:
            if self.phase == _COUNTING and face != self.parent and self.child[face] is None:
                self.child[face] = data[3]
                if data[4] & 1:
                    self.conflict = True
                self._check_counted(now)
            elif self.child[face] == 0 and face != self.parent:
                # it joined late, from a JOIN repeated after it said NOTCHILD or BUSY: we
                # counted without it, so send it back before it waits for a DECK
                self.courier.send(face, message(_ABORT, self.id))
        elif kind in (_NOTCHILD, _BUSY) and len(data) == 3:
            if self.phase == _COUNTING and self.child[face] is None:
                self.child[face] = 0
                if kind == _BUSY:
                    self.conflict = True
                self._check_counted(now)
        elif kind == _DECK and len(data) >= 4 and face == self.parent:
            self._on_deck(data, now)
        elif kind == _READY and len(data) == 3:
            if self.phase == _DISTRIBUTING and self.child[face]:
                self.answered[face] = True
                self._check_answers(now)
        elif kind == _COMMIT and len(data) == 3 and face == self.parent:
            if self.phase == _PREPARED:
                self._commit(now)
            elif self.phase == _FINISHED:
                self.courier.send(self.parent, message(_DONE, self.id))
        elif kind == _DONE and len(data) == 3:
            if self.phase == _COMMITTING and self.child[face]:
                self.answered[face] = True
                self._check_answers(now)
        elif kind == _ABORT and len(data) == 3 and face == self.parent and self.active():
            self.result = "aborted by parent"
            self._abort(now)

    def _on_join(self, face, deal_id, depth, now):
        if deal_id == self.id and self.phase != _IDLE:
            if face != self.parent:
                self.courier.send(face, message(_NOTCHILD, deal_id))
            elif self.phase == _SIZED:
                self._send_size()  # the parent missed our answer
            return
        if _COUNTING <= self.phase <= _COMMITTING:
            # busy until our children committed too: joining would drop their COMMIT
            self.conflict = True
            self.courier.send(face, message(_BUSY, deal_id))
            return
        self._begin(deal_id, face, depth, now)

    def _on_deck(self, data, now):
        if self.phase == _PREPARED:
            self.courier.send(self.parent, message(_READY, self.id))
            return
        if self.phase != _SIZED:
            return
        try:
            cards = shards.unpack(data[4:], data[3])
        except ValueError:
            return
        if len(cards) != self.size:
            return  # cannot happen with a consistent tree; the root times out and aborts
        self._distribute(cards, now)

    # -- every pass -------------------------------------------------------------------------
    def poll(self, now):
        """Track present faces, repeat stalled messages, give up on timeouts."""
        t = self.tile
        for f in range(6):
            if not t.is_value_received_on_face_expired(f):
                self.last_seen[f] = now
        if not _COUNTING <= self.phase <= _COMMITTING:
            return
        limit = _ROOT_TIMEOUT_MS if self.root and self.active() else TILE_TIMEOUT_MS
        if now - self.started > limit:
            self.result = "timeout"
            if self.active():
                self._abort(now)
            else:  # TILE_TIMEOUT_MS after the commit a child has still not answered DONE: it
                # left, gave up and went back to what it showed; stop waiting for it
                self.phase = _ABORTED if self.root else _FINISHED
            if self.root:
                self.host.deal_failed(self.result, now)
            return
        if now - self.progress >= _RESEND_MS:
            self.progress = now
            self._resend()

    def _resend(self):
        """Repeat whatever this tile is waiting an answer to (all messages are idempotent)."""
        c = self.courier
        if self.phase == _COUNTING:
            for f in range(6):
                if self.child[f] is None and c.idle(f):
                    c.send(f, message(_JOIN, self.id, (min(self.depth + 1, 255),)))
        elif self.phase == _SIZED and c.idle(self.parent):
            self._send_size()
        elif self.phase == _DISTRIBUTING:
            for f in range(6):
                if self.child[f] and not self.answered[f] and c.idle(f) and self.decks[f]:
                    c.send(f, self.decks[f])
        elif self.phase == _PREPARED and c.idle(self.parent):
            c.send(self.parent, message(_READY, self.id))
        elif self.phase == _COMMITTING:
            for f in range(6):
                if self.child[f] and not self.answered[f] and c.idle(f):
                    c.send(f, message(_COMMIT, self.id))

"""The deal: a cluster hands out a shuffled list of items, one to each tile, all or nothing.

Game-agnostic: the game supplies the list for a cluster of a given size and shows what the deal
tells it (the hooks below); Lost Gems deals its shards with it. Face-to-face datagrams only, all
tagged with a 16-bit deal id chosen by the held tile, the root.

1. Count. While the button is held (the game calls `count` from a second into the hold) the
   root floods JOIN. The first JOIN a tile hears makes the sender its parent; the tile asks its
   other present faces in turn. A tile already in this deal answers NOTCHILD, one busy with
   another deal BUSY. Each tile sends SIZE (its subtree size, and whether it met another deal)
   to its parent once every asked face answered. Nothing shows yet: the count runs during the
   rest of the hold, so when the hold fires (`start`) the tree is usually counted already. A
   face that appears, or a child that goes missing, before its tile holds an item makes the
   count start over (under a new id); a hold released early cancels it (`cancel`).
2. Hand out. Once fired and counted, the root asks the game for the list for that many tiles
   (or the reason it cannot deal), keeps the first item and sends each child a DECK of exactly
   its subtree's items; each tile keeps the first of its DECK and splits the rest among its
   children (faces 0..5). From its DECK on a tile shows the deal under way.
3. Vote. A tile whose whole subtree holds its items has the game save that it is prepared (a
   reset cannot make it forget), then answers READY.
4. Decide, at the root only: COMMIT once every tile voted; ABORT on anything else (a size the
   game refuses, two deals at once, a tile that left or was reset, a timeout). A tile that has
   not voted may abort on its own (its subtree can then never be READY). A tile that voted never
   decides: it waits for the outcome, however long.
5. Spread. A decision floods: a tile that learns it, in the deal or not, passes it to its
   present faces once and remembers it (the last KNOWN decisions). A voted tile that cannot
   learn the outcome (lifted away, reset, or still waiting when the root must have decided)
   is `uncertain`: it asks (ASK) its faces every ASK_MS and every face that appears, and any
   tile that remembers the decision answers; a voted tile also asks its parent every ASK_MS,
   in case the decision was lost on the way. The root has the game save that it coordinates
   before handing out: reset before deciding, it comes back and decides ABORT (the voted
   tiles around it ask, and hear so).

So a tile shows an item of a deal that committed, or what it showed before the deal, or that it
is uncertain until it hears how the deal ended.

How long a deal shows (the bound docs/rules.md states): no tile shows the deal under way for
more than SHOW_LIMIT_MS (45 s), counted on its own clock from getting its item; then it gives
the deal up if it has not voted (it shows what it showed before), or, voted, shows `uncertain`
until a neighbour tells it the outcome. The root decides within ROOT_TIMEOUT_MS (45 s) of its
hold firing, so no tile gives up on a deal that could still commit, and it hands out within
HAND_OUT_MS (30 s) or the deal fails, so the last tile leaves the deal under way at most
30 s + the hops its item took + 45 s after the hold. An uncertain tile that touches a cluster whose
tiles have forgotten its deal (they remember KNOWN decisions, and a reset tile its own last
one) can still join a new deal once the root of its old one must have decided: it then gives up
the old item, and the game shows none (active() turns false while the game shows uncertain).

Two deals at once (two players holding two tiles): a tile in a deal answers other deals' JOINs
with BUSY and its own hold starts nothing, so a second hold that fires after the first deal
reached its tile joins that deal, and two deals that meet both fail. A tile that hears a JOIN
again (the courier repeats) after answering NOTCHILD or BUSY may join late; its parent answers
its SIZE with NOTCHILD and it drops out, with its subtree.

Lossy links: every message is idempotent; the courier repeats it until the neighbour has it,
and the deal repeats what stalls after RESEND_MS. A face counts as present when it received a
frame in the last PRESENT_MS, as missing after ABSENT_MS of silence (lossy links go quiet for a
second or more now and then).

Hooks the host (the game) provides, all with the tile's millis() as `now`:
- deal_deck(size): the shuffled items (ints 1-15: they travel two to a byte) for a cluster of
  `size` tiles, or a string saying why that size cannot deal (root only). A deal takes up to
  MAX_TILES tiles (a subtree's items travel in one DECK).
- deal_dealing(item, now): this tile holds its item of the deal under way; show the deal (the
  root: save, the deal is coordinated from here).
- deal_voted(now): this tile is prepared; save (record() says so) before the vote leaves.
- deal_committed(item, now): show the item; save (the root: the deal is dealt, `result`).
- deal_aborted(now): show what was shown before the deal; save.
- deal_uncertain(now): the tile voted and cannot learn the outcome now; show it; save.
- deal_failed(reason, now): the root's deal failed (`result` says why too).
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


# Message kinds (first byte); a message is kind, deal id (2 bytes), body.
_JOIN = const(0x41)
_SIZE = const(0x42)  # body: subtree size (0-127) | 128 when it met another deal
_NOTCHILD = const(0x43)
_BUSY = const(0x44)
_DECK = const(0x45)  # body: the subtree's items, packed
_READY = const(0x46)
_COMMIT = const(0x47)
_ASK = const(0x48)
_ABORT = const(0x49)

# Phases of this tile's part in its deal; PHASES names them for inspect().
_IDLE = const(0)
_COUNTING = const(1)
_COUNTED = const(2)
_DEALING = const(3)
_PREPARED = const(4)
_COMMITTED = const(5)
_ABORTED = const(6)
PHASES = ("idle", "counting", "counted", "dealing", "prepared", "committed", "aborted")

KNOWN = const(4)
MAX_TILES = const(27)  # a DECK (16 bytes) holds the items of 26 tiles
RECORD_SIZE = const(4)
_PRESENT_MS = const(3000)
_ABSENT_MS = const(5000)
_RESEND_MS = const(3000)
_ASK_MS = const(5000)
ROOT_TIMEOUT_MS = const(45000)  # from the hold firing: the root decides by then
HAND_OUT_MS = const(30000)  # from the hold firing: the root hands out by then, or fails
SHOW_LIMIT_MS = const(45000)  # the longest a tile shows the deal under way (from its item on)
MEMBER_TIMEOUT_MS = const(60000)  # from joining, for a tile that has not voted
_NEVER = const(-1000000000)


def is_deal_message(data):
    return len(data) >= 3 and _JOIN <= data[0] <= _ABORT


def message(kind, deal_id, body=b""):
    return bytes((kind, deal_id >> 8, deal_id & 255)) + body


class Deal:
    """One tile's side of the deal. `host` is the game (see the hooks in the module docstring)."""

    def __init__(self, tile, courier, host):
        self.tile = tile
        self.courier = courier
        self.host = host
        self.id = 0
        self.phase = _IDLE
        self.root = False
        self.fired = False  # the root's hold fired: the count becomes a deal
        self.parent = -1
        self.child: list = [0] * 6  # None: asked, no answer yet; 0: not a child; n: subtree size
        self.waiting = 0  # bit per child that has not answered READY yet
        self.size = 0
        self.conflict = False  # met another deal while counting
        self.items: list = []  # while handing out: this tile's items (its own first)
        self.item = 0
        self.started = 0  # joined (a member) or fired (the root); voted, once it voted
        self.holding_from = 0  # when this tile got its item: it shows the deal from then
        self.progress = 0  # the last step forward: stalled messages are repeated after this
        self.uncertain = False
        self.asked = _NEVER
        self.known = [0] * KNOWN  # decided deal ids: +id committed, -id aborted
        self.last_seen = [_NEVER] * 6  # per face, when it last received a valid frame
        self.present = 0  # bit per face: heard within PRESENT_MS
        self.joined = 0  # the faces present when this tile joined its deal
        self.shown = 0  # the deal this tile last showed (inspect): fired here or dealt to it
        self.result = ""

    # -- state, as the game and inspect() see it ----------------------------------------------
    def active(self):
        """True while this tile holds an item of a deal under way (it shows the deal)."""
        return self.phase == _DEALING or self.phase == _PREPARED

    def busy(self, now):
        """True while a new deal may not start here or take this tile in."""
        p = self.phase
        return _COUNTING <= p <= _DEALING or p == _PREPARED and now - self.started < ROOT_TIMEOUT_MS

    # -- the held tile ------------------------------------------------------------------------
    def count(self, now):
        """The button is held: count the cluster now (nothing shows), ready for the deal."""
        if not self.busy(now) and (self.phase != _ABORTED or now - self.progress >= _RESEND_MS):
            self._new(now, False)

    def start(self, now):
        """The hold fired: deal (replacing any earlier deal in the cluster). A tile already in a
        deal under way stays in it: two players holding two tiles make one deal, or none."""
        if self.root and not self.fired and _COUNTING <= self.phase <= _COUNTED:
            self.fired = True
            self.started = now
            self.shown = self.id
            self._step(now)
        elif not self.busy(now):
            self._new(now, True)

    def cancel(self, now):
        """The hold ended before it fired: drop the count."""
        if self.root and not self.fired and _COUNTING <= self.phase <= _COUNTED:
            self._decide(False, -1, now)

    def _new(self, now, fired, source=-2):
        """Start a count rooted here (the root, fired, drops the count it had: source >= -1,
        telling every face but that one; this is no failure, the deal goes on)."""
        if source > -2:
            self._known(self.id, False)
            self._tell(self.id, False, source)
            fired_at = self.started  # a count started over: the timeout runs from the hold
        t = self.tile
        t.randomize()
        new_id = self.id
        while new_id == self.id or self._known(new_id):
            new_id = t.random(65534) + 1
        self._begin(new_id, -1, now, fired)
        if source > -2:
            self.started = fired_at

    def _begin(self, deal_id, parent, now, fired=False):
        # (a tile still uncertain about an old deal gives it up: the game sees active() end)
        self.id = deal_id
        self.root = parent < 0
        self.fired = fired
        if fired:
            self.shown = deal_id
        self.parent = parent
        self.phase = _COUNTING
        self.conflict = self.uncertain = False
        self.items = []
        self.item = 0
        self.result = ""
        self.started = self.progress = now
        self.joined = self.present
        self.waiting = 0
        for f in range(6):
            self.child[f] = 0
            if f != parent and self.present >> f & 1:
                self.child[f] = None
                self._send(f, _JOIN)
        self._step(now)

    # -- the phases ---------------------------------------------------------------------------
    def _send(self, face, kind, body=b""):
        self.courier.send(face, message(kind, self.id, body))

    def _step(self, now):
        """Move on when the phase is done: counted (SIZE to the parent; the root, fired, hands
        out); handed out and every child READY (vote; the root commits)."""
        p = self.phase
        if p == _COUNTING and None not in self.child:
            self.size = 1 + sum(self.child)
            self.phase = p = _COUNTED
            self.progress = now
            if not self.root:
                self._send(self.parent, _SIZE, bytes((min(self.size, 127) | self.conflict << 7,)))
        if p == _COUNTED and self.root and self.fired:
            deck = self.host.deal_deck(self.size)
            if self.size > MAX_TILES:
                deck = "cluster too big"
            if self.conflict:
                deck = "another deal at the same time"
            elif now - self.started > HAND_OUT_MS:
                deck = "the cluster was still being counted 30 s after the hold"
            if isinstance(deck, str):
                self._decide(False, -1, now, deck)
            else:
                self._hand_out(list(deck), now)
        elif p == _DEALING and not self.waiting:
            self.progress = now
            if self.root:
                self._decide(True, -1, now)
            else:
                self.phase = _PREPARED
                self.started = now
                self.host.deal_voted(now)  # saved before the vote leaves
                self._send(self.parent, _READY)

    def _hand_out(self, items, now):
        """Keep the first item; each child gets the next `subtree size` items (faces 0..5)."""
        self.items = items
        self.item = items[0]
        self.phase = _DEALING
        self.progress = self.holding_from = now
        self.shown = self.id
        self.waiting = 0
        for f in range(6):
            if self.child[f]:
                self.waiting |= 1 << f
        self.host.deal_dealing(self.item, now)
        self._send_decks(-1)
        self._step(now)

    def _send_decks(self, only):
        """A DECK to each child (or to face `only`): its subtree's items, two to a byte."""
        first = 1
        for f in range(6):
            n = self.child[f] or 0
            if n and (only < 0 or only == f):
                deck = bytearray((n + 1) // 2)
                for i in range(n):
                    deck[i >> 1] |= self.items[first + i] << (0 if i & 1 else 4)
                self._send(f, _DECK, deck)
            first += n

    def _decide(self, commit, source, now, reason=None):
        """The outcome of this tile's deal: apply it, remember it, pass it on. A tile that has
        not voted may give up its deal (`reason`); only the root commits."""
        if reason is not None:
            self.result = reason
        self._known(self.id, commit)
        shown = self.active()
        self.phase = _COMMITTED if commit else _ABORTED
        self.progress = now
        self.uncertain = False
        h = self.host
        if commit:
            if self.root:
                self.result = f"dealt {self.size}"
            h.deal_committed(self.item, now)
        else:
            if shown:
                h.deal_aborted(now)
            if self.root and self.fired:
                h.deal_failed(self.result, now)
        self._tell(self.id, commit, source)

    def _tell(self, deal_id, commit, source):
        """Pass a decision to every present face but the one it came from."""
        for f in range(6):
            if f != source and self.present >> f & 1:
                self.courier.send(f, message(_COMMIT if commit else _ABORT, deal_id))

    def _known(self, deal_id, commit=None):
        """1 if the deal committed, -1 if it aborted, 0 if this tile does not know; with
        `commit`, remember that outcome first (the last KNOWN are kept)."""
        k = self.known
        if commit is not None and deal_id not in k and -deal_id not in k:
            k.pop(0)
            k.append(deal_id if commit else -deal_id)
        return 1 if deal_id in k else -1 if -deal_id in k else 0

    # -- receiving ----------------------------------------------------------------------------
    def receive(self, face, data, now):
        """Handle one deal datagram from `face` (malformed ones are ignored)."""
        kind = data[0]
        deal_id = data[1] << 8 | data[2]
        n = len(data)
        known = self._known(deal_id)
        p = self.phase if deal_id == self.id else _IDLE  # this tile's phase in that deal
        child = self.child[face]
        if not deal_id or n < 3:
            return
        if kind == _COMMIT or kind == _ABORT:
            commit = kind == _COMMIT
            if known or n > 3 or commit and _COUNTING <= p < _PREPARED:
                return  # nothing new (and only a tile that voted can be told of a commit)
            if self.root and self.fired and _COUNTING <= p <= _COUNTED:
                self._new(now, True, face)  # a tile gave up the count: the cluster changed
            elif _COUNTING <= p <= _PREPARED:
                self._decide(commit, face, now, None if commit else "aborted by another tile")
            else:
                self._known(deal_id, commit)
                self._tell(deal_id, commit, face)  # not ours to apply: pass it on
        elif kind == _ASK:
            if known:
                self.courier.send(face, message(_COMMIT if known > 0 else _ABORT, deal_id))
        elif kind == _JOIN:
            if p:
                if _COUNTING <= p <= _PREPARED:
                    if face != self.parent:
                        self._send(face, _NOTCHILD)
                    elif p == _COUNTED:  # the parent missed our answer
                        self._send(face, _SIZE, bytes((min(self.size, 127) | self.conflict << 7,)))
            elif known:
                return  # over already (a cancelled count, say)
            elif self.busy(now):
                self.conflict = True
                self.courier.send(face, message(_BUSY, deal_id))
            else:
                self._begin(deal_id, face, now)
        elif kind == _DECK:
            if not _COUNTED <= p <= _PREPARED:
                if not known:
                    self.courier.send(face, message(_NOTCHILD, deal_id))  # not in that deal
            elif p == _PREPARED:
                if face == self.parent or self.parent < 0:
                    self._send(face, _READY)  # the parent missed it
            elif p == _COUNTED and face == self.parent:
                items = []
                for b in data[3:]:
                    items.append(b >> 4)
                    items.append(b & 15)
                if items and not items[-1]:
                    items.pop()  # an odd count ends in a 0 nibble
                if len(items) == self.size and 0 not in items:
                    self._hand_out(items, now)
        elif not _COUNTING <= p <= _DEALING:
            return
        elif face == self.parent:
            if kind == _NOTCHILD and p == _COUNTED:
                # our parent counted without us (we joined late): leave, with our subtree
                for f in range(6):
                    if self.child[f]:
                        self._send(f, _NOTCHILD)
                self.phase = _ABORTED
        elif kind == _READY:
            self.waiting &= ~(1 << face)
            self._step(now)
        elif p == _COUNTING and child is None:
            if kind == _SIZE:
                if n == 4:
                    self.child[face] = data[3] & 127
                    self.conflict = self.conflict or data[3] > 127
            else:
                self.child[face] = 0
                self.conflict = self.conflict or kind == _BUSY
            self._step(now)
        elif kind == _SIZE and child == 0:
            # it joined late, from a JOIN repeated after it said NOTCHILD or BUSY: we
            # counted without it, so send it back before it waits for a DECK
            self._send(face, _NOTCHILD)
        elif kind == _NOTCHILD and p == _DEALING and child:
            self._decide(False, -1, now, "a tile forgot the deal (reset)")

    # -- every pass ---------------------------------------------------------------------------
    @micropython.native
    def poll(self, now):
        """Track present faces; then, in a deal under way, give up when a tile left or on a
        timeout and repeat what stalls; voted, ask for the outcome; uncertain, say so."""
        heard = self.tile.heard_faces()
        present = heard
        last_seen = self.last_seen
        for f in range(6):
            if heard >> f & 1:
                last_seen[f] = now
            elif now - last_seen[f] < _PRESENT_MS:
                present |= 1 << f
        appeared = present & ~self.present
        self.present = present
        p = self.phase
        if p == _PREPARED:
            # voted, no outcome yet: uncertain once no face is present (lifted away) or after
            # SHOW_LIMIT_MS of showing the deal (the root must have decided by then); ask the
            # parent now and then in case the decision was lost on the way, and every face
            # once uncertain
            if not self.uncertain and (now - self.holding_from > SHOW_LIMIT_MS or not present):
                self.uncertain = True
                self.host.deal_uncertain(now)
            ask = appeared if self.uncertain else 0
            if now - self.asked >= _ASK_MS and now - self.started >= _ASK_MS:
                self.asked = now
                ask = present if self.uncertain or self.parent < 0 else 1 << self.parent
            for f in range(6):
                if ask >> f & 1 and self.courier.idle(f):
                    self._send(f, _ASK)
            return
        if not _COUNTING <= p <= _DEALING:
            return
        gone = False  # a face we wait an answer from has gone silent
        for f in range(6):
            waits = self.child[f] is None or self.waiting >> f & 1
            if waits and now - self.last_seen[f] > _ABSENT_MS:
                gone = True
        if p <= _COUNTED and (gone or present & ~self.joined):
            # the cluster changed before anything was handed out: count it again
            if self.root and self.fired:
                self._new(now, True, -1)
            else:
                self._decide(False, -1, now, "the cluster changed")
        elif gone:
            self._decide(False, -1, now, "a tile left the deal")
        elif (
            now - self.started > (ROOT_TIMEOUT_MS if self.root else MEMBER_TIMEOUT_MS)
            and (self.fired or not self.root)
            or p == _DEALING
            and now - self.holding_from > SHOW_LIMIT_MS
        ):
            self._decide(False, -1, now, "timeout")
        elif now - self.progress >= _RESEND_MS:
            # repeat whatever this tile waits an answer to (every message is idempotent)
            self.progress = now
            for f in range(6):
                if not self.courier.idle(f):
                    continue
                if p == _COUNTING and self.child[f] is None:
                    self._send(f, _JOIN)
                elif p == _COUNTED and f == self.parent:
                    self._send(f, _SIZE, bytes((min(self.size, 127) | self.conflict << 7,)))
                elif p == _DEALING and self.waiting >> f & 1:
                    self._send_decks(f)

    # -- across a reset -----------------------------------------------------------------------
    def record(self):
        """What this tile must keep across a reset (the game saves it with its own state): its
        deal's id and item, and whether it coordinates it (1), voted (2), or how it ended (3:
        committed, 4: aborted), so it can still answer an ASK."""
        p = self.phase
        state = (0, 3, 4)[self._known(self.id)]  # known -1 (aborted) picks the last
        if p == _PREPARED:
            state = 2
        elif p == _DEALING:
            state = 1 if self.root else 0
        return bytes((state, self.id >> 8, self.id & 255, self.item))

    def restore(self, rec, now):
        """Come back from a record(): uncertain if this tile had voted; the ABORT of a deal it
        coordinated and had not decided (the tiles that voted ask, and hear so)."""
        if not rec or len(rec) != RECORD_SIZE:
            return
        state = rec[0]
        self.id = self.shown = rec[1] << 8 | rec[2]
        self.item = rec[3]
        if state == 2:
            self.phase = _PREPARED
            self.uncertain = True
            self.started = self.holding_from = now
        elif state == 1:
            self.root = self.fired = True
            self.result = "reset"
            self.phase = _ABORTED
            self._known(self.id, False)
            self.host.deal_failed(self.result, now)
        elif state:
            self._known(self.id, state == 3)

"""Lost Gems on one tile: the state machine of LOSTGEMS.md part 2.

States: undealt, dealing, uncertain, face down, revealed, played, error, discarded (`store`).

Gestures (read every pass so the runtime's latched flags never go stale):
- hold 6 s (button_long_long_pressed, or button_down() for 6 s: the runtime's flag needs a
  face heard at that instant, which a lossy link can miss, and never fires on a lone tile):
  deal (runtime.deal, with the shard deck); any state. From COUNT_AFTER_MS into the hold the
  cluster counts itself (nothing shows), so the deal starts from a counted cluster when the
  hold fires; releasing earlier drops the count. A lone tile is a cluster of 1: its deal
  fails. A failed deal flashes orange on the held tile until someone presses it (or a new deal
  reaches it). The hold is timed from the first pass that sees the button down, so holding a
  sleeping tile deals 6 s after the press that woke it (the runtime swallows that press, and
  an older one must not count).
- double-click a face-down or revealed shard: toggle face down <-> revealed.
- "lone" below means no neighbour frame, valid or not, for LONE_MS (0.6 s), so a link that
  blinks out for a moment does not make a tile in a cluster lone (runtime.dealt).
- triple-click (3 or more clicks) a lone face-down or revealed shard: the first play; a 1 becomes
  played and starts the board, anything else is an error.
- hold 2 s (button_long_pressed) on a shard lone all through the hold and the 0.6 s before
  it: discarded (a tile of a cluster held to deal must not discard itself on a noisy link).
- triple-click a played tile: score count over the whole board.

Face values: a played tile sends the board (2 bits per colour, see `board`) on every face, all
other tiles send 0. A face-down or revealed tile that sees a board value on any face judges
itself at once: played when its value is one more than the board's highest of its colour, else
error (a value frame is checked strongly enough to trust one: runtime.link). Board tiles also
pass every change of the board to their board neighbours at once in a BOARD datagram, so the
news crosses the board in a few tens of ms per hop. A tile sends 0 from the moment it holds a
shard of a deal under way, which is before any tile of that deal commits; a tile that commits
ignores board values for FRESH_MS (longer than a face's expiry), so the last value a neighbour
of the previous game sent cannot judge the new shard.

Design choices where LOSTGEMS.md is silent:
- Any face-down or revealed shard touching a board tile is played (or an error): keep the
  jungle, the hands and the discard pile apart from the board. Hand shards should not touch
  each other either (a discard needs a lone shard; reveals work anywhere).
- error flashes red for ERROR_MS (3 s), then the tile is discarded; a reset during the flash
  restarts it. Errored and discarded shards send 0, so they may lie against the board.
- `dealing` is not saved: a tile reset during a deal comes back in the state it had before,
  unless it had voted READY: then it comes back `uncertain` and learns the outcome from its
  neighbours (runtime.deal).
- `uncertain` (a magenta pair of faces turning): the tile voted READY and cannot learn yet how
  the deal ended (lifted away, reset, or the decision never reached it). It shows no shard, old
  or new, until it hears the outcome: its new shard face down if the deal committed, what it
  showed before if not.
- A deal that fails (wrong size, two deals at once, a tile lost) flashes orange on the held
  tile until someone presses it; every other tile goes back to what it showed before the deal.
- Gem completion: the completing 3 shows a copper light running round over gold for 3 s, the
  gem's 1 and 2 flash gold for 3 s; afterwards all three shimmer.
- Score count: every board tile knows its rank (the score just before it was played), so the
  count lights tile 1 after one step, tile 2 after two... (COUNT_STEP_MS each), holds the lit
  board for COUNT_HOLD_MS, then, on a board of 9, plays the victory rainbow for VICTORY_MS.
- The first play needs a lone shard; a second "first play" elsewhere starts a second board (the
  tiles cannot know about a board they do not touch).
- A played tile knows the board; it stays played wherever it is moved.

Log lines (one per event, parsed by the serial monitor; <hex> is the serial number in hex,
<ms> the tile's millis(), <shard> like R1 or '-'):
    LG state tile=<hex> t=<ms> <old> -> <new> shard=<shard>
    LG restore tile=<hex> t=<ms> <state> shard=<shard> board=<R><Y><B>
    LG restore tile=<hex> t=<ms> undealt shard=- damaged save ignored
    LG deal tile=<hex> t=<ms> start id=<deal id>
    LG deal tile=<hex> t=<ms> dealt size=<n> id=<deal id>
    LG deal tile=<hex> t=<ms> failed id=<deal id> reason=<text>
    LG count tile=<hex> t=<ms> score=<0-9>
State names may contain a space ('face down'): split `<old> -> <new>` on ' -> ' and the
remainder on ' shard='.
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

from runtime import colors, dealt
from runtime.dealt import DONE, LONE_MS, DealtGame

from games.lostgems import board as gem_board
from games.lostgems import display, shards, store
from games.lostgems.store import (
    DEALING,
    DISCARDED,
    ERROR,
    FACE_DOWN,
    PLAYED,
    REVEALED,
    UNCERTAIN,
    UNDEALT,
)

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


# Private const() names cost no RAM on a tile: the compiler inlines them.
_COUNT = const(0x50)  # datagram kinds (the deal's are 0x41-0x49)
_BOARD_NEWS = const(0x51)
ERROR_MS = const(3000)
COMPLETION_MS = const(3000)
COUNT_HOLD_MS = const(1500)
VICTORY_MS = const(5000)
HOLD_DEAL_MS = dealt.HOLD_DEAL_MS  # the hold that deals (runtime.dealt), as tests and docs name it
_FRESH_MS = const(250)  # after a commit, board values count again (> a face's 200 ms expiry)
_NEVER = const(-1000000000)
_GIVEN_UP = (UNDEALT, shards.NO_SHARD, gem_board.EMPTY, 0)  # an uncertain tile's old deal, given up


class LostGems(DealtGame):
    PREFIX = "LG"

    def __init__(self, tile):
        DealtGame.__init__(self, tile, UNDEALT)
        self.shard = shards.NO_SHARD
        self.board = gem_board.EMPTY
        self.rank = 0
        self.prior: tuple | None = None  # (state, shard, board, rank) before the deal
        self.fresh_from = _NEVER  # board values count from then (FRESH_MS after a commit)
        self.gold_until = _NEVER
        self.copper_until = _NEVER
        self.count_id = 0
        self.count_start = _NEVER
        self._frame = [0] * 6  # the picture each pass paints (see picture())

    # -- life cycle -------------------------------------------------------------------------
    def setup(self):
        t = self.tile
        self.setup_name()
        now = t.millis()
        blob = t.load_state()
        saved = store.decode(blob)
        if saved is not None:
            shown = saved[4] if saved[0] == UNCERTAIN else saved[0]
            if shown != UNDEALT and not shards.is_shard(saved[1]):
                saved = None
        if saved is None:
            if blob is not None:
                self.log("restore", now, "undealt shard=- damaged save ignored")
            return
        state, shard, board, rank, prior, record = saved
        self.shard, self.board, self.rank = shard, board, rank
        self.deal.restore(record, now)
        if state == UNCERTAIN:
            self.prior = (prior, shard, board, rank)
        self.state = state
        self.since = now
        r, y, b = (
            gem_board.highest(board, 0),
            gem_board.highest(board, 1),
            gem_board.highest(board, 2),
        )
        self.log("restore", now, f"{state} shard={shards.name(shard) or '-'} board={r}{y}{b}")

    @micropython.native
    def loop(self):
        t = self.tile
        now = self.start_pass()
        seen = self._listen(now)
        self._buttons(now)
        if self.state == FACE_DOWN or self.state == REVEALED:  # (a tuple here is built each pass)
            if seen and gem_board.is_playable(seen, self.shard):
                self._become_played(seen, now)
            elif seen:
                self.enter(ERROR, now)
        elif self.state == PLAYED:
            self._learn(seen, now)
        elif self.state == ERROR and now - self.since >= ERROR_MS:
            self.enter(DISCARDED, now)
        elif self.state == UNCERTAIN and not self.deal.active():
            # a new deal took it in: it gives up the old one it never heard the end of
            self.prior = _GIVEN_UP
            self.deal_aborted(now)
        self.courier.poll()
        t.set_value_sent_on_all_faces(self.board if self.state == PLAYED else 0)
        t.set_colors(self.picture(now))

    def inspect(self):
        d = self.deal
        deal = self.deal_view()
        deal["item"] = shards.name(d.item) if d.active() else None
        return {
            "state": self.state,
            "shard": shards.name(self.shard),
            "board": gem_board.describe(self.board) if self.state == PLAYED else None,
            "rank": self.rank if self.state == PLAYED else None,
            "show": self.showing(self.tile.millis()),
            "deal": deal,
        }

    # -- state changes ----------------------------------------------------------------------
    def describe(self):
        return f"{self.state} shard={shards.name(self.shard) or '-'}"

    def save(self, now=0):
        record = self.deal.record()
        if self.state == DEALING or self.state == UNCERTAIN:
            if not record[0]:
                return  # not voted: what was saved before the deal is what a reset brings back
            prior, shard, board, rank = self.prior or _GIVEN_UP
            # voted: a reset brings it back uncertain; the root (coordinating): as it was
            state = UNCERTAIN if record[0] == 2 else prior
            self.tile.save_state(store.encode(state, shard, board, rank, prior, record))
            return
        blob = store.encode(self.state, self.shard, self.board, self.rank, UNDEALT, record)
        self.tile.save_state(blob)

    # -- the deal's news (hooks called by runtime.deal.Deal) -------------------------------
    def deal_deck(self, size):
        colours = shards.colours_for_cluster(size)
        if not colours:
            return f"cluster of {size} tiles"
        return dealt.shuffle(shards.deck(colours), self.tile.random)

    def keep_prior(self):
        self.prior = (self.state, self.shard, self.board, self.rank)

    def dealt(self, shard, now):
        self.shard = shard
        self.board = gem_board.EMPTY
        self.rank = 0
        self.prior = None
        self.count_start = _NEVER
        self.gold_until = self.copper_until = _NEVER
        self.fresh_from = now + _FRESH_MS
        self.enter(FACE_DOWN, now)

    def deal_aborted(self, now):
        if self.prior is None:
            return
        state, self.shard, self.board, self.rank = self.prior
        self.prior = None
        self.enter(state, now)

    # -- gestures ---------------------------------------------------------------------------
    @micropython.native
    def _buttons(self, now):
        t = self.tile
        holding = self.hold(now)
        if holding == DONE:
            return
        hold = t.button_long_pressed()
        double = t.button_double_clicked()
        triple = t.button_multi_clicked()
        lone = self.unheard(now) >= LONE_MS
        if self.state == FACE_DOWN or self.state == REVEALED:
            if double:
                self.enter(REVEALED if self.state == FACE_DOWN else FACE_DOWN, now)
            elif triple and lone:
                if shards.value_of(self.shard) == 1:
                    self._become_played(gem_board.EMPTY, now)
                else:
                    self.enter(ERROR, now)
            elif hold and self.lone_hold(now, holding):
                # a tile of a cluster held for a deal must not discard itself at 2 s
                self.enter(DISCARDED, now)
        elif self.state == PLAYED and triple:  # score count: start one under a new id
            new_id = self.count_id
            while new_id == self.count_id:
                new_id = t.random(254) + 1
            self.log("count", now, f"score={gem_board.score(self.board)}")
            self._join_count(new_id, now, now, -1)

    # -- plays ------------------------------------------------------------------------------
    @micropython.native
    def _listen(self, now):
        """What the neighbours say of the board (an expired face says nothing); nothing for
        FRESH_MS after a commit, when a value could still be one sent before the deal."""
        t = self.tile
        seen = gem_board.EMPTY
        if now >= self.fresh_from:
            saying = t.nonzero_faces()  # 0 away from a board: one call
            if saying:
                for f in range(6):
                    if saying >> f & 1:
                        seen = gem_board.merge(seen, t.get_last_value_received_on_face(f))
        return seen

    def _become_played(self, seen, now):
        self.rank = gem_board.score(seen) + 1
        self.board = gem_board.play(seen, self.shard)
        if gem_board.completed(seen, self.board):
            self.copper_until = now + COMPLETION_MS
        self.enter(PLAYED, now)
        self._tell_board(-1)

    def _learn(self, seen, now, came_from=-1):
        """Merge what neighbours know of the board; a newly completed own gem flashes gold."""
        merged = gem_board.merge(self.board, seen)
        if merged == self.board:
            return
        if shards.colour_of(self.shard) in gem_board.completed(self.board, merged):
            self.gold_until = now + COMPLETION_MS
        self.board = merged
        self.save()
        self._tell_board(came_from)

    def _tell_board(self, came_from):
        """Pass the board on to every neighbour that is a board tile."""
        t = self.tile
        for f in range(6):
            if f == came_from or t.is_value_received_on_face_expired(f):
                continue
            if t.get_last_value_received_on_face(f):
                self.courier.send(f, bytes((_BOARD_NEWS, self.board)))

    # -- score count ------------------------------------------------------------------------
    def _join_count(self, count_id, start, now, came_from):
        self.count_id = count_id
        self.count_start = start
        elapsed = min(now - start, 65535)
        t = self.tile
        for f in range(6):
            if f == came_from or t.is_value_received_on_face_expired(f):
                continue
            if t.get_last_value_received_on_face(f):
                self.courier.send(f, bytes((_COUNT, count_id, elapsed >> 8, elapsed & 255)))

    # -- datagrams --------------------------------------------------------------------------
    @micropython.native
    def on_datagram(self, f, data, now):
        if len(data) == 2 and data[0] == _BOARD_NEWS and self.state == PLAYED:
            self._learn(data[1] & 63, now, f)
        elif (
            len(data) == 4
            and data[0] == _COUNT
            and self.state == PLAYED
            and data[1] != self.count_id
        ):
            self._join_count(data[1], now - (data[2] << 8 | data[3]), now, f)  # a new count

    # -- the picture ------------------------------------------------------------------------
    @micropython.native
    def showing(self, now):
        """The name of what the tile shows now (inspect's "show"): the state or an overlay on it."""
        if self.failed:
            return "deal failed"
        s = self.state
        if s != PLAYED:
            return s
        if now < self.copper_until:
            return "copper spin"
        if now < self.gold_until:
            return "gold flash"
        since = now - self.count_start
        count_length = (gem_board.score(self.board) + 1) * display.COUNT_STEP_MS + COUNT_HOLD_MS
        if 0 <= since < count_length:
            return "count lit" if since >= self.rank * display.COUNT_STEP_MS else "count dark"
        if self.board == gem_board.FULL and 0 <= since - count_length < VICTORY_MS:
            return "victory"
        return "shimmer" if self._gem_complete() else PLAYED

    def _gem_complete(self):
        return gem_board.highest(self.board, shards.colour_of(self.shard)) == 3

    @micropython.native
    def picture(self, now):
        """Six colours for this pass, painted into the game's own list (no allocation)."""
        show = self.showing(now)
        out = self._frame
        if show == UNDEALT:
            return display.undealt(now, out)
        if show == DEALING:
            return display.dealing(now - self.since, 0, out)  # since it got its shard
        if show == UNCERTAIN:
            return display.uncertain(now, out)
        if show == FACE_DOWN:
            return display.face_down(out)
        if show == REVEALED:
            return display.revealed(self.shard, out)
        if show == ERROR:
            return display.error(now - self.since, out)
        if show == DISCARDED:
            return display.discarded(self.shard, out)
        if show == "deal failed":
            return display.flash(colors.ORANGE, now, out)  # the held tile: no deal was made
        if show == "copper spin":
            return display.copper_spin(now, out)
        if show == "gold flash":
            return display.flash(display.GOLD, now, out)  # its gem was completed elsewhere
        if show in ("count dark", "count lit"):
            complete = self._gem_complete()
            return display.counting(
                self.shard, complete, now - self.count_start, self.rank, now, out
            )
        if show == "victory":
            return display.victory(now, out)
        return display.played(self.shard, show == "shimmer", now, out)

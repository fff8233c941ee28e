"""What every game dealt by `runtime.deal` does the same way, so a game keeps only its rules.

A game subclasses `DealtGame` and calls, every pass, `receive(now)` (datagrams: the deal's to
the deal, the rest to the game's `on_datagram(face, data, now)`), `deal.poll(now)`, then
`hold(now)` before reading its own gestures. It provides:
- PREFIX: its log lines' first word (`LG`, `WF`, `GM`); `describe()`: the state as a log line
  says it;
- `save(now=0)`: keep the state across a reset; `keep_prior()`: remember what the tile shows
  before a deal; `dealt(item, now)`: show the item of a deal that committed.
The deal's hooks (runtime.deal) are then all here but `deal_deck` (`deal_from` answers it
from a deck of one item a tile) and `deal_aborted`. A game whose clicks have meanings reads
them with `clicks()`; one that shows the deal's phases as Waterfall and Gem Match do paints them
with `deal_picture` (Lost Gems has lights of its own). They live here rather than in a module of
their own: a module costs a Waterfall tile some 300 bytes of heap that its 32 KB budget
(tests/mpy_steady_pass.py) does not have.

"Lone" (a first play, a discard) means unheard: no frame, valid or not, on any face for a while;
a lone hold (a discard) means unheard all through the hold and the LONE_BEFORE_MS before it.

The hold that deals: from COUNT_AFTER_MS into a hold the cluster counts itself (nothing shows),
at HOLD_DEAL_MS it deals (or at the runtime's long-long press, which needs a face heard at that
instant, which a lossy link can miss, and never fires on a lone tile, a cluster of 1 to us); a
hold let go earlier drops the count. The hold is timed from the first pass that sees the button
down, so holding a sleeping tile deals 6 s after the press that woke it (the runtime swallows
that press, and an older one must not count). A press clears a failed deal's flash. A game
whose rules give a hold another meaning in some state (Gem Match's peek on the field) says so
in `may_deal()`: in those states a hold is only timed, and neither counts nor deals.
"""

from runtime import colors
from runtime.courier import Courier
from runtime.deal import PHASES, Deal, is_deal_message

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


UNDEALT = "undealt"  # the states every dealt game has, as its store saves them
DEALING = "dealing"
UNCERTAIN = "uncertain"  # voted in a deal whose outcome it has not learned
HOLD_DEAL_MS = const(6000)
COUNT_AFTER_MS = const(1000)  # into a hold, the cluster starts counting itself for a deal
LONE_MS = const(600)  # a tile is lone (a first play) after this long unheard
LONE_BEFORE_MS = const(600)  # a hold is a lone one if nothing was heard this long before it
NOT_HELD = const(-1)  # hold(): the button is up (or held on after its deal started)
DONE = const(-2)  # hold(): nothing more this pass (no news from the button, or it dealt)


def shuffle(items, random):
    """A deal's deck shuffled in place (Fisher-Yates) with the tile's `random(limit)`, which
    returns 0..limit inclusive; returns `items`."""
    for i in range(len(items) - 1, 0, -1):
        j = random(i)
        items[i], items[j] = items[j], items[i]
    return items


class DealtGame:
    PREFIX = "??"

    def __init__(self, tile, state):
        self.tile = tile
        self.state = state
        self.since = 0  # when the state began
        self.failed = False  # the held tile of a failed deal, until pressed
        self.held_from = None  # while the button is down: since when (-1 once the hold dealt)
        self.name = ""  # the serial number in hex, for the log lines
        self.courier = Courier(tile)
        self.deal = Deal(tile, self.courier, self)

    def setup_name(self):
        for b in self.tile.serial_number():
            self.name += f"{b:02x}"

    # -- the game's part ------------------------------------------------------------------------
    def describe(self):
        return self.state

    def save(self, now=0):
        pass

    def keep_prior(self):
        pass

    def dealt(self, item, now):
        pass

    def on_datagram(self, face, data, now):
        pass

    def may_deal(self):
        """Whether a hold deals (and counts the cluster) in the state the tile is in: in any
        state, unless a game's rules give some state's hold another meaning."""
        return True

    def deal_view(self):
        """The deal as inspect() shows it (for tests, the inspector and sessions)."""
        d = self.deal
        return {
            "id": d.shown,
            "phase": PHASES[d.phase],
            "root": d.root,
            "size": d.size,
            "result": d.result,
        }

    def deal_from(self, deck, size):
        """`deal_deck`'s answer for a game that deals one item a tile from `deck`: the first
        `size` items of it shuffled, or why a cluster of `size` tiles cannot be dealt."""
        if not 2 <= size <= len(deck):
            return f"cluster of {size} tiles (2 to {len(deck)})"
        return shuffle(deck, self.tile.random)[:size]

    def refuse(self, now, why):
        """Flash red: the click asked for something the rules (or the tiles) do not allow."""
        self.refused_at = now
        self.log("refused", now, why)

    # -- state and log --------------------------------------------------------------------------
    def enter(self, state, now):
        old = self.state
        self.state = state
        self.since = now
        self.log("state", now, f"{old} -> {self.describe()}")
        self.save()

    def log(self, event, now, details):
        """One structured line: <PREFIX> <event> tile=<hex> t=<ms> <details>."""
        self.tile.log(f"{self.PREFIX} {event} tile={self.name} t={now} {details}")

    # -- the deal's hooks (runtime.deal) --------------------------------------------------------
    def deal_dealing(self, item, now):
        if self.state != DEALING:
            self.keep_prior()
        self.failed = False
        if self.deal.root:
            self.log("deal", now, f"start id={self.deal.id}")
        self.enter(DEALING, now)

    def deal_voted(self, now):
        self.save(now)  # a reset now brings the tile back uncertain

    def deal_committed(self, item, now):
        if self.deal.root:
            self.log("deal", now, f"dealt size={self.deal.size} id={self.deal.id}")
        self.dealt(item, now)

    def deal_uncertain(self, now):
        self.enter(UNCERTAIN, now)

    def deal_failed(self, reason, now):
        self.failed = True
        self.log("deal", now, f"failed id={self.deal.id} reason={reason}")
        self.save()

    # -- every pass -----------------------------------------------------------------------------
    def start_pass(self):
        """A pass's first steps: the time now, the datagrams read, the deal polled."""
        now = self.tile.millis()
        self.receive(now)
        self.deal.poll(now)
        return now

    @micropython.native
    def receive(self, now):
        """Hand each datagram that arrived to the deal or to the game."""
        t = self.tile
        ready = t.datagram_faces()
        if not ready:
            return
        for f in range(6):
            if not ready >> f & 1:
                continue
            data = t.get_datagram_on_face(f)
            t.mark_datagram_read_on_face(f)
            if is_deal_message(data):
                self.deal.receive(f, data, now)
            else:
                self.on_datagram(f, data, now)

    @micropython.native
    def hold(self, now):
        """The hold that deals (see the module docstring). Returns how long the button has been
        held, in ms, NOT_HELD, or DONE: the game then reads no gestures this pass."""
        t = self.tile
        held = self.held_from
        if held is None and t.button_quiet():
            return DONE  # not held, and nothing new: every flag was read on an earlier pass
        if not t.button_down():
            if held is not None and held >= 0:
                self.deal.cancel(now)  # released before it dealt: drop the count
            held = None
        elif held is None:
            held = now  # the first pass that sees it down: a press, or the one that woke us
        holding = now - held if held is not None and held >= 0 else NOT_HELD
        if t.button_pressed():
            self.failed = False  # someone touched it: the failure has been seen
        fired = t.button_long_long_pressed()  # read in any state: a latched flag would deal later
        deals = self.may_deal()
        if deals and (fired or holding >= HOLD_DEAL_MS):
            self.held_from = -1
            self.deal.start(now)
            return DONE
        self.held_from = held
        if deals and holding >= COUNT_AFTER_MS:
            self.deal.count(now)
        return holding

    def clicks(self):
        """How many clicks the button ended this pass with (0: none), read after `hold`."""
        t = self.tile
        clicks = 0
        if t.button_single_clicked():
            clicks = 1
        if t.button_double_clicked():
            clicks = 2
        if t.button_multi_clicked():
            clicks = t.button_click_count()
        return clicks

    def unheard(self, now):
        """ms since any neighbour was heard: a frame on any face, valid or not (a frame that
        fails its checks is still a neighbour's light)."""
        return now - max(max(self.deal.last_seen), self.tile.last_light_ms())

    def lone_hold(self, now, holding):
        """Whether a hold of `holding` ms is a lone tile's: nothing heard all through it nor in
        the LONE_BEFORE_MS before it. A tile of a cluster held for a deal can go unheard for
        seconds on a noisy link (its faces busy with the deal's datagrams, which noise spoils
        more often than short frames), but a neighbour heard just before it was pressed
        means it was not put down alone."""
        return holding >= 0 and self.unheard(now) > holding + LONE_BEFORE_MS


_BLINK_MS = const(200)  # half period of a flash
_WAVE_MS = const(1200)  # a turn of the dealing light
_STEP_MS = const(400)  # a step of the uncertain pair


def solid(c, out):
    """Colour `c` on the six faces of `out` (the game's own list: a pass allocates nothing)."""
    for f in range(6):
        out[f] = c
    return out


def flash(c, now, out):
    """Colour `c` blinking."""
    return solid(c if now // _BLINK_MS % 2 == 0 else colors.OFF, out)


def deal_picture(show, now, since, out):
    """What a Waterfall or Gem Match tile shows when `show` is a deal's phase (the state began
    at `since`) or "deal failed" or "refused", painted into `out`; None for the game's own.
    Every such game shows these alike, so a player reads a deal the same way on each:
    - undealt: a slow white breathing that never goes dark;
    - dealing: a cyan light running round;
    - uncertain: a magenta pair of faces turning (the tile cannot tell yet how its deal ended);
    - deal failed: orange flashing; refused: red flashing."""
    if show == UNDEALT:
        phase = now % 4000
        level = phase if phase < 2000 else 4000 - phase
        return solid(colors.dim(colors.WHITE, 50 + level * 150 // 2000), out)
    if show == DEALING:
        lit = (now - since) // (_WAVE_MS // 6) % 6
        for f in range(6):
            out[f] = colors.CYAN if f == lit else colors.dim(colors.CYAN, 40)
        return out
    if show == UNCERTAIN:
        step = now // _STEP_MS % 6
        for f in range(6):
            out[f] = colors.MAGENTA if f == step or f == (step + 3) % 6 else colors.OFF
        return out
    if show == "deal failed":
        return flash(colors.ORANGE, now, out)
    if show == "refused":
        return flash(colors.RED, now, out)
    return None

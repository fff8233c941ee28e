"""Gem Match on one tile: each tile is one two-sided token (`tokens`), its six gems on its six
faces.

States (`store`): undealt, dealing, uncertain, pile (dealt, face down), hand (face up, off the
field), field, taken (clicked in a group, still on the field), heap (in a victory heap).

Gestures:
- hold 6 s a tile of the pile, a heap or an undealt cluster: deal the cluster (runtime.deal,
  all or nothing; the hold is runtime.dealt's, but `may_deal` keeps it off the field and the
  hands): 2 to 27 tiles get that many tokens of the shuffled 27; every tile then shows its
  back. A failed deal flashes orange on the held tile until it is pressed.
- double-click a pile tile: draw it, basic side up (it is a hand token now).
- double-click a hand token: turn it over.
- triple-click a lone hand token (no neighbour's light for 0.6 s: runtime.dealt's `unheard`):
  it starts the field (the field is empty).
- attach a hand token to a field tile: it is placed (as it is turned and the side it shows).
- click a field tile whose gems blink (a group): take it to the victory heap; double-click:
  take it to the hand. It shows so, and leaves the field once lifted off it.
- hold a field tile of a group for 2 s: it shows its other side while held.

The groups come from the face values (`groups`): the tiles light every group of two gems or
more that joins two tokens; the referee counts tiers and merges (docs/gemmatch.md).

Log lines: GM state tile=<hex> t=<ms> <old> -> <new> token=<T1-T9> side=<basic|improved>
           GM group tile=<hex> t=<ms> sizes=<six sizes, 0 unlit>
           GM refused tile=<hex> t=<ms> <why>
           GM deal tile=<hex> t=<ms> start id=<n>|dealt size=<n> id=<n>|failed reason=<text>
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

from runtime import dealt
from runtime.dealt import DONE, LONE_MS, DealtGame

from games.gemmatch import display, groups, store, tokens
from games.gemmatch.store import DEALING, FIELD, HAND, HEAP, PILE, TAKEN, UNCERTAIN, UNDEALT

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


HOLD_DEAL_MS = dealt.HOLD_DEAL_MS  # the hold that deals (runtime.dealt), as tests and docs name it
PEEK_MS = const(2000)  # hold a group's tile this long to see its other side
_REFUSED_MS = const(600)  # a refused click flashes red this long
HEARD_MS = const(1500)  # a neighbour counts as there until unheard this long (lossy links)
_FRESH_MS = const(250)  # after a deal, face values count again (> a face's 200 ms expiry)
_NEVER = const(-1000000000)
SIDE_NAMES = ("basic", "improved")
DEALS_FROM = (UNDEALT, PILE, HEAP, UNCERTAIN)  # a hold deals only from these: never the field


class Gemmatch(DealtGame):
    PREFIX = "GM"

    def __init__(self, tile):
        DealtGame.__init__(self, tile, UNDEALT)
        self.kind = 0
        self.side = tokens.BASIC
        self.to_hand = False
        self.prior = UNDEALT  # the state before a deal under way
        self.prior_kind = 0
        self.fresh_from = _NEVER
        self.refused_at = _NEVER
        self._heard = [0] * 6  # each face's value from a field tile, or 0
        self._sizes = [0] * 6  # each gem's lit group size, or 0
        self._tiers = [0] * 6
        self._lit = 0  # bits of the lit faces, to log a change
        self._frame = [0] * 6

    # -- life cycle -------------------------------------------------------------------------
    def setup(self):
        t = self.tile
        self.setup_name()
        now = t.millis()
        saved = store.decode(t.load_state())
        if saved is None:
            return
        state, kind, side, to_hand, prior, record = saved
        if state != UNDEALT and not tokens.is_token(kind):
            return
        self.kind, self.side, self.to_hand = kind, side, to_hand
        self.deal.restore(record, now)
        self.prior, self.prior_kind = prior, kind
        self.state = state
        self.since = now
        self.log("state", now, f"restored -> {self.describe()}")

    @micropython.native
    def loop(self):
        t = self.tile
        now = self.start_pass()
        self._listen(now)
        self._buttons(now)
        s = self.state
        if s == HAND:
            self._attach(now)
        elif s == TAKEN and not self._touches_field(now):
            self.enter(HAND if self.to_hand else HEAP, now)
        elif s == UNCERTAIN and not self.deal.active():
            self.prior, self.prior_kind = UNDEALT, 0
            self.deal_aborted(now)
        self.courier.poll()
        self._send()
        t.set_colors(self.picture(now))

    def inspect(self):
        now = self.tile.millis()
        on_field = self.state == FIELD or self.state == TAKEN
        return {
            "state": self.state,
            "token": tokens.name(self.kind) or None,
            "side": SIDE_NAMES[self.side] if self.kind else None,
            "gems": tokens.side_name(self._side()) if self.kind else None,
            "to_hand": self.to_hand if self.state == TAKEN else None,
            "lit": list(self._sizes) if on_field else [0] * 6,
            "show": self.showing(now),
            "deal": self.deal_view(),
        }

    # -- state ------------------------------------------------------------------------------
    def _side(self, side=-1):
        return tokens.side_of(self.kind, self.side if side < 0 else side)

    def describe(self):
        return f"{self.state} token={tokens.name(self.kind) or '-'} side={SIDE_NAMES[self.side]}"

    def save(self, now=0):
        """Keep the tile's state across a reset (`store`); called at every change of it."""
        record = self.deal.record()
        state, kind, prior = self.state, self.kind, UNDEALT
        if state == DEALING or state == UNCERTAIN:
            if not record[0]:
                return  # not voted: a reset brings back what was saved before the deal
            state = UNCERTAIN if record[0] == 2 else self.prior
            kind, prior = self.prior_kind, self.prior
        self.tile.save_state(store.encode(state, kind, self.side, self.to_hand, prior, record))

    # -- the deal's hooks (runtime.deal, runtime.dealt) -------------------------------------
    def deal_deck(self, size):
        return self.deal_from(tokens.deck(), size)

    def keep_prior(self):
        self.prior, self.prior_kind = self.state, self.kind

    def dealt(self, kind, now):
        self.kind = kind
        self.side = tokens.BASIC
        self.to_hand = False
        self.fresh_from = now + _FRESH_MS
        self.enter(PILE, now)

    def deal_aborted(self, now):
        if self.state != DEALING and self.state != UNCERTAIN:
            return
        self.kind = self.prior_kind
        self.enter(self.prior, now)

    def may_deal(self):
        """Unlike the other games, a hold deals only from DEALS_FROM: a field tile is held to
        peek at its other side (PEEK_MS), however long, and a token in play (in a hand, taken,
        or dealing) must not deal the cluster it happens to touch."""
        return self.state in DEALS_FROM

    # -- gestures ---------------------------------------------------------------------------
    @micropython.native
    def _buttons(self, now):
        if self.hold(now) == DONE:
            return
        clicks = self.clicks()
        s = self.state
        if s == PILE and clicks == 2:
            self.side = tokens.BASIC
            self.enter(HAND, now)
        elif s == HAND and clicks == 2:
            self.side = 1 - self.side
            self.enter(HAND, now)
        elif s == HAND and clicks == 3:
            if self.unheard(now) >= LONE_MS:
                self.enter(FIELD, now)
            else:
                self.refuse(now, "not alone: a field starts with a lone token")
        elif s == FIELD and (clicks == 1 or clicks == 2):
            if self._in_group():
                self.to_hand = clicks == 2
                self.enter(TAKEN, now)
            else:
                self.refuse(now, "in no group: only a group's tokens are taken")

    @micropython.native
    def _touches_field(self, now):
        """Whether a field tile was heard on some face in the last LONE_MS: a taken token
        leaves the field once lifted off it, whatever it is put beside (a heap, a hand)."""
        t = self.tile
        last = self.deal.last_seen
        for f in range(6):
            if now - last[f] < LONE_MS and t.get_last_value_received_on_face(f):
                return True
        return False

    @micropython.native
    def _in_group(self):
        for f in range(6):
            if self._sizes[f]:
                return True
        return False

    @micropython.native
    def peeking(self, now):
        """Whether a group's tile is held long enough to show its other side."""
        held = self.held_from
        return (
            self.state == FIELD
            and held is not None
            and held >= 0
            and now - held >= PEEK_MS
            and self._in_group()
        )

    # -- the field --------------------------------------------------------------------------
    @micropython.native
    def _listen(self, now):
        """Read the field values heard (a face heard within HEARD_MS), and the groups lit."""
        t = self.tile
        last = self.deal.last_seen
        heard = self._heard
        for f in range(6):
            v = 0
            if now - last[f] < HEARD_MS and now >= self.fresh_from:
                v = t.get_last_value_received_on_face(f)
            heard[f] = v
        on_field = self.state == FIELD or self.state == TAKEN
        if not on_field:
            return
        side = self._side()
        groups.sizes(side, heard, tokens.TIER_SIZES[0], self._sizes)
        lit = 0
        for f in range(6):
            size = self._sizes[f]
            tier = 0
            for least in tokens.TIER_SIZES:
                if size >= least:
                    tier += 1
            self._tiers[f] = tier
            if size:
                lit |= 1 << f
        if lit != self._lit:
            self._lit = lit
            shown = self._sizes
            self.log(
                "group", now, f"sizes={shown[0]}{shown[1]}{shown[2]}{shown[3]}{shown[4]}{shown[5]}"
            )

    @micropython.native
    def _attach(self, now):
        """A hand token that touches a field tile is placed: a field value heard now (not one
        that lingers from the field the token was just lifted off)."""
        t = self.tile
        if now < self.fresh_from:
            return
        for f in range(6):
            if not t.is_value_received_on_face_expired(f) and t.get_last_value_received_on_face(f):
                self.enter(FIELD, now)
                return

    @micropython.native
    def _send(self):
        t = self.tile
        if self.state != FIELD and self.state != TAKEN:
            t.set_value_sent_on_all_faces(groups.NOT_FIELD)
            return
        side = self._side()
        for f in range(6):
            t.set_value_sent_on_face(groups.send(side, self._heard, f), f)

    # -- the picture ------------------------------------------------------------------------
    @micropython.native
    def showing(self, now):
        """The name of what the tile shows now (inspect's "show")."""
        if self.failed:
            return "deal failed"
        if now - self.refused_at < _REFUSED_MS:
            return "refused"
        if self.peeking(now):
            return "other side"
        return self.state

    @micropython.native
    def picture(self, now):
        show = self.showing(now)
        out = self._frame
        phase = dealt.deal_picture(show, now, self.since, out)
        if phase is not None:
            return phase
        if show == PILE:
            return display.solid(display.BACK, out)
        if show == HEAP:
            return display.solid(display.HEAP, out)
        if show == "other side":
            return display.gems(self._side(1 - self.side), out)
        if show == FIELD:
            return display.field(self._side(), self._tiers, now, out)
        if show == TAKEN:
            return display.taken(self._side(), self.to_hand, now, out)
        return display.gems(self._side(), out)

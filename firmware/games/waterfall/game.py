"""Waterfall on one tile: each tile is one card (action, number, gem: `cards`).

States (`store`): undealt, dealing, uncertain, card (dealt, face down, off the waterfall),
revealed (its card shown, off the waterfall), waterfall (part of the waterfall).

Gestures:
- hold 6 s, any tile: deal the cluster (runtime.deal, all or nothing): a cluster of 2 to 27
  tiles gets that many tiles of the shuffled deck (27: the whole deck); every tile then shows
  its back. A failed deal flashes orange on the held tile until it is pressed.
- double-click a dealt tile off the waterfall: show / hide its card.
- triple-click a lone ADD tile off the waterfall: it starts the waterfall (the top). Its face
  0 points up: turn it so that face points away from the players.
- a player moves their pawn by clicking a waterfall tile as many times as their letter says
  (A once, B twice, C 3 times, D 4 times), so a tile holding two pawns knows which one goes:
  - the top tile, the pawn waiting above: it enters the waterfall;
  - a tile right below the pawn (down-left or down-right of it): the pawn steps into it;
  - the tile holding the pawn: it falls out at the bottom (there must be an empty place below
    the tile) and goes back above the waterfall.

The tile's other jobs have their own modules: `orientation` (which way is up, the face
values), `travel` (the pawns and their datagrams), `actions` (what a pawn entering runs).

Log lines: WF state tile=<hex> t=<ms> <old> -> <new> card=<card> up=<face>
           WF pawn tile=<hex> t=<ms> <A-D> enters|leaves|falls out|returns [action=<ACTION>]
           WF refused tile=<hex> t=<ms> <why>
           WF deal tile=<hex> t=<ms> start|dealt size=<n>|failed reason=<text>
"""

from runtime import dealt
from runtime.dealt import DONE, LONE_MS, DealtGame

from games.waterfall import actions, cards, display, orientation, store
from games.waterfall.actions import Actions
from games.waterfall.store import CARD, DEALING, REVEALED, UNCERTAIN, UNDEALT, WATERFALL
from games.waterfall.travel import PLAYERS, Travel

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


HOLD_DEAL_MS = dealt.HOLD_DEAL_MS  # the hold that deals (runtime.dealt), as tests and docs name it
_REFUSED_MS = const(600)  # a refused click flashes red this long
_FRESH_MS = const(250)  # after a deal, face values count again (> a face's 200 ms expiry)
_NEVER = const(-1000000000)


class Waterfall(DealtGame):
    PREFIX = "WF"

    def __init__(self, tile):
        DealtGame.__init__(self, tile, UNDEALT)
        self.card = cards.NO_CARD
        self.up = -1  # the face pointing up the waterfall, -1 off it
        self.top = False
        self.prior = UNDEALT  # the state before a deal under way
        self.prior_card = cards.NO_CARD
        self.fresh_from = _NEVER
        self.refused_at = _NEVER
        self.travel = Travel(self)
        self.actions = Actions(self)
        self._frame = [0] * 6

    # -- life cycle -------------------------------------------------------------------------
    def setup(self):
        t = self.tile
        self.setup_name()
        now = t.millis()
        saved = store.decode(t.load_state())
        if saved is None:
            return
        state, card, up, top, above, pawns, prior, record, seqs, handing = saved
        self.travel.seqs = seqs
        if state != UNDEALT and not cards.is_card(card):
            return
        self.card, self.top = card, top
        self.travel.restore(above, pawns, seqs, handing, now)
        self.up = -1 if up is None else up
        self.deal.restore(record, now)
        self.prior = prior
        self.prior_card = card
        self.state = state
        self.since = now
        self.log("state", now, f"restored -> {self.describe()}")

    def loop(self):
        t = self.tile
        now = self.start_pass()
        self._buttons(now)
        if self.state == CARD or self.state == REVEALED:
            self._join(now)
        elif self.state == UNCERTAIN and not self.deal.active():
            self.prior, self.prior_card = UNDEALT, cards.NO_CARD
            self.deal_aborted(now)
        if self.state == WATERFALL:
            self.travel.poll(now)
        self.courier.poll()
        if self.state == WATERFALL:
            orientation.send_values(t, self.up, self.travel.shown() >= 0)
        else:
            t.set_value_sent_on_all_faces(0)
        frame = self.picture(now)
        for f in range(6):
            t.set_color_on_face(frame[f], f)

    def inspect(self):
        now = self.tile.millis()
        water = self.state == WATERFALL
        tr = self.travel
        pawns = [PLAYERS[p] for p in tr.pawns]
        handing = []
        above = []
        for p in range(4):
            if tr.handing[p] >= 0:
                handing.append(PLAYERS[p])
            if self.top and tr.above >> p & 1:
                above.append(PLAYERS[p])
        return {
            "state": self.state,
            "card": cards.name(self.card) or None,
            "up": self.up if water else None,
            "top": self.top,
            "pawns": pawns + handing,  # a pawn handed on is here until the next tile took it
            "above": above,
            "open": water and self.actions.is_open(now),
            "spots": self._open_faces() if water else 0,
            "show": self.showing(now),
            "deal": self.deal_view(),
        }

    # -- state ------------------------------------------------------------------------------
    def describe(self):
        return f"{self.state} card={cards.name(self.card) or '-'} up={self.up}"

    def save(self, now=0):
        """Keep the tile's state across a reset (`store`); called at every change of it."""
        record = self.deal.record()
        up = None if self.up < 0 else self.up
        tr = self.travel
        state, card, prior = self.state, self.card, UNDEALT
        if state == DEALING or state == UNCERTAIN:
            if not record[0]:
                return  # not voted: a reset brings back what was saved before the deal
            state = UNCERTAIN if record[0] == 2 else self.prior
            card, prior = self.prior_card, self.prior
        blob = store.encode(
            state, card, up, self.top, tr.above, tr.pawns, prior, record, tr.seqs, tr.handing
        )
        self.tile.save_state(blob)

    # -- the deal's hooks (runtime.deal) ----------------------------------------------------
    def deal_deck(self, size):
        return self.deal_from(cards.deck(), size)

    def keep_prior(self):
        self.prior, self.prior_card = self.state, self.card

    def dealt(self, card, now):
        self.card = card
        self.up = -1
        self.top = False
        self.travel.clear()
        self.actions.clear()
        self.fresh_from = now + _FRESH_MS
        self.enter(CARD, now)

    def deal_aborted(self, now):
        if self.state != DEALING and self.state != UNCERTAIN:
            return
        self.card = self.prior_card
        self.enter(self.prior, now)

    # -- gestures ---------------------------------------------------------------------------
    def _buttons(self, now):
        if self.hold(now) == DONE:
            return
        clicks = self.clicks()
        s = self.state
        if s == CARD or s == REVEALED:
            if clicks == 2:
                self.enter(REVEALED if s == CARD else CARD, now)
            elif clicks == 3 and self.unheard(now) >= LONE_MS:
                if cards.action_of(self.card) == cards.ADD:
                    self.up = 0
                    self.top = True
                    self.travel.clear()
                    self.enter(WATERFALL, now)
                else:
                    self.refuse(now, "not an ADD: it cannot start the waterfall")
        elif s == WATERFALL and 1 <= clicks <= 4:
            self.travel.click(clicks - 1, now)

    # -- joining the waterfall --------------------------------------------------------------
    def _join(self, now):
        if now < self.fresh_from:
            return
        up = orientation.up_below(self.tile)
        if up >= 0:
            self.up = up
            self.top = False
            self.travel.clear()
            self.enter(WATERFALL, now)

    def _open_faces(self):
        return orientation.open_faces(self.tile, self.up, self.deal.last_seen)

    # -- datagrams --------------------------------------------------------------------------
    def on_datagram(self, f, data, now):
        if self.state == WATERFALL and data:
            if data[0] == actions.OPEN:
                self.actions.receive(f, data, now)
            else:
                self.travel.receive(f, data, now)

    # -- the picture ------------------------------------------------------------------------
    def showing(self, now):
        """The name of what the tile shows now (inspect's "show")."""
        if self.failed:
            return "deal failed"
        if now - self.refused_at < _REFUSED_MS:
            return "refused"
        s = self.state
        if s != WATERFALL:
            return s
        if self.actions.flashing(now):
            return "action"
        if self.travel.shown() >= 0 and display.pawn_shown(now):
            return "pawn"
        return "waterfall"

    def picture(self, now):
        show = self.showing(now)
        out = self._frame
        phase = dealt.deal_picture(show, now, self.since, out)
        if phase is not None:
            return phase
        if show == CARD:
            return display.back(out)
        if show == "action":
            c = display.ACTION_COLORS[cards.action_of(self.card)]
            return dealt.flash(c, now, out)
        if show == "pawn":
            return display.solid(display.PLAYER_COLORS[self.travel.shown()], out)
        up = self.up if show == WATERFALL else 0
        display.card(self.card, up, out)
        if show == WATERFALL and self.actions.is_open(now):
            display.spots(up, self._open_faces(), now, out)
        return out

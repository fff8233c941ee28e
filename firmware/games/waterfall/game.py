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

Orientation: a waterfall tile sends on each face its waterfall flag and that face's direction
relative to up (0 up, 1 up-right, 2 down-right, 3 down, 4 down-left, 5 up-left). A dealt tile
that hears a down-left or down-right direction on a face joins the waterfall right there and
works out its own up face from it: whatever its rotation, its face f touching a direction d
points in direction d + 3, so up is face f - (d + 3). So a tile attached below a waterfall
tile joins it, and a cluster laid under the top finds its orientation tile by tile.

Face value of a waterfall tile: 32 | 8 if it holds a pawn | the face's relative direction.
Every other tile sends 0.

The pawn travels in datagrams (the courier gets them through a lossy link):
- PULL (player; clicked tile -> the tiles up-left and up-right of it): send
  me that player's pawn. The tile holding it refuses (REFUSE: the clicked tile flashes red) if
  the clicked tile holds another pawn while its own other way down is free (empty, or a tile
  holding no pawn); else it gives the pawn (PAWN, player) and forgets it. A tile not holding
  that pawn ignores the PULL.
- Every pawn carries a move number, one more at every move, and each tile remembers the last
  number it saw of each pawn (`seqs`): the courier may deliver a message twice (it sends it
  again when a face blinks out in flight), and a PAWN or RETURN that is not newer is stale.
- PAWN (player, number): the pawn enters this tile, which runs its action: it flashes the action's
  colour; an ADD also opens the waterfall (OPEN, flooded to every waterfall tile): for
  OPEN_MS each tile blinks white on its down faces that have no tile, where a hand tile may
  attach.
- RETURN (player): a pawn that fell out goes up, tile to tile, to the top, which keeps it
  above the waterfall.

Log lines: WF state tile=<hex> t=<ms> <old> -> <new> card=<card> up=<face>
           WF pawn tile=<hex> t=<ms> <A-D> enters|leaves|falls out|returns [action=<ACTION>]
           WF refused tile=<hex> t=<ms> <why>
           WF deal tile=<hex> t=<ms> start|dealt size=<n>|failed reason=<text>
"""

from runtime import colors
from runtime.courier import Courier
from runtime.deal import PHASES, Deal, is_deal_message

from games.waterfall import cards, display, store

try:
    from micropython import const
except ImportError:  # CPython: const() marks MicroPython's compile-time constants, plain ints here

    def const(value):  # type: ignore[misc]  # stubs type MicroPython's generic const()
        return value


UNDEALT = store.UNDEALT
DEALING = store.DEALING
UNCERTAIN = store.UNCERTAIN
CARD = store.CARD
REVEALED = store.REVEALED
WATERFALL = store.WATERFALL
PLAYERS = "ABCD"

_PULL = const(0x60)  # datagram kinds (the deal's are 0x41-0x49)
_PAWN = const(0x61)
_REFUSE = const(0x62)
_RETURN = const(0x63)
_OPEN = const(0x64)
_IN_WATERFALL = const(32)
_HAS_PAWN = const(8)
HOLD_DEAL_MS = const(6000)
COUNT_AFTER_MS = const(1000)
OPEN_MS = const(10000)  # an ADD shows the attach spots this long
ACTION_MS = const(1200)  # a tile a pawn entered flashes its action this long
REFUSED_MS = const(600)
_FRESH_MS = const(250)  # after a deal, face values count again (> a face's 200 ms expiry)
_LONE_MS = const(600)
_HEARD_MS = const(1500)
# Floods of two ADDs can cross on a slow link: a tile that kept only the last id would pass
# each back and forth for ever, so it keeps the last few.
_OPENS_KEPT = const(6)
_NEVER = const(-1000000000)


class Waterfall:
    def __init__(self, tile):
        self.tile = tile
        self.state = UNDEALT
        self.card = cards.NO_CARD
        self.up = -1  # the face pointing up the waterfall, -1 off it
        self.top = False
        self.above = 15  # the top tile: a bit per player whose pawn waits above
        self.pawns: list = []  # players on this tile, oldest first
        self.seqs = [0] * 4  # each pawn's move number last seen here (see PAWN)
        self.handed_at = [_NEVER] * 6  # when this tile last handed a pawn down each face
        self.prior = UNDEALT  # the state before a deal under way
        self.prior_card = cards.NO_CARD
        self.since = 0
        self.failed = False
        self.fresh_from = _NEVER
        self.entered_at = _NEVER
        self.refused_at = _NEVER
        self.open_until = _NEVER
        self.opened = [0] * _OPENS_KEPT  # the last ADDs' flood ids (passed on once each)
        self.opened_at = 0  # where the next id goes in `opened`
        self.held_from = None
        self.name = ""
        self.courier = Courier(tile)
        self.deal = Deal(tile, self.courier, self)
        self._frame = [0] * 6

    # -- life cycle -------------------------------------------------------------------------
    def setup(self):
        t = self.tile
        for b in t.serial_number():
            self.name += f"{b:02x}"
        now = t.millis()
        saved = store.decode(t.load_state())
        if saved is None:
            return
        state, card, up, top, above, pawns, prior, record, seqs = saved
        self.seqs = seqs
        if state != UNDEALT and not cards.is_card(card):
            return
        self.card, self.top, self.above, self.pawns = card, top, above, pawns
        self.up = -1 if up is None else up
        self.deal.restore(record, now)
        self.prior = prior
        self.prior_card = card
        self.state = state
        self.since = now
        self._log("state", now, f"restored -> {self._describe()}")

    def loop(self):
        t = self.tile
        now = t.millis()
        self._receive(now)
        self.deal.poll(now)
        self._buttons(now)
        if self.state == CARD or self.state == REVEALED:
            self._join(now)
        elif self.state == UNCERTAIN and not self.deal.active():
            self.prior, self.prior_card = UNDEALT, cards.NO_CARD
            self.deal_aborted(now)
        self.courier.poll()
        if self.state == WATERFALL:
            flag = _IN_WATERFALL | (_HAS_PAWN if self.pawns else 0)
            for f in range(6):
                t.set_value_sent_on_face(flag | (f - self.up) % 6, f)
        else:
            t.set_value_sent_on_all_faces(0)
        frame = self.picture(now)
        for f in range(6):
            t.set_color_on_face(frame[f], f)

    def inspect(self):
        d = self.deal
        now = self.tile.millis()
        return {
            "state": self.state,
            "card": cards.name(self.card) or None,
            "up": self.up if self.state == WATERFALL else None,
            "top": self.top,
            "pawns": [PLAYERS[p] for p in self.pawns],
            "above": [PLAYERS[p] for p in range(4) if self.above >> p & 1] if self.top else [],
            "open": self.state == WATERFALL and now < self.open_until,
            "spots": self._open_faces() if self.state == WATERFALL else 0,
            "show": self.showing(now),
            "deal": {
                "id": d.shown,
                "phase": PHASES[d.phase],
                "root": d.root,
                "size": d.size,
                "result": d.result,
            },
        }

    # -- state ------------------------------------------------------------------------------
    def _describe(self):
        return f"{self.state} card={cards.name(self.card) or '-'} up={self.up}"

    def _enter(self, state, now):
        old = self.state
        self.state = state
        self.since = now
        self._log("state", now, f"{old} -> {self._describe()}")
        self._save()

    def _save(self, now=0):
        record = self.deal.record()
        up = None if self.up < 0 else self.up
        if self.state == DEALING or self.state == UNCERTAIN:
            if not record[0]:
                return  # not voted: a reset brings back what was saved before the deal
            state = UNCERTAIN if record[0] == 2 else self.prior
            blob = store.encode(
                state,
                self.prior_card,
                up,
                self.top,
                self.above,
                self.pawns,
                self.prior,
                record,
                self.seqs,
            )
        else:
            blob = store.encode(
                self.state,
                self.card,
                up,
                self.top,
                self.above,
                self.pawns,
                UNDEALT,
                record,
                self.seqs,
            )
        self.tile.save_state(blob)

    def _log(self, event, now, details):
        self.tile.log(f"WF {event} tile={self.name} t={now} {details}")

    # -- the deal's hooks (runtime.deal) ----------------------------------------------------
    def deal_deck(self, size):
        if not 2 <= size <= cards.DECK_SIZE:
            return f"cluster of {size} tiles (2 to {cards.DECK_SIZE})"
        deck = cards.shuffle(cards.deck(), self.tile.random)
        return deck[:size]

    def deal_dealing(self, card, now):
        if self.state != DEALING:
            self.prior, self.prior_card = self.state, self.card
        self.failed = False
        if self.deal.root:
            self._log("deal", now, f"start id={self.deal.id}")
        self._enter(DEALING, now)

    deal_voted = _save

    def deal_committed(self, card, now):
        if self.deal.root:
            self._log("deal", now, f"dealt size={self.deal.size} id={self.deal.id}")
        self.card = card
        self.up = -1
        self.top = False
        self.above = 15
        self.pawns = []
        self.open_until = self.entered_at = _NEVER
        self.fresh_from = now + _FRESH_MS
        self._enter(CARD, now)

    def deal_aborted(self, now):
        if self.state != DEALING and self.state != UNCERTAIN:
            return
        self.card = self.prior_card
        self._enter(self.prior, now)

    def deal_uncertain(self, now):
        self._enter(UNCERTAIN, now)

    def deal_failed(self, reason, now):
        self.failed = True
        self._log("deal", now, f"failed id={self.deal.id} reason={reason}")
        self._save()

    # -- gestures ---------------------------------------------------------------------------
    def _buttons(self, now):
        t = self.tile
        held = self.held_from
        if not t.button_down():
            if held is not None and held >= 0:
                self.deal.cancel(now)
            held = None
        elif held is None:
            held = now
        holding = now - held if held is not None and held >= 0 else -1
        if t.button_pressed():
            self.failed = False
        deal = t.button_long_long_pressed()
        clicks = 0
        if t.button_single_clicked():
            clicks = 1
        if t.button_double_clicked():
            clicks = 2
        if t.button_multi_clicked():
            clicks = t.button_click_count()
        if deal or holding >= HOLD_DEAL_MS:
            held = -1
            self.held_from = held
            self.deal.start(now)
            return
        self.held_from = held
        if holding >= COUNT_AFTER_MS:
            self.deal.count(now)
        s = self.state
        if s == CARD or s == REVEALED:
            if clicks == 2:
                self._enter(REVEALED if s == CARD else CARD, now)
            elif clicks == 3 and now - max(self.deal.last_seen) >= _LONE_MS:
                if cards.action_of(self.card) == cards.ADD:
                    self.up = 0
                    self.top = True
                    self.above = 15
                    self.pawns = []
                    self._enter(WATERFALL, now)
                else:
                    self._refuse(now, "not an ADD: it cannot start the waterfall")
        elif s == WATERFALL and 1 <= clicks <= 4:
            player = clicks - 1
            if player in self.pawns:
                self._fall_out(player, now)
            elif self.top and self.above >> player & 1:
                self.above &= ~(1 << player)
                self._arrive(player, (self.seqs[player] + 1) & 255, now)
            else:
                self._pull(player, now)

    def _refuse(self, now, why):
        self.refused_at = now
        self._log("refused", now, why)

    def _neighbour(self, d):
        """The value of the waterfall tile on relative face d, or 0 (none there). A neighbour
        counts as there until HEARD_MS unheard: a lossy link blinks out for a moment, and a
        click must not find the pawn above it gone."""
        t = self.tile
        f = (self.up + d) % 6
        if t.millis() - self.deal.last_seen[f] >= _HEARD_MS:
            return 0
        v = t.get_last_value_received_on_face(f)
        return v if v & _IN_WATERFALL else 0

    def _pull(self, player, now):
        # Ask both tiles above (up-left, up-right): the one holding that pawn answers. Not only
        # those whose value says "pawn": on a lossy link that news can lag the pawn by a second.
        asked = False
        for d in (5, 1):
            if self._neighbour(d):
                self.courier.send((self.up + d) % 6, bytes((_PULL, player)))
                asked = True
        if not asked:
            self._refuse(now, "no tile right above")

    def _fall_out(self, player, now):
        if self._neighbour(2) and self._neighbour(4):
            self._refuse(now, "no empty place below")
            return
        self.pawns.remove(player)
        self._log("pawn", now, f"{PLAYERS[player]} falls out")
        self._go_above(player, (self.seqs[player] + 1) & 255, now)
        self._save()

    def _newer(self, player, seq):
        """Whether move number `seq` of a pawn is newer than the last this tile saw (mod 256)."""
        return 0 < (seq - self.seqs[player]) & 255 < 128

    def _go_above(self, player, seq, now):
        """Send a pawn that fell out up to the top (which keeps it above the waterfall)."""
        if self.top:
            if self._newer(player, seq):
                self.seqs[player] = seq
                self.above |= 1 << player
                self._log("pawn", now, f"{PLAYERS[player]} returns")
            return
        for d in (5, 1):
            if self._neighbour(d):
                self.courier.send((self.up + d) % 6, bytes((_RETURN, player, seq)))
                return

    def _arrive(self, player, seq, now):
        self.seqs[player] = seq
        self.pawns.append(player)
        self.entered_at = now
        action = cards.action_of(self.card)
        self._log("pawn", now, f"{PLAYERS[player]} enters action={cards.ACTIONS[action]}")
        if action == cards.ADD:
            new_id = 0
            while new_id == 0 or new_id in self.opened:
                new_id = self.tile.random(254) + 1
            self._open(new_id, now, -1)
        self._save()

    def _open(self, open_id, now, came_from):
        """An ADD: show the attach spots, and tell every waterfall neighbour to."""
        self.opened[self.opened_at] = open_id
        self.opened_at = (self.opened_at + 1) % _OPENS_KEPT
        self.open_until = now + OPEN_MS
        for d in range(6):
            f = (self.up + d) % 6
            if f != came_from and self._neighbour(d):
                self.courier.send(f, bytes((_OPEN, open_id)))

    def _open_faces(self):
        """Bits of the relative down faces (2, 4) with no tile: where a tile may attach."""
        out = 0
        for d in (2, 4):
            if not self._neighbour(d):
                out |= 1 << d
        return out

    # -- joining the waterfall --------------------------------------------------------------
    def _join(self, now):
        if now < self.fresh_from:
            return
        t = self.tile
        for f in range(6):
            if t.is_value_received_on_face_expired(f):
                continue
            v = t.get_last_value_received_on_face(f)
            d = v & 7
            if v & _IN_WATERFALL and (d == 2 or d == 4):
                self.up = (f - d - 3) % 6
                self.top = False
                self.pawns = []
                self._enter(WATERFALL, now)
                return

    # -- datagrams --------------------------------------------------------------------------
    def _receive(self, now):
        t = self.tile
        for f in range(6):
            if not t.is_datagram_ready_on_face(f):
                continue
            data = t.get_datagram_on_face(f)
            t.mark_datagram_read_on_face(f)
            if is_deal_message(data):
                self.deal.receive(f, data, now)
            elif self.state == WATERFALL and data:
                self._pawn_message(f, data, now)

    def _pawn_message(self, f, data, now):
        kind = data[0]
        d = (f - self.up) % 6
        if kind == _PULL and len(data) == 2 and (d == 2 or d == 4):
            player = data[1]
            if player not in self.pawns:
                return  # the other tile above holds it
            other = self._neighbour(6 - d)  # the other way down
            # a pawn this tile just handed that way holds it, before its value can say so
            handed = now - self.handed_at[(self.up + 6 - d) % 6] < _HEARD_MS
            if self._neighbour(d) & _HAS_PAWN and not (other & _HAS_PAWN or other and handed):
                self.courier.send(f, bytes((_REFUSE,)))
                return
            self.pawns.remove(player)
            self._log("pawn", now, f"{PLAYERS[player]} leaves")
            self.courier.send(f, bytes((_PAWN, player, (self.seqs[player] + 1) & 255)))
            self.handed_at[f] = now
            self._save()
        elif len(data) == 3 and kind == _PAWN and data[1] < 4:
            if data[1] not in self.pawns and self._newer(data[1], data[2]):
                self._arrive(data[1], data[2], now)
        elif kind == _REFUSE:
            self._refuse(now, "blocked: that tile holds another pawn")
        elif len(data) == 3 and kind == _RETURN and data[1] < 4:
            self._go_above(data[1], data[2], now)
            if self.top:
                self._save()
        elif len(data) == 2 and kind == _OPEN and data[1] and data[1] not in self.opened:
            self._open(data[1], now, f)

    # -- the picture ------------------------------------------------------------------------
    def showing(self, now):
        """The name of what the tile shows now (inspect's "show")."""
        if self.failed:
            return "deal failed"
        if now - self.refused_at < REFUSED_MS:
            return "refused"
        s = self.state
        if s != WATERFALL:
            return s
        if now - self.entered_at < ACTION_MS:
            return "action"
        if self.pawns and display.pawn_shown(now):
            return "pawn"
        return "waterfall"

    def picture(self, now):
        show = self.showing(now)
        out = self._frame
        if show == UNDEALT:
            return display.undealt(now, out)
        if show == DEALING:
            return display.dealing(now - self.since, out)
        if show == UNCERTAIN:
            return display.uncertain(now, out)
        if show == CARD:
            return display.back(out)
        if show == "deal failed":
            return display.flash(colors.ORANGE, now, out)
        if show == "refused":
            return display.flash(colors.RED, now, out)
        if show == "action":
            c = display.ACTION_COLORS[cards.action_of(self.card)]
            return display.flash(c, now, out)
        if show == "pawn":
            return display.solid(display.PLAYER_COLORS[self.pawns[-1]], out)
        up = self.up if show == WATERFALL else 0
        display.card(self.card, up, out)
        if show == WATERFALL and now < self.open_until:
            display.spots(up, self._open_faces(), now, out)
        return out

"""The pawns on a waterfall tile, and how they travel between tiles (in the courier's datagrams).

- PULL (player; clicked tile -> the tiles up-left and up-right of it): send me that player's
  pawn. Both are asked, not only the one whose value says "pawn": on a lossy link that news can
  lag the pawn by a second. The tile holding it refuses (REFUSE: the clicked tile flashes red)
  if the clicked tile holds another pawn while its own other way down is free (empty, or a
  tile holding no pawn); else it hands the pawn over (PAWN, player, number).
- RETURN (player, number): a pawn that fell out goes up, tile to tile, to the top, which keeps
  it above the waterfall.
- A hand-over (PAWN, or one hop of a RETURN) survives a reset of either tile: the sender keeps
  the pawn, saved and shown, in `handing` until the receiver answers TAKEN (player, number),
  which it sends only once it has saved the pawn itself. Until then the sender sends the pawn
  again every RESEND_MS, and after a reset too. A pawn whose number the receiver has seen is a
  repeat: the receiver does not take it again, but answers TAKEN again.
- Every pawn carries a move number, one more at every move, and each tile remembers the newest
  number it saw of each pawn (`seqs`), 16 bits so that a tile the pawn has not visited for a
  long game still tells a new visit from a repeat. The courier may deliver a message twice (it
  sends it again when a face blinks out in flight); the hand-over sends repeats on purpose.
"""

from games.waterfall import cards, orientation

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


PLAYERS = "ABCD"
PULL = const(0x60)  # datagram kinds (the deal's are 0x41-0x49, OPEN is 0x64)
PAWN = const(0x61)
REFUSE = const(0x62)
RETURN = const(0x63)
TAKEN = const(0x65)
NOT_HANDING = const(-1)  # handing[player]: the pawn is not being handed over
UP_UNCHOSEN = const(6)  # handing[player]: going up, but no tile above heard yet
RESEND_MS = const(1000)  # a pawn not TAKEN by then is sent again
_NEVER = const(-1000000000)


class Travel:
    def __init__(self, game):
        self.game = game
        self.above = 15  # the top tile: a bit per player whose pawn waits above
        self.pawns: list = []  # players resting on this tile, oldest first
        self.handing = [NOT_HANDING] * 4  # per player, the face its pawn is being handed on
        self.seqs = [0] * 4  # each pawn's newest move number seen here
        self.handed_at = [_NEVER] * 6  # when this tile last handed a pawn down each face
        self.resend_at = _NEVER

    def clear(self):
        """No pawn here, all of them above (a new deal, a new top, a tile joining)."""
        self.above = 15
        self.pawns = []
        for p in range(4):
            self.handing[p] = NOT_HANDING

    def restore(self, above, pawns, seqs, handing, now):
        """After a reset: a hand-over under way is sent again at once (`poll`)."""
        self.above, self.pawns, self.seqs, self.handing = above, pawns, seqs, handing
        self.resend_at = now

    def holds(self, player):
        """Whether this tile has that player's pawn: resting, being handed on, or above it."""
        return (
            player in self.pawns
            or self.handing[player] != NOT_HANDING
            or self.game.top
            and self.above >> player & 1
        )

    def shown(self):
        """The player whose pawn the tile shows (the newest resting, else one handed on), or -1."""
        if self.pawns:
            return self.pawns[-1]
        for p in range(4):
            if self.handing[p] != NOT_HANDING:
                return p
        return -1

    def _neighbour(self, d):
        g = self.game
        return orientation.neighbour(g.tile, g.up, g.deal.last_seen, d)

    def _face_up(self):
        """A face to a tile above (up-left first), or UP_UNCHOSEN while neither is heard."""
        for d in (5, 1):
            if self._neighbour(d):
                return (self.game.up + d) % 6
        return UP_UNCHOSEN

    # -- a player's clicks ------------------------------------------------------------------
    def click(self, player, now):
        """The player clicked this waterfall tile: fall out, enter from above, or step here."""
        g = self.game
        if player in self.pawns:
            self._fall_out(player, now)
        elif self.handing[player] != NOT_HANDING:
            g.refuse(now, "that pawn is on its way to another tile")
        elif g.top and self.above >> player & 1:
            self.above &= ~(1 << player)
            self._arrive(player, (self.seqs[player] + 1) & 0xFFFF, now)
        else:
            self._pull(player, now)

    def _pull(self, player, now):
        asked = False
        g = self.game
        for d in (5, 1):
            if self._neighbour(d):
                g.courier.send((g.up + d) % 6, bytes((PULL, player)))
                asked = True
        if not asked:
            g.refuse(now, "no tile right above")

    def _fall_out(self, player, now):
        g = self.game
        if self._neighbour(2) and self._neighbour(4):
            g.refuse(now, "no empty place below")
            return
        face = NOT_HANDING if g.top else self._face_up()
        if face == UP_UNCHOSEN:
            g.refuse(now, "no tile above to pass the pawn up")
            return
        self.pawns.remove(player)
        self.seqs[player] = (self.seqs[player] + 1) & 0xFFFF
        g.log("pawn", now, f"{PLAYERS[player]} falls out")
        if g.top:
            self.above |= 1 << player
            g.log("pawn", now, f"{PLAYERS[player]} returns")
            g.save()
        else:
            self._hand(player, face, now)

    def _arrive(self, player, seq, now):
        g = self.game
        self.seqs[player] = seq
        self.pawns.append(player)
        action = g.actions.run(now)
        g.log("pawn", now, f"{PLAYERS[player]} enters action={cards.ACTIONS[action]}")
        g.save()

    # -- hand-overs -------------------------------------------------------------------------
    def _hand(self, player, face, now):
        """Hand the pawn on (its number already counted): saved as handed first, so a reset
        from here on sends it again."""
        self.handing[player] = face
        self.resend_at = now + RESEND_MS
        self.game.save()
        self._send(player)

    def _send(self, player):
        g = self.game
        face = self.handing[player]
        if face == UP_UNCHOSEN:
            face = self._face_up()
            if face == UP_UNCHOSEN:
                return
            self.handing[player] = face  # it stays that face: no second tile may take it
            g.save()
        down = (face - g.up) % 6
        kind = PAWN if down == 2 or down == 4 else RETURN
        seq = self.seqs[player]
        g.courier.send(face, bytes((kind, player, seq >> 8, seq & 255)))

    def poll(self, now):
        """Send again every pawn handed on but not TAKEN yet (none: nothing to do)."""
        if now < self.resend_at:
            return
        self.resend_at = now + RESEND_MS
        for p in range(4):
            f = self.handing[p]
            if f != NOT_HANDING and (f == UP_UNCHOSEN or self.game.courier.idle(f)):
                self._send(p)

    def _newer(self, player, seq):
        """Whether move number `seq` of a pawn is newer than the newest this tile saw."""
        return 0 < (seq - self.seqs[player]) & 0xFFFF < 0x8000

    def _take(self, f, kind, player, seq, now):
        """A PAWN or RETURN on face f: take it unless it is a repeat; TAKEN once it is saved."""
        g = self.game
        if self._newer(player, seq):
            # a newer move of a pawn this tile hands on proves that hand-over was taken
            self.handing[player] = NOT_HANDING
            if not self.holds(player):
                self.seqs[player] = seq
                if kind == PAWN:
                    self._arrive(player, seq, now)
                elif g.top:
                    self.above |= 1 << player
                    g.log("pawn", now, f"{PLAYERS[player]} returns")
                    g.save()
                else:
                    self._hand(player, self._face_up(), now)
        g.courier.send(f, bytes((TAKEN, player, seq >> 8, seq & 255)))

    # -- datagrams --------------------------------------------------------------------------
    def receive(self, f, data, now):
        """A pawn's datagram on face f of this waterfall tile."""
        g = self.game
        kind = data[0]
        d = (f - g.up) % 6
        if kind == PULL and len(data) == 2 and (d == 2 or d == 4) and data[1] < 4:
            self._give(f, d, data[1], now)
        elif len(data) == 4 and (kind == PAWN or kind == RETURN) and data[1] < 4:
            self._take(f, kind, data[1], data[2] << 8 | data[3], now)
        elif len(data) == 4 and kind == TAKEN and data[1] < 4:
            player = data[1]
            if self.handing[player] != NOT_HANDING and data[2] << 8 | data[3] == self.seqs[player]:
                self.handing[player] = NOT_HANDING
                g.save()
        elif kind == REFUSE:
            g.refuse(now, "blocked: that tile holds another pawn")

    def _give(self, f, d, player, now):
        """A PULL from the tile below on face f (relative direction d)."""
        g = self.game
        if self.handing[player] == f:
            self._send(player)  # clicked again before the pawn got there
            return
        if player not in self.pawns:
            return  # the other tile above holds it
        other = self._neighbour(6 - d)  # the other way down
        # a pawn this tile just handed that way holds it, before its value can say so
        handed = now - self.handed_at[(g.up + 6 - d) % 6] < orientation.HEARD_MS
        has = orientation.HAS_PAWN
        if self._neighbour(d) & has and not (other & has or other and handed):
            g.courier.send(f, bytes((REFUSE,)))
            return
        self.pawns.remove(player)
        self.seqs[player] = (self.seqs[player] + 1) & 0xFFFF
        g.log("pawn", now, f"{PLAYERS[player]} leaves")
        self.handed_at[f] = now
        self._hand(player, f, now)

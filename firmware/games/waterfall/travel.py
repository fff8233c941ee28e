"""The pawns on a waterfall tile, and how they travel between tiles (in the courier's datagrams).

- PULL (player; clicked tile -> the tiles up-left and up-right of it): send me that player's
  pawn. Both are asked, not only the one whose value says "pawn": on a lossy link that news can
  lag the pawn by a second. The tile holding it refuses (REFUSE: the clicked tile flashes red)
  if the clicked tile holds another pawn while its own other way down is free (empty, or a
  tile holding no pawn); else it gives the pawn (PAWN, player, number) and forgets it.
- RETURN (player, number): a pawn that fell out goes up, tile to tile, to the top, which keeps
  it above the waterfall.
- Every pawn carries a move number, one more at every move, and each tile remembers the last
  number it saw of each pawn (`seqs`): the courier may deliver a message twice (it sends it
  again when a face blinks out in flight), and a PAWN or RETURN that is not newer is stale.
"""

from games.waterfall import cards, orientation

try:
    from micropython import const
except ImportError:  # CPython: const() marks MicroPython's compile-time constants, plain ints here

    def const(value):  # type: ignore[misc]  # stubs type MicroPython's generic const()
        return value


PLAYERS = "ABCD"
PULL = const(0x60)  # datagram kinds (the deal's are 0x41-0x49, OPEN is 0x64)
PAWN = const(0x61)
REFUSE = const(0x62)
RETURN = const(0x63)
_NEVER = const(-1000000000)


class Travel:
    def __init__(self, game):
        self.game = game
        self.above = 15  # the top tile: a bit per player whose pawn waits above
        self.pawns: list = []  # players on this tile, oldest first
        self.seqs = [0] * 4  # each pawn's move number last seen here (see PAWN)
        self.handed_at = [_NEVER] * 6  # when this tile last handed a pawn down each face

    def clear(self):
        """No pawn here, all of them above (a new deal, a new top, a tile joining)."""
        self.above = 15
        self.pawns = []

    def restore(self, above, pawns, seqs):
        self.above, self.pawns, self.seqs = above, pawns, seqs

    def _neighbour(self, d):
        g = self.game
        return orientation.neighbour(g.tile, g.up, g.deal.last_seen, d)

    # -- a player's clicks ------------------------------------------------------------------
    def click(self, player, now):
        """The player clicked this waterfall tile: fall out, enter from above, or step here."""
        if player in self.pawns:
            self._fall_out(player, now)
        elif self.game.top and self.above >> player & 1:
            self.above &= ~(1 << player)
            self._arrive(player, (self.seqs[player] + 1) & 255, now)
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
        self.pawns.remove(player)
        g.log("pawn", now, f"{PLAYERS[player]} falls out")
        self._go_above(player, (self.seqs[player] + 1) & 255, now)
        g.save()

    def _newer(self, player, seq):
        """Whether move number `seq` of a pawn is newer than the last this tile saw (mod 256)."""
        return 0 < (seq - self.seqs[player]) & 255 < 128

    def _go_above(self, player, seq, now):
        """Send a pawn that fell out up to the top (which keeps it above the waterfall)."""
        g = self.game
        if g.top:
            if self._newer(player, seq):
                self.seqs[player] = seq
                self.above |= 1 << player
                g.log("pawn", now, f"{PLAYERS[player]} returns")
            return
        for d in (5, 1):
            if self._neighbour(d):
                g.courier.send((g.up + d) % 6, bytes((RETURN, player, seq)))
                return

    def _arrive(self, player, seq, now):
        g = self.game
        self.seqs[player] = seq
        self.pawns.append(player)
        action = g.actions.run(now)
        g.log("pawn", now, f"{PLAYERS[player]} enters action={cards.ACTIONS[action]}")
        g.save()

    # -- datagrams --------------------------------------------------------------------------
    def receive(self, f, data, now):
        """A pawn's datagram on face f of this waterfall tile."""
        g = self.game
        kind = data[0]
        d = (f - g.up) % 6
        if kind == PULL and len(data) == 2 and (d == 2 or d == 4):
            player = data[1]
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
            g.log("pawn", now, f"{PLAYERS[player]} leaves")
            g.courier.send(f, bytes((PAWN, player, (self.seqs[player] + 1) & 255)))
            self.handed_at[f] = now
            g.save()
        elif len(data) == 3 and kind == PAWN and data[1] < 4:
            if data[1] not in self.pawns and self._newer(data[1], data[2]):
                self._arrive(data[1], data[2], now)
        elif kind == REFUSE:
            g.refuse(now, "blocked: that tile holds another pawn")
        elif len(data) == 3 and kind == RETURN and data[1] < 4:
            self._go_above(data[1], data[2], now)
            if g.top:
                g.save()

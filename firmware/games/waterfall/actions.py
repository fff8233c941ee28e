"""What a pawn entering a tile runs: the tile flashes its action, and an ADD opens the waterfall.

Only ADD needs the tiles: the others (DRAW, SCORE, STOP) are played off the tiles by people.
An ADD floods OPEN (with a random id) to every waterfall tile, so for OPEN_MS each one blinks
white on its free down faces, where a hand tile may attach.
"""

from games.waterfall import cards, orientation

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


OPEN = const(0x64)  # the flood's datagram kind (the pawn's are 0x60-0x63, the deal's 0x41-0x49)
OPEN_MS = const(10000)  # an ADD shows the attach spots this long
ACTION_MS = const(1200)  # a tile a pawn entered flashes its action this long
# Floods of two ADDs can cross on a slow link: a tile that kept only the last id would pass
# each back and forth for ever, so it keeps the last few.
_OPENS_KEPT = const(6)
_NEVER = const(-1000000000)


class Actions:
    def __init__(self, game):
        self.game = game
        self.entered_at = _NEVER
        self.open_until = _NEVER
        self.opened = [0] * _OPENS_KEPT  # the last ADDs' flood ids (passed on once each)
        self.opened_at = 0  # where the next id goes in `opened`

    def clear(self):
        self.entered_at = self.open_until = _NEVER

    def run(self, now):
        """A pawn entered: flash the action; an ADD opens the waterfall. Returns the action."""
        self.entered_at = now
        action = cards.action_of(self.game.card)
        if action == cards.ADD:
            new_id = 0
            while new_id == 0 or new_id in self.opened:
                new_id = self.game.tile.random(254) + 1
            self._open(new_id, now, -1)
        return action

    def flashing(self, now):
        return now - self.entered_at < ACTION_MS

    def is_open(self, now):
        return now < self.open_until

    def receive(self, f, data, now):
        """An OPEN from a neighbour: pass it on once."""
        if len(data) == 2 and data[1] and data[1] not in self.opened:
            self._open(data[1], now, f)

    def _open(self, open_id, now, came_from):
        """Show the attach spots, and tell every waterfall neighbour to."""
        self.opened[self.opened_at] = open_id
        self.opened_at = (self.opened_at + 1) % _OPENS_KEPT
        self.open_until = now + OPEN_MS
        g = self.game
        for d in range(6):
            f = (g.up + d) % 6
            if f != came_from and orientation.neighbour(g.tile, g.up, g.deal.last_seen, d):
                g.courier.send(f, bytes((OPEN, open_id)))

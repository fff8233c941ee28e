"""What one Gembatan player may know (HLE's `HanabiObservation`): the board, every hand (the
document has players lay their pieces face up, for all to see), the points so far, and how many
gems and tiles are left to draw, but not in what order. A bot only ever gets an Observation."""


class Observation:
    __slots__ = ("_state", "player")

    def __init__(self, state, player):
        self._state = state
        self.player = player

    @property
    def players(self):
        return self._state.players

    @property
    def board(self):
        """A copy of the board."""
        return self._state.board.copy()

    def tiles(self, player=None):
        return list(self._state.hand_tiles[self.player if player is None else player])

    def gems(self, player=None):
        return list(self._state.hand_gems[self.player if player is None else player])

    @property
    def points(self):
        return list(self._state.points)

    @property
    def tray(self):
        return len(self._state.tray)

    @property
    def pile(self):
        return len(self._state.pile)

    @property
    def current(self):
        return self._state.current

    @property
    def phase(self):
        return self._state.phase

    @property
    def laid(self):
        """The cells of the tiles laid this turn."""
        return list(self._state.laid)

    @property
    def new_sockets(self):
        return list(self._state.new_sockets)

    @property
    def over(self):
        return self._state.over

    def legal_moves(self):
        return self._state.legal_moves() if self._state.current == self.player else []

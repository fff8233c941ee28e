"""What one Gembatan player may know (HLE's `HanabiObservation`): the board, every hand (the
document has players lay their pieces face up, for all to see), the points so far, and how many
gems and tiles are left to draw, but not in what order. A bot only ever gets an Observation."""

from simulator.sessions import views


class Observation(views.Observation):
    __slots__ = ()
    players = views.shared("players")
    phase = views.shared("phase")
    points = views.copied("points")
    laid = views.copied("laid", "The cells of the tiles laid this turn.")
    new_sockets = views.copied("new_sockets")
    tray = views.counted("tray", "How many gems lie in the tray (their order is hidden).")
    pile = views.counted("pile", "How many tiles are left to draw.")

    @property
    def board(self):
        """A copy of the board."""
        return self._state.board.copy()

    def tiles(self, player=None):
        return list(self._state.hand_tiles[self.player if player is None else player])

    def gems(self, player=None):
        return list(self._state.hand_gems[self.player if player is None else player])

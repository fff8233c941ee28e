"""Positions for Gembatan tests: a board laid out by hand, then played on with real moves.

A tile is written north, east, south, west, unturned: "BB-G" has blue cutouts north and east,
a plain side south and a green cutout west. A gem is two colours, the first for the west (or
north) half of its socket.
"""

from simulator.games.gembatan.referee import GameState
from simulator.games.gembatan.rules import edge


def position(tiles, gems=(), hand_tiles=(), hand_gems=(), players=2, tray=None):
    """A game whose board holds `tiles` {cell: sides} (unturned) and `gems`
    [(cell, direction, "RB")], with A to move holding `hand_tiles` and `hand_gems`; the other
    players keep their deal. `tray` cuts the tray to that many gems."""
    s = GameState(players=players, seed=0)
    s.board.tiles = {cell: (sides, 0) for cell, sides in tiles.items()}
    s.board.gems = {edge(cell, d): (g[0], g[1]) for cell, d, g in gems}
    s.hand_tiles[0] = list(hand_tiles)
    s.hand_gems[0] = list(hand_gems)
    if tray is not None:
        s.tray = s.tray[:tray]
    return s

"""Waterfall, a gem game on a pyramid of tiles: `from games.waterfall import Waterfall`.

Modules: `cards` (what a tile is: action, number, gem; the deck), `display` (the pictures),
`store` (the saved blob), `orientation` (which way is up), `travel` (the pawns and their
datagrams), `actions` (what a pawn entering runs), `game` (the tile's state machine and
gestures). The deal is the runtime's (runtime.deal, runtime.courier), as Lost Gems uses it.
"""

from games.waterfall.game import Waterfall

__all__ = ["Waterfall"]

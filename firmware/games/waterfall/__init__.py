"""Waterfall, a gem game on a pyramid of tiles: `from games.waterfall import Waterfall`.

Modules: `cards` (what a tile is: action, number, gem; the deck), `display` (the pictures),
`store` (the saved blob), `game` (the tile's state machine, its gestures and messages). The
deal is the runtime's (runtime.deal, runtime.courier), as Lost Gems uses it.
"""

from games.waterfall.game import Waterfall

__all__ = ["Waterfall"]

"""Gem Match, a two-player gem game with two-sided hex tokens: `from games.gemmatch import
Gemmatch`.

Modules: `tokens` (what a tile is: the two sides of its token; the deck), `groups` (how field
tiles find the groups their gems make, by face values), `display` (the pictures), `store` (the
saved blob), `game` (the tile's states and gestures). The deal is the runtime's
(runtime.deal, runtime.courier), as the other games use it.
"""

from games.gemmatch.game import Gemmatch

__all__ = ["Gemmatch"]

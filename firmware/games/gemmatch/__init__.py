"""Gem Match, a two-player gem game with two-sided hex tokens: `from games.gemmatch import
Gemmatch`.

Modules: `tokens` (what a tile is: the two sides of its token; the deck), `groups` (how field
tiles find the groups their gems make, by face values), `display` (the pictures), `store` (the
saved blob), `game` (the tile's states and gestures). What every dealt game does alike (the
deal's hooks, the hold that deals, datagram routing, log lines) is runtime.dealt's `DealtGame`,
as for the other games.
"""

from games.gemmatch.game import Gemmatch

__all__ = ["Gemmatch"]

"""Gem Match, a two-player gem game with two-sided hex tokens: `from games.gemmatch import tokens`.

Modules: `tokens` (what a tile is: the two sides of its token; the deck).
"""

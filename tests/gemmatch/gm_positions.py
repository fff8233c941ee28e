"""Positions for Gem Match tests: a game whose field and hands are laid out by hand, then played
on with real moves through the referee.

The tokens (games.gemmatch.tokens): T1 RYRYRY / BBRYRY, T2 YPYPYP / GGYPYP, T3 PRPRPR / CCPRPR,
T4 GBGBGB / RRGBGB, T5 BCBCBC / YYBCBC, T6 CGCGCG / PPCGCG, T7 RGRGRG / CCRGRG,
T8 YBYBYB / RRYBYB, T9 PCPCPC / GGPCPC (basic / improved, faces 0-5). A token on (q, r) with
turn T turns its face f to direction (f + T) % 6: 0 north, 1 north-east, ... 5 north-west.
"""

from games.gemmatch import tokens

from simulator.games.gemmatch.field import Placed
from simulator.games.gemmatch.referee import GameState
from simulator.games.gemmatch.rules import BASIC, IMPROVED

SIDE = {"basic": BASIC, "improved": IMPROVED}


def position(field=(), hand_a=(), hand_b=(), pile=None, current=0):
    """A game with `field` [(cell, "T1", side, turn)] and hands [("T1", side)] in place of the
    deal; the other tokens stay in the pile (or only the first `pile` of them), basic side up.
    It is `current`'s turn, after its draw."""
    s = GameState(seed=0)
    free = {}
    for t, kind in enumerate(s.kinds):
        free.setdefault(kind, []).append(t)

    def take(name, side):
        t = free[tokens.parse(name)].pop()
        s.sides[t] = SIDE[side]
        return t

    s.field.cells = {}
    for cell, name, side, turn in field:
        t = take(name, side)
        s.field.put(cell, Placed(t, s.gems_of(t), turn))
    s.hands = [[take(n, side) for n, side in hand_a], [take(n, side) for n, side in hand_b]]
    used = {t for h in s.hands for t in h} | {p.token for p in s.field.cells.values()}
    s.pile = [t for t in range(len(s.kinds)) if t not in used]
    for t in s.pile:
        s.sides[t] = BASIC
    if pile is not None:
        s.pile = s.pile[:pile]
    s.current = s.start = current
    return s

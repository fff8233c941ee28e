"""What a Waterfall tile shows: pure functions of the card, the time and the tile's up face.

Each paints six 15-bit colours, face 0..5, into `out` (the game's own list: a pass allocates
nothing). `up` is the face that points up the waterfall (0 for a tile not in it); relative
face d = (face - up) % 6: 0 up, 1 up-right, 2 down-right, 3 down, 4 down-left, 5 up-left.

The card (docs/waterfall.md#the-leds):
- number: 1, 2 or 3 bright spots in the gem's colour on relative faces 0, 2, 4 (in that
  order); the spots it does not use glow dimly in the gem's colour, so the gem reads at once;
- action: relative faces 1, 3, 5 in the action's colour: ADD white, DRAW cyan, SCORE yellow,
  STOP orange.
"""

from runtime import colors
from runtime.dealt import solid

from games.waterfall import cards

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


GEM_COLORS = (colors.RED, colors.GREEN, colors.BLUE)
ACTION_COLORS = (colors.WHITE, colors.CYAN, colors.YELLOW, colors.ORANGE)
# A red, apart from STOP's orange; no card is red on all six faces, so a red tile is a pawn
PLAYER_COLORS = (colors.RED, colors.MAGENTA, colors.rgb(140, 255, 0), colors.WHITE)
BACK = colors.dim(colors.BLUE, 50)  # a dealt tile face down (in a hand or the draw pile)
SPOT = colors.WHITE  # where a hand tile may attach (blinking)

PAWN_PERIOD_MS = const(900)
PAWN_ON_MS = const(350)  # of each period the tile shows its pawn's colour
_SPOT_MS = const(200)  # half period of the attach spots' blink


def card(kind, up, out):
    gem = GEM_COLORS[cards.gem_of(kind)]
    action = ACTION_COLORS[cards.action_of(kind)]
    dim_gem = colors.dim(gem, 40)
    n = cards.number_of(kind)
    for d in range(6):
        f = (up + d) % 6
        if d & 1:
            out[f] = action
        else:
            out[f] = gem if d // 2 < n else dim_gem
    return out


def back(out):
    return solid(BACK, out)


def pawn_shown(now):
    """Whether, at `now`, a tile holding a pawn shows the pawn rather than its card."""
    return now % PAWN_PERIOD_MS < PAWN_ON_MS


def spots(up, open_faces, now, out):
    """Blink the attach spots (relative down faces listed as bits in `open_faces`) in white."""
    if now // _SPOT_MS % 2 == 0:
        for d in (2, 4):
            if open_faces >> d & 1:
                out[(up + d) % 6] = SPOT
    return out

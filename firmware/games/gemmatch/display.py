"""What a Gem Match tile shows: pure functions of the token, the time and the groups lit.

Each paints six 15-bit colours, face 0..5, into `out` (the game's own list: a pass allocates
nothing). The LED legend is docs/gemmatch.md's:
- a token face up (in a hand): its gems, one a face, bright;
- on the field: its gems a little dimmer, and the gems of a group blinking, the faster the
  bigger the group (2: slow, 3: quick, 4 or more: flashing white);
- taken from a group (clicked, still on the field): white over its gems, blinking (to the hand:
  every other face);
- face down (the pile): dim blue; in a victory heap: dim white;
- the deal: slow white breathing (undealt), a cyan light running round (dealing), a magenta
  pair turning (uncertain), orange flashing (the deal failed), red flashing (refused).
"""

from runtime import colors
from runtime.dealt import solid  # noqa: F401  (the game paints its pile and heap with it)

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


# colour index (games.gemmatch.tokens.GEMS) -> LED colour: ruby, emerald, sapphire, topaz,
# amethyst, aquamarine
GEM_COLORS = (
    colors.OFF,
    colors.RED,
    colors.GREEN,
    colors.BLUE,
    colors.YELLOW,
    colors.MAGENTA,
    colors.CYAN,
)
BACK = colors.dim(colors.BLUE, 50)
HEAP = colors.dim(colors.WHITE, 40)
FIELD_LEVEL = const(150)  # gems on the field, of 255
# half-periods of a lit gem's blink, by tier (1: a group of 2, 2: of 3, 3: 4 or more)
BLINK = (0, 500, 220, 110)


@micropython.native
def gems(side, out, level=255):
    for f in range(6):
        c = GEM_COLORS[side[f]]
        out[f] = c if level >= 255 else colors.dim(c, level)
    return out


@micropython.native
def field(side, tiers, now, out):
    """A field token: its gems, those of a lit group blinking by their tier (`tiers[f]`, 0 for
    a gem in no group)."""
    for f in range(6):
        c = GEM_COLORS[side[f]]
        tier = tiers[f]
        if tier == 0:
            out[f] = colors.dim(c, FIELD_LEVEL)
        elif now // BLINK[tier] % 2 == 0:
            out[f] = c
        else:
            out[f] = colors.WHITE if tier >= 3 else colors.OFF
    return out


@micropython.native
def taken(side, to_hand, now, out):
    """A token taken from a group and not lifted yet."""
    on = now // 300 % 2 == 0
    for f in range(6):
        white = on and (not to_hand or f % 2 == 0)
        out[f] = colors.WHITE if white else GEM_COLORS[side[f]]
    return out

"""What a Lost Gems tile shows: every picture is a pure function of the shard and the time.

Each function returns six 15-bit colours, face 0..5. Keeping them pure lets the game pick one
per pass and lets tests check animations at chosen instants without running a tile. Each takes
an optional `out`, a list of six the picture is painted into (and returned): the game passes its
own, so a pass allocates nothing; without it a new list is made.
"""

try:
    import micropython
except ImportError:  # CPython: plain Python (runtime/native.py)
    from runtime import native as micropython  # type: ignore[no-redef]

from runtime import colors

from games.lostgems import shards

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


GOLD = colors.rgb(255, 190, 0)
COPPER = colors.rgb(200, 90, 30)
FACE_DOWN = colors.dim(colors.GREEN, 60)

BREATHE_MS = const(4000)
_WAVE_MS = const(1200)
_WAVE_STEP_MS = const(150)  # delay of the dealing wave per hop from the held tile
FLASH_MS = const(250)  # half period of the error, orange and gold flashes
SPIN_STEP_MS = const(100)
UNCERTAIN_STEP_MS = const(400)
COUNT_STEP_MS = const(500)  # score count: one more tile lights every step


def shard_color(shard):
    return (colors.RED, colors.YELLOW, colors.BLUE)[shards.colour_of(shard)]


def triangle(now, period):
    """0..255..0 over one period."""
    phase = now % period
    half = period // 2
    if phase < half:
        return phase * 255 // half
    return (period - phase) * 255 // half


@micropython.native
def solid(c, out=None):
    if out is None:
        return [c] * 6
    for f in range(6):
        out[f] = c
    return out


def undealt(now, out=None):
    """Slow white breathing; its trough stays lit (60/255) so a waiting tile never looks off."""
    return solid(colors.dim(colors.WHITE, 60 + triangle(now, BREATHE_MS) * 180 // 255), out)


def dealing(now, depth, out=None):
    """A cyan wave that leaves the held tile and passes through the cluster hop by hop (the
    game passes the time since this tile got its shard, which grows hop by hop)."""
    wave = triangle(now - depth * _WAVE_STEP_MS, _WAVE_MS)
    return solid(colors.dim(colors.CYAN, 30 + wave * 225 // 255), out)


def uncertain(now, out=None):
    """Voted in a deal whose outcome it has not learned: a magenta pair of faces turning slowly
    over dim magenta, like no other picture (it shows no shard, old or new)."""
    out = solid(colors.dim(colors.MAGENTA, 40), out)
    head = (now // UNCERTAIN_STEP_MS) % 3
    out[head] = out[head + 3] = colors.MAGENTA
    return out


@micropython.native
def face_down(out=None):
    return solid(FACE_DOWN, out)


@micropython.native
def spots(shard, base, bright, out=None, lift=0):
    """The shard's colour, its value as brighter faces evenly spaced (1: 0; 2: 0, 3; 3: 0, 2, 4),
    moved `lift` (0-255) toward white: a brighter blue alone is hard to tell from the base, as
    the eye sees little of blue's brightness, while a paler one stands out on every colour."""
    c = shard_color(shard)
    out = solid(colors.dim(c, base), out)
    spot = colors.lighten(colors.dim(c, bright), lift)
    for f in ((0,), (0, 3), (0, 2, 4))[shards.value_of(shard) - 1]:
        out[f] = spot
    return out


@micropython.native
def revealed(shard, out=None):
    """Its colour on every face, its value as bright, paler spots over a dimmer base."""
    return spots(shard, 70, 255, out, 110)


def discarded(shard, out=None):
    """The revealed picture, dimly, so the discard pile stays readable."""
    return spots(shard, 12, 50, out)


def played(shard, gem_complete, now, out=None):
    """Bright and steady; shimmering (a slow ripple round the faces) once its gem is complete."""
    c = shard_color(shard)
    out = solid(c, out)
    if gem_complete:
        for f in range(6):
            out[f] = colors.dim(c, 160 + triangle(now + f * 300, 1800) * 95 // 255)
    return out


def flash(c, now, out=None):
    return solid(c if (now // FLASH_MS) % 2 == 0 else colors.OFF, out)


def error(now, out=None):
    """Red flashing: turn a nickel."""
    return flash(colors.RED, now, out)


def copper_spin(now, out=None):
    """The completing tile: a copper light running round over gold (turn a penny back)."""
    out = solid(colors.dim(GOLD, 90), out)
    head = (now // SPIN_STEP_MS) % 6
    out[head] = COPPER
    out[(head + 5) % 6] = colors.dim(COPPER, 100)
    return out


def counting(shard, gem_complete, since, rank, now, out=None):
    """Score count: dark until this tile's turn (rank x step), then a white blink, then lit."""
    lit_at = rank * COUNT_STEP_MS
    if since < lit_at:
        return solid(colors.dim(shard_color(shard), 10), out)
    if since < lit_at + 150:
        return solid(colors.WHITE, out)
    return played(shard, gem_complete, now, out)


def victory(now, out=None):
    """A full board of 9: a rainbow turning round every tile."""
    out = solid(0, out)
    for f in range(6):
        out[f] = colors.hsb((now // 4 + f * 42) % 256, 255, 255)
    return out

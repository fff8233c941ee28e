"""Which way is up: the face values a waterfall tile sends, and how a tile finds up from them.

Directions are relative to up: 0 up, 1 up-right, 2 down-right, 3 down, 4 down-left, 5 up-left.
A waterfall tile sends on each face IN_WATERFALL | HAS_PAWN if it holds a pawn | that face's
direction. A dealt tile that hears direction 2 or 4 on its face f hangs right below that tile;
whatever its rotation, its face f points in direction d + 3, so its up face is f - (d + 3).
That is why a cluster laid under the top at any rotations finds up row by row.
"""

try:
    from micropython import const
except ImportError:  # CPython: plain ints (runtime/native.py)
    from runtime.native import const


IN_WATERFALL = const(32)
HAS_PAWN = const(8)
# A neighbour counts as there until unheard this long: a lossy link blinks out for a moment,
# and a click must not find the pawn above it gone.
HEARD_MS = const(1500)


def send_values(tile, up, pawn):
    """Tell the neighbours this tile is in the waterfall, where up is, and whether a pawn is here."""
    flag = IN_WATERFALL | (HAS_PAWN if pawn else 0)
    for f in range(6):
        tile.set_value_sent_on_face(flag | (f - up) % 6, f)


def up_below(tile):
    """The up face of a tile hanging right below a waterfall tile, or -1 (none heard)."""
    for f in range(6):
        if tile.is_value_received_on_face_expired(f):
            continue
        v = tile.get_last_value_received_on_face(f)
        d = v & 7
        if v & IN_WATERFALL and (d == 2 or d == 4):
            return (f - d - 3) % 6
    return -1


def neighbour(tile, up, last_seen, d):
    """The value of the waterfall tile on relative face d, or 0 (none there). `last_seen` is
    when each face last heard a valid frame (the deal's)."""
    f = (up + d) % 6
    if tile.millis() - last_seen[f] >= HEARD_MS:
        return 0
    v = tile.get_last_value_received_on_face(f)
    return v if v & IN_WATERFALL else 0


def open_faces(tile, up, last_seen):
    """Bits of the relative down faces (2, 4) with no tile: where a tile may attach."""
    out = 0
    for d in (2, 4):
        if not neighbour(tile, up, last_seen, d):
            out |= 1 << d
    return out

"""Gembatan's pieces and fixed numbers (pure: no world, no tiles): the 60 square tiles, the 60
two-coloured gems, the hand sizes, and the square grid's geometry.

The document shows neither the tiles nor the gems (its pictures are missing), so both sets are
ours (docs/gembatan.md, "the pieces"): four colours; a tile's side is plain or a cutout edged in
a colour; a gem is a pair of colours, one for each half, and a gem of one colour is a pair too.
"""

PLAYERS = ("A", "B", "C", "D")
MIN_PLAYERS, MAX_PLAYERS = 2, 4
HAND = 4  # gems, and tiles, a player holds after each turn while the tray and pile last
BONUS = 4  # a Gembatan: all four gems played in one turn
CHAIN = 3  # a diagonal chain scores from this many gems
MAX_TURNS = 400  # a safety net; the bots' games end long before (docs/gembatan.md)

COLOURS = ("R", "B", "G", "Y")
COLOUR_NAMES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
PLAIN = "-"

# A side's direction: 0 north, 1 east, 2 south, 3 west (y grows southward). A tile turned T
# quarter turns clockwise shows its side s toward direction (s + T) % 4.
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
DIRECTION_NAMES = ("north", "east", "south", "west")
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))

ENDS = ("gems", "stuck", "turns")  # a player used up their gems, a round without a play, limit


def neighbour(cell, direction):
    dx, dy = STEPS[direction]
    return (cell[0] + dx, cell[1] + dy)


def edge(cell, direction):
    """The edge on `direction` of `cell`, named the same from both sides: (west or north cell,
    EAST or SOUTH)."""
    if direction == NORTH:
        return (neighbour(cell, NORTH), SOUTH)
    if direction == WEST:
        return (neighbour(cell, WEST), EAST)
    return (cell, direction)


def edge_cells(e):
    """The two cells an edge lies between: (west or north one, east or south one)."""
    cell, direction = e
    return cell, neighbour(cell, direction)


def edge_point(e):
    """Where an edge's middle lies, in half cells: cell (x, y) spans 2x..2x+2. Edges whose points
    differ by (1, 1) or (1, -1) are diagonal neighbours: a chain runs along those."""
    (x, y), direction = e
    if direction == EAST:
        return (2 * x + 2, 2 * y + 1)
    return (2 * x + 1, 2 * y + 2)


def point_edge(point):
    """The edge whose middle is at `point` (one coordinate even, the other odd)."""
    px, py = point
    if px % 2 == 0:
        return ((px // 2 - 1, (py - 1) // 2), EAST)
    return (((px - 1) // 2, py // 2 - 1), SOUTH)


def edge_name(e):
    cell, direction = e
    return f"{cell[0]},{cell[1]} {DIRECTION_NAMES[direction]}"


def parse_cell(text):
    x, comma, y = text.partition(",")
    if not comma:
        return None
    if not all(p.lstrip("-").isdigit() and p.isascii() and 0 < len(p) <= 4 for p in (x, y)):
        return None
    return (int(x), int(y))


# --- the pieces --------------------------------------------------------------------------------
# A tile is four sides (north, east, south, west unturned): a colour letter, or PLAIN.
# Shapes of cutouts, and how many tiles of each: 12 with two cutouts side by side, 12 with two
# opposite, 18 with three, 18 with four. The 174 cutouts take the four colours as evenly as
# they go (44, 44, 43, 43), in an order shuffled once, from a fixed seed, for all games.
_SHAPES = (
    ((1, 1, 0, 0), 12),
    ((1, 0, 1, 0), 12),
    ((1, 1, 1, 0), 18),
    ((1, 1, 1, 1), 18),
)


def _tiles():
    import random

    cutouts = sum(sum(shape) * count for shape, count in _SHAPES)
    colours = [COLOURS[i % 4] for i in range(cutouts)]
    random.Random(1945).shuffle(colours)
    out = []
    for shape, count in _SHAPES:
        for _ in range(count):
            out.append("".join(colours.pop() if cut else PLAIN for cut in shape))
    return out


TILES = tuple(_tiles())  # 60 tiles, as strings of four sides: "RB--"
# every pair of colours (a gem of one colour is the pair of that colour twice), six of each
GEMS = tuple(
    COLOURS[a] + COLOURS[b] for a in range(4) for b in range(a, 4) for _ in range(6)
)  # 60 gems


def tile_name(sides):
    return sides


def gem_name(gem):
    return gem


def parse_tile(text):
    t = text.upper()
    if len(t) == 4 and all(c in COLOURS or c == PLAIN for c in t) and t.count(PLAIN) < 4:
        return t
    return None


def parse_gem(text):
    g = text.upper()
    if len(g) == 2 and all(c in COLOURS for c in g):
        return "".join(sorted(g, key=COLOURS.index))
    return None


def side_toward(sides, rotation, direction):
    """The side of a tile turned `rotation` that faces `direction`."""
    return sides[(direction - rotation) % 4]

"""Hex grid geometry in axial coordinates (q, r), flat-top hexagons (Red Blob Games' vocabulary).

World direction 0 points up (north) and directions go clockwise: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.
A tile's face f with rotation `rot` points in world direction `(f + rot) % 6`, so rotating a tile
by one step clockwise turns face 0 from north to north-east. Screen position of a cell's centre
for hexagons of circumradius `size` (y grows downward):
`x = size * 1.5 * q`, `y = size * sqrt(3) * (r + q / 2)`.
"""

DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def neighbour_cell(q: int, r: int, direction: int):
    dq, dr = DIRECTIONS[direction % 6]
    return (q + dq, r + dr)


def face_direction(face: int, rotation: int) -> int:
    """The world direction a tile's face points to."""
    return (face + rotation) % 6


def face_toward(direction: int, rotation: int) -> int:
    """The face of a tile with this rotation that points in the given world direction."""
    return (direction - rotation) % 6


def pixel(q: int, r: int, size: float = 1.0):
    """Centre of a cell on screen (flat-top layout, y down)."""
    return (size * 1.5 * q, size * 1.7320508075688772 * (r + q / 2.0))

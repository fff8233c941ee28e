"""Gem Match's fixed numbers, the hex geometry and the group tiers (pure: no world, no tiles).

The numbers the document gives are kept (4 tokens dealt to each player, 2 of them improved; a
draw while a hand holds fewer than 5; at most 5 in a hand). The ones a hex field changes are
docs/gemmatch.md's, each with its reason: the gem colours are the tokens' (games.gemmatch.tokens),
and the group sizes of the three tiers are TIER_SIZES.
"""

from games.gemmatch import tokens

PLAYERS = ("A", "B")
HAND_START = 4  # tokens each player starts with: 2 basic side up, 2 improved
HAND_IMPROVED = 2
HAND_LIMIT = 5  # a player draws while holding fewer; never holds more
BOARD_RADIUS = 2  # the field: a hexagon of 19 cells (docs/gemmatch.md, "the field")
CENTRE = (0, 0)  # where a token placed on an empty field goes
MAX_TURNS = 200  # a safety net; the bots' games end long before (docs/gemmatch.md)

BASIC, IMPROVED = 0, 1
SIDES = ("basic", "improved")

# The tiers of a group, by its gems, and what each gives: the smallest one token to the victory
# heap; the middle one a token to the heap, one to the hand and another placement; the largest
# every token, to heap or hand, and another placement. Several groups of one tier made at once
# count as one group of the next tier. The document's sizes are 3, 4 and 5+; on hexes each is
# one gem smaller, and a group joins two tokens or more (docs/gemmatch.md, "group sizes").
SMALL, BIG, HUGE = 1, 2, 3
TIER_SIZES = tokens.TIER_SIZES  # (2, 3, 4): the tiles light groups by the same numbers
TIER_NAMES = {SMALL: "2", BIG: "3", HUGE: "4+"}

ENDS = ("pile", "skips", "turns")  # the pile ran out, both players skipped, the turn limit

# Axial directions, 0 north then clockwise, as simulator/world/grid.py's (the rules never
# import the world).
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def neighbour(cell, direction):
    dq, dr = DIRECTIONS[direction % 6]
    return (cell[0] + dq, cell[1] + dr)


def tier_of(size):
    """A group's tier (0: not a group yet)."""
    tier = 0
    for t, least in enumerate(TIER_SIZES, 1):
        if size >= least:
            tier = t
    return tier


def cell_name(cell):
    return f"{cell[0]},{cell[1]}"


def parse_cell(text):
    """'q,r' (whole numbers, either may be negative) as a cell, or None."""
    q, comma, r = text.partition(",")
    if not comma:
        return None
    try:
        cell = (int(q), int(r))
    except ValueError:
        return None
    ok = all(p.lstrip("-").isdigit() and p.isascii() and len(p) <= 4 for p in (q, r))
    return cell if ok else None


def distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))

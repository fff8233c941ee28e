"""Waterfall's fixed numbers and the pyramid's geometry (pure: no world, no tiles).

A place in the waterfall is (row, index): row 0 is the start tile, row k has places 0..k from
the left. Below (row, i) lie down-left (row + 1, i) and down-right (row + 1, i + 1). On the hex
grid (flat-top, direction 0 north) down-left is south-west and down-right south-east, so the
places of one row do not touch each other: a tile touches the two above it, the two below it,
and the tiles straight above and below (two rows away).
"""

from games.waterfall import cards

HAND_SIZE = 4
DRAW_COUNT = 3  # the DRAW action
SCORE_LIMIT = 2  # tiles one SCORE action may score
END_TILES = 20  # the game ends once the waterfall holds this many
MAX_TURNS = 400  # a safety net: no game of the bots comes near it (see docs/waterfall.md)
MIN_PLAYERS, MAX_PLAYERS = 2, 4
PLAYERS = ("A", "B", "C", "D")
LEFT, RIGHT = "left", "right"

# rules options, by the word of a script's `rules` line and of `--rules` (docs/waterfall.md)
STEP_FIRST = "step-first"  # no tile in hand: step, then draw, as the seed orders them
RULES = (STEP_FIRST,)
DEFAULT_RULES = ()  # draw, then step: the seed's order stalls (docs/waterfall.md#rules-options)

ENDS = ("twenty", "deck", "turns")  # why a game ended: 20 tiles, deck spent, turn limit


def below(place, side):
    row, i = place
    return (row + 1, i if side == LEFT else i + 1)


def above(place):
    """The places right above (up-left, up-right) that exist in a pyramid."""
    row, i = place
    out = []
    if i > 0:
        out.append((row - 1, i - 1))
    if i < row:
        out.append((row - 1, i))
    return out


def place_name(place):
    return f"{place[0]}.{place[1]}"


def parse_place(text):
    row, dot, i = text.partition(".")
    if not dot or not (row.isdigit() and i.isdigit() and row.isascii() and i.isascii()):
        return None
    place = (int(row), int(i))
    return place if place[1] <= place[0] < 100 else None


def cell_of(place, top=(0, 0)):
    """The axial cell (q, r) of a place, the start tile at `top`."""
    row, i = place
    return (top[0] + 2 * i - row, top[1] + row - i)


card_name = cards.name

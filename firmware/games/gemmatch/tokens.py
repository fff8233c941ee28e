"""Gem Match's tokens: each tile is one two-sided token, six gems a side (one a face).

A basic side has no two neighbouring faces alike; an improved side has exactly one pair of
neighbouring faces alike (faces 5 and 0 are neighbours too). A token travels in the deal as its
kind, an int 1-15; KINDS gives each kind's two sides as colour indices by face, COPIES how many
tokens of each kind the 27 tiles of one deal hold. The host (referee, bots, session runner)
reads this module too, so rules and tiles agree.
"""

NO_GEM = 0
# colour index -> one letter (names in scripts and logs) and its word
GEMS = ("-", "R", "G", "B", "Y", "P", "C")
GEM_NAMES = ("none", "ruby", "emerald", "sapphire", "topaz", "amethyst", "aquamarine")
COLOURS = 6

BASIC = 0
IMPROVED = 1

# The smallest gems a group of each tier holds (docs/gemmatch.md, "group sizes"): the document
# says 3, 4 and 5 or more on a square field; a hex field's groups are one gem smaller.
TIER_SIZES = (2, 3, 4)

# kind -> (basic side, improved side), six gem letters each for faces 0..5; index 0: no token.
# A basic side alternates two colours; its improved side keeps that alternation on faces 2-5
# and shows a pair of a third colour on faces 0 and 1. Each colour is on three basic sides
# (the pairs of colours make a prism: R-Y-P and G-B-C, and R-G, Y-B, P-C).
_SIDES = (
    ("", ""),
    ("RYRYRY", "BBRYRY"),
    ("YPYPYP", "GGYPYP"),
    ("PRPRPR", "CCPRPR"),
    ("GBGBGB", "RRGBGB"),
    ("BCBCBC", "YYBCBC"),
    ("CGCGCG", "PPCGCG"),
    ("RGRGRG", "CCRGRG"),
    ("YBYBYB", "RRYBYB"),
    ("PCPCPC", "GGPCPC"),
)
COPIES = (0, 3, 3, 3, 3, 3, 3, 3, 3, 3)
DECK_SIZE = 27  # sum(COPIES): one deal of 27 tiles


def _codes(text):
    out = []
    for letter in text:
        out.append(GEMS.index(letter))
    return tuple(out)


KINDS = tuple((_codes(basic), _codes(improved)) for basic, improved in _SIDES)


def side_of(kind, side):
    """The six gems (colour indices, face 0..5) of `kind`'s side (BASIC or IMPROVED)."""
    return KINDS[kind][side]


def is_token(kind):
    return isinstance(kind, int) and 1 <= kind < len(KINDS)


def name(kind):
    """'T3' style; '' for no token."""
    return "T" + str(kind) if is_token(kind) else ""


def parse(text):
    """The kind called `text` (as name() writes it, any case), or None."""
    text = text.upper()
    for kind in range(1, len(KINDS)):
        if name(kind) == text:
            return kind
    return None


def side_name(gems):
    """The gems of a side as letters, face 0 first: 'RRGBYW'."""
    return "".join(GEMS[g] for g in gems)


def deck():
    """Every token's kind, kinds in order (DECK_SIZE of them)."""
    out = []
    for kind in range(1, len(KINDS)):
        for _ in range(COPIES[kind]):
            out.append(kind)
    return out

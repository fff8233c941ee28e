"""Waterfall's cards: what each tile is (action, number, gem), as one small int, and the deck.

A card travels in the deal as its kind, an int 1-15 (the deal packs two to a byte), so the deck
has at most 15 kinds; KINDS gives each kind's action, number (1-3) and gem. The deck is the
27 tiles of one deal (runtime.deal.MAX_TILES): COPIES says how many tiles of each kind.
The host (referee, bots, session runner) reads this module too, so rules and tiles agree.
"""

ADD = 0
DRAW = 1
SCORE = 2
STOP = 3
ACTIONS = ("ADD", "DRAW", "SCORE", "STOP")

RUBY = 0
EMERALD = 1
SAPPHIRE = 2
GEMS = ("R", "G", "B")  # one letter a gem in card names: ADD-R1 is an ADD ruby worth 1
GEM_NAMES = ("ruby", "emerald", "sapphire")

NO_CARD = 0
# kind -> (action, number, gem); index 0 is no card
KINDS = (
    (-1, 0, -1),
    (ADD, 1, RUBY),
    (ADD, 1, EMERALD),
    (ADD, 1, SAPPHIRE),
    (ADD, 2, RUBY),
    (ADD, 2, EMERALD),
    (ADD, 2, SAPPHIRE),
    (DRAW, 1, RUBY),
    (DRAW, 2, EMERALD),
    (DRAW, 3, SAPPHIRE),
    (SCORE, 3, RUBY),
    (SCORE, 2, EMERALD),
    (SCORE, 1, SAPPHIRE),
    (STOP, 3, RUBY),
    (STOP, 3, EMERALD),
    (STOP, 3, SAPPHIRE),
)
COPIES = (0, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2)
DECK_SIZE = 27  # sum(COPIES): one deal of 27 tiles


def action_of(kind):
    return KINDS[kind][0]


def number_of(kind):
    return KINDS[kind][1]


def gem_of(kind):
    return KINDS[kind][2]


def is_card(kind):
    return isinstance(kind, int) and 1 <= kind < len(KINDS)


def name(kind):
    """ADD-R1 style: action, gem letter, number; '' for no card."""
    if not is_card(kind):
        return ""
    action, number, gem = KINDS[kind]
    return ACTIONS[action] + "-" + GEMS[gem] + str(number)


def parse(text):
    """The kind called `text` (as name() writes it, any case), or None."""
    text = text.upper()
    for kind in range(1, len(KINDS)):
        if name(kind) == text:
            return kind
    return None


def deck():
    """Every tile's kind, kinds in order (DECK_SIZE of them)."""
    out = []
    for kind in range(1, len(KINDS)):
        for _ in range(COPIES[kind]):
            out.append(kind)
    return out

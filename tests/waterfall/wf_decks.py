"""Decks for Waterfall tests: a draw order that puts named tiles first."""

from games.waterfall import cards


def deck_starting(*names):
    """The deck with `names` first (in that order), the other tiles after them by kind."""
    rest = cards.deck()
    head = []
    for n in names:
        kind = cards.parse(n)
        rest.remove(kind)
        head.append(kind)
    return head + rest


# ADD-R1 starts; A: DRAW-R1 SCORE-R3 ADD-G1 STOP-G3; B: ADD-B1 DRAW-G2 SCORE-G2 STOP-B3
BASIC = deck_starting(
    "ADD-R1", "DRAW-R1", "ADD-B1", "SCORE-R3", "DRAW-G2", "ADD-G1", "SCORE-G2", "STOP-G3", "STOP-B3"
)

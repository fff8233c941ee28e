"""Waterfall moves: one small decision each, so legal_moves() stays short.

play N        put hand tile N (1-based) on the discard pile: its number adds steps
fall          stop playing and start falling (needs a step)
step left     fall to the place down-left (step right: down-right; from above the
              waterfall both lead to the start tile, and only `step left` is offered)
done          FALL: fall no further (after a step; the steps played are only allowed)
add N at R.I  ADD: hand tile N joins the waterfall at row R, place I
score N       SCORE: hand tile N goes to the score pile (its gem was visited this turn)
done          SCORE: score no more
"""

from simulator.games.waterfall.rules import place_name
from simulator.sessions import views

PLAY, FALL, STEP, ADD, SCORE, DONE = "play", "fall", "step", "add", "score", "done"


class Move(views.Move):
    __slots__ = ("kind", "place", "side", "slot")

    def __init__(self, kind, slot=0, side=None, place=None):
        self.kind = kind
        self.slot = slot
        self.side = side
        self.place = place

    def _key(self):
        return (self.kind, self.slot, self.side, self.place)

    def __str__(self):
        """The move in a script's words: its kind, then what it names."""
        words = [self.kind]
        if self.kind in (PLAY, ADD, SCORE):
            words.append(str(self.slot))
        if self.kind == STEP:
            words.append(self.side)
        if self.kind == ADD:
            words += ["at", place_name(self.place)]
        return " ".join(words)


def play(slot):
    return Move(PLAY, slot)


def fall():
    return Move(FALL)


def step(side):
    return Move(STEP, side=side)


def add(slot, place):
    return Move(ADD, slot, place=tuple(place))


def score(slot):
    return Move(SCORE, slot)


def done():
    return Move(DONE)

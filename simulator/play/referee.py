"""What the referees of games won on points share, written once: the deck a game deals (the
script's, checked, or the whole deck shuffled from the seed) and the reading of scores."""

import random

OVER = "over"  # the phase of a finished game


def deck_to_deal(deck, seed, full, words):
    """`deck` (a list of the game's pieces) if it holds exactly `full` in any order, else
    raise ValueError(`words`); None deals `full` shuffled by random.Random(seed)."""
    if deck is None:
        deck = list(full)
        random.Random(seed).shuffle(deck)
        return deck
    deck = list(deck)
    if sorted(deck) != sorted(full):
        raise ValueError(words)
    return deck


class PointsGame:
    """A referee's reading of a game won on points; the game gives `players`, `phase` and
    `score(player)`."""

    @property
    def over(self):
        return self.phase == OVER

    @property
    def scores(self):
        return [self.score(p) for p in range(self.players)]

    def winners(self):
        best = max(self.scores)
        return [p for p in range(self.players) if self.score(p) == best]

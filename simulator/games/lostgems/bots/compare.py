"""Comparing candidate moves by rollouts on the same deals, with losers dropped early.

Each deal (a hand the searcher may hold and a shuffled jungle) is played out after every
candidate still in the running, so what is compared per deal is a difference of scores: most
of a score's spread is the deal's, and it cancels (often the difference is exactly 0). Deals
come in batches; after each, a candidate whose mean gain over the blueprint's move could not
reach the margin even two standard errors up is dropped, so clear turns cost one batch and
only close ones get every deal.
"""

from math import sqrt

from simulator.games.lostgems.bots.handsets import BIT_OF_HAND
from simulator.games.lostgems.bots.rollout import World, evaluate


def sample_deals(hands, counts, deals, rng):
    """`deals` deals of (my hand, jungle): hands by systematic sampling on their weights (each
    drawn in proportion, with less noise than drawing at random), each with the unseen shards
    left over shuffled into a jungle; then put in random order, so that any first batch of
    them is a fair sample too."""
    total = sum(w for _, w in hands)
    step = total / deals
    point = rng.random() * step
    out = []
    acc = 0.0
    for hand, w in hands:
        acc += w
        while point < acc and len(out) < deals:
            rest = list(counts)
            for t in hand:
                rest[t] -= 1
            jungle = [t for t in range(9) for _ in range(rest[t])]
            rng.shuffle(jungle)
            out.append((hand, jungle))
            point += step
    rng.shuffle(out)
    return out


class Comparison:
    """The candidates' score differences from the blueprint's move (candidate 0), deal by deal.
    `start` is (who moves, hints, errors, PublicFacts, masks, final_turns, partner's hand)."""

    def __init__(self, candidates, start):
        self.candidates = candidates
        self.start = start
        self.alive = list(range(1, len(candidates)))
        self.gains = {k: [] for k in self.alive}  # per candidate, its gain on each deal

    def score(self, move, hand, jungle):
        """The score of `move` then the blueprint on one deal; None if the move would mislead
        the partner (rollout.evaluate)."""
        me, hints, errors, facts, masks, final_turns, partner_hand = self.start
        hands = (hand, partner_hand) if me == 0 else (partner_hand, hand)
        world = World(me, hands, jungle, hints, errors, facts, masks, final_turns)
        return evaluate(world, move, BIT_OF_HAND[partner_hand])

    def add(self, deals):
        """Play `deals` out for the blueprint's move and every candidate still in the running
        (a candidate that would mislead the partner on any deal is out). False if the
        blueprint's own move would (the common knowledge has gone astray: no search)."""
        for hand, jungle in deals:
            base = self.score(self.candidates[0], hand, jungle)
            if base is None:
                return False
            for k in list(self.alive):
                got = self.score(self.candidates[k], hand, jungle)
                if got is None:
                    self.alive.remove(k)
                else:
                    self.gains[k].append(got - base)
        return True

    def mean_and_error(self, k):
        """Candidate k's mean gain per deal over the blueprint's move, and its standard error."""
        gains = self.gains[k]
        n = len(gains)
        mean = sum(gains) / n
        var = sum((g - mean) ** 2 for g in gains) / (n - 1) if n > 1 else 0.0
        return mean, sqrt(var / n)

    def drop_hopeless(self, margin):
        """Drop the candidates whose mean gain, two standard errors up, stays below `margin`
        (a candidate that gains or loses nothing on every deal is out at once)."""
        for k in list(self.alive):
            mean, err = self.mean_and_error(k)
            if mean + 2.0 * err <= margin:
                self.alive.remove(k)

    def best(self, margin):
        """The index of the candidate whose mean gain beats `margin` by the most, or 0 (the
        blueprint's move) if none does."""
        best, best_gain = 0, margin
        for k in self.alive:
            mean, _ = self.mean_and_error(k)
            if mean > best_gain:
                best, best_gain = k, mean
        return best


def choose(candidates, start, deals, batch, margin):
    """The index of the candidate to play: 0 (the blueprint's move) unless another gains more
    than `margin` points per deal on average over `deals`, taken `batch` at a time."""
    comparison = Comparison(candidates, start)
    for b in range(0, len(deals), batch):
        if not comparison.add(deals[b : b + batch]):
            return 0
        comparison.drop_hopeless(margin)
        if not comparison.alive:
            return 0
    return comparison.best(margin)

"""The best score a deal allows: what two players who knew the whole deck could make of it.

A game that scores 8 may have been lost by its players or by its deal: with the last red 1 at
the bottom of the jungle, no play reaches 9. The ceiling tells the two apart. It is a
full-information search over the rules of LOSTGEMS.md part 1, as the referee applies them (a
second error ends at 0, a ninth point ends at once, after the last draw one more turn each):
with every shard known a hint says nothing, so the six hints are one move, a stall that costs
a token.

The search asks "can this deal reach T?" for T = 9, 8, ... and stops at the first yes. Each
question prunes every position from which the shards still in play, or the turns still to
come, cannot make T (so for T = 9, every line that loses a last copy); a position's answer is
kept, with hands as sorted tuples (slot order means nothing when all is known) and every shard
that can no longer join its gem written as one "spent" shard. A second error is never tried:
it scores 0, and another legal move always exists.
"""

from simulator.games.lostgems.moves import ALL_HINTS, Move
from simulator.games.lostgems.referee import GameState
from simulator.games.lostgems.shards import DECK_SIZE, MAX_ERRORS, MAX_HINTS

HINT_MOVE = ALL_HINTS[0]  # with everything known, any hint is only a stall
SPENT = 9  # a shard below its gem's height: it can only be discarded (or misplayed)
PLAY, DISCARD, STALL = range(3)


def deal_ceiling(deck, start=0):
    """The highest score any play of `deck` (18 shards, dealt as GameState deals them: A's two,
    B's two, then the jungle from the top) can make, `start` (0 for A, 1 for B) moving first."""
    return ceiling(GameState(deck=deck, start=start))


def ceiling(state):
    """The highest final score still reachable from GameState `state` (finished or not) by
    players who knew every shard: its deal's ceiling, before the first move."""
    search = _Search(state.deck)
    return search.best(search.position_of(state))


def first_player(state):
    """Who moved first in `state` (0 for A, 1 for B): its deal's ceiling depends on it."""
    return state.history[0].player if state.history else state.current


def best_line(state):
    """Moves from `state` on (in the referee's slot terms; a stall is a red hint) that end the
    game at ceiling(state). `state` is left as it is."""
    search = _Search(state.deck)
    position = search.position_of(state)
    target = search.best(position)
    hands = [list(state.hands[0]), list(state.hands[1])]  # in slot order, as the referee's
    line = []
    while not position[8]:
        d, gems = position[0], position[3]
        hand = hands[position[6]]
        kind, shard, position = next(
            (kind, shard, after)
            for kind, shard, after in search.moves(position)
            if search.reaches(after, target)
        )
        if kind == STALL:
            line.append(HINT_MOVE)
            continue
        # A spent shard stands for any shard below its gem's height: take the first such.
        i = next(
            i for i, s in enumerate(hand) if s == shard or (shard == SPENT and s % 3 < gems[s // 3])
        )
        line.append(Move.play(i + 1) if kind == PLAY else Move.discard(i + 1))
        hand.pop(i)
        if d < DECK_SIZE:
            hand.append(search.deck[d])
    return line


# A position: (next draw, hand of A, hand of B, gems, hints, errors, player to move, turns left
# after the last draw or -1 before it, 1 once the game is over). Hands are sorted tuples of
# shards, SPENT for any shard below its gem's height.


class _Search:
    def __init__(self, deck):
        self.deck = tuple(deck)
        self.known = [{} for _ in range(10)]  # per target: position -> whether it reaches it

    def position_of(self, state):
        """The position of a GameState (dealt from this search's deck)."""
        gems = tuple(state.gems)
        left = -1 if state.final_turns is None else state.final_turns
        return (
            state.next_draw,
            _spend(state.hands[0], gems),
            _spend(state.hands[1], gems),
            gems,
            state.hints,
            state.errors,
            state.current,
            left,
            int(state.over),
        )

    def best(self, position):
        """The best final score from `position`: 0 once two errors are lost."""
        if position[5] >= MAX_ERRORS:
            return 0
        return next(t for t in range(9, -1, -1) if self.reaches(position, t))

    def reaches(self, position, target):
        """Whether some play from `position` ends with a score of at least `target`."""
        if position[8]:
            return sum(position[3]) >= target
        known = self.known[target]
        got = known.get(position)
        if got is None:
            got = self._bound(position) >= target and any(
                self.reaches(after, target) for _, _, after in self.moves(position)
            )
            known[position] = got
        return got

    def _bound(self, position):
        """The most the game can still score: per colour, up to the first value with no copy
        left in a hand or the jungle; and one point per turn that can still play (each draw
        needs a play or discard, and after the last one each player has one turn)."""
        d, hand_a, hand_b, gems, _, _, _, left, _ = position
        here = [0] * 10
        for s in hand_a:
            here[s] += 1
        for s in hand_b:
            here[s] += 1
        for s in self.deck[d:]:
            here[s] += 1
        total = 0
        for c in range(3):
            height = gems[c]
            while height < 3 and here[c * 3 + height]:
                height += 1
            total += height
        turns = left if left >= 0 else DECK_SIZE - d + 2
        return min(total, sum(gems) + turns)

    def moves(self, position):
        """Yield (kind, shard, next position) for each move worth trying, the likeliest best
        first: plays that join a gem, discards, the stall, then a first error."""
        _, hand_a, hand_b, gems, hints, errors, p, _, _ = position
        hand = hand_a if p == 0 else hand_b
        last = None
        errors_later = []
        for i, s in enumerate(hand):
            if s == last:
                continue
            last = s
            rest = hand[:i] + hand[i + 1 :]
            if s != SPENT and gems[s // 3] == s % 3:  # it joins its gem
                new_gems = list(gems)
                new_gems[s // 3] += 1
                regained = s % 3 == 2 and hints < MAX_HINTS
                yield PLAY, s, self._after(position, rest, tuple(new_gems), hints + regained, 0)
            elif errors == 0:
                errors_later.append(s)
            if hints < MAX_HINTS:
                yield DISCARD, s, self._after(position, rest, gems, hints + 1, 0)
        if hints > 0:
            yield STALL, None, self._next_turn(position, hand, gems, hints - 1, 0, False)
        for s in errors_later:
            rest = list(hand)
            rest.remove(s)
            yield PLAY, s, self._after(position, tuple(rest), gems, hints, 1)

    def _after(self, position, rest, gems, hints, error):
        """The position once a shard left the hand of the player to move, who draws."""
        d = position[0]
        if d < DECK_SIZE:
            rest = rest + (self.deck[d],)
        return self._next_turn(position, rest, gems, hints, error, True)

    def _next_turn(self, position, hand, gems, hints, error, drew):
        d, hand_a, hand_b, old_gems, _, errors, p, left, _ = position
        drew_last = drew and d == DECK_SIZE - 1
        if drew and d < DECK_SIZE:
            d += 1
        if gems != old_gems:  # shards below the new height are spent now
            hand_a = _spend(hand_a, gems)
            hand_b = _spend(hand_b, gems)
        hand = _spend(hand, gems)
        if p == 0:
            hand_a = hand
        else:
            hand_b = hand
        over = gems == (3, 3, 3)
        if left >= 0:
            left -= 1
            over = over or left <= 0
        elif drew_last:
            left = 2  # one more turn each, the partner first
        return (d, hand_a, hand_b, gems, hints, errors + error, 1 - p, left, int(over))


def _spend(hand, gems):
    """The hand as a sorted tuple, with shards below their gem's height written SPENT."""
    return tuple(sorted(s if s == SPENT or s % 3 >= gems[s // 3] else SPENT for s in hand))

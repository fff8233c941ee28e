"""Where a finished game's missing points went: why it fell short of 9.

A designer asking how hard the game is wants to know more than the mean: a game of 8 that lost
its last blue 3 to a blind discard needs other conventions than one that ran out of jungle with
the 3 still in hand. Each point a game fell short by goes to exactly one cause:

- "last copy discarded" / "last copy misplayed": every copy of a shard its gem still needed
  left the game, by a discard or by a play that was an error; that gem can never pass the
  value below it (a lost 1 costs its colour 3 points, a lost 2 costs 2, a lost 3 costs 1);
- "two errors": the second error token was lost, so the game scored 0 (all 9 points);
- "out of turns": the rest, points the shards left could still have made when the game ended.

So for every finished game the four numbers sum to 9 - score.
"""

from simulator.games.lostgems.shards import MAX_ERRORS, TYPE_COUNTS

LOSS_CAUSES = ("last_copy_discarded", "last_copy_misplayed", "out_of_turns", "two_errors")
DISCARDED, MISPLAYED, OUT_OF_TURNS, TWO_ERRORS = range(4)


def lost_points(state):
    """The points a finished GameState fell short of 9 by, per cause (in LOSS_CAUSES order)."""
    lost = [0, 0, 0, 0]
    if state.errors >= MAX_ERRORS:
        lost[TWO_ERRORS] = 9
        return tuple(lost)
    gone = [0] * 9
    last_copy_by = [None] * 9  # the cause that took a shard's last copy out of the game
    for event in state.history:
        if event.shard is not None and not event.played:
            gone[event.shard] += 1
            if gone[event.shard] == TYPE_COUNTS[event.shard]:
                last_copy_by[event.shard] = MISPLAYED if event.error else DISCARDED
    reachable = 0
    for colour in range(3):
        height = 3
        for value in range(3):
            cause = last_copy_by[colour * 3 + value]
            if cause is not None:
                height = value
                lost[cause] += 3 - value
                break
        reachable += height
    lost[OUT_OF_TURNS] = reachable - state.score
    return tuple(lost)


def score_and_losses(state):
    """A finished game as (score, lost_points): what a playtest keeps of each game."""
    return state.score, lost_points(state)


def mean_losses(losses):
    """Per cause, the mean points lost per game over `losses` (lost_points tuples)."""
    n = len(losses)
    if n == 0:
        raise ValueError("no games to summarise")
    return {name: sum(lost[k] for lost in losses) / n for k, name in enumerate(LOSS_CAUSES)}

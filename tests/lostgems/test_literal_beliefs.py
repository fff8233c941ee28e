"""The cautious bot's card counting (literal.py) works on shard sets and popcounts; it must give
exactly what the plain definition gives: each slot weighs a shard by the hands that put it
there, a hand (a, b) weighing counts[a] * (counts[b] - (a == b)), walked here hand by hand
as the bot itself did before it was sped up."""

from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.games.lostgems.bots.literal import (
    THREES,
    UnseenCopies,
    exact,
    known,
    odds,
    slot_beliefs,
    table_of,
    unseen,
)
from simulator.games.lostgems.shards import TYPE_COUNTS

KNOWLEDGES = [(cm, vm) for cm in range(8) for vm in range(8)]


def allows(knowledge, t):
    return (knowledge[0] >> (t // 3)) & 1 and (knowledge[1] >> (t % 3)) & 1


def plain_weights(knowledges, counts):
    """Per slot, the weight of each shard, hand by hand."""
    n = len(knowledges)
    weights = [[0] * 9 for _ in range(n)]
    if n == 1:
        for t in range(9):
            if counts[t] > 0 and allows(knowledges[0], t):
                weights[0][t] = counts[t]
        return weights
    for a in range(9):
        if counts[a] <= 0 or not allows(knowledges[0], a):
            continue
        for b in range(9):
            if not allows(knowledges[1], b):
                continue
            w = counts[a] * (counts[b] - (a == b))
            if w > 0:
                weights[0][a] += w
                weights[1][b] += w
    return weights


def plain_mean(weight, values):
    total = sum(weight)
    return sum(w * values[t] for t, w in enumerate(weight)) / total if total else 0.0


knowledge = st.sampled_from(KNOWLEDGES)
counts = st.lists(st.integers(0, 3), min_size=9, max_size=9)
shard_sets = st.integers(0, 511)


def check(knowledges, counts, shards):
    beliefs = slot_beliefs(knowledges, UnseenCopies(counts))
    costs = table_of([0, 1, 2], [0, 3, 8]).cost  # a mix of trash, last copies and spares
    for belief, weight in zip(beliefs, plain_weights(knowledges, counts), strict=True):
        assert belief.weight == weight
        assert belief.total == sum(weight)
        possible = [t for t in range(9) if weight[t]]
        assert belief.shards == sum(1 << t for t in possible)
        assert exact(belief) == (possible[0] if len(possible) == 1 else None)
        in_set = sum(w for t, w in enumerate(weight) if shards >> t & 1)
        assert odds(belief, shards) == (in_set / sum(weight) if sum(weight) else 0.0)
        assert known(belief, shards) == (
            any(weight) and all(shards >> t & 1 for t in range(9) if weight[t])
        )
        assert belief.mean(costs) == plain_mean(weight, costs)  # the very same float


@settings(max_examples=400, deadline=None)
@given(first=knowledge, second=knowledge, counts=counts, shards=shard_sets)
def test_two_slots_weigh_as_hand_by_hand(first, second, counts, shards):
    check([first, second], counts, shards)


@settings(max_examples=100, deadline=None)
@given(only=knowledge, counts=counts, shards=shard_sets)
def test_a_lone_slot_weighs_as_hand_by_hand(only, counts, shards):
    check([only], counts, shards)


def test_every_pair_of_knowledges_with_the_full_deck_unseen_and_with_last_copies():
    last_copies = [1, 1, 0, 2, 1, 1, 1, 0, 1]
    for first in KNOWLEDGES:
        for second in KNOWLEDGES:
            check([first, second], list(TYPE_COUNTS), THREES)
            check([first, second], last_copies, THREES)


def test_shards_seen_more_often_than_they_exist_leave_no_copy():
    # Only an impossible observation does this; the counts stop at none rather than below.
    assert UnseenCopies([-1, 3, 2, 1, 0, 0, 0, 0, 0]).counts == [0, 3, 2, 1, 0, 0, 0, 0, 0]
    seen = unseen([0, 0, 0], [0, 0, 0], [0])
    assert seen.counts[0] == 0 and seen.of(1) == 0


def test_unseen_less_what_is_seen_is_counted_afresh():
    table = table_of([1, 0, 2], [0, 4, 4, 8])
    for seen in ([], [3], [3, 3], [1, 2], [0, 0, 0, 0]):
        fewer = table.unseen.less(seen)
        left = list(table.unseen.counts)
        for t in seen:
            left[t] -= 1
        fresh = UnseenCopies(left)
        assert (fewer.counts, fewer.at_least) == (fresh.counts, fresh.at_least)

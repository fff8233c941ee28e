"""The convention bot's fast paths (bit tricks, lookup tables) must give exactly what the plain
definitions give, or the bot would play differently when it is sped up.

Each test computes the plain way here, from the definitions (hand_class, refine_key, POINTING),
and compares on random inputs, sparse and dense hand sets alike."""

from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.games.lostgems.bots.beliefs import (
    copies_sets,
    hand_weights,
    hands_holding,
    known_play,
    knows_a_play,
    loss_table,
    means,
    opening_facts,
    partner_view,
    possible_hands,
    public_facts,
    slot_weights,
)
from simulator.games.lostgems.bots.codewords import (
    POINTING,
    class_masks,
    code_book,
    hand_class,
    partition,
    refine_key,
)
from simulator.games.lostgems.bots.handsets import (
    ALL_PAIRS_MASK,
    HAND_OF_BIT,
    indices_of,
    shard_set,
    size_of,
)
from simulator.games.lostgems.bots.knowledge import card_tables
from simulator.games.lostgems.shards import TYPE_COUNTS


def pair_masks():
    """Hand sets of 2-shard hands: any, or a few hands (as after some hints)."""
    few = st.sets(st.integers(0, 80), min_size=1, max_size=12).map(lambda s: sum(1 << i for i in s))
    return st.one_of(st.integers(1, ALL_PAIRS_MASK), few)


def weight(hand, counts):
    if len(hand) == 2:
        return counts[hand[0]] * (counts[hand[1]] - (hand[0] == hand[1]))
    return counts[hand[0]] if hand else 1


def plain_partition(mask, counts, playable, safe):
    """partition() as its docstring defines it, one hand at a time."""
    by_class = {}
    for i in range(91):
        h = HAND_OF_BIT[i]
        if mask >> i & 1 and weight(h, counts) > 0:
            by_class.setdefault(hand_class(h, playable, safe), []).append(i)
    groups = [(label, by_class[label]) for label in sorted(by_class)]

    def total(bits):
        return sum(weight(HAND_OF_BIT[i], counts) for i in bits)

    while len(groups) < 6:
        splittable = [
            (total(bits), -at)
            for at, (label, bits) in enumerate(groups)
            if len({refine_key(HAND_OF_BIT[i], label) for i in bits}) > 1
        ]
        if not splittable:
            break
        at = -max(splittable)[1]  # the heaviest; the first of equals
        label, bits = groups.pop(at)
        key_weight = {}
        for i in bits:
            k = refine_key(HAND_OF_BIT[i], label)
            key_weight[k] = key_weight.get(k, 0) + weight(HAND_OF_BIT[i], counts)
        first, side = set(), [0, 0]
        for k in sorted(key_weight, key=lambda k: (-key_weight[k], k)):
            s = 0 if side[0] <= side[1] else 1
            side[s] += key_weight[k]
            if s == 0:
                first.add(k)
        halves = [[i for i in bits if refine_key(HAND_OF_BIT[i], label) in first]]
        halves.append([i for i in bits if refine_key(HAND_OF_BIT[i], label) not in first])
        groups[at:at] = [(label, half) for half in halves]
    out = [0] * 6
    free = list(range(6))
    for _, _, bits in sorted((-total(bits), bits[0], bits) for _, bits in groups):

        def squares(f, bits=bits):
            pattern = [0, 0, 0, 0]
            for i in bits:
                pattern[POINTING[HAND_OF_BIT[i]][f]] += weight(HAND_OF_BIT[i], counts)
            return sum(p * p for p in pattern)

        hint = min(free, key=squares)  # the most even split; the lowest hint of equals
        free.remove(hint)
        out[hint] = sum(1 << i for i in bits)
    return tuple(out)


tables = st.tuples(*[st.booleans()] * 9)
unseen = st.tuples(*[st.integers(0, 3)] * 9)


@settings(max_examples=400, deadline=None)
@given(mask=pair_masks(), counts=unseen, playable=tables, safe=tables)
def test_partition_of_pairs_is_the_plain_one(mask, counts, playable, safe):
    assert partition(mask, counts, playable, safe) == plain_partition(mask, counts, playable, safe)


@settings(max_examples=200, deadline=None)
@given(singles=st.integers(1, 511), counts=unseen, playable=tables, safe=tables)
def test_partition_of_one_shard_hands_is_the_plain_one(singles, counts, playable, safe):
    mask = singles << 81
    assert partition(mask, counts, playable, safe) == plain_partition(mask, counts, playable, safe)


@settings(max_examples=300, deadline=None)
@given(
    mask=pair_masks(),
    counts=unseen,
    playable=tables,
    safe=tables,
    questions=st.lists(st.tuples(st.booleans(), st.integers(0, 80)), max_size=8),
)
def test_a_code_book_asked_piecemeal_answers_as_the_whole_partition(
    mask, counts, playable, safe, questions
):
    # The hinter asks for the hint naming one hand, the receiver for the group of one hint,
    # in any order: pairing groups with hints only as far as asked changes no answer.
    whole = partition(mask, counts, playable, safe)
    allowed = mask & possible_hands(counts)
    classes = class_masks(shard_set(playable), shard_set(safe))
    book = code_book(allowed, hand_weights(counts), classes)
    for by_hand, n in questions:
        if by_hand:
            named = [k for k in range(6) if whole[k] >> n & 1]
            assert book.hint_naming(1 << n) == (named[0] if named else -1)
        else:
            assert book.group(n % 6) == whole[n % 6]
    assert book.masks() == whole


@settings(max_examples=300, deadline=None)
@given(counts=unseen)
def test_hand_weights_are_the_ways_to_hold_each_hand(counts):
    assert hand_weights(counts) == tuple(weight(h, counts) for h in HAND_OF_BIT)


@settings(max_examples=300, deadline=None)
@given(playable=tables, safe=tables)
def test_class_masks_hold_each_hand_in_its_class(playable, safe):
    masks = class_masks(shard_set(playable), shard_set(safe))
    for i, hand in enumerate(HAND_OF_BIT):
        assert [label for label in range(6) if masks[label] >> i & 1] == [
            hand_class(hand, playable, safe)
        ]


@settings(max_examples=300, deadline=None)
@given(mask=st.integers(0, (1 << 91) - 1))
def test_indices_of_lists_the_set_bits_in_order(mask):
    assert indices_of(mask) == tuple(i for i in range(91) if mask >> i & 1)


@st.composite
def public_states(draw):
    """Gems and discards that a game can reach: no shard played or discarded twice over."""
    gems = tuple(draw(st.integers(0, 3)) for _ in range(3))
    discards = []
    for t in range(9):
        played = t % 3 < gems[t // 3]
        discards += [t] * draw(st.integers(0, TYPE_COUNTS[t] - played))
    return gems, tuple(discards)


@settings(max_examples=300, deadline=None)
@given(state=public_states())
def test_card_tables_in_one_pass_follow_the_rules(state):
    gems, discards = state
    playable, trash, critical, unseen = card_tables(gems, discards)
    for t in range(9):
        colour, value = divmod(t, 3)
        gone = discards.count(t)
        lower_lost = any(
            discards.count(colour * 3 + u) == TYPE_COUNTS[colour * 3 + u]
            for u in range(gems[colour], value)
        )
        assert playable[t] == (value == gems[colour])
        assert trash[t] == (value < gems[colour] or lower_lost)
        assert critical[t] == (not trash[t] and TYPE_COUNTS[t] - gone == 1)
        assert unseen[t] == TYPE_COUNTS[t] - gone - (value < gems[colour])


@settings(max_examples=300, deadline=None)
@given(state=public_states())
def test_public_facts_joined_colour_by_colour_are_the_card_tables(state):
    gems, discards = state
    playable, trash, critical, unseen = card_tables(gems, discards)
    facts = public_facts(tuple(gems), tuple(sorted(discards)))
    assert facts.playable == tuple(playable)
    assert facts.trash == tuple(trash)
    assert facts.critical == tuple(critical)
    assert facts.counts == tuple(unseen)
    assert facts.loss == tuple(loss_table(unseen, trash, critical))
    assert facts.playable_set == shard_set(playable)
    assert facts.critical_set == shard_set(critical)
    assert facts.trash_set == shard_set(trash)
    assert facts.unseen.copies == copies_sets(unseen)  # joined from the counts' code
    assert facts.possible == possible_hands(unseen)
    assert facts.playable_hands == hands_holding(shard_set(playable))
    assert facts.critical_hands == hands_holding(shard_set(critical))
    spare = [not c or p for c, p in zip(critical, playable)]
    assert facts.spare_hands == hands_holding(shard_set(spare))


@settings(max_examples=200, deadline=None)
@given(state=public_states(), shard=st.integers(0, 8))
def test_the_state_after_a_play_or_discard_is_found_by_its_code(state, shard):
    gems, discards = state
    facts = public_facts(tuple(gems), tuple(sorted(discards)))
    unseen = card_tables(gems, discards)[3]
    if unseen[shard] > 0:  # a copy is left to discard
        after = tuple(sorted([*discards, shard]))
        assert facts.after_discard(shard) is public_facts(tuple(gems), after)
    if shard % 3 == gems[shard // 3]:  # playable
        played = list(gems)
        played[shard // 3] += 1
        assert facts.after_play(shard) is public_facts(tuple(played), tuple(sorted(discards)))


def test_the_opening_state_is_found_by_its_code_before_and_after_caches_are_cleared():
    from simulator.games.lostgems.bots.handsets import clear_caches

    clear_caches()
    first = opening_facts()  # worked out, as nothing is cached
    assert first.gems == (0, 0, 0) and first.discards == () and first.counts == TYPE_COUNTS
    assert opening_facts() is first is public_facts((0, 0, 0), ())


def hand_sets():
    """Sets of 2-shard hands, of 1-shard hands, or the empty hand alone."""
    return st.one_of(pair_masks(), st.integers(1, 511).map(lambda s: s << 81), st.just(1 << 90))


@settings(max_examples=400, deadline=None)
@given(mask=hand_sets(), counts=unseen, playable=st.integers(0, 511))
def test_a_known_play_found_on_masks_is_the_plain_one(mask, counts, playable):
    """known_play() on possible_hands() finds, without weights, the slot whose shard is
    playable in every hand of positive weight (the first such slot), as defined."""
    possible = [HAND_OF_BIT[i] for i in indices_of(mask) if weight(HAND_OF_BIT[i], counts) > 0]
    expected = -1
    for slot in (0, 1):
        if possible and all(len(h) > slot and playable >> h[slot] & 1 for h in possible):
            expected = slot
            break
    assert known_play(mask & possible_hands(counts), playable) == expected


@settings(max_examples=300, deadline=None)
@given(mask=hand_sets(), state=public_states())
def test_knowing_a_play_is_a_known_play_among_the_possible_hands(mask, state):
    facts = public_facts(tuple(state[0]), tuple(sorted(state[1])))
    expected = known_play(mask & facts.possible, facts.playable_set) >= 0
    assert bool(knows_a_play(mask, facts)) == expected


@given(shards=st.integers(0, 511))
def test_hands_holding_a_shard_of_a_set_are_those_that_do(shards):
    expected = sum(1 << i for i, h in enumerate(HAND_OF_BIT) if any(shards >> t & 1 for t in h))
    assert hands_holding(shards) == expected


@settings(max_examples=300, deadline=None)
@given(mask=st.one_of(hand_sets(), st.integers(0, (1 << 91) - 1)))
def test_size_of_is_the_size_of_the_lowest_hand(mask):
    lowest = HAND_OF_BIT[indices_of(mask)[0]] if mask else ()
    assert size_of(mask) == len(lowest)


@settings(max_examples=300, deadline=None)
@given(mask=hand_sets(), state=public_states())
def test_a_partner_view_is_their_hand_weighed(mask, state):
    # Short cuts (a known play, a known trash slot) give what weighing the hand gives.
    facts = public_facts(tuple(state[0]), tuple(sorted(state[1])))
    n = size_of(mask)
    if n == 0 or knows_a_play(mask, facts):
        return
    rows, total = slot_weights(mask & facts.possible, facts.counts, n)
    losses = means(rows, total, facts.loss)
    chop = 1 if n == 2 and losses[1] < losses[0] else 0
    assert partner_view(mask, facts, n) == (False, chop, losses[chop])

"""Convention bot internals: the hand-set bitmasks, memoisation that changes no move, and the
policy rules that spare a risky discard when the partner has something free to do."""

from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.games.lostgems import play_game
from simulator.games.lostgems.bots import beliefs as beliefs_module
from simulator.games.lostgems.bots import codewords, conventions, handsets
from simulator.games.lostgems.bots.beliefs import (
    beliefs,
    possible_hands,
    public_facts,
    slot_weights,
    unseen_of,
)
from simulator.games.lostgems.bots.codewords import hand_class, partition
from simulator.games.lostgems.bots.conventions import ConventionBot
from simulator.games.lostgems.bots.handsets import ALL_PAIRS_MASK, hands_of, mask_of
from simulator.games.lostgems.bots.knowledge import card_tables
from simulator.games.lostgems.moves import HINT, Move
from simulator.games.lostgems.shards import parse_shard


def test_hand_masks_round_trip_in_sorted_order():
    hands = [(4, 1), (0, 8), (2,), (0, 0), (8, 8)]
    mask = mask_of(hands)
    pairs = sorted(h for h in hands if len(h) == 2)
    singles = sorted(h for h in hands if len(h) == 1)
    assert hands_of(mask) == tuple(pairs + singles)
    assert hands_of(ALL_PAIRS_MASK) == tuple((a, b) for a in range(9) for b in range(9))
    assert hands_of(mask_of([()])) == ((),)
    assert mask_of([]) == 0 and hands_of(0) == ()


class Forgetful(dict):
    """A memo cache that keeps nothing, so that every lookup misses."""

    def __setitem__(self, key, value):
        pass


def test_memoised_bot_makes_the_moves_it_would_compute_afresh(monkeypatch):
    # Warm the caches on other deals, then replay with caching turned off: a cache key that
    # missed something the choice depends on would show up as a different game.
    warm = {
        seed: [str(e.move) for e in play_game(ConventionBot, seed=seed).history]
        for seed in range(100, 112)
    }
    for _ in range(2):
        for seed in range(60):
            play_game(ConventionBot, seed=seed)
    # Caches that store nothing: every result is computed afresh.
    for module in (handsets, beliefs_module, codewords, conventions):
        for name, value in list(vars(module).items()):
            if any(value is cache for cache in handsets.CACHES):
                monkeypatch.setattr(module, name, Forgetful())
    for seed, moves in warm.items():
        assert [str(e.move) for e in play_game(ConventionBot, seed=seed).history] == moves


def test_caches_are_trimmed_to_their_limit_as_bots_are_made(monkeypatch):
    # Memo stores do not check sizes; each new convention bot (two a game) empties the caches
    # that have reached the limit, so a long batch stays within it between games.
    handsets.clear_caches()
    play_game(ConventionBot, seed=3)
    sizes = [len(cache) for cache in handsets.CACHES]
    limit = sorted(set(sizes))[-2]  # a size some caches have reached and others have not
    assert min(sizes) < limit
    monkeypatch.setattr(handsets, "CACHE_LIMIT", limit)
    handsets.trim_caches()
    assert [len(c) for c in handsets.CACHES] == [0 if n >= limit else n for n in sizes]
    trims = []
    monkeypatch.setattr(conventions, "trim_caches", lambda: trims.append(True))
    ConventionBot(0)
    ConventionBot(1)
    assert len(trims) == 2


def hints_but_discards_once(args, **tuning):
    """decide(*args) hints, and a bot with `tuning` (the reason for the hint turned off)
    discards slot 1 instead: the hint is there for that reason alone."""
    assert ConventionBot(0).decide(*args).kind == HINT
    tuned = type("Tuned", (ConventionBot,), tuning)
    assert tuned(0).decide(*args) == Move.discard(1)


def test_hints_a_partner_who_knows_a_free_discard_instead_of_risking_one():
    # Red 1 is played; the partner knows (common knowledge) that their slot 1 is another red 1,
    # which costs nothing to discard. With one token spent, my own unknown hand is a risky
    # discard, so I hint: the partner's discard brings the token back without the risk.
    r1, y2 = parse_shard("R1"), parse_shard("Y2")
    theirs = mask_of((r1, t) for t in range(9))
    facts = public_facts((1, 0, 0), ())
    args = (ALL_PAIRS_MASK, theirs, facts, 2, True, (r1, y2), 2, None, False)
    hints_but_discards_once(args, spare_loss=99.0)


def test_hints_a_partner_whose_likely_discard_it_sees_is_cheap():
    # One of each 1 is played; the partner knows nothing of their hand, but I see that the
    # slot they would discard holds a spare red 1. My own unknown hand is a risky discard, so
    # I hint and let them discard the shard that costs nothing.
    r1, y3 = parse_shard("R1"), parse_shard("Y3")
    facts = public_facts((1, 1, 1), ())
    args = (ALL_PAIRS_MASK, ALL_PAIRS_MASK, facts, 2, True, (r1, y3), 2, None, False)
    hints_but_discards_once(args, spare_seen=-1.0)


def test_hints_a_partner_who_knows_a_play_instead_of_risking_a_discard():
    # Red 1 is played; the partner knows (common knowledge) that their slot 1 is a red 2, a
    # play, and sees nothing free to discard. With one token spent, my own unknown hand is a
    # risky discard, so I hint: the partner plays meanwhile, and my shards stay until I know.
    r2, b3 = parse_shard("R2"), parse_shard("B3")
    theirs = mask_of((r2, t) for t in range(9))
    facts = public_facts((1, 0, 0), ())
    args = (ALL_PAIRS_MASK, theirs, facts, 2, True, (r2, b3), 2, None, False)
    hints_but_discards_once(args, spare_loss=99.0)


def test_gambles_a_play_when_a_failed_play_costs_less_than_any_discard():
    # Yellow 1 is played and a yellow 2 discarded. My slot 2 is surely the last red 3; slot 1
    # is the last yellow 2 (playable) or the last blue 3: either discard loses a last copy,
    # while a play loses one only half the time (plus an error token).
    y2, r3, b3 = (parse_shard(x) for x in ("Y2", "R3", "B3"))
    mine = mask_of([(y2, r3), (b3, r3)])
    partner = (parse_shard("Y1"), parse_shard("R2"))
    args = [mine, ALL_PAIRS_MASK, public_facts((0, 1, 0), (y2,)), 0, True, partner, 2, None, False]
    assert ConventionBot(0).decide(*args) == Move.play(1)
    args[4] = False  # one error token already lost: an error now would end the game at 0
    assert ConventionBot(0).decide(*args).kind != "play"

    class Careful(ConventionBot):
        error_cost = 99.0

    args[4] = True
    assert Careful(0).decide(*args).kind != "play"


def test_forced_to_lose_a_last_copy_it_loses_the_one_that_costs_fewer_points():
    # A red 2 is discarded, so I hold the last red 2 and the red 3, and I know it; no token is
    # left, and a blind play would fail. Losing the 2 would cost red two points, the 3 one.
    r2, r3 = parse_shard("R2"), parse_shard("R3")
    partner = (parse_shard("Y3"), parse_shard("B3"))
    facts = public_facts((0, 0, 0), (r2,))
    for hand, slot_of_the_3 in (((r2, r3), 2), ((r3, r2), 1)):
        args = [mask_of([hand]), ALL_PAIRS_MASK, facts, 0, True, partner, 2, None, False]
        assert ConventionBot(0).decide(*args) == Move.discard(slot_of_the_3)


# Sets of 2-shard hands, dense or sparse (as after hints); unseen copies of each shard.
pair_masks = st.one_of(
    st.integers(0, ALL_PAIRS_MASK),
    st.sets(st.integers(0, 80), max_size=24).map(lambda s: sum(1 << i for i in s)),
)
unseen_counts = st.tuples(*[st.integers(0, 3)] * 9)


@settings(max_examples=300, deadline=None)
@given(mask=pair_masks, singles=st.integers(0, 511), counts=unseen_counts)
def test_slot_weights_sum_the_ways_to_hold_each_hand(mask, singles, counts):
    # The popcount arithmetic (or, for a few hands, the hand-by-hand sum) must agree with
    # weighing every hand on its own; the few-hands strategy crosses FEW_HANDS.
    for n, m in ((2, mask), (1, singles << 81)):
        rows = [[0] * 9 for _ in range(n)]
        total = 0
        for h in hands_of(m):
            w = counts[h[0]] * (counts[h[1]] - (h[0] == h[1])) if n == 2 else counts[h[0]]
            total += w
            for slot, t in enumerate(h):
                rows[slot][t] += w
        assert slot_weights(m, counts, n) == (tuple(tuple(r) for r in rows), total)


@settings(max_examples=300, deadline=None)
@given(
    mask=pair_masks,
    singles=st.integers(0, 511),
    counts=unseen_counts,
    playable=st.tuples(*[st.booleans()] * 9),
    safe=st.tuples(*[st.booleans()] * 9),
)
def test_hands_no_deal_allows_change_no_weight_and_no_code_word(
    mask, singles, counts, playable, safe
):
    # The memo keys of beliefs and code books leave out the hands the counts rule out, and
    # work on what is left: that must give what the whole mask gives.
    allowed = possible_hands(counts)
    for n, m in ((2, mask), (1, singles << 81)):
        assert beliefs(m, unseen_of(counts), n) == slot_weights(m, counts, n)
        assert partition(m & allowed, counts, playable, safe) == partition(
            m, counts, playable, safe
        )


def test_the_public_state_kept_from_events_matches_the_observation():
    # The bot keeps gems and discards from the events it observes, and reads them afresh when
    # it missed a turn: either way it must see what the observation shows.
    from simulator.games.lostgems import GameState

    for seed in range(20):
        g = GameState(seed=seed)
        bots = [ConventionBot(0), ConventionBot(1)]
        forgetful = ConventionBot(1)  # observes only every third turn
        obs = [g.observation(0), g.observation(1)]
        while not g.over:
            p = g.current
            g.apply(bots[p].act(obs[p]))
            for q in (0, 1):
                bots[q].observe(obs[q], obs[q].last_event)
            if g.turns % 3 == 0:
                forgetful.observe(obs[1], obs[1].last_event)
            truth = (tuple(obs[1].gems), tuple(sorted(obs[1].discards)))
            for facts in (bots[1].public_now(obs[1]), bots[0].public, forgetful.public_now(obs[1])):
                assert (facts.gems, facts.discards) == truth
                assert list(facts.counts) == card_tables(*truth)[3]
            # What seat B has not seen: the copies neither played nor discarded, less A's hand.
            unseen = list(card_tables(*truth)[3])
            for t in obs[1].partner_hand:
                unseen[t] -= 1
            mine = bots[1].public_now(obs[1]).beside(tuple(obs[1].partner_hand))
            assert mine.counts == tuple(unseen)
            assert mine.possible == possible_hands(mine.counts)
            assert mine is unseen_of(tuple(unseen))  # one object per counts: a memo key


@settings(max_examples=300, deadline=None)
@given(
    mask=st.integers(1, ALL_PAIRS_MASK),
    counts=st.tuples(*[st.integers(0, 3)] * 9),
    playable=st.tuples(*[st.booleans()] * 9),
    safe=st.tuples(*[st.booleans()] * 9),
)
def test_code_word_groups_split_the_possible_hands_by_class(mask, counts, playable, safe):
    # Every hand some deal allows is named by exactly one hint; a hint's group never mixes
    # classes (it refines them); and classes are split further while a group can be split
    # and a hint is unused, so six hints are used whenever the hands allow six groups.
    groups = partition(mask, counts, playable, safe)
    possible = [h for h in hands_of(mask) if counts[h[0]] * (counts[h[1]] - (h[0] == h[1])) > 0]
    union = 0
    for g in groups:
        assert union & g == 0
        union |= g
        assert len({hand_class(h, playable, safe) for h in hands_of(g)}) <= 1
    assert union == mask_of(possible)
    classes = {hand_class(h, playable, safe) for h in possible}
    used = sum(1 for g in groups if g)
    assert used >= min(6, len(classes))
    if len(possible) >= 6 and all(hand_class(h, playable, safe) >= 4 for h in possible):
        assert used == 6  # hands split on themselves: any six can be told apart

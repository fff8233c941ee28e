"""The search bot's belief over its own hand (bots/own_hand.py) is exact."""

from simulator.games.lostgems.bots import play_game
from simulator.games.lostgems.bots.beliefs import opening_facts
from simulator.games.lostgems.bots.conventions import ConventionBot
from simulator.games.lostgems.bots.handsets import BIT_OF_HAND, FIRST_IN, HAND_OF_BIT
from simulator.games.lostgems.bots.own_hand import (
    NO_MARKS,
    marked_after_leaving,
    marked_after_partner,
    weighted_hands,
)
from simulator.games.lostgems.bots.search import SearchBot
from simulator.games.lostgems.shards import parse_shard

R1, R2, R3, Y1 = (parse_shard(s) for s in ("R1", "R2", "R3", "Y1"))


def index(hand):
    return BIT_OF_HAND[hand].bit_length() - 1


def test_weights_count_the_unseen_copies_and_the_partners_policy():
    # The partner holds R1 R1: one R1 is unseen, two R2, one R3, three Y1 ... The common
    # knowledge says my slot 1 is an R1.
    unseen = opening_facts().beside((R1, R1))
    assert unseen.counts == (1, 2, 1, 3, 2, 1, 3, 2, 1)
    got = dict(weighted_hands(FIRST_IN[1 << R1], unseen, NO_MARKS, 0.0))
    # (R1, x): 1 way for the R1 times the copies of x left beside it; (R1, R1) is impossible.
    assert got == {(R1, t): unseen.counts[t] for t in range(1, 9)}
    assert got[(R1, R2)] == 2 and got[(R1, Y1)] == 3
    # The partner would have moved otherwise had I held (R1, Y1): that hand goes (stray 0),
    # or weighs a quarter as much (stray 0.25).
    marks = marked_after_partner(NO_MARKS, FIRST_IN[1 << R1], 2, lambda hand: hand != (R1, Y1))
    assert [HAND_OF_BIT[i] for i in range(81) if marks[i]] == [(R1, Y1)]
    assert (R1, Y1) not in dict(weighted_hands(FIRST_IN[1 << R1], unseen, marks, 0.0))
    assert dict(weighted_hands(FIRST_IN[1 << R1], unseen, marks, 0.25))[(R1, Y1)] == 0.75


def test_marks_follow_the_shard_left_when_one_leaves():
    marks = list(NO_MARKS)
    marks[index((R2, Y1))] = 1  # the partner's move disagreed with (R2, Y1)
    # I play slot 1 and it shows R2: Y1 moves to slot 1, and any draw joins it in slot 2.
    after = marked_after_leaving(tuple(marks), 1, R2, 2)
    assert [HAND_OF_BIT[i] for i in range(91) if after[i]] == [(Y1, t) for t in range(9)]
    # It showed R3 instead: the marked hand was not mine, so nothing stays marked.
    assert not any(marked_after_leaving(tuple(marks), 1, R3, 2))
    # Slot 2 leaves and the jungle is empty: the lone shard left keeps the mark.
    after = marked_after_leaving(tuple(marks), 2, Y1, 1)
    assert [HAND_OF_BIT[i] for i in range(91) if after[i]] == [(R2,)]


def test_beside_a_blueprint_partner_the_true_hand_is_never_ruled_out():
    """With a convention partner and stray 0 the belief is Bayes' rule: the hand I hold always
    keeps its weight, and the partner's moves do rule other hands out."""
    seen_marks = 0

    class Checked(SearchBot):
        stray = 0.0
        worlds = 32  # fewer rollouts: this test is about the belief, not the choice

        def act(self, obs):
            nonlocal seen_marks
            hand = tuple(obs._state.hands[self.player])  # the test's own look at the truth
            bit = BIT_OF_HAND[hand].bit_length() - 1
            assert self.marks[bit] == 0
            assert self.blueprint.masks[self.player] >> bit & 1
            seen_marks += any(self.marks)
            return SearchBot.act(self, obs)

    for seed in range(4):
        play_game(Checked, seed=seed, partner=ConventionBot)
    assert seen_marks > 0

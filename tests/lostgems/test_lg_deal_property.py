"""The table invariant over shapes x frame loss x bit flips x seeds x re-deals: after a clean
deal, a re-deal on noisy links leaves the whole deck once (every tile face down) or exactly the
old table; with a tile lifted or reset at some moment of the deal, only that tile may show
`uncertain`, and once it is back every tile shows the one or the other.

And the bound on how long a tile shows `dealing` (runtime.deal's SHOW_LIMIT_MS, 45 s on the
tile's own clock from getting its item): the worst mixes of noise, on 6, 12 and 18 tiles, two
or three re-deals each.

A small sweep of the bench's harness (bench/bench_deal.py), which tries 2,000 and more
(`python bench/bench_deal.py --bound 512` for the bound alone)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))

import bench_deal
from runtime.deal import SHOW_LIMIT_MS

QUIET = [  # (shape, frame loss, bit flips, seed, re-deals)
    ("blob", 0.1, 0.0, 1, 2),
    ("line", 0.3, 0.001, 2, 1),
    ("ring", 0.3, 0.0, 3, 2),
    ("random", 0.1, 0.001, 4, 1),
]
NOISY = [
    ("blob", 0.6, 0.0, 5, 1),
    ("line", 0.45, 0.01, 6, 1),
    ("ring", 0.6, 0.03, 7, 1),
    ("random", 0.3, 0.03, 8, 1),
    ("line", 0.6, 0.001, 9, 2),
    ("blob", 0.45, 0.01, 10, 2),
]


@pytest.mark.parametrize("shape, loss, flips, seed, rounds", QUIET)
def test_a_redeal_on_fairly_quiet_links_deals_the_whole_deck_once(shape, loss, flips, seed, rounds):
    outcome, _flipped, accepted = bench_deal.redeal(shape, loss, flips, seed, rounds)
    assert outcome == "new"
    assert accepted == 0


@pytest.mark.parametrize("shape, loss, flips, seed, rounds", NOISY)
def test_a_redeal_on_noisy_links_is_all_or_nothing(shape, loss, flips, seed, rounds):
    outcome, flipped, accepted = bench_deal.redeal(shape, loss, flips, seed, rounds)
    assert outcome in ("new", "old")
    assert accepted == 0  # no corrupted frame was taken for a good one
    assert flipped > 0 or flips == 0


@pytest.mark.parametrize("how", ["lift", "reset"])
def test_a_tile_lifted_or_reset_mid_deal_is_the_only_one_uncertain(how):
    outcomes = []
    for i, (shape, after) in enumerate(
        [("line", 150), ("blob", 700), ("ring", 1500), ("random", 3000)]
    ):
        for loss in (0.0, 0.3):
            outcome, _, _ = bench_deal.redeal(shape, loss, 0.0, 20 + i, 1, (how, after))
            assert outcome in ("new", "old"), (shape, loss, after, outcome)
            outcomes.append(outcome)
    assert "new" in outcomes and "old" in outcomes  # the moments hit both sides of the vote


BOUND = [  # (shape, tiles, frame loss, bit flips, seed, rounds)
    ("line", 18, 0.3, 0.01, 9, 3),  # a tile showed `dealing` for 79 s before the bound
    ("line", 18, 0.3, 0.01, 15, 3),  # 76 s, and the last one 100 s after the hold
    ("line", 18, 0.0, 0.03, 2, 3),  # no loss, 3 % bit flips (the held tile also discarded)
    ("ring", 12, 0.5, 0.03, 4, 3),
    ("line", 6, 0.5, 0.03, 11, 2),
    ("blob", 18, 0.6, 0.03, 4, 2),
    ("random", 12, 0.45, 0.01, 5, 2),
]
SAMPLE_MS = 100  # the harness looks at the tiles this often


@pytest.mark.parametrize("shape, n, loss, flips, seed, rounds", BOUND)
def test_no_tile_shows_dealing_longer_than_the_bound(shape, n, loss, flips, seed, rounds):
    watch = []
    outcome, _, accepted = bench_deal.redeal(shape, loss, flips, seed, rounds, n=n, watch=watch)
    assert outcome in ("new", "old")
    assert accepted == 0
    assert len(watch) == rounds
    assert max(seen.longest_ms for seen in watch) <= SHOW_LIMIT_MS + SAMPLE_MS

"""Random legal move sequences never break the referee's invariants (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.games.lostgems import GameState, IllegalMove, Move
from simulator.games.lostgems.shards import TYPE_COUNTS


def check_invariants(g):
    played = [c * 3 + v for c in range(3) for v in range(g.gems[c])]
    jungle = g.deck[g.next_draw :]
    everything = sorted(g.hands[0] + g.hands[1] + g.discards + played + jungle)
    assert everything == sorted(t for t in range(9) for _ in range(TYPE_COUNTS[t]))  # all 18
    assert 0 <= g.hints <= 3 and 0 <= g.errors <= 2
    assert g.score == (0 if g.errors == 2 else sum(g.gems))
    assert all(len(h) <= 2 for h in g.hands) and g.jungle == len(jungle)
    assert all(len(k) == len(h) for k, h in zip(g.knowledge, g.hands))
    if g.jungle > 0 and not g.over:
        assert len(g.hands[0]) == len(g.hands[1]) == 2


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 1000), min_size=1, max_size=80))
def test_random_legal_moves_keep_the_invariants(seed, choices):
    g = GameState(seed=seed, start=seed % 2)
    check_invariants(g)
    for c in choices:
        if g.over:
            break
        legal = g.legal_moves()
        assert legal
        g.apply(legal[c % len(legal)])
        check_invariants(g)
    if g.over:
        assert g.legal_moves() == []


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 1000), max_size=40))
def test_illegal_moves_are_refused_and_change_nothing(seed, choices):
    g = GameState(seed=seed)
    every = (
        [Move.play(s) for s in (1, 2, 3)]
        + [Move.discard(s) for s in (1, 2, 3)]
        + [Move.hint_colour(c) for c in range(3)]
        + [Move.hint_value(v) for v in (1, 2, 3)]
    )
    for c in choices:
        if g.over:
            break
        legal = g.legal_moves()
        for m in every:
            if m not in legal:
                before = g.to_dict()
                try:
                    g.apply(m)
                except IllegalMove:
                    pass
                else:
                    raise AssertionError(f"{m} applied though not legal")
                assert g.to_dict() == before
        g.apply(legal[c % len(legal)])

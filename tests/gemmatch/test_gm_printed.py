"""The printed Gem Match (`--variant printed`): tetromino tokens, a square field of the players'
size, placement anywhere with rotation (never a flip), groups of 3, 4 and 5+ as the seed scores
them, looking under a group's tokens, the scoring, skip and end; its greedy bot and playtest."""

import json

import pytest

from host_tools.cli import main
from simulator.games.gemmatch import printed as pr
from simulator.games.gemmatch import printed_bots
from simulator.games.gemmatch.rules import BASIC, IMPROVED


def test_tokens_are_two_sided_tetrominoes_as_the_seed_describes():
    assert len(pr.TOKENS) == 28
    for t, (letter, basic, improved) in enumerate(pr.TOKENS):
        assert len(set(basic)) == 4  # "a basic side always contains 4 different gems"
        cells = pr.side_cells(t, IMPROVED)
        assert cells == pr.mirror(pr.side_cells(t, BASIC))  # turned over, the shape mirrors
        alike = [(i, j) for i in range(4) for j in range(i + 1, 4) if improved[i] == improved[j]]
        assert len(alike) == 1 and pr.touching(cells[alike[0][0]], cells[alike[0][1]])


def hand_of(state, *tokens):
    state.hands[state.current] = list(tokens)
    state.phase = pr.PLACE


def lay(state, token, side, turn, spot):
    """Put a token on the field directly (setup, not a move)."""
    x, y = spot
    cells = [(x + cx, y + cy) for cx, cy in pr.turned(pr.side_cells(token, side), turn)]
    for cell, gem in zip(cells, pr.side_gems(token, side)):
        state.field[cell] = (token, gem)
    state.on_field[token] = (side, cells)


def test_a_token_goes_anywhere_turned_but_not_over_the_edge_nor_on_another():
    s = pr.GameState(seed=1, size=6)
    token, side = s.hands[0][0]
    far = (
        6 - 1 - max(x for x, _ in pr.turned(pr.side_cells(token, side), 0)),
        5 - max(y for _, y in pr.turned(pr.side_cells(token, side), 0)),
    )
    assert pr.place(1, 0, far) in s.legal_moves()  # the far corner of an empty field
    with pytest.raises(pr.IllegalMove, match="may not cross the field's edge"):
        s.apply(pr.place(1, 0, (5, 5)))
    with pytest.raises(pr.IllegalMove, match="never flipped"):
        s.apply(pr.place(1, 4, (0, 0)))
    s.apply(pr.place(1, 0, (0, 0)))
    assert s.current == 1 or s.phase != pr.PLACE
    if s.current == 1:
        with pytest.raises(pr.IllegalMove, match="may not overlap"):
            s.apply(pr.place(1, 0, (0, 0)))


def test_the_field_size_is_the_players_choice_within_bounds():
    assert pr.GameState(size=10).size == 10
    with pytest.raises(ValueError, match="square of 6 to 12"):
        pr.GameState(size=4)


def first_group(state, size):
    """A legal placement of the current hand that makes a group of `size` gems, or None."""
    for move in state.legal_moves():
        token, side = state.hands[state.current][move.slot - 1]
        x, y = move.spot
        cells = [(x + cx, y + cy) for cx, cy in pr.turned(pr.side_cells(token, side), move.turn)]
        field = dict(state.field)
        for cell, gem in zip(cells, pr.side_gems(token, side)):
            field[cell] = (token, gem)
        groups = pr.groups_on(field, cells)
        if len(groups) == 1 and groups[0].size == size:
            return move
    return None


def crowded(seed):
    """A game part played by greedy bots, stopped at the start of a turn with a full field."""
    s = pr.GameState(seed=seed, size=6)
    bots = [printed_bots.GreedyBot(p) for p in (0, 1)]
    while not s.over and len(s.field) < 16:
        s.apply(bots[s.current].act(s.observation(s.current)))
        while s.phase not in (pr.PLACE, pr.OVER):
            s.apply(bots[s.current].act(s.observation(s.current)))
    return s


def find(size):
    for seed in range(40):
        s = crowded(seed)
        if s.over:
            continue
        for t in range(len(pr.TOKENS)):
            if t in s.on_field or any(t == h for h, _ in s.hands[0] + s.hands[1]):
                continue
            for side in (BASIC, IMPROVED):
                hand_of(s, (t, side))
                move = first_group(s, size)
                if move:
                    return s, move
    raise AssertionError(f"no placement makes a group of {size}")


def test_a_group_of_3_sends_one_token_to_the_heap_and_the_turn_ends():
    s, move = find(3)
    player = s.current
    ev = s.apply(move)
    assert s.phase == pr.HEAP and ev.groups[0].size == 3 and ev.groups[0].tier == 1
    with pytest.raises(
        pr.IllegalMove, match="a group of 3: one of its tokens goes to the victory heap"
    ):
        s.apply(pr.PASS)
    token = min(s.resolving.tokens)
    heap_before = len(s.heaps[player])
    s.apply(pr.heap(token))
    assert len(s.heaps[player]) == heap_before + 1 and token not in s.on_field
    assert s.phase != pr.AGAIN


def test_a_group_of_4_heaps_one_keeps_one_looks_under_and_earns_a_placement():
    s, move = find(4)
    player = s.current
    s.apply(move)
    group = sorted(s.resolving.tokens)
    obs = s.observation(player)
    down = 1 - s.on_field[group[0]][0]
    assert obs.under(group[0]) == pr.side_gems(group[0], down)  # the Russian text: look under
    outside = next(t for t in s.on_field if t not in group)
    with pytest.raises(pr.IllegalMove, match="only the tokens of the group"):
        obs.under(outside)
    s.apply(pr.heap(group[0]))
    assert s.phase == pr.KEEP
    with pytest.raises(
        pr.IllegalMove, match="a group of 4: one more of its tokens goes to the hand"
    ):
        s.apply(pr.heap(group[1]))
    s.apply(pr.keep(group[1], IMPROVED))
    assert (group[1], IMPROVED) in s.hands[player] or group[1] in s.heaps[player]
    if s.phase == pr.AGAIN:
        assert pr.PASS in s.legal_moves()
        s.apply(pr.PASS)
        assert s.current != player or s.over


def test_groups_of_one_tier_made_at_once_count_as_one_of_the_next():
    three = [pr.Group("R", 3, {1, 2}), pr.Group("G", 3, {3, 4})]
    (one,) = pr.merged(three)
    assert one.tier == 2 and one.tokens == {1, 2, 3, 4}
    four = [pr.Group("R", 4, {1, 2}), pr.Group("G", 4, {3, 4}), pr.Group("B", 3, {5, 6})]
    tiers = sorted(g.tier for g in pr.merged(four))
    assert tiers == [1, 3]
    assert pr.Group("Y", 7, {1, 2, 3}).tier == 3


def test_a_group_of_5_or_more_shares_every_token_with_at_most_5_in_hand():
    s = pr.GameState(seed=2, size=6)
    s.queue = [pr.Group("R", 5, set())]
    for t in (20, 21):
        lay(s, t, BASIC, 0, (0, 2 * (t - 20)))
    s.queue[0].tokens = {20, 21}
    s.hands[0] = [(22, BASIC)] * 5
    ev = pr.Event(0, pr.PASS)
    s._resolve_next(ev)
    assert s.phase == pr.SHARE and 20 not in s.on_field and 21 not in s.on_field
    assert all(m.kind == pr.HEAP for m in s.legal_moves())  # the hand holds 5: no room
    with pytest.raises(
        pr.IllegalMove,
        match=r"a group of 5: the hand holds 5 tokens, so the rest go to the victory",
    ):
        s.apply(pr.keep(20, IMPROVED))
    with pytest.raises(
        pr.IllegalMove, match=r"T22 is not in the group of 5 \(its tokens: T20 T21\)"
    ):
        s.apply(pr.heap(22))


def test_pass_is_refused_until_a_big_group_earned_a_placement():
    s = pr.GameState(seed=3)
    with pytest.raises(
        pr.IllegalMove, match="must place one; a pass follows only a group of 4 or more"
    ):
        s.apply(pr.PASS)


def test_a_player_who_cannot_place_skips_and_two_skips_end_the_game():
    s = pr.GameState(seed=4, size=6)
    for y in range(6):
        for x in range(6):
            s.field[(x, y)] = (99, "R")
    s._start_turn()
    assert s.legal_moves() == [pr.SKIP_MOVE]
    with pytest.raises(pr.IllegalMove, match="none of the hand's tokens fits"):
        s.apply(pr.PASS)
    s.apply(pr.SKIP_MOVE)
    s.apply(pr.SKIP_MOVE)
    assert s.over and s.ended == "skips"


def test_a_point_a_heap_token_and_a_point_an_improved_hand_token():
    s = pr.GameState(seed=5)
    s.heaps[0] = [1, 2, 3]
    s.hands[0] = [(4, IMPROVED), (5, BASIC), (6, IMPROVED)]
    assert s.score(0) == 5


def test_greedy_bots_play_whole_games_and_beat_random_play():
    greedy = [printed_bots.play_game("greedy", seed=s) for s in range(12)]
    assert all(g.over and g.ended in pr.ENDS for g in greedy)
    randomly = [printed_bots.play_game("random", seed=s) for s in range(12)]
    assert sum(max(g.scores) for g in greedy) > 1.5 * sum(max(g.scores) for g in randomly)


def test_playtest_plays_the_printed_variant_and_refuses_what_it_does_not_take(capsys):
    assert (
        main(["playtest", "--game", "gemmatch", "--variant", "printed", "--games", "4", "--json"])
        == 0
    )
    figures = json.loads(capsys.readouterr().out)
    assert figures["variant"] == "printed" and figures["field_size"] == 8
    assert figures["bot"] == "greedy" and set(figures["groups_per_game"]) == {"3", "4", "5+"}
    scores = [printed_bots.play_game("greedy", seed=s).scores[0] for s in range(4)]
    assert figures["mean"]["A"] == pytest.approx(sum(scores) / 4, abs=1e-4)
    for bad, said in (
        (["--field", "5"], "--field must be from 6 to 12"),
        (["--bot", "careful"], "no printed Gem Match bot called 'careful'"),
        (["--physical"], "the printed variant is rules only, it has no tiles"),
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["playtest", "--game", "gemmatch", "--variant", "printed", "--games", "1", *bad])
        assert exit_.value.code == 2 and said in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["playtest", "--game", "gemmatch", "--field", "8", "--games", "1"])
    assert "--field is the printed variant's" in capsys.readouterr().err


def test_board_png_saves_each_games_field_and_is_the_printed_variants(tmp_path, capsys):
    folder = tmp_path / "fields"
    args = ["playtest", "--game", "gemmatch", "--variant", "printed", "--games", "2"]
    assert main([*args, "--seed", "5", "--board-png", str(folder)]) == 0
    pictures = sorted(p.name for p in folder.iterdir())
    assert pictures == ["seed5.png", "seed6.png"]
    assert (folder / "seed5.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(SystemExit):
        main(["playtest", "--game", "gemmatch", "--games", "1", "--board-png", str(folder)])
    assert "--board-png is the printed variant's" in capsys.readouterr().err

"""Stories of the deal: a cluster on the table, one tile held for 6 seconds, every shard lands
on exactly one tile (or nothing is dealt and the held tile flashes orange)."""

import pytest
from games.lostgems import LostGems, game
from games.lostgems import deal as deal_protocol
from lg_story import (
    BOARD,
    deal,
    deck_counter,
    find,
    hand_out,
    lift_to,
    logs,
    shard,
    state,
    states,
    table,
)

from simulator.world import World, shapes


@pytest.mark.parametrize("loss", [0.0, 0.1, 0.3])
@pytest.mark.parametrize("shape", ["blob", "line", "ring", "random"])
def test_eighteen_tiles_deal_every_shard_exactly_once(shape, loss):
    w = table(18, shape, loss, seed=3)
    held = 5
    deal(w, held)
    assert states(w) == ["face down"] * 18
    assert hand_out(w) == deck_counter(3)
    assert any("dealt size=18" in line for line in logs(w, held))


def test_twelve_tiles_deal_red_and_yellow():
    w = table(12, "blob", 0.1, seed=4)
    deal(w, 0)
    assert states(w) == ["face down"] * 12
    assert hand_out(w) == deck_counter(2)


def test_six_tiles_deal_red():
    w = table(6, "line", 0.0, seed=5)
    deal(w, 2)
    assert hand_out(w) == deck_counter(1)


def test_seventeen_tiles_refuse_and_flash_orange_on_the_held_tile():
    w = table(17, "blob", 0.0, seed=6)
    deal(w, 4)
    assert states(w) == ["undealt"] * 17
    assert all(shard(w, t) is None for t in w.tiles)
    assert w.inspect(4)["show"] == "deal failed"
    assert any("reason=cluster of 17 tiles" in line for line in logs(w, 4))
    assert w.inspect(3)["show"] == "undealt"
    w.advance(2500)
    assert w.inspect(4)["show"] == "undealt"


def test_a_second_deal_replaces_the_first_even_with_a_board_in_the_cluster():
    w = table(18, "blob", 0.1, seed=7)
    deal(w, 0)
    first = [shard(w, t) for t in w.tiles]
    w.double_click(3)  # someone peeks at one shard: the new deal replaces that too
    w.advance(400)
    assert state(w, 3) == "revealed"
    r1 = find(w, "R1", "face down")
    cell = w.position(r1)[:2]
    lift_to(w, r1, BOARD)
    w.triple_click(r1)
    assert state(w, r1) == "played"
    w.lift(r1)
    w.place(r1, *cell)  # the board tile goes back into the cluster for the next game
    w.advance(1000)  # its neighbours judge themselves against it, as any shard would
    deal(w, 9)
    second = [shard(w, t) for t in w.tiles]
    assert states(w) == ["face down"] * 18
    assert hand_out(w) == deck_counter(3)
    assert first != second
    w.advance(3000)  # nobody judges itself against the old board once dealt
    assert states(w) == ["face down"] * 18
    assert all(w.inspect(t)["face_out"] == [0] * 6 for t in w.tiles)


def test_deals_differ_between_games_and_repeat_from_the_seed():
    a = table(18, "blob", 0.0, seed=8)
    b = table(18, "blob", 0.0, seed=8)
    deal(a, 0)
    deal(b, 0)
    deal_a = [shard(a, t) for t in a.tiles]
    assert deal_a == [shard(b, t) for t in b.tiles]
    deal(a, 0)
    assert deal_a != [shard(a, t) for t in a.tiles]


def test_a_tile_taken_away_during_the_deal_means_no_deal_at_all():
    w = table(18, "line", 0.0, seed=9)
    w.press(0)
    w.advance(6000)
    w.advance(30)  # the JOIN wave is on its way down the line
    w.release(0)
    w.lift(17)  # the far end walks off the table mid-deal
    w.run_until(lambda: "dealing" not in states(w), deal_protocol.TILE_TIMEOUT_MS + 5000)
    assert all(shard(w, t) is None for t in w.tiles)
    assert set(states(w)) == {"undealt"}
    assert any("failed" in line for line in logs(w, 0))


def test_bit_flips_neither_break_the_deal_nor_judge_the_jungle():
    """A value frame hit by two bit flips passes the parity check: the jungle must not take it
    for a board value and play or discard itself."""
    w = World(seed=12, ir_loss=0.1, bit_flip=0.005)
    for q, r in shapes.blob(6):
        w.add_tile(LostGems, q=q, r=r)
    w.advance(300)
    deal(w, 0)
    assert states(w) == ["face down"] * 6 and hand_out(w) == deck_counter(1)
    w.advance(20000)
    assert w.ir.flipped > 100  # the links really were noisy
    assert states(w) == ["face down"] * 6


def lift_during_the_commit(w, held, gone):
    """Hold `held` for the deal and lift `gone` once the held tile has committed."""
    w.press(held)
    w.advance(6000)
    w.release(held)
    assert w.run_until(lambda: w.inspect(held)["deal"]["phase"] == "committing", 20000)
    cell = w.position(gone)[:2]
    w.lift(gone)
    return cell


def test_a_tile_taken_away_after_the_commit_makes_the_held_tile_say_the_deal_failed():
    """Tiles that committed cannot take their shard back: the held tile must at least tell the
    players that the deal did not reach every tile, so they deal again."""
    w = table(18, "line", 0.0, seed=9)
    lift_during_the_commit(w, 0, 17)
    assert w.run_until(lambda: w.inspect(0)["show"] == "deal failed", 40000)
    assert w.inspect(0)["deal"]["result"] != "dealt 18"
    assert any(" failed " in line for line in logs(w, 0))


def test_a_tile_put_back_before_its_commit_times_out_completes_the_deal():
    w = table(18, "line", 0.0, seed=9)
    cell = lift_during_the_commit(w, 0, 17)
    w.advance(3000)
    w.place(17, *cell)
    assert w.run_until(lambda: w.inspect(0)["deal"]["result"], 40000)
    assert w.inspect(0)["deal"]["result"] == "dealt 18"
    assert states(w) == ["face down"] * 18
    assert hand_out(w) == deck_counter(3)


def test_a_lone_tile_held_for_six_seconds_is_a_cluster_of_one_and_flashes_orange():
    w = World(seed=14)
    w.add_tile(LostGems, q=0, r=0)
    w.advance(300)
    deal(w, 0)
    assert states(w) == ["undealt"] and shard(w, 0) is None
    assert w.inspect(0)["show"] == "deal failed"
    assert any("reason=cluster of 1 tiles" in line for line in logs(w, 0))
    w.advance(2500)
    assert w.inspect(0)["show"] == "undealt"


@pytest.mark.parametrize(
    "seed, offset_ms", [(1, 800), (3, 1500), (4, 1500), (6, 800), (9, 100), (9, 300)]
)
def test_two_players_holding_two_tiles_of_one_cluster_deal_once_or_not_at_all(seed, offset_ms):
    """The second hold fires `offset_ms` after the first. If the first deal already reached the
    second tile, that tile is in a deal and its hold joins it; if not, two deals meet and both
    fail. Either way no tile may be left with a shard of a deal that did not finish."""
    w = table(18, "random", 0.1, seed=seed)
    w.press(0)
    w.advance(offset_ms)
    w.press(17)
    w.advance(game.HOLD_DEAL_MS + 100)
    w.release(0)
    w.release(17)
    assert w.run_until(lambda: "dealing" not in states(w), 60000)
    w.advance(deal_protocol.TILE_TIMEOUT_MS + 5000)  # any late failure has shown by now
    results = {w.inspect(t)["deal"]["result"] for t in (0, 17)}
    if states(w) == ["face down"] * 18:
        assert hand_out(w) == deck_counter(3)
        assert "dealt 18" in results and all(r in ("", "dealt 18") for r in results)
    else:
        assert states(w) == ["undealt"] * 18
        assert all(shard(w, t) is None for t in w.tiles)
        assert "another deal at the same time" in results


def test_a_tile_that_joins_a_deal_after_answering_busy_is_sent_back_at_once():
    """The first deal's root answers BUSY to the second deal's JOIN while it waits for DONE,
    finishes, then gets that JOIN again (repeated over the lossy link) and joins with the tiles
    around it. The second deal's root counted without them and fails (two deals at once); they
    must not show `dealing` until their own 24-second timeout."""
    w = table(18, "random", 0.3, seed=65)
    w.press(0)
    w.advance(6558)
    w.press(17)
    w.advance(game.HOLD_DEAL_MS + 100)
    w.release(0)
    w.release(17)
    assert w.run_until(lambda: w.inspect(17)["deal"]["result"], 20000)
    assert w.inspect(17)["deal"]["result"] == "another deal at the same time"
    assert w.run_until(lambda: "dealing" not in states(w), 8000), states(w)
    assert hand_out(w) == deck_counter(3)  # the first deal stands

"""Stories of the deal: a cluster on the table, one tile held for 6 seconds, every shard lands
on exactly one tile (or nothing is dealt and the held tile flashes orange), however noisy the
links, with tiles lifted or reset at the worst moments."""

import pytest
from games.lostgems import LostGems, display, game
from lg_story import (
    BOARD,
    deal,
    deck_counter,
    find,
    hand_out,
    hold_and_fire,
    lift_to,
    logs,
    phase,
    settle,
    shard,
    shown,
    state,
    states,
    table,
    table_outcome,
)
from runtime import colors

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


def test_seventeen_tiles_refuse_and_the_held_tile_flashes_orange_until_someone_presses_it():
    w = table(17, "blob", 0.0, seed=6)
    deal(w, 4)
    assert states(w) == ["undealt"] * 17
    assert all(shard(w, t) is None for t in w.tiles)
    assert w.inspect(4)["show"] == "deal failed"
    assert any("reason=cluster of 17 tiles" in line for line in logs(w, 4))
    assert w.inspect(3)["show"] == "undealt"
    w.advance(30000)  # nobody looked: it still says so
    assert w.inspect(4)["show"] == "deal failed"
    seen = set()
    for _ in range(6):
        seen.add(w.leds(4)[0])
        w.advance(display.FLASH_MS // 2)
    assert seen == {colors.ORANGE, colors.OFF}
    w.click(4)
    assert w.inspect(4)["show"] == "undealt"


def test_a_lone_tile_held_for_six_seconds_is_a_cluster_of_one_and_flashes_orange():
    w = World(seed=14)
    w.add_tile(LostGems, q=0, r=0)
    w.advance(300)
    deal(w, 0)
    assert states(w) == ["undealt"] and shard(w, 0) is None
    assert w.inspect(0)["show"] == "deal failed"
    assert any("reason=cluster of 1 tiles" in line for line in logs(w, 0))
    w.click(0)
    assert w.inspect(0)["show"] == "undealt"


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


def test_a_hold_released_early_deals_nothing_and_the_next_hold_deals():
    w = table(18, "line", 0.1, seed=2)
    w.press(0)
    w.advance(4000)  # the cluster counts itself meanwhile, showing nothing
    assert phase(w, 17) == "counted" and states(w) == ["undealt"] * 18
    w.release(0)
    w.advance(3000)
    assert states(w) == ["undealt"] * 18
    assert all(phase(w, t) == "aborted" for t in w.tiles)
    assert not any(" failed " in line or " start " in line for line in logs(w, 0))
    deal(w, 17)
    assert hand_out(w) == deck_counter(3)


def test_a_tile_attached_during_the_hold_is_dealt_too():
    w = World(seed=4, bit_rate=4000)
    cells = shapes.line(18)
    for q, r in cells[:17]:
        w.add_tile(LostGems, q=q, r=r)
    last = w.add_tile(LostGems, q=None)
    w.advance(300)
    w.press(0)
    w.advance(3000)  # counted 17 by now
    w.place(last, *cells[17])
    w.advance(game.HOLD_DEAL_MS - 3000 - 100)
    assert w.run_until(lambda: w.inspect(0)["deal"]["id"], 1000)
    w.release(0)
    settle(w, 0)
    assert states(w) == ["face down"] * 18
    assert hand_out(w) == deck_counter(3)


def test_a_tile_taken_away_before_it_voted_means_no_deal_at_all():
    w = table(18, "line", 0.0, seed=9)
    hold_and_fire(w, 0)
    w.advance(30)  # the shards are on their way down the line
    w.lift(17)  # the far end walks off the table mid-deal
    assert w.run_until(lambda: w.inspect(0)["deal"]["result"], 20000)
    assert w.run_until(lambda: "dealing" not in states(w), 5000)
    assert all(shard(w, t) is None for t in w.tiles)
    assert set(states(w)) == {"undealt"}
    assert any(" failed " in line for line in logs(w, 0))


def redealt_line(seed=9, loss=0.0):
    """A line of 18 dealt once, cleanly; then the links get `loss`. Returns (world, old)."""
    w = table(18, "line", 0.0, seed=seed)
    deal(w, 0)
    w.ir.loss = loss
    return w, shown(w)


def test_a_tile_lifted_after_its_ready_shows_uncertain_then_takes_its_new_shard():
    """The gap the README used to admit: it kept its old shard while the others took the new
    deal. Now it shows neither, and takes the new one when it touches the cluster again."""
    w, old = redealt_line(loss=0.1)
    hold_and_fire(w, 0)
    # the far end voted READY, and its READY has reached its neighbour, who voted too
    assert w.run_until(lambda: phase(w, 16) == "prepared", 20000)
    assert phase(w, 0) == "dealing"  # the held tile has not decided yet
    cell = w.position(17)[:2]
    w.lift(17)
    assert w.run_until(lambda: w.inspect(0)["deal"]["result"] == "dealt 18", 20000)
    assert w.run_until(lambda: state(w, 17) == "uncertain", 5000)
    w.advance(60000)  # as long as it stays away, it says it does not know
    assert state(w, 17) == "uncertain" and w.inspect(17)["show"] == "uncertain"
    assert w.leds(17) in (display.uncertain(w.now), display.uncertain(w.now - 25))
    assert [state(w, t) for t in range(17)] == ["face down"] * 17
    w.place(17, *cell)
    assert w.run_until(lambda: state(w, 17) == "face down", 5000)
    assert table_outcome(w, old) == "new"


def test_a_tile_reset_after_its_ready_comes_back_uncertain_and_learns_the_commit():
    w, old = redealt_line(loss=0.1)
    hold_and_fire(w, 0)
    assert w.run_until(lambda: phase(w, 9) == "prepared" and phase(w, 8) != "prepared", 20000)
    w.reset_tile(9)  # voted, then reset before the decision came
    w.advance(40)
    assert state(w, 9) == "uncertain"
    assert any(line.startswith("LG restore ") and " uncertain " in line for line in logs(w, 9))
    assert w.run_until(lambda: "uncertain" not in states(w) and "dealing" not in states(w), 30000)
    assert table_outcome(w, old) == "new"


def test_a_tile_reset_before_its_ready_makes_the_deal_fail_and_the_old_table_stand():
    w, old = redealt_line()
    hold_and_fire(w, 0)
    assert w.run_until(lambda: phase(w, 9) == "dealing", 20000)
    w.reset_tile(9)  # it holds a new shard but has not voted: it forgets the deal
    w.advance(40)
    assert (state(w, 9), shard(w, 9)) == old[9]
    assert w.run_until(lambda: w.inspect(0)["deal"]["result"], 30000)
    assert w.run_until(lambda: "dealing" not in states(w), 10000)
    assert table_outcome(w, old) == "old"
    assert w.inspect(0)["show"] == "deal failed"


def test_the_held_tile_reset_before_it_decided_comes_back_and_everyone_goes_back():
    w, old = redealt_line()
    hold_and_fire(w, 0)
    assert w.run_until(lambda: phase(w, 1) == "prepared", 20000)  # every other tile voted
    w.reset_tile(0)
    assert w.run_until(lambda: "dealing" not in states(w), 10000)
    assert table_outcome(w, old) == "old"
    assert w.inspect(0)["show"] == "deal failed"
    assert any("reason=reset" in line for line in logs(w, 0))


def test_a_single_deal_at_half_the_frames_lost_on_a_line_is_all_or_nothing():
    """Issue 33: `deal line` at --ir-loss 0.5 left 11 tiles with new shards and 7 undealt."""
    outcomes = []
    for seed in (17, 18):
        w = table(18, "line", 0.5, seed=seed)
        before = shown(w)
        hold_and_fire(w, 0)
        settle(w, 0)
        outcomes.append(table_outcome(w, before))
    assert "new" in outcomes


def test_a_redeal_on_a_blob_at_one_percent_bit_flips_is_all_or_nothing():
    """Issue 33: a clean deal, then a second one at 1 % bit flips left B3 twice and no R1."""
    for seed in (1, 2):
        w = table(18, "blob", 0.0, seed=seed)
        deal(w, 0)
        old = shown(w)
        w.ir.bit_flip = 0.01
        hold_and_fire(w, 5)
        settle(w, 5)
        table_outcome(w, old)
        assert w.ir.flipped > 1000


def test_bit_flips_neither_break_the_deal_nor_judge_the_jungle():
    """A value frame hit by bit flips must never be taken for a board value: every flipped
    frame is dropped, and the jungle stays face down."""
    w = World(seed=12, ir_loss=0.1, bit_flip=0.005)
    for q, r in shapes.blob(6):
        w.add_tile(LostGems, q=q, r=r)
    w.advance(300)
    deal(w, 0)
    assert states(w) == ["face down"] * 6 and hand_out(w) == deck_counter(1)
    w.advance(20000)
    assert w.ir.flipped > 100  # the links really were noisy
    dropped = sum(w.inspect(t)["frames_dropped"] for t in w.tiles)
    waiting = sum(len(w.hal(t).inbox[f]) for t in w.tiles for f in range(6))  # not read yet
    assert w.ir.flipped - waiting <= dropped <= w.ir.flipped
    assert states(w) == ["face down"] * 6


@pytest.mark.parametrize(
    "seed, offset_ms", [(1, 800), (3, 1500), (4, 1500), (6, 800), (9, 100), (9, 300)]
)
def test_two_players_holding_two_tiles_of_one_cluster_deal_once_or_not_at_all(seed, offset_ms):
    """The second hold starts `offset_ms` after the first. If the first count already reached
    the second tile, that tile is in a deal and its hold joins it; if not, two deals meet and
    both fail. Either way no tile may be left with a shard of a deal that did not finish."""
    w = table(18, "random", 0.1, seed=seed)
    w.press(0)
    w.advance(offset_ms)
    w.press(17)
    w.advance(game.HOLD_DEAL_MS + 100)
    w.release(0)
    w.release(17)
    assert w.run_until(lambda: "dealing" not in states(w), 60000)
    w.advance(5000)
    results = {w.inspect(t)["deal"]["result"] for t in (0, 17)}
    if states(w) == ["face down"] * 18:
        assert hand_out(w) == deck_counter(3)
        assert "dealt 18" in results
    else:
        assert states(w) == ["undealt"] * 18
        assert all(shard(w, t) is None for t in w.tiles)
        assert "another deal at the same time" in results


def test_a_tile_that_joins_a_deal_after_answering_busy_is_sent_back_at_once():
    """The first deal's tiles answer BUSY to the second deal's JOIN, finish, then get that JOIN
    again (repeated over the lossy link) and join with the tiles around it. The second deal's
    root counted without them and fails (two deals at once); they must not stay busy."""
    w = table(18, "random", 0.3, seed=65)
    w.press(0)
    w.advance(6558)
    w.press(17)
    w.advance(game.HOLD_DEAL_MS + 100)
    w.release(0)
    w.release(17)
    assert w.run_until(lambda: w.inspect(17)["deal"]["result"], 20000)
    assert w.run_until(lambda: "dealing" not in states(w), 8000), states(w)
    assert hand_out(w) == deck_counter(3)  # the first deal stands
    assert not any(w.runner(t).game.deal.busy(w.now) for t in w.tiles)

"""The deal protocol on its own (runtime.deal), game-agnostic, on a tiny bus (CPython and
MicroPython): every tile gets one item of the list exactly once, or none does; a tile that voted
never decides alone; resets and lifts at the worst moments."""

from rt_bus import Bus, Lcg, line_links
from runtime import deal as deal_mod


def hold_and_fire(bus, root, fire_after=500):
    """As a hold does: faces found, count from `root`, fire `fire_after` ms later."""
    bus.run(50)  # faces become present
    bus.deals[root].count(bus.now)
    bus.run(fire_after)
    bus.deals[root].start(bus.now)


def deal_on(bus, root, fire_after=0, ms=60000):
    """Hold and fire, then run until the root knows the outcome and no tile shows the deal."""
    hold_and_fire(bus, root, fire_after)
    return settled(bus, root, ms)


def settled(bus, root, ms=60000):
    """Run until the root knows the outcome and no tile shows the deal any more."""
    return bus.run_until(
        lambda: bus.deals[root].result and not any(d.active() for d in bus.deals), ms
    )


def every_item_once(bus, size):
    return sorted(bus.shown()) == sorted(bus.hosts[0].deal_deck(size))


def test_a_line_deals_every_item_exactly_once():
    for n, root in ((6, 0), (18, 7), (26, 25)):
        bus = Bus(line_links(n), n, sizes=(n,))
        assert deal_on(bus, root, 500)
        assert every_item_once(bus, n), (n, bus.shown())
        assert bus.deals[root].result == f"dealt {n}"
        assert all(h.events[-1] == "committed" or "finished" in h.events[-1] for h in bus.hosts)


def test_a_cluster_too_big_for_one_deck_is_refused_before_anything_is_sent():
    bus = Bus(line_links(28), 28, sizes=(28,))
    assert deal_on(bus, 0)
    assert bus.deals[0].result == "cluster too big" and bus.shown() == [None] * 28


def test_a_size_the_game_refuses_deals_nothing_and_fails_on_the_root():
    bus = Bus(line_links(7), 7)
    assert deal_on(bus, 0)
    assert bus.deals[0].result == "no game for 7 tiles"
    assert bus.hosts[0].events == ["failed: no game for 7 tiles"]
    assert bus.shown() == [None] * 7
    assert all(h.events == [] for h in bus.hosts[1:])  # the count showed nothing anywhere


def test_a_count_released_before_it_fires_shows_nothing_and_frees_every_tile():
    bus = Bus(line_links(6), 6)
    bus.run(50)
    bus.deals[2].count(bus.now)
    bus.run(400)
    assert bus.deals[5].phase == 2  # counted, waiting for the hold to fire
    bus.deals[2].cancel(bus.now)
    bus.run(400)
    assert all(not d.busy(bus.now) for d in bus.deals)
    assert all(h.events == [] for h in bus.hosts)
    assert deal_on(bus, 5, 300)  # another hold, elsewhere, deals at once
    assert every_item_once(bus, 6)


def test_lost_messages_are_repeated_and_every_item_still_lands_once():
    # the bus loses a message for good (the courier thinks it went through): only the deal's
    # own repeats and the voted tiles' questions to their parents get it done
    results = []
    for seed in range(3):
        bus = Bus(line_links(12), 12, loss=0.2, seed=seed)
        assert deal_on(bus, seed * 5, 200, 150000)
        results.append(bus.deals[seed * 5].result)
        if results[-1] == "dealt 12":
            assert every_item_once(bus, 12)
        else:
            assert bus.shown() == [None] * 12
    assert "dealt 12" in results


def test_a_tile_attached_during_the_count_is_counted_when_the_hold_fires():
    links = line_links(6)
    bus = Bus({}, 6)
    last = {k: v for k, v in links.items() if 5 in (k[0], v[0])}
    bus.place({k: v for k, v in links.items() if k not in last})
    bus.run(50)
    bus.deals[0].count(bus.now)
    bus.run(300)
    assert bus.deals[0].size == 5
    bus.place(last)  # the sixth tile arrives while the button is still held
    bus.run(200)
    bus.deals[0].start(bus.now)
    assert settled(bus, 0)
    assert bus.deals[0].result == "dealt 6" and every_item_once(bus, 6)


def test_a_tile_attached_while_the_fired_deal_still_counts_is_counted_too():
    # a line of 12; a 13th tile comes to tile 3's face 1 while tile 3 still waits for its
    # subtree's count, after the hold fired: the count starts over, and no failure shows
    bus = Bus(line_links(12), 13, sizes=(13,))
    bus.run(50)
    bus.deals[0].start(bus.now)  # a hold that fires with no count yet: it counts now
    assert bus.run_until(lambda: bus.deals[3].phase == 1, 1000)
    first = bus.deals[0].id
    bus.place({(3, 1): (12, 4), (12, 4): (3, 1)})
    assert settled(bus, 0)
    assert bus.deals[0].id != first  # counted again under a new id
    assert bus.deals[0].result == "dealt 13" and every_item_once(bus, 13)
    assert bus.hosts[0].events == ["dealing", "finished 13"]  # never told of a failure


def wait_for_vote(bus, tile):
    return bus.run_until(lambda: bus.deals[tile].phase == 4, 20000)


def test_a_tile_cut_off_after_it_voted_waits_uncertain_then_learns_the_outcome():
    bus = Bus(line_links(12), 12)
    hold_and_fire(bus, 0)
    assert wait_for_vote(bus, 10)  # so tile 11's READY reached it
    cut = bus.lift(11)  # voted READY, then lifted before any decision reached it
    assert bus.run_until(lambda: bus.deals[0].result, 20000)
    assert bus.deals[0].result == "dealt 12"
    bus.run(deal_mod.ROOT_TIMEOUT_MS)
    assert bus.hosts[11].item is None and bus.hosts[11].events[-1] == "uncertain"
    assert bus.deals[11].phase == 4  # it never decided alone
    bus.place(cut)
    assert bus.run_until(lambda: bus.hosts[11].item is not None, 5000)
    assert every_item_once(bus, 12)


def test_a_tile_cut_off_before_it_voted_makes_everyone_go_back():
    bus = Bus(line_links(12), 12)
    hold_and_fire(bus, 0)
    assert bus.run_until(lambda: bus.deals[10].phase == 3, 5000)  # holds its item, no vote
    cut = bus.lift(10)  # with it goes the far end, tile 11, which may have voted already
    assert bus.run_until(lambda: bus.deals[0].result, 20000)
    assert bus.deals[0].result != "dealt 12"
    assert bus.run_until(lambda: not any(d.active() for d in bus.deals[:11]), 20000)
    assert bus.shown() == [None] * 12
    bus.place(cut)
    assert bus.run_until(lambda: not bus.deals[11].active(), 10000)
    assert bus.shown() == [None] * 12 and bus.hosts[11].pending is None


def test_a_reset_after_the_vote_comes_back_uncertain_and_learns_the_commit():
    bus = Bus(line_links(12), 12)
    hold_and_fire(bus, 0)
    assert wait_for_vote(bus, 6)
    bus.reset(6)
    assert bus.deals[6].phase == 4 and bus.deals[6].uncertain
    assert bus.run_until(lambda: bus.hosts[11].item is not None, 20000)
    assert bus.run_until(lambda: bus.hosts[6].item is not None, 10000)
    assert every_item_once(bus, 12)


def test_a_reset_before_the_vote_makes_the_deal_fail_everywhere():
    bus = Bus(line_links(12), 12)
    hold_and_fire(bus, 0)
    assert bus.run_until(lambda: bus.deals[6].phase == 3, 5000)
    bus.reset(6)  # it held its item but had not voted: it forgets the deal
    assert bus.run_until(lambda: bus.deals[0].result, 20000)
    assert bus.deals[0].result != "dealt 12"
    assert bus.run_until(lambda: all(not d.active() for d in bus.deals), 20000)
    assert bus.shown() == [None] * 12


def test_the_root_reset_before_deciding_comes_back_and_aborts_for_everyone():
    bus = Bus(line_links(8), 8, sizes=(8,))
    hold_and_fire(bus, 0)
    assert wait_for_vote(bus, 1)  # every other tile has voted: only the root can decide
    bus.reset(0)
    assert bus.hosts[0].events[-1] == "failed: reset"
    assert bus.run_until(lambda: all(not d.active() for d in bus.deals), 10000)
    assert bus.shown() == [None] * 8


def test_a_redeal_at_a_loss_gives_a_whole_new_table_or_leaves_the_old_one():
    outcomes = set()
    for seed in range(4):
        bus = Bus(line_links(12), 12, loss=0.15, seed=seed)
        assert deal_on(bus, 3, 300)
        first = bus.shown()
        assert every_item_once(bus, 12), first
        assert deal_on(bus, 8, 300)
        outcomes.add(bus.deals[8].result)
        if bus.deals[8].result == "dealt 12":
            assert every_item_once(bus, 12)
        else:
            assert bus.shown() == first
    assert "dealt 12" in outcomes


def test_garbage_deal_messages_never_raise():
    """Every kind of deal message, cut to every length and filled with odd bytes, carrying the
    deal under way, from any face, at every phase: a tile ignores what it cannot use."""
    rng = Lcg(3)
    odd = (0, 1, 5, 6, 11, 17, 18, 127, 128, 200, 255)
    phases = set()
    for trial in range(4):
        bus = Bus(line_links(6), 6)
        bus.run(50)
        bus.deals[trial].count(bus.now)
        bus.deals[trial].start(bus.now)
        for _ in range(100):
            bus.run(10)
            for d in bus.deals:
                phases.add(d.phase)
                body = bytes(odd[rng.random(len(odd) - 1)] for _ in range(13))
                data = bytes((0x41 + rng.random(8), d.id >> 8, d.id & 255)) + body
                data = data[: rng.random(16)]
                if deal_mod.is_deal_message(data):
                    d.receive(rng.random(5), data, bus.now)
    assert len(phases) >= 5, phases


# -- how long a tile shows the deal (SHOW_LIMIT_MS, HAND_OUT_MS) ------------------------------
_READY = 0x46
_SIZE = 0x42


def deaf_to(bus, tile, kinds, until=None):
    """Tile `tile` drops the deal messages of `kinds` it receives (until bus time `until`)."""
    deal = bus.deals[tile]
    receive = deal.receive

    def filtered(face, data, now):
        if data[0] in kinds and (until is None or now < until):
            return
        receive(face, data, now)

    deal.receive = filtered


def dealt_at(bus, tile):
    bus.run_until(lambda: "dealing" in bus.hosts[tile].events, 20000)
    return bus.now


def test_a_voted_tile_that_hears_no_outcome_is_uncertain_45_s_after_its_item_not_its_vote():
    bus = Bus(line_links(6), 6)
    deaf_to(bus, 2, (_READY,), until=30000)  # tile 3's vote reaches tile 2 only at 30 s...
    deaf_to(bus, 2, (0x47, 0x49))  # ...and no outcome ever reaches tile 2
    hold_and_fire(bus, 0)
    got = dealt_at(bus, 2)
    assert bus.run_until(lambda: bus.deals[2].phase == 4, 40000)  # voted, ~30 s after its item
    voted = bus.now
    assert voted - got > 25000
    assert bus.run_until(lambda: "uncertain" in bus.hosts[2].events, 60000)
    assert got + deal_mod.SHOW_LIMIT_MS <= bus.now <= got + deal_mod.SHOW_LIMIT_MS + 20
    assert bus.now < voted + deal_mod.ROOT_TIMEOUT_MS  # as it was: 45 s after the vote


def test_a_tile_whose_subtree_never_votes_gives_the_deal_up_45_s_after_its_item():
    bus = Bus(line_links(6), 6)
    deaf_to(bus, 2, (_READY, 0x47, 0x49))  # no vote from below, no outcome from anywhere
    hold_and_fire(bus, 0)
    got = dealt_at(bus, 2)
    assert bus.run_until(lambda: "aborted" in bus.hosts[2].events, 70000)
    assert got + deal_mod.SHOW_LIMIT_MS <= bus.now <= got + deal_mod.SHOW_LIMIT_MS + 20
    assert bus.deals[2].result == "timeout" and bus.hosts[2].item is None


def test_the_root_fails_a_deal_still_counted_30_s_after_its_hold():
    bus = Bus(line_links(6), 6)
    deaf_to(bus, 0, (_SIZE,), until=31000)  # the count cannot finish before 31 s
    hold_and_fire(bus, 0)
    assert bus.run_until(lambda: bus.deals[0].result, 40000)
    assert bus.deals[0].result == "the cluster was still being counted 30 s after the hold"
    assert bus.hosts[0].events[-1].startswith("failed: ")
    assert all("dealing" not in h.events for h in bus.hosts)  # nothing was handed out

    bus = Bus(line_links(6), 6)
    deaf_to(bus, 0, (_SIZE,), until=20000)  # counted at 20 s: in time
    hold_and_fire(bus, 0)
    assert bus.run_until(lambda: bus.deals[0].result, 60000)
    assert bus.deals[0].result == "dealt 6"

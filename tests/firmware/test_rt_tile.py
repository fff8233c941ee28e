"""Colours, timers, random, storage, log, sleep and start state (CPython and MicroPython)."""

from rt_hal import Recorder, RtHal, make, play, run_to
from runtime import colors, link
from runtime.tile import SLEEP_MS, START_NEW_GAME, START_POWER_UP, START_WOKE, Tile
from runtime.timer import Timer


def test_colour_helpers_use_5_bit_channels():
    assert colors.rgb(255, 0, 0) == colors.RED == 31 << 10
    assert colors.rgb(8, 16, 255) == 1 << 10 | 2 << 5 | 31
    assert colors.red_of(colors.ORANGE) == 31 and colors.green_of(colors.ORANGE) == 15
    assert colors.blue_of(colors.CYAN) == 31
    assert colors.hsb(0, 255, 255) == colors.RED
    assert colors.hsb(0, 0, 255) == colors.WHITE
    assert colors.hsb(85, 255, 255) >> 5 & 31 == 31  # a third of the way round: green
    assert colors.hsb(170, 255, 255) & 31 == 31  # two thirds: blue
    assert colors.hsb(123, 200, 0) == colors.OFF
    assert colors.dim(colors.WHITE, 255) == colors.WHITE
    assert colors.dim(colors.WHITE, 0) == colors.OFF
    assert colors.red_of(colors.dim(colors.RED, 128)) == 15
    assert colors.lighten(colors.BLUE, 255) == colors.WHITE
    assert colors.lighten(colors.BLUE, 0) == colors.BLUE
    assert colors.make(40, -3, 7) == 31 << 10 | 7


def test_hsb_rounds_as_the_reference_does():
    # the reference scales by >> 8, not // 255: each of these comes out one step apart
    assert colors.hsb(0, 128, 128) == colors.make(16, 8, 7)
    assert colors.hsb(85, 128, 255) == colors.make(15, 31, 15)
    assert colors.hsb(128, 128, 128) == colors.make(7, 15, 16)


def test_timer_starts_expired_and_counts_on_the_pass_clock():
    hal, tile = make()
    timer = Timer(tile)
    assert timer.is_expired() and timer.get_remaining() == 0
    timer.set(100)
    run_to(hal, tile, 60)
    assert not timer.is_expired() and timer.get_remaining() == 40
    timer.add(50)
    run_to(hal, tile, 149)
    assert not timer.is_expired()
    run_to(hal, tile, 150)
    assert timer.is_expired()
    timer.never()
    run_to(hal, tile, 100000, every=5000)
    assert not timer.is_expired()


def test_random_is_inclusive_uniform_and_seeded_by_the_hal():
    _hal, tile = make(seed=5)
    counts = [0] * 6
    for _ in range(3000):
        counts[tile.random(5)] += 1
    assert min(counts) > 400 and max(counts) < 600
    assert tile.random(0) == 0
    big = [tile.random(100000) for _ in range(50)]
    assert all(0 <= x <= 100000 for x in big) and len(set(big)) > 40
    _, other = make(seed=5)
    _, third = make(seed=6)
    a = [other.random(1000) for _ in range(10)]
    _, again = make(seed=5)
    assert a == [again.random(1000) for _ in range(10)]
    assert a != [third.random(1000) for _ in range(10)]
    try:
        tile.random(-1)
        raise AssertionError("negative limit accepted")
    except ValueError:
        pass


def test_setup_runs_once_on_the_first_pass_then_loop_each_pass():
    hal, tile = make()
    assert tile.game.passes == 0
    run_to(hal, tile, 50)
    assert tile.game.passes == 5


def test_colours_are_shown_at_the_end_of_a_pass_only_when_changed():
    hal, tile = make()
    run_to(hal, tile, 10)
    shows = hal.shows
    tile.set_color_on_face(colors.RED, 2)
    assert hal.shown[2] == 0  # frozen until the pass ends
    run_to(hal, tile, 20)
    assert hal.shown == [0, 0, colors.RED, 0, 0, 0]
    run_to(hal, tile, 60)
    assert hal.shows == shows + 1


def test_a_painted_picture_is_shown_only_when_a_colour_changed():
    hal, tile = make()
    run_to(hal, tile, 10)
    picture = [colors.RED, colors.GREEN, colors.BLUE, 0, 0, colors.WHITE]
    tile.set_colors(picture)
    run_to(hal, tile, 20)
    shows = hal.shows
    tile.set_colors(picture)  # the same list again, as a game paints each pass
    tile.set_colors(tuple(picture))
    run_to(hal, tile, 30)
    assert hal.shows == shows
    picture[3] = colors.CYAN
    tile.set_colors(picture)
    run_to(hal, tile, 40)
    assert hal.shows == shows + 1 and hal.shown == picture
    tile.set_colors((0,) * 6)
    run_to(hal, tile, 50)
    assert hal.shown == [0] * 6


def test_one_value_for_all_faces_replaces_values_set_face_by_face():
    _, tile = make()
    tile.set_value_sent_on_all_faces(0)
    tile.set_value_sent_on_face(5, 2)
    tile.set_value_sent_on_all_faces(0)
    assert tile.inspect()["face_out"] == [0] * 6
    tile.set_value_sent_on_all_faces(9)
    tile.set_value_sent_on_all_faces(9)
    assert tile.inspect()["face_out"] == [9] * 6


def test_save_and_load_state_keep_bytes_across_a_reset():
    _hal, tile = make()
    assert tile.load_state() is None
    tile.save_state(b"R1 face down")
    tile.reset()
    assert tile.load_state() == b"R1 face down"
    try:
        tile.save_state(bytes(257))
        raise AssertionError("257 bytes accepted")
    except ValueError:
        pass
    assert tile.load_state() == b"R1 face down"  # nothing lost


def test_a_game_new_to_the_tile_starts_clean_and_says_so_once():
    hal, tile = make()
    tile.save_state(b"R1 face down")
    tile.reset()
    tile.step()
    assert tile.start_state() == START_POWER_UP  # the same game again

    class OtherGame(Recorder):
        pass

    seen = []
    other = Tile(hal, OtherGame)  # flashed with another game
    other.game.on_loop = lambda t: seen.append((t.start_state(), t.load_state()))
    other.step()
    assert seen == [(START_NEW_GAME, None)]  # the first game's bytes are not for it
    other.reset()
    other.step()
    assert other.start_state() == START_POWER_UP  # new once, even if it never saves
    other.save_state(b"other")
    other.reset()
    assert other.load_state() == b"other"
    back = Tile(hal, Recorder)
    back.step()
    assert back.start_state() == START_NEW_GAME and back.load_state() is None
    hal.storage = b"R1 face down"  # saved before states carried their game's name
    legacy = Tile(hal, Recorder)
    legacy.step()
    assert legacy.start_state() == START_POWER_UP and legacy.load_state() == b"R1 face down"


def test_log_and_serial_number_go_through_the_hal():
    hal, tile = make()
    tile.log("hello")
    tile.log(42)
    assert hal.lines == ["hello", "42"]
    assert tile.serial_number() == hal.serial_number()


def test_inspect_reports_faces_and_the_game():
    class Game:
        def __init__(self, tile):
            self.tile = tile

        def setup(self):
            pass

        def loop(self):
            self.tile.set_value_sent_on_all_faces(9)

        def inspect(self):
            return {"state": "undealt", "shard": None}

    hal, tile = make(Game)
    hal.rx[1].append((5, link.VALUE_FRAME[17]))
    run_to(hal, tile, 10)
    info = tile.inspect()
    assert info["face_out"] == [9] * 6 and info["face_in"][1] == 17
    assert info["expired"] == [True, False, True, True, True, True]
    assert info["state"] == "undealt" and info["asleep"] is False


def test_sleeps_after_10_minutes_without_a_press_and_wakes_on_a_press():
    hal, tile = make()
    tile.set_color(colors.GREEN)
    assert tile.start_state() == START_POWER_UP
    run_to(hal, tile, SLEEP_MS - 1000, every=1000)
    assert not tile.inspect()["asleep"]
    run_to(hal, tile, SLEEP_MS + 1000, every=1000)
    assert tile.inspect()["asleep"]
    assert hal.shown == [0] * 6
    passes = tile.game.passes
    run_to(hal, tile, SLEEP_MS + 5000, every=1000)  # the sleep frames go out (see below)
    sent = hal.sent_count
    run_to(hal, tile, SLEEP_MS + 9000, every=1000)
    assert tile.game.passes == passes and hal.sent_count == sent  # no loop, no frames
    play(hal, tile, [(hal.t + 5, True), (hal.t + 60, False)], hal.t + 1000)
    assert not tile.inspect()["asleep"]
    assert tile.start_state() == START_WOKE
    assert hal.shown == [colors.GREEN] * 6  # state kept
    assert not tile.button_pressed()  # the waking press is not a game press


def test_a_press_postpones_sleep_and_raises_the_press_flag():
    hal, tile = make()
    press = SLEEP_MS - 5000
    run_to(hal, tile, press - 1000, every=1000)
    hal.sent = []
    play(hal, tile, [(press, True), (press + 100, False)], press + 1000, every=20)
    flagged = [t for t, f, d in hal.sent if len(d) == link.VALUE_LEN and d[0] & 64]
    assert len(flagged) >= 6  # every face probed at least once with the flag up
    assert min(flagged) >= press and max(flagged) < press + 500
    run_to(hal, tile, SLEEP_MS + 1000, every=1000)
    assert not tile.inspect()["asleep"]
    run_to(hal, tile, press + SLEEP_MS + 1000, every=1000)
    assert tile.inspect()["asleep"]


def test_a_neighbours_press_flag_wakes_a_sleeping_tile_and_spreads():
    hal, tile = make()
    run_to(hal, tile, SLEEP_MS + 1000, every=1000)
    assert tile.inspect()["asleep"]
    hal.rx[4].append((hal.t + 1, link.VALUE_FRAME[64 | 5]))
    run_to(hal, tile, hal.t + 10)
    assert not tile.inspect()["asleep"] and tile.start_state() == START_WOKE
    since = hal.t
    run_to(hal, tile, hal.t + 400)
    assert any(
        d[0] & 64 for t, f, d in hal.sent if t >= since and len(d) == link.VALUE_LEN and f != 4
    )


def asleep_at_10_minutes(hal, tile):
    run_to(hal, tile, SLEEP_MS - 1000, every=1000)
    hal.sent = []
    run_to(hal, tile, SLEEP_MS, every=10)
    assert tile.inspect()["asleep"]


def test_any_neighbour_frame_wakes_a_sleeping_tile_with_its_state():
    hal, tile = make()
    tile.set_color(colors.GREEN)
    asleep_at_10_minutes(hal, tile)
    run_to(hal, tile, SLEEP_MS + 5000, every=1000)
    hal.rx[3].append((hal.t + 5, link.VALUE_FRAME[3]))  # a plain value frame, no press flag
    run_to(hal, tile, hal.t + 10)
    assert not tile.inspect()["asleep"] and tile.start_state() == START_WOKE
    assert tile.get_last_value_received_on_face(3) == 3
    assert hal.shown == [colors.GREEN] * 6
    woke = hal.t
    assert [f for t, f, d in hal.sent if t == woke] == [0, 1, 2, 3, 4, 5]  # talking again
    run_to(hal, tile, woke + SLEEP_MS - 1000, every=1000)  # a full 10 minutes more
    assert not tile.inspect()["asleep"]
    run_to(hal, tile, woke + SLEEP_MS + 1000, every=1000)
    assert tile.inspect()["asleep"]


def test_falling_asleep_tells_every_face_and_ignores_frames_already_on_their_way():
    hal, tile = make()
    asleep_at_10_minutes(hal, tile)
    run_to(hal, tile, SLEEP_MS + 150, every=10)
    late = [t for t, f, d in hal.sent if d != link.SLEEP_FRAME]
    assert late == [] or max(late) < SLEEP_MS
    told = [f for t, f, d in hal.sent if d == link.SLEEP_FRAME]
    assert sorted(set(told)) == [0, 1, 2, 3, 4, 5] and len(told) >= 12  # repeated, for loss
    # a neighbour that had not heard us yet: its frame within the grace does not wake us
    hal.rx[1].append((SLEEP_MS + 150, link.VALUE_FRAME[5]))
    run_to(hal, tile, SLEEP_MS + 180, every=10)
    assert tile.inspect()["asleep"]
    count = hal.sent_count
    run_to(hal, tile, SLEEP_MS + 5000, every=100)
    assert tile.inspect()["asleep"] and hal.sent_count == count  # silent once the word is out


def test_a_sleep_frame_puts_an_awake_tile_to_sleep_and_it_passes_the_word_on():
    hal, tile = make()
    tile.set_color(colors.RED)
    run_to(hal, tile, 1000)
    hal.sent = []
    hal.rx[2].append((1005, link.SLEEP_FRAME))
    run_to(hal, tile, 1010)
    assert tile.inspect()["asleep"] and hal.shown == [colors.RED] * 6  # the fade begins
    assert tile.inspect()["frames_dropped"] == 0
    assert sorted(f for t, f, d in hal.sent if t == 1010 and d == link.SLEEP_FRAME) == list(
        range(6)
    )
    run_to(hal, tile, 2000)
    assert hal.shown == [0] * 6
    hal.rx[2].append((2005, link.SLEEP_FRAME))  # more sleep frames do not wake it
    run_to(hal, tile, 2010)
    assert tile.inspect()["asleep"]
    hal.rx[2].append((2015, link.VALUE_FRAME[1]))
    run_to(hal, tile, 2020)
    assert not tile.inspect()["asleep"] and hal.shown == [colors.RED] * 6
    run_to(hal, tile, 2100)
    assert not tile.inspect()["asleep"]  # the old sleep frame does not put it back to sleep


def test_falling_asleep_dims_the_colours_to_off_in_300_ms():
    hal, tile = make()
    tile.set_color_on_face(colors.WHITE, 0)
    tile.set_color_on_face(colors.make(0, 16, 8), 3)
    asleep_at_10_minutes(hal, tile)
    assert hal.shown[0] == colors.WHITE  # the fade starts from the game's colours
    seen, shows = [], hal.shows
    while hal.t < SLEEP_MS + 400:
        run_to(hal, tile, hal.t + 5, every=5)
        seen.append((hal.t, colors.red_of(hal.shown[0]), hal.shown[3]))
    reds = [r for _, r, _ in seen]
    assert reds == sorted(reds, reverse=True) and 0 < reds[10] < 31  # dimming, step by step
    assert colors.green_of(seen[20][2]) < 16 and colors.red_of(seen[20][2]) == 0  # same hue
    assert next(t for t, r, c in seen if r == 0 and c == 0) == SLEEP_MS + 300  # then off
    assert 8 <= hal.shows - shows <= 16  # a few LED writes, not one a pass
    shows = hal.shows
    run_to(hal, tile, SLEEP_MS + 5000, every=5)
    assert hal.shows == shows  # dark and quiet


def test_the_games_clock_stands_still_while_the_tile_sleeps():
    hal, tile = make()
    timer = Timer(tile)
    run_to(hal, tile, SLEEP_MS - 60000, every=1000)
    timer.set(90000)  # due 30 s after the tile falls asleep
    asleep_at_10_minutes(hal, tile)
    before = tile.millis()
    run_to(hal, tile, SLEEP_MS + 3600000, every=1000)  # an hour asleep
    play(hal, tile, [(hal.t + 5, True), (hal.t + 60, False)], hal.t + 100)
    assert not tile.inspect()["asleep"]
    slept = hal.t - tile.millis()
    assert 3600000 <= slept <= 3600100 and tile.millis() - before <= 100
    assert not timer.is_expired() and 29900 <= timer.get_remaining() <= 30000
    run_to(hal, tile, hal.t + 30000, every=1000)
    assert timer.is_expired()


class WiredHal(RtHal):
    """An RtHal whose face `face` is wired to face `peer_face` of another WiredHal."""

    def wire(self, face, peer, peer_face):
        self.face, self.peer, self.peer_face = face, peer, peer_face

    def send_frame(self, face, data):
        if face == self.face:
            self.peer.rx[self.peer_face].append((self.t, bytes(data)))
        return super().send_frame(face, data)


def test_two_tiles_with_skewed_timers_fall_asleep_together_and_one_press_wakes_both():
    ha, hb = WiredHal(1), WiredHal(2)
    ha.wire(0, hb, 3)
    hb.wire(3, ha, 0)
    a = Tile(ha, Recorder)
    hb.t = 120000  # b powers up two minutes after a: its own timer runs out two minutes later
    b = Tile(hb, Recorder)
    ha.t = hb.t  # a has lain alone on the table until then

    def run(until, every=100, edges_b=()):
        pending = list(edges_b)
        while ha.t < until:
            ha.t = hb.t = min(ha.t + every, until)
            while pending and pending[0][0] <= hb.t:
                hb.edges.append(pending.pop(0))
            a.step()
            b.step()

    run(SLEEP_MS - 1000)
    assert not a.is_alone() and not b.is_alone()
    assert not a.inspect()["asleep"] and not b.inspect()["asleep"]
    run(SLEEP_MS + 1000)
    assert a.inspect()["asleep"] and b.inspect()["asleep"]  # b went with a, not 2 minutes later
    run(SLEEP_MS + 300000, every=1000)
    assert a.inspect()["asleep"] and b.inspect()["asleep"]  # and neither wakes the other
    t = hb.t
    run(t + 500, every=10, edges_b=[(t + 10, True), (t + 70, False)])
    assert not a.inspect()["asleep"] and not b.inspect()["asleep"]
    assert a.start_state() == START_WOKE and b.start_state() == START_WOKE


def settled_at_10_minutes(hal, tile):
    asleep_at_10_minutes(hal, tile)
    run_to(hal, tile, SLEEP_MS + 1000, every=100)
    assert tile.settled_asleep()


def test_a_tile_woken_by_light_listens_7_ms_and_by_its_button_or_usb_500_ms():
    hal, tile = make()
    settled_at_10_minutes(hal, tile)
    for source, listen in (("light", 7), ("button", 500), ("usb", 500)):
        woke = hal.t
        tile.woke_from_deep_sleep(woke, source)
        run_to(hal, tile, woke + listen - 1, every=1)
        assert tile.listening and not tile.settled_asleep(), source
        run_to(hal, tile, woke + listen, every=1)
        assert not tile.listening and tile.settled_asleep(), source
        assert tile.inspect()["asleep"]  # nothing heard: asleep all along


def test_a_frame_heard_while_listening_wakes_the_tile():
    hal, tile = make()
    settled_at_10_minutes(hal, tile)
    woke = hal.t
    tile.woke_from_deep_sleep(woke, "light")
    hal.rx[2].append((woke + 4, link.VALUE_FRAME[7]))  # the knock's second frame
    run_to(hal, tile, woke + 6, every=2)
    assert not tile.inspect()["asleep"] and not tile.listening
    assert tile.get_last_value_received_on_face(2) == 7

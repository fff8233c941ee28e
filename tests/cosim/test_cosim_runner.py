"""The MicroPython tile runner: faults are reported clearly and the tile looks like any other."""

import pytest
from cosim_faulty_games import Crasher, Hog, Printer, Spinner
from cosim_probe_games import GestureProbe
from games.demo import Demo

from simulator.cosim import CosimError, MpyTileRunner, protocol
from simulator.cosim.differential import first_difference, record
from simulator.world import World


def one_tile(game, **runner_options):
    w = World(seed=2)
    tid = w.add_tile(game, 0, 0, runner=lambda hal, g: MpyTileRunner(hal, g, **runner_options))
    return w, tid


def test_frames_of_any_byte_value_survive_the_protocol():
    every_byte = bytes(range(256))
    message = {"op": "step", "f": [[3, 17, protocol.to_hex(every_byte)]]}
    back = protocol.decode(protocol.encode(message))
    assert protocol.from_hex(back["f"][0][2]) == every_byte
    assert protocol.encode(message).count(b"\n") == 1


def test_garbage_is_not_a_message():
    with pytest.raises(ValueError):
        protocol.decode(b"[1, 2]\n")
    with pytest.raises(ValueError):
        protocol.decode(b"")


def test_inspect_marks_the_tile_as_micropython():
    w, tid = one_tile(GestureProbe)
    try:
        w.advance(100)
        view = w.inspect(tid)
        assert view["micropython"] is True
        assert view["events"] == 0 and view["asleep"] is False
        heap = view["heap"]
        assert 0 < heap["used"] < 192 * 1024 and heap["used"] + heap["free"] <= 192 * 1024
    finally:
        w.runner(tid).close()


def test_a_firmware_exception_stops_the_world_with_the_micropython_traceback():
    w, tid = one_tile(Crasher)
    try:
        with pytest.raises(CosimError, match="ZeroDivisionError: the third pass divides by zero"):
            w.advance(200)
        with pytest.raises(CosimError, match="ZeroDivisionError"):  # stays stopped
            w.runner(tid).step()
        w.reset_tile(tid)  # a power cycle boots it again
        w.runner(tid).step()
        assert w.leds(tid) == [31 << 5] * 6
    finally:
        w.runner(tid).close()


def test_a_hung_firmware_is_reported_and_its_process_ended():
    w, tid = one_tile(Spinner, timeout_s=0.5)
    with pytest.raises(CosimError, match="hangs"):
        w.advance(100)
    assert w.runner(tid)._process.poll() is not None
    with pytest.raises(CosimError, match="ended"):
        w.runner(tid).step()
    w.runner(tid).close()


def test_the_heap_is_a_boards_not_a_desktops():
    w, tid = one_tile(Hog)
    try:
        with pytest.raises(CosimError, match="MemoryError"):
            w.advance(100)
    finally:
        w.runner(tid).close()
    roomy, tid = one_tile(Hog, heap="2M")
    try:
        roomy.advance(100)
        assert roomy.leds(tid) == [31] * 6
    finally:
        roomy.runner(tid).close()


def test_a_stray_print_is_kept_aside_and_does_not_break_the_pipe():
    w, tid = one_tile(Printer)
    try:
        w.advance(100)
        assert w.runner(tid).stray_output == ["hello from setup"]
        assert w.leds(tid) == [31 << 10 | 31 << 5] * 6
    finally:
        w.runner(tid).close()


def test_a_game_the_tile_host_cannot_import_is_refused_up_front():
    class Local:  # not at the top level of a module
        def __init__(self, tile):
            pass

    with pytest.raises(CosimError, match="top level"):
        one_tile(Local)


def test_storage_survives_a_reset_like_in_process():
    def click_save_reset(w):
        w.advance(200)
        w.click(0)  # Demo saves its hue on a click
        w.reset_tile(0)
        w.advance(300)
        w.click(1)
        w.reset_tile(1)
        w.advance(300)

    reference = record(Demo, [(0, 0), (1, 0)], click_save_reset, seed=5)
    cosim = record(Demo, [(0, 0), (1, 0)], click_save_reset, seed=5, mpy={0, 1})
    assert reference.storage[0] is not None
    assert first_difference(reference, cosim) is None


def test_a_game_new_to_the_tile_claims_its_storage_on_micropython_too():
    # The storage holds another game's state (its tag names another game): on the first pass
    # the runtime keeps only the new game's tag there, and that save reaches the world.
    from runtime.tile import STATE_TAG

    foreign = STATE_TAG + bytes((9,)) + b"games.x:X" + b"hue"
    stored = []
    for runner in (None, lambda hal, g: MpyTileRunner(hal, g)):
        w = World(seed=2)
        tid = w.add_tile(Demo, 0, 0, runner=runner)
        w.hal(tid).storage = foreign
        try:
            w.advance(100)
            stored.append(w.hal(tid).storage)
        finally:
            if runner is not None:
                w.runner(tid).close()
    assert stored[0] == stored[1]
    assert stored[0].startswith(STATE_TAG) and stored[0].endswith(b"games.demo:Demo")


def test_close_ends_the_process():
    w, tid = one_tile(GestureProbe)
    runner = w.runner(tid)
    runner.close()
    assert runner._process.poll() is not None


def test_mpy_runners_puts_the_first_n_tiles_on_micropython():
    from simulator.cosim import close_runners, mpy_runners

    runners = mpy_runners(2, tiles=3)
    assert sorted(runners) == [0, 1]
    w = World(seed=1)
    for i in range(3):
        w.add_tile(GestureProbe, q=i, r=0, runner=runners.get(i))
    try:
        w.advance(100)
        assert [w.inspect(t).get("micropython", False) for t in w.tiles] == [True, True, False]
    finally:
        close_runners(w)
    assert all(w.runner(t)._process.poll() is not None for t in (0, 1))


@pytest.mark.parametrize("bad", [-1, 19, "3", 2.0, True])
def test_mpy_runners_refuses_a_count_that_is_not_a_number_of_tiles(bad):
    from simulator.cosim import mpy_runners

    # a Python API names its argument, not the command-line option that may have fed it
    with pytest.raises(ValueError, match="^mpy_runners: count must be .* tiles=18, not ") as err:
        mpy_runners(bad, tiles=18)
    assert "--mpy" not in str(err.value)


class _BusyChecker:
    """An in-process runner that checks, at every pass, the rule co-simulation relies on: a send
    succeeds exactly when the face was not busy before the pass and has not sent in it."""

    def __init__(self, hal, game):
        from runtime.tile import Tile

        self.hal = hal
        self.tile = Tile(hal, game)
        self.checked = 0
        self.refused = 0
        send = hal.send_frame

        def checked_send(face, data):
            expected = not self.busy[face]
            self.busy[face] = True
            assert send(face, data) == expected, (hal.world.now, hal.tile_id, face)
            self.checked += 1
            self.refused += not expected
            return expected

        hal.send_frame = checked_send

    def step(self):
        self.busy = [self.hal.face_busy(f) for f in range(6)]
        self.tile.step()

    def inspect(self):
        return self.tile.inspect()

    def reset(self):
        self.tile.reset()


def test_the_worlds_face_busy_agrees_with_its_send_frame_at_30_percent_loss():
    from cosim_probe_games import DatagramProbe

    from simulator.world import shapes

    w = World(seed=4, ir_loss=0.3)
    for q, r in shapes.blob(7):
        w.add_tile(DatagramProbe, q=q, r=r, runner=_BusyChecker)
    w.advance(3000)
    assert sum(w.runner(t).checked for t in w.tiles) > 1000
    assert sum(w.runner(t).refused for t in w.tiles) > 10  # both answers were checked


def test_requests_are_length_prefixed_and_read_back_exactly():
    import io

    message = {"op": "step", "t": 5, "b": [], "f": [[0, 4, "ff00"]], "busy": []}
    framed = protocol.frame(message) + protocol.frame({"op": "inspect"})
    assert framed[:6] == b"%06d" % len(protocol.encode(message))
    stream = io.BytesIO(framed)
    assert protocol.read_request(stream) == message
    assert protocol.read_request(stream) == {"op": "inspect"}
    assert protocol.read_request(stream) is None
    with pytest.raises(ValueError, match="length"):
        protocol.read_request(io.BytesIO(b"12ab56{}\n"))
    with pytest.raises(ValueError, match="closed"):
        protocol.read_request(io.BytesIO(b"000100{}"))

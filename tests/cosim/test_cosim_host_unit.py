"""Unit tests of the tile host's side (CosimHal, TileHost), written as plain functions with bare
asserts so they run under pytest and, through tests/firmware/mpy_runner.py, on MicroPython with
a board's heap (see test_cosim_on_micropython.py)."""

import io

try:  # pytest on CPython
    from simulator.cosim import protocol
    from simulator.cosim.pipe_hal import CosimHal
    from simulator.cosim.tile_host import TileHost
except ImportError:  # MicroPython: the tile host's modules are top-level (MICROPYPATH)
    import protocol
    from pipe_hal import CosimHal
    from tile_host import TileHost


def no_calls(method):
    raise AssertionError("unexpected call " + method)


def frames(hal, face):
    """Every frame receive_frame hands over now, as (ms, bytes)."""
    out = []
    n = hal.receive_frame(face)
    while n:
        out.append((hal.rx_ms, bytes(hal.rx_frame[:n])))
        n = hal.receive_frame(face)
    return out


def test_inputs_the_firmware_does_not_collect_stay_queued():
    hal = CosimHal(0, b"12345678", no_calls)
    hal.begin_step(10, [[5, True]], [(2, 9, b"\x81")], [])
    hal.begin_step(20, [[15, False]], [(2, 19, b"\x82"), (4, 18, b"\x00")], [])
    assert hal.button_edges() == [(5, True), (15, False)]
    assert hal.button_edges() == []
    assert frames(hal, 2) == [(9, b"\x81"), (19, b"\x82")]
    assert frames(hal, 2) == []
    assert frames(hal, 4) == [(18, b"\x00")]
    assert hal.millis() == 20


def test_a_face_sends_one_frame_a_step_and_not_while_busy():
    hal = CosimHal(0, b"12345678", no_calls)
    hal.begin_step(30, [], [], [1])
    frame = bytearray(b"\x10\x20")
    assert hal.send_frame(0, frame)
    frame[0] = 0xFF  # the firmware reusing its buffer does not change what was sent
    assert not hal.send_frame(0, b"\x01")
    assert not hal.send_frame(1, b"\x01")
    assert hal.sent == [(0, b"\x10\x20")]
    hal.begin_step(40, [], [], [])
    assert hal.sent == [] and hal.send_frame(0, b"\x02")


def test_entropy_and_load_ask_the_world_but_a_fresh_save_is_answered_here():
    asked = []

    def world(method):
        asked.append(method)
        return 7 if method == "entropy" else b"old"

    hal = CosimHal(0, b"12345678", world)
    assert hal.entropy() == 7 and hal.load() == b"old"
    hal.save(bytearray(b"new"))
    assert hal.load() == b"new"
    assert asked == ["entropy", "load"]
    assert hal.saved == [b"new"]


def test_show_copies_the_colours():
    hal = CosimHal(0, b"12345678", no_calls)
    leds = [1, 2, 3, 4, 5, 6]
    hal.show(leds)
    leds[0] = 99
    assert hal.shown == [[1, 2, 3, 4, 5, 6]]


def exchange(*requests):
    """Feed request lines to a TileHost; the replies it wrote, decoded."""
    stdin = io.BytesIO(b"".join(protocol.frame(r) for r in requests))
    stdout = io.BytesIO()
    TileHost(stdin, stdout).serve()
    return [protocol.decode(line) for line in stdout.getvalue().split(b"\n") if line]


def test_the_host_boots_steps_and_answers_in_lockstep():
    replies = exchange(
        {"op": "boot", "t": 5, "game": "games.demo:Demo", "serial": "0102030405060708"},
        {"op": "ret", "v": 12345},  # the runtime seeds itself from entropy on boot
        {"op": "step", "t": 5, "b": [], "f": [], "busy": []},
        {"op": "ret", "v": None},  # the runtime reads the storage before the first setup
        {"op": "ret", "v": None},  # Demo loads its saved hue in setup
        {"op": "inspect"},
    )
    ops = [r["op"] for r in replies]
    assert ops == ["call", "ready", "call", "call", "done", "inspect"]
    assert replies[0]["m"] == "entropy" and replies[2]["m"] == replies[3]["m"] == "load"
    done = replies[4]
    assert len(done["c"]) == 1 and len(done["c"][0]) == 6
    assert sorted(face for face, _ in done["s"]) == [0, 1, 2, 3, 4, 5]  # first probes
    assert replies[5]["v"]["asleep"] is False


def test_a_failing_request_is_reported_and_the_host_goes_on():
    replies = exchange(
        {"op": "step", "t": 0, "b": [], "f": [], "busy": []},  # before any boot
        {"op": "boot", "t": 0, "game": "games.nosuchgame:Nope", "serial": "00"},
    )
    assert [r["op"] for r in replies] == ["error", "error"]
    assert "nosuchgame" in replies[1]["trace"]

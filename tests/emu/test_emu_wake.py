"""A sleeping tile in a room (issue 59): light that is no frame, USB plugged in, a long night.

One flashed Lost Gems tile, alone and on battery, whose firmware sleeps after 3 s without a
press (SLEEP_MS patched in a copy; nothing else changes), so it is soon DORMANT:

- a TV remote's press on its faces (host_tools/emu/ambient.py) wakes it, it hears no valid
  frame and is DORMANT again within 20 ms of emulated time;
- USB plugged in wakes it (GP24 rising), and it then stays out of DORMANT;
- with its watchdog armed by the game loop, it sleeps an emulated hour and USB wakes it with
  no reset;
- its sleep log (false wakes, a press, USB) is read back with `blinks diag --sleep-log`.
"""

import json
import subprocess
import sys

import pytest
from emu_helpers import awake_spans, flashed_image, sleepy_image, until_dormant

from host_tools.emu import ambient

SLEEP_AFTER_MS = 3000


@pytest.fixture(scope="module")
def sleepy(tmp_path_factory):
    """The firmware with SLEEP_MS at 3 s, built once for this module's tests."""
    return sleepy_image(str(tmp_path_factory.mktemp("sleepy")), SLEEP_AFTER_MS)


def dormant_tile(cluster, image, state):
    flashed_image(image, state, tiles=1)
    tiles = cluster(1, state=state, mode="driven", seed=3)
    until_dormant(tiles, 0)
    return tiles


@pytest.mark.long
def test_a_remote_press_wakes_a_sleeping_tile_for_under_20_ms(cluster, sleepy, tmp_path):
    tiles = dormant_tile(cluster, sleepy, tmp_path / "remote")
    start = tiles.now_ms + 100
    spans, end = ambient.nec_frame(start)
    tiles.shine(0, range(6), spans)
    tiles.advance(end - tiles.now_ms + 500)
    woken = awake_spans(tiles, 0, start)
    assert woken, tiles.dormancy[0]
    assert all(slept - woke <= 20 for woke, slept in woken), woken
    assert tiles.dormancy[0][-1][1] == "asleep"
    assert tiles.resets[0] == []


@pytest.mark.long
def test_usb_plugged_in_wakes_a_sleeping_tile_and_an_hour_asleep_resets_nothing(
    cluster, sleepy, tmp_path
):
    tiles = dormant_tile(cluster, sleepy, tmp_path / "usb")
    # an hour of DORMANT with the watchdog armed (the game loop armed it, 2 s): it stands still
    slept = tiles.dormancy[0][-1][0]
    tiles.advance(3600 * 1000)
    assert tiles.dormancy[0][-1] == (slept, "asleep")
    plugged = tiles.now_ms
    tiles.usb_power(0, True)
    tiles.advance(2000)
    assert tiles.dormancy[0][-1] == (plugged, "awake")  # at once, and it stays awake on USB
    assert tiles.resets[0] == [] and tiles.stats()["boots"] == [1]  # no watchdog reset


@pytest.mark.long
def test_the_sleep_log_a_tile_kept_on_battery_is_read_back_over_usb(cluster, sleepy, tmp_path):
    tiles = dormant_tile(cluster, sleepy, tmp_path / "log")
    start = tiles.now_ms + 100
    spans, _ = ambient.nec_frame(start)
    tiles.shine(0, range(6), spans)  # a remote: false wakes
    tiles.advance(500)
    false_wakes = len(awake_spans(tiles, 0, start))
    clicked = tiles.now_ms
    tiles.clicks(0, 1)  # a press wakes it for good; 3 s later it sleeps again
    waited = 0
    while not any(t > clicked + 3000 for t, what in tiles.dormancy[0] if what == "asleep"):
        assert waited < 10000, tiles.dormancy[0][-4:]
        tiles.advance(250)
        waited += 250
    tiles.usb_power(0, True)  # the builder plugs it in: it wakes and stays up
    tiles.advance(1000)
    tiles.set_mode("fast")
    out = subprocess.run(
        [sys.executable, "-m", "host_tools.cli", "diag", "--sleep-log", "--json"]
        + ["--port", tiles.ports[0]],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    (tile,) = json.loads(out.stdout)["tiles"]
    records = tile["records"]
    got = [(r["source"], r["woke"]) for r in records]
    assert got == [("light", False)] * false_wakes + [("button", True), ("usb", True)], records
    assert [r["seq"] for r in records] == list(range(len(records)))
    ats = [r["at_ms"] for r in records]
    assert ats == sorted(ats)
    # a false wake's awake time on the tile's clock: the 6 ms crystal start comes before it
    assert all(r["awake_ms"] <= 14 for r in records if not r["woke"]), records
    assert tile["false_wakes"] == false_wakes and tile["wakes"] == false_wakes + 2

"""A dealt Lost Gems table falls into deep sleep and one button wakes it all (issue 41).

Six flashed tiles in a blob, on battery (an emulated board's VBUS sense pin reads low), are
dealt. When the cluster falls asleep each tile turns its pixel rail off and goes DORMANT
(the emulator records it: `cluster.dormancy`). One click on one tile wakes that tile; its light
wakes its neighbours, theirs the rest. Then the table is the one that was dealt, and plays on.

The firmware waits 10 minutes without a press before it sleeps: ten emulated minutes of six
busy tiles take half an hour here, so this build waits 10 s from the last press (the constant
is patched in a copy of the firmware; nothing else changes).
"""

import re

import pytest
from emu_helpers import deal, flashed_image
from games.lostgems import display
from runtime.button import CLICK_WINDOW_MS

from simulator.mpy.build import build

SHARD = re.compile(r"dealing -> face down shard=(\S+)")
REVEALED = re.compile(r"face down -> revealed shard=(\S+)")
WOKEN = 3  # the tile whose button wakes the table
SLEEP_MS = 10_000  # this build's wait for a press before it sleeps


def dealt_shard(tiles, i):
    found = [m.group(1) for m in map(SHARD.search, tiles.log_lines(i)) if m]
    return found[-1] if found else None


def asleep(tiles, i):
    return bool(tiles.dormancy[i]) and tiles.dormancy[i][-1][1] == "asleep"


def until(tiles, predicate, limit_ms, what):
    waited = 0
    while not predicate():
        assert waited < limit_ms, f"{what}: not within {limit_ms} ms: {tiles.dormancy}"
        tiles.advance(250)
        waited += 250


@pytest.mark.long
def test_a_dealt_table_sleeps_dormant_and_one_button_wakes_it_to_play_on(
    cluster, tmp_path, firmware_copy
):
    firmware = firmware_copy("sleep10s")
    runner_py = f"{firmware}/runtime/runner.py"  # the sleep timer is the runner's
    with open(runner_py) as f:
        source = f.read()
    assert "SLEEP_MS = 10 * 60 * 1000" in source
    with open(runner_py, "w") as f:
        f.write(source.replace("SLEEP_MS = 10 * 60 * 1000", f"SLEEP_MS = {SLEEP_MS}"))
    flashed_image(build(firmware_dir=firmware), tmp_path / "table", tiles=6)
    tiles = cluster(6, state=tmp_path / "table", shape="blob", mode="driven", seed=5)
    tiles.advance(2500)
    fires, done = deal(tiles)
    assert len(done) == 6, [tiles.log_lines(i)[-3:] for i in range(6)]
    # each tile logs its shard between passes, after its LEDs show it: give the lines time
    until(tiles, lambda: None not in [dealt_shard(tiles, i) for i in range(6)], 2000, "logged")
    shards = [dealt_shard(tiles, i) for i in range(6)]

    until(tiles, lambda: all(asleep(tiles, i) for i in range(6)), 40_000, "all six DORMANT")
    slept_at = max(tiles.dormancy[i][-1][0] for i in range(6))
    assert slept_at >= fires - 6000 + SLEEP_MS  # not before SLEEP_MS from the hold's start
    tiles.advance(5000)
    assert all(asleep(tiles, i) for i in range(6))  # nothing wakes them meanwhile
    assert all(tiles.colours(i) == [0] * 6 for i in range(6))  # the pixels are dark

    pressed_at = tiles.now_ms
    tiles.clicks(WOKEN, 1)
    until(tiles, lambda: not any(asleep(tiles, i) for i in range(6)), 3000, "all six awake")
    woke = {i: tiles.dormancy[i][-1][0] for i in range(6)}
    assert woke[WOKEN] == min(woke.values()) and woke[WOKEN] >= pressed_at  # the button first
    face_down = display.face_down()
    until(tiles, lambda: all(tiles.colours(i) == face_down for i in range(6)), 3000, "lit")
    tiles.advance(CLICK_WINDOW_MS)  # a click this soon after the wake click would join it

    tiles.clicks(WOKEN, 2)  # a double-click reveals the tile's shard: the one it was dealt
    until(
        tiles,
        lambda: any(REVEALED.search(line) for line in tiles.log_lines(WOKEN)),
        3000,
        "revealed",
    )
    revealed = [m.group(1) for m in map(REVEALED.search, tiles.log_lines(WOKEN)) if m]
    assert revealed == [shards[WOKEN]]
    assert [dealt_shard(tiles, i) for i in range(6)] == shards  # no tile was dealt again
    assert all(cause == "power" for i in range(6) for _, cause in tiles.resets[i])

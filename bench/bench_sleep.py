"""A sleeping tile in a room's light, measured on an emulated RP2040 running the official
MicroPython (the firmware's SLEEP_MS patched to 3 s in a copy, so it is soon DORMANT).

- false_wake_awake_ms: the longest time a tile stays awake after light that is no frame woke
  it (a TV remote's press on all six faces, host_tools/emu/ambient.py), from the wake to
  DORMANT again, in emulated ms. Goal: <= 20.
- remote_press_awake_ms: the awake time one remote press costs, all its wakes together (an
  NEC frame is 67 ms of bursts: it may wake the tile more than once), the largest of the
  presses played.
- tile_ma_asleep_remote, battery_days_asleep_remote: the sleeping current with one remote
  press a minute, and days on 500 mAh: bench/power_model.py's DORMANT current plus that awake
  time at the current of a tile whose CPU runs flat out with its pixel rail on and dark (an
  upper bound for a tile that listens).
- lamp_awake_fraction: the fraction of a second a tile spends awake under a lamp's 100 Hz
  flicker that reaches its detectors (no goal: such light keeps a tile up; docs/hardware.md).

Emulated time is exact: these do not swing with the machine's load. --quick plays 3 presses,
the full run 10.
"""

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SLEEP_AFTER_MS = 3000
PRESS_EVERY_MS = 1000  # presses this far apart in the bench (a minute in the current's figure)
LAMP_MS = 1000

FIGURES = {
    "false_wake_awake_ms": (
        "Longest wake to DORMANT again after a remote's light (no frame) woke an emulated tile, ms.",
        "≤ 20",
    ),
    "remote_press_awake_ms": ("Awake time one remote press costs, all its wakes, ms.", "—"),
    "tile_ma_asleep_remote": ("A tile's DORMANT current with one remote press a minute, mA.", "—"),
    "battery_days_asleep_remote": ("Days a 500 mAh cell gives at tile_ma_asleep_remote.", "—"),
    "lamp_awake_fraction": ("Fraction of time awake under a lamp's 100 Hz flicker.", "—"),
}


def _setup():
    for path in (ROOT, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests")):
        sys.path.insert(0, path)
    sys.path.insert(0, os.path.join(ROOT, "tests", "emu"))


def listening_ma():
    """A woken tile's current: CPU flat out, pixel rail on and dark, no emitter."""
    import power_model

    return power_model.in_play_ma(1.0, 6 * power_model.PIXEL_QUIESCENT_MA, 0)


def measure(image, work, presses):
    """(longest wake, each press's awake ms, lamp's awake fraction) on one emulated tile."""
    from emu_helpers import awake_spans, flashed_image, until_dormant

    from host_tools.emu import ambient
    from host_tools.emu.cluster import EmuCluster

    flashed_image(image, work, tiles=1)
    with EmuCluster(tiles=1, state_dir=work, mode="driven", seed=3) as tiles:
        until_dormant(tiles, 0)
        longest, per_press = 0.0, []
        for _ in range(presses):
            start = tiles.now_ms + 100
            spans, _ = ambient.nec_frame(start)
            tiles.shine(0, range(6), spans)
            tiles.advance(start + PRESS_EVERY_MS - tiles.now_ms)
            woken = awake_spans(tiles, 0, start)
            if not woken or tiles.dormancy[0][-1][1] != "asleep":
                raise RuntimeError(f"a remote press: not woken, or not asleep again: {woken}")
            longest = max([longest] + [b - a for a, b in woken])
            per_press.append(sum(b - a for a, b in woken))
        start = tiles.now_ms + 100
        tiles.shine(0, range(6), ambient.lamp(start, LAMP_MS))
        tiles.advance(start + LAMP_MS - tiles.now_ms)
        lit = [(a, min(b, start + LAMP_MS)) for a, b in awake_spans(tiles, 0, start)]
        if tiles.dormancy[0][-1][1] == "awake":
            lit.append((tiles.dormancy[0][-1][0], start + LAMP_MS))
        lamp = sum(b - a for a, b in lit) / LAMP_MS
        if tiles.resets[0]:
            raise RuntimeError(f"the tile restarted: {tiles.resets[0]}")
    return longest, per_press, lamp


def run(quick: bool) -> dict:
    _setup()
    import power_model
    from emu_helpers import sleepy_image

    work = tempfile.mkdtemp(prefix="bench-sleep-")
    try:
        image = sleepy_image(work, SLEEP_AFTER_MS)
        longest, per_press, lamp = measure(image, os.path.join(work, "tile"), 3 if quick else 10)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    press_ms = max(per_press)
    asleep = power_model.asleep_ma() + listening_ma() * press_ms / 60000
    return {
        "false_wake_awake_ms": round(longest, 1),
        "remote_press_awake_ms": round(press_ms, 1),
        "tile_ma_asleep_remote": round(asleep, 3),
        "battery_days_asleep_remote": round(power_model.CELL_MAH / asleep / 24, 1),
        "lamp_awake_fraction": round(lamp, 3),
    }

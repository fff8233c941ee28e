"""Same inputs, same run: a 6-tile deal on emulated tiles, twice from the same seed.

Driven mode is a promise of repeatability (tests and the bench's rp2_deal_ms rely on it): each
tile's id, randomness and every light pulse come from the seed, never from the state folder's
name or the machine's pace. The two runs use two fresh folders of different names, and let the
CPUs run ahead of the fabric by different slices (docs/emulated-tiles.md: a speed knob only,
because the fabric is exact whatever it is).
"""

import pytest
from emu_helpers import deal, flashed_image

from simulator.mpy.build import build


@pytest.mark.long
def test_the_same_deal_twice_gives_the_same_leds_logs_and_deal_time(cluster, tmp_path):
    image = build()
    runs = []
    for name, slice_us in (("first", 20), ("second-table", 500)):
        flashed_image(image, tmp_path / name, tiles=6)
        tiles = cluster(
            6, state=tmp_path / name, shape="blob", mode="driven", seed=7, slice_us=slice_us
        )
        tiles.advance(2500)
        fires, done = deal(tiles)
        assert len(done) == 6, [tiles.log_lines(i)[-3:] for i in range(6)]
        tiles.advance(200)
        runs.append(
            {
                "deal_ms": max(done.values()) - fires,
                "leds": tiles.led_frames,
                "logs": [bytes(out) for out in tiles.output],
                "ids": [tiles.serial_of(i) for i in range(6)],
                "late": tiles.stats()["late_light"],
            }
        )
        tiles.stop()
    first, second = runs
    assert first["ids"] == second["ids"]
    assert first["late"] == second["late"] == [0] * 6
    assert first["deal_ms"] == second["deal_ms"]
    for i in range(6):
        assert first["leds"][i] == second["leds"][i], f"tile {i}'s LEDs"
        assert first["logs"][i] == second["logs"][i], f"tile {i}'s log"

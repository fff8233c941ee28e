"""A tile that crashes restarts; one that keeps crashing, or whose button is held at power-up,
waits in safe mode with its REPL free for a re-flash. On emulated boards (official MicroPython).
"""

import os
import subprocess
import sys

from emu_helpers import boot_lines, flashed_image

from simulator.mpy.build import build

FAULTY = '''"""A game that fails on purpose: tests of a tile's recovery."""


class Faulty:
    def __init__(self, tile):
        self.tile = tile
        self.passes = 0

    def setup(self):
        pass

    def loop(self):
        self.passes += 1
        if self.passes == 5:
            {failure}
'''


def faulty_build(firmware_copy, tag, failure):
    tree = firmware_copy(tag)
    with open(os.path.join(tree, "games", "faulty.py"), "w") as f:
        f.write(FAULTY.format(failure=failure))
    return build(game="games.faulty:Faulty", firmware_dir=tree)


def wait_line(tiles, i, text, limit_ms=30000):
    waited = 0
    while not any(text in line for line in boot_lines(tiles, i)):
        assert waited < limit_ms, boot_lines(tiles, i)
        tiles.advance(100)
        waited += 100
    return [line for line in boot_lines(tiles, i) if text in line]


def test_a_game_that_keeps_crashing_restarts_then_stays_in_safe_mode(
    cluster, firmware_copy, tmp_path
):
    image = faulty_build(firmware_copy, "crash", 'raise RuntimeError("shard table lost")')
    flashed_image(image, tmp_path / "tile")
    tiles = cluster(1, state=tmp_path / "tile", mode="driven")
    wait_line(tiles, 0, "safe mode")
    lines = boot_lines(tiles, 0)
    assert sum("BLINKS game crashed" in line for line in lines) == 3
    assert [r[1] for r in tiles.resets[0]] == ["watchdog"] * 3  # machine.reset() after each
    assert any(line.startswith("BLINKS crashes=2 last=RuntimeError") for line in lines)
    assert "3 quick crashes in a row" in lines[-1] and "REPL is free" in lines[-1]
    # the REPL answers: the tile can be flashed again
    tiles.set_mode("fast")
    out = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", tiles.ports[0], "exec", "print(6 * 7)"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "42" in out.stdout, out.stdout + out.stderr


def test_a_hung_game_is_restarted_by_the_watchdog(cluster, firmware_copy, tmp_path):
    image = faulty_build(firmware_copy, "hang", "while True:\n                pass")
    flashed_image(image, tmp_path / "tile")
    tiles = cluster(1, state=tmp_path / "tile", mode="driven")
    wait_line(tiles, 0, "BLINKS boot tile=")
    lines = wait_line(tiles, 0, "BLINKS crashes=1")
    assert lines[-1].endswith("last=hang (watchdog)")
    assert tiles.resets[0][0][1] == "watchdog"


def test_the_button_held_at_power_up_boots_into_safe_mode(cluster, tmp_path):
    flashed_image(build(), tmp_path / "tile")
    tiles = cluster(1, state=tmp_path / "tile", mode="driven")
    wait_line(tiles, 0, "BLINKS boot tile=")
    tiles.power(0, False)
    tiles.button(0, True)
    tiles.advance(100)
    tiles.power(0, True)
    line = wait_line(tiles, 0, "safe mode")[-1]
    assert "button held at power-up" in line
    assert sum(line.startswith("BLINKS boot tile=") for line in boot_lines(tiles, 0)) == 1

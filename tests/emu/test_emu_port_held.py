"""A port a host holds open without reading never resets a tile mid-game (issue 39).

On the rp2 port a print to a USB serial whose host has the port open (DTR) but does not read
blocks for up to 500 ms once the host's buffer is full, and a line is two writes: three log
lines in a pass would outlast the tile's 2 s watchdog. A terminal left open, or a stuck
monitor, is that host. The tile's log (hal/serial_log.py) writes only what the USB serial has
room for, between passes, and drops and counts lines when its queue is full.

Three flashed Gem Match tiles in a line. The two ends (each beside the middle tile only, so
their passes are alike) are stopped at their REPLs, print until a print would block and are
soft-reset into their games; tile 0's host holds its port, so its game starts with a port that
takes nothing (boot.py cannot do it: MicroPython starts USB after it), while tile 2's host
reads: the baseline, in the same run. The middle tile is held for the deal; the ends are
double-clicked on through the game (a token drawn, then turned over: a log line each). With
the hold, for over 60 s of the game: no reset, tile 0's CPU no busier than tile 2's (its passes
about as long), and once the host reads again, the lines the tile could not keep are counted
in a `BLINKS log lost=N` line before the next one.
"""

import pytest
from emu_helpers import deal, flashed_image
from games.gemmatch import display

from simulator.mpy.build import build

FILL_PORT = b"""import time
for _ in range(60):
    t = time.ticks_ms()
    print("y" * 1000)
    if time.ticks_diff(time.ticks_ms(), t) > 300:
        break  # the host's buffer is full: the next print would block as well
"""
HELD = 0
FREE = 2  # the baseline: placed as HELD is, its host reading
GAME_MS = 62_000  # of a game with the port held, from the soft reset's game on


@pytest.mark.long
def test_a_held_port_that_nobody_reads_never_resets_a_tile_mid_game(cluster, tmp_path):
    flashed_image(build(game="games.gemmatch:Gemmatch"), tmp_path, tiles=3)
    tiles = cluster(3, state=tmp_path, shape="line", mode="driven", seed=3)
    tiles.advance(2000)
    tiles.hold_port(HELD)
    for tile in (HELD, FREE):
        tiles.write(tile, b"\x03\x03")  # the game stops: the REPL
    tiles.advance(500)
    for tile in (HELD, FREE):
        tiles.write(tile, b"\x05" + FILL_PORT.replace(b"\n", b"\r") + b"\x04")  # paste mode
    tiles.advance(3000)
    for tile in (HELD, FREE):
        tiles.write(tile, b"\x04")  # a soft reset: main.py starts the game again
    tiles.advance(3000)
    start = tiles.stats()
    fires, done = deal(tiles, holder=1, face_down=[display.BACK] * 6)  # the pile: dim blue
    assert len(done) == 3, [tiles.log_lines(i)[-3:] for i in range(3)]
    while tiles.now_ms < start["t"] + GAME_MS:  # players at the ends: a line a double-click
        tiles.clicks(HELD, 2)
        tiles.clicks(FREE, 2)
        tiles.advance(2000)
    end = tiles.stats()
    busy = [
        (end["busy_ms"][tile] - start["busy_ms"][tile]) / (end["t"] - start["t"])
        for tile in (HELD, FREE)
    ]
    assert end["usb_nak"][HELD] > 0 and end["usb_nak"][FREE] == 0  # the premise: held took none
    assert tiles.resets[HELD] == [] and tiles.resets[FREE] == [], tiles.resets
    tiles.release_port(HELD)
    tiles.advance(3000)  # the queue goes out
    tiles.clicks(HELD, 2)  # the next line: the count of those lost comes before it
    tiles.advance(2000)
    held_log, free_log = tiles.log_lines(HELD), tiles.log_lines(FREE)
    assert not any("crashes=" in line for line in held_log), held_log[-20:]
    # its passes cost about what they cost with a host that reads: measured 0.140 of the time
    # free and 0.146 held (the log pumps nothing, the USB stack works on a full FIFO); a print
    # that blocked would add 500 ms a write
    assert busy[0] <= busy[1] * 1.15, busy
    assert max(done.values()) - fires < 1000  # the deal: a few passes, the held tile among them
    print(f"busy {busy[1]:.4f} free, {busy[0]:.4f} held")
    lost = [line for line in held_log if line.startswith("BLINKS log lost=")]
    assert lost, held_log[-20:]
    assert int(lost[0].split("=")[1]) > 0
    assert not any(line.startswith("BLINKS log lost=") for line in free_log)

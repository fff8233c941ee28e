"""`blinks flash` and `blinks monitor` against the real MicroPython rp2 port, on emulated tiles.

Six tiles flashed at once; an unchanged re-flash that sends nothing; a board too old refused;
and the promise that matters most to a builder: a flash stopped at any moment (the emulator
killed, as a cable pulled or a battery going flat) always leaves a tile that boots its old
firmware or its new one.
"""

import random
import threading
import time

import pytest
from emu_helpers import boot_lines, booted_build, demo_only, flashed_image

from host_tools.cli.flash import TileResult, flash_all, flash_one
from host_tools.emu.cluster import EmuError
from simulator.mpy.build import build


@pytest.mark.long
def test_six_tiles_flash_at_once_then_an_unchanged_reflash_sends_nothing(cluster, firmware_copy):
    tiles = cluster(6, mode="fast")
    image = demo_only(firmware_copy, "six")  # the demo game alone: a quarter less to send
    results = flash_all(tiles.ports, image, quiet=True)
    assert [r.error for r in results] == [None] * 6
    assert all(r.ok and r.files_written == len(image.files) + 1 for r in results)  # + main.py
    assert {r.serial for r in results} == {tiles.serial_of(i).hex() for i in range(6)}
    for i in range(6):
        assert booted_build(tiles, i) == image.build  # blank before: its first game boot
    again = flash_all(tiles.ports[:2], image, quiet=True)
    assert [r.error for r in again] == [None] * 2
    assert all(r.ok and r.files_written == 0 and r.bytes_written == 0 for r in again)


def test_a_board_with_too_old_a_micropython_is_refused_and_keeps_its_firmware(cluster, monkeypatch):
    import hal.requirements

    tiles = cluster(1, mode="fast")
    monkeypatch.setattr(hal.requirements, "MIN_MICROPYTHON", (99, 0, 0))
    result = flash_all(tiles.ports, build(), quiet=True)[0]
    assert not result.ok and result.files_written == 0
    release = result.error.split("MicroPython ")[1].split(";")[0]  # the tile's, named
    assert release.startswith("1.") and "needs 99.0.0 or newer" in result.error
    assert "old firmware kept" in result.error


@pytest.mark.long
def test_a_flash_stopped_at_any_moment_leaves_the_old_or_the_new_firmware(
    cluster, firmware_copy, tmp_path
):
    builds = {b.build: b for b in (demo_only(firmware_copy, tag) for tag in "ab")}
    a, b = builds
    state = tmp_path / "tile"
    flashed_image(builds[a], state)  # a tile that runs build a
    tiles = cluster(1, state=state, mode="fast")
    assert booted_build(tiles, 0) == a
    # One whole flash, a to b, timed: how long it takes, and when it has verified the new
    # build's files and goes on to write main.py and switch to it (the moment that matters).
    marks = {}
    result = TileResult(tiles.ports[0])
    start = time.monotonic()
    flash_one(
        tiles.ports[0],
        builds[b],
        result,
        lambda done, total, step: marks.setdefault(step, time.monotonic() - start),
        reset=True,
    )
    duration = time.monotonic() - start
    assert result.ok, result.error
    switching = marks["verifying"]
    running = booted_build(tiles, 0, after=1)
    assert running == b
    rng = random.Random(20)
    seen = set()
    cuts = 6  # half while the files are written, half from the switch on, each at a random
    #           point of its own slice (the virtual tiles of tests/host_tools/test_flash.py take
    #           many more cuts, faster; each cut here costs a flash and a boot of the emulator)
    half = cuts // 2
    for k in range(cuts):
        target = a if running == b else b
        if k < half:
            at = switching * (k + rng.random()) / half
        else:
            at = switching + (duration - switching) * (k - half + rng.random()) / half
        cut = threading.Timer(at, tiles.kill)  # the power goes
        cut.start()
        try:
            flash_all(tiles.ports, builds[target], quiet=True)
        except (OSError, EmuError):
            pass
        cut.join()
        tiles.kill()
        tiles = cluster(1, state=state, mode="fast")  # power back: the emulator restarts
        now_running = booted_build(tiles, 0)  # from the flash image, and boots
        assert now_running in (running, target), boot_lines(tiles, 0)
        seen.add(now_running == target)
        running = now_running
    assert seen == {True, False}, "the cuts fell both before and after the switch"

"""Helpers for the emulated-tile tests: boot lines, tiles that already hold a build, and the
Node checks of the emulated CPU."""

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time

import pytest
from session_summary import EMU_UNAVAILABLE

from host_tools.cli.flash import flash_all
from host_tools.emu import images
from host_tools.emu.cluster import EmuCluster
from host_tools.emu.flashed import give_tiles, uf2_chip
from host_tools.emu.node_env import EmuSetupError, harness_dir, node_command
from simulator.mpy.build import build


def boot_lines(tiles, i):
    return [line for line in tiles.log_lines(i) if line.startswith("BLINKS")]


def demo_only(firmware_copy, tag):
    """A build of the firmware with the demo game alone (43 files, 92 kB, where the copy with
    Lost Gems and Gem Match is 55 files, 121 kB): each share or flash is shorter, and what is
    tested is the share or the flash (bench/bench_share.py shares the whole firmware)."""
    tree = firmware_copy(tag)
    for game in ("lostgems", "gemmatch"):
        shutil.rmtree(os.path.join(tree, "games", game))
    return build(game="games.demo:Demo", firmware_dir=tree)


def booted_build(tiles, i, after=0, timeout=300):
    """The build tile i booted: from its first `BLINKS boot ... fw=fw/<build>` line after the
    first `after` of them (a test counts the boots it has seen)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        lines = boot_lines(tiles, i)
        failed = [line for line in lines if "boot failed" in line or "crashed" in line]
        assert not failed, failed
        boots = [line for line in lines if line.startswith("BLINKS boot tile=")]
        if len(boots) > after:
            return boots[after].split(" fw=fw/")[1].split()[0]
        if tiles.mode == "driven":
            tiles.advance(50)
        else:
            time.sleep(0.1)
    raise AssertionError(f"tile {i} did not boot its game: {tiles.log_lines(i)[-10:]}")


def _cache_dir():
    root = os.environ.get("PYTEST_XDIST_TESTRUNUID") or "solo"
    path = os.path.join(tempfile.gettempdir(), f"blinks-emu-images-{root}")
    os.makedirs(path, exist_ok=True)
    return path


def flashed_image(image, state_dir, tiles=1):
    """Give tiles 0..tiles-1 in `state_dir` the flash of a Pico that `blinks uf2`'s file made:
    the official MicroPython with `image` laid on its filesystem as `blinks flash` lays it (the
    product's host_tools.emu.flashed, as `blinks emu --window --game` starts its tiles). Made
    on the host in a moment, where a flash through an emulated tile takes 10-20 s a build; the
    flash itself is test_emu_flash's, and flashed_by_blinks_flash gives a tile that path."""
    give_tiles(uf2_chip(image, images.firmware_path()), state_dir, tiles)


def flashed_by_blinks_flash(image, state_dir, tiles=1):
    """Tiles whose flash `blinks flash` wrote: one emulated tile flashed for real over its USB
    serial port, its flash kept for this test run (by build) and cloned to the others."""
    cached = os.path.join(_cache_dir(), f"{image.build}.flash")
    with open(cached + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel tests wait for one flash
        if not os.path.exists(cached):
            work = tempfile.mkdtemp(prefix="blinks-flash-")
            try:
                with EmuCluster(
                    tiles=1,
                    state_dir=work,
                    mode="fast",
                    firmware=images.firmware_path(),
                    bootrom=images.bootrom_path(),
                ) as one:
                    result = flash_all(one.ports, image, quiet=True)[0]
                    assert result.ok, f"the flash of an emulated tile failed: {result.error}"
                shutil.copyfile(os.path.join(work, "tile0.flash"), cached + ".tmp")
                os.replace(cached + ".tmp", cached)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    with open(cached, "rb") as f:
        give_tiles(f.read(), state_dir, tiles)


def dealt_items(tiles, line):
    """What each tile was dealt, from its log: the first group of `line` (a compiled pattern of
    the game's `dealing -> ...` state line) in its last match; None while it has none."""
    out = []
    for i in range(tiles.n):
        found = [m.group(1) for m in map(line.search, tiles.log_lines(i)) if m]
        out.append(found[-1] if found else None)
    return out


def deal_three_in_a_line(cluster, state_dir, image, line):
    """Three tiles in a line flashed with `image`, booted into it, and dealt by holding the
    middle one for 6.3 s; returns (the started cluster, what each was dealt: `dealt_items`).
    The held tile's log says it dealt them, once."""
    flashed_image(image, state_dir, tiles=3)
    tiles = cluster(3, state=state_dir, shape="line", mode="driven")
    for i in range(3):
        assert booted_build(tiles, i) == image.build
    return tiles, hold_middle_to_deal(tiles, line)


def hold_middle_to_deal(tiles, line):
    """Hold the middle tile of a booted line of three for the deal; what each was dealt
    (`dealt_items`), once all three say. The held tile's log says it dealt them, once."""
    tiles.press(1, 6300)
    waited = 0
    while None in dealt_items(tiles, line):
        assert waited < 20000, [tiles.log_lines(i)[-4:] for i in range(3)]
        tiles.advance(250)
        waited += 250
    assert sum("dealt size=3" in text for text in tiles.log_lines(1)) == 1  # the held tile
    return dealt_items(tiles, line)


def restored_after_power_cut(tiles, i, words):
    """Switch tile `i` off and on, give it 3 s, and return its last log line with `words` in
    it (what it came back as: `restored -> card`, say); there must be one."""
    tiles.power(i, False)
    tiles.power(i, True)
    tiles.advance(3000)
    restored = [line for line in tiles.log_lines(i) if words in line]
    assert restored, tiles.log_lines(i)[-4:]
    return restored[-1]


def deal(tiles, limit_ms=30000, holder=0, face_down=None):
    """Hold tile `holder` of a driven cluster for the 6-second deal; returns (the moment the
    hold fires, {tile: when its decoded LEDs first showed `face_down`}), in emulated ms. The
    LEDs, not the log: a tile whose port nobody reads logs nothing. By default Lost Gems' face
    down; the bench's rp2_deal_ms is the last of those, less the first."""
    from host_tools.emu.cluster import pixel_colour

    if face_down is None:
        from games.lostgems import display

        face_down = display.face_down()
    fires = tiles.press(holder, 6300) - 300
    done = {}
    while len(done) < tiles.n and tiles.now_ms < fires + limit_ms:
        tiles.advance(50)
        for i in range(tiles.n):
            if i not in done and tiles.colours(i) == face_down:
                done[i] = next(
                    t
                    for t, rgb in tiles.led_frames[i]
                    if [pixel_colour(p) for p in rgb] == face_down
                )
    return fires, done


def node_check(script, *args, timeout=300):
    """Run a check script of this folder under Node with the emulator's harness folder (rp2040js
    and host_tools/emu/js) as its first argument: (exit code, its last line's JSON)."""
    try:
        folder = harness_dir()
    except EmuSetupError as exc:
        if os.environ.get("BLINKS_REQUIRE_EMU"):
            pytest.fail(f"emulated tiles required (BLINKS_REQUIRE_EMU) but unavailable: {exc}")
        pytest.skip(EMU_UNAVAILABLE + str(exc).splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    proc = subprocess.run(
        [node_command(), os.path.join(here, script), folder, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert proc.stdout, proc.stderr
    return proc.returncode, json.loads(proc.stdout.splitlines()[-1])


def sleepy_image(work, sleep_ms):
    """A build of the firmware whose tiles fall asleep after `sleep_ms` without a press (the
    runner's SLEEP_MS patched in a copy under `work`; nothing else changes), so a test or the
    bench reaches DORMANT in seconds."""
    import shutil

    from simulator.mpy.build import build

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    firmware = os.path.join(work, "firmware")
    shutil.copytree(
        os.path.join(root, "firmware"),
        firmware,
        ignore=shutil.ignore_patterns("__pycache__", "waterfall"),
    )
    runner_py = os.path.join(firmware, "runtime", "runner.py")
    with open(runner_py) as f:
        source = f.read()
    if "SLEEP_MS = 10 * 60 * 1000" not in source:
        raise AssertionError("runtime/runner.py no longer sets SLEEP_MS = 10 * 60 * 1000")
    with open(runner_py, "w") as f:
        f.write(source.replace("SLEEP_MS = 10 * 60 * 1000", f"SLEEP_MS = {sleep_ms}"))
    return build(firmware_dir=firmware)


def until_dormant(tiles, i, limit_ms=30000):
    """Advance a driven cluster until tile i is DORMANT."""
    waited = 0
    while not (tiles.dormancy[i] and tiles.dormancy[i][-1][1] == "asleep"):
        if waited >= limit_ms:
            raise AssertionError(
                f"tile {i} not DORMANT in {limit_ms} ms: {tiles.log_lines(i)[-5:]}"
            )
        tiles.advance(250)
        waited += 250


def awake_spans(tiles, i, since):
    """(woke, DORMANT again) of each of tile i's wakes from `since` on, in emulated ms."""
    events = [(t, what) for t, what in tiles.dormancy[i] if t >= since]
    return [(t, events[k + 1][0]) for k, (t, what) in enumerate(events[:-1]) if what == "awake"]

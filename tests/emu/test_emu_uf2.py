"""`blinks uf2` and first-use fetching, on the official MicroPython firmware on emulated RP2040s.

A tile that starts from nothing but the one UF2 (written into blank flash, as a Pico's bootrom
writes a dragged file) boots the game, `blinks ports` names its build, and a later `blinks
flash` switches it; the same file over a used tile's flash boots the new build too. A first
`blinks emu` with nothing named fetches both binaries from a local server (standing in for the
real sites: no test reaches the internet), checks them and boots; a second fetches nothing.
"""

import json
import os
import signal
import threading

import pytest
from emu_helpers import booted_build, flashed_by_blinks_flash
from pinned_server import FileServer, isolate, serve_pins

from host_tools import cli, pins
from host_tools.bridge import bootsel, fs_image
from host_tools.bridge.tile_uf2 import TileUf2Error, read_micropython_uf2
from host_tools.cli.flash import flash_all
from host_tools.emu.flashed import drop_uf2
from host_tools.emu.node_env import harness_dir
from simulator.mpy.build import build


def read(path):
    with open(path, "rb") as f:
        return f.read()


def test_the_official_uf2_is_read_as_micropython_for_the_pico(rp2_images):
    data = read(rp2_images[0])
    mp = read_micropython_uf2(data)
    assert mp.release.startswith("1.") and mp.board == "Raspberry Pi Pico"
    assert max(mp.pages) < fs_image.FLASH_BASE + fs_image.STORAGE_OFFSET
    # the same file said to be for an RP2350, or claiming an old release, is refused
    blocks = bytearray(data)
    for at in range(0, len(blocks), 512):
        blocks[at + 28 : at + 32] = (0xE48BFF59).to_bytes(4, "little")
    with pytest.raises(TileUf2Error, match="RP2350"):
        read_micropython_uf2(bytes(blocks))
    version = f"v{mp.release}\0".encode()
    old = data.replace(version, b"v1.9.0".ljust(len(version) - 1, b"\0") + b"\0")
    with pytest.raises(TileUf2Error, match="MicroPython 1.9.0; the tiles' firmware needs"):
        read_micropython_uf2(old)


def make_uf2(rp2_images, firmware_dir, out):
    argv = ["uf2", "--firmware", firmware_dir, "--firmware-uf2", rp2_images[0], "-o", str(out)]
    assert cli.main(argv) == 0
    return str(out)


def test_a_tile_from_nothing_but_the_uf2_boots_the_game_shows_its_build_and_flashes_on(
    rp2_images, cluster, firmware_copy, tmp_path, capsys
):
    first, second = firmware_copy("a"), firmware_copy("b")
    a, b = build(firmware_dir=first), build(firmware_dir=second)
    tile_uf2 = make_uf2(rp2_images, first, tmp_path / "tile.uf2")
    capsys.readouterr()
    tiles = cluster(1, state=tmp_path / "blank", firmware=tile_uf2, mode="fast")
    assert booted_build(tiles, 0) == a.build  # MicroPython mounted our littlefs: no format
    assert cli.main(["ports", "--port", tiles.ports[0], "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["firmware"]["build"] == a.build and row["board"].endswith("with RP2040")
    assert booted_build(tiles, 0, after=1) == a.build  # the probe restarted it into its game
    result = flash_all(tiles.ports, b, quiet=True)[0]
    assert result.ok, result.error
    assert booted_build(tiles, 0, after=2) == b.build


def test_the_uf2_dragged_onto_a_used_tile_boots_its_own_build(
    rp2_images, cluster, firmware_copy, tmp_path
):
    """A Pico's bootrom rewrites only the pages a UF2 names: the old filesystem's blocks stay
    where the image has none, and must not outrank it."""
    old, new = firmware_copy("a"), firmware_copy("b")
    state = tmp_path / "used"
    flashed_by_blinks_flash(build(firmware_dir=old), state)  # a tile that ran another build
    tile_uf2 = make_uf2(rp2_images, new, tmp_path / "tile.uf2")
    flash = bytearray(read(state / "tile0.flash"))
    drop_uf2(flash, read(tile_uf2))
    (state / "tile0.flash").write_bytes(bytes(flash))
    tiles = cluster(1, state=state, mode="fast")
    assert booted_build(tiles, 0) == build(firmware_dir=new).build


class _PortLines:
    """sys.stdout for `blinks emu` in-process: keeps what it prints, says when a port is up."""

    def __init__(self):
        self.text = ""
        self.up = threading.Event()

    def write(self, text):
        self.text += text
        if "PORT 0 " in self.text:
            self.up.set()
        return len(text)

    def flush(self):
        pass


def run_blinks_emu(monkeypatch, state):
    """`blinks emu --tiles 1 --fast` in this process until tile 0's port is up, then SIGTERM,
    as a person's Ctrl-C; returns (exit code, stdout)."""
    out = _PortLines()
    monkeypatch.setattr("sys.stdout", out)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def stop_when_up():
        out.up.wait(240)
        # only into blinks emu's own handler: the default one would end the test run
        if signal.getsignal(signal.SIGTERM) is not handlers[signal.SIGTERM]:
            os.kill(os.getpid(), signal.SIGTERM)

    watcher = threading.Thread(target=stop_when_up, daemon=True)
    watcher.start()
    try:
        code = cli.main(["emu", "--tiles", "1", "--fast", "--state", str(state)])
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        out.up.set()
        watcher.join(10)
    return code, out.text


def test_a_first_blinks_emu_fetches_both_checks_them_and_boots_and_a_second_fetches_nothing(
    rp2_images, monkeypatch, tmp_path, capsys
):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("blinks emu stops on a signal, which only the main thread can take")
    harness = harness_dir()  # set up already, in the real cache: reused, never reinstalled
    cache = isolate(monkeypatch, tmp_path)
    linked = tmp_path / "cache" / "blinks" / os.path.basename(harness)
    os.makedirs(linked.parent)
    os.symlink(harness, linked)
    with FileServer({}) as server:
        firmware, bootrom = serve_pins(
            monkeypatch, server, read(rp2_images[0]), read(rp2_images[1])
        )
        code, out = run_blinks_emu(monkeypatch, tmp_path / "first")
        err = capsys.readouterr().err
        assert code == 0, err
        assert out.startswith("PORT 0 ")  # the tile booted MicroPython from what was fetched
        assert server.requests == {firmware: 1, bootrom: 1}
        for pin in (pins.MICROPYTHON, pins.BOOTROM):
            assert f"Fetching {pin.what}" in err and pin.licence in err
            assert read(cache / pin.filename) and f"sha256 {pin.sha256} checked" in err
        code, out = run_blinks_emu(monkeypatch, tmp_path / "second")
        assert code == 0 and out.startswith("PORT 0 ")
        assert server.requests == {firmware: 1, bootrom: 1}  # nothing fetched again
        assert "Fetching" not in capsys.readouterr().err


def test_flash_through_a_port_sends_the_tile_to_its_bootloader_then_waits_for_the_drive(
    rp2_images, cluster, tmp_path, monkeypatch, capsys
):
    """machine.bootloader() on the official firmware, through the raw REPL. The emulator has no
    USB mass storage: its board restarts (the harness rebuilds it, into MicroPython again), no
    RPI-RP2 drive appears, and the command says so; a real Pico shows the drive."""
    tiles = cluster(1, mode="fast")
    monkeypatch.setattr(bootsel, "DRIVE_WAIT_S", 1.0)
    monkeypatch.setattr(bootsel, "mount_points", list)  # this machine's drives: none
    before = len(tiles.resets[0])
    argv = ["uf2", "--firmware-uf2", rp2_images[0], "--flash", "--port", tiles.ports[0]]
    assert cli.main(argv) == 1
    assert "no RPI-RP2 drive appeared within 1 s" in capsys.readouterr().err
    tiles.wait_reset(0, before + 1)  # the board took the command and restarted

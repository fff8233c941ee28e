"""A tile whose game cannot load stays reachable; `blinks ports` lists and identifies tiles."""

import json
import os
import time

import serial
from repl_checks import SilentPort
from vtile_helpers import FAST, run_blinks, run_mpremote

from host_tools.cli.flash import flash_all
from simulator.mpy.build import build
from simulator.mpy.host_micropython import native_arch


def read_for(port, seconds):
    data = b""
    end = time.monotonic() + seconds
    with serial.Serial(port, timeout=0.1) as link:
        link.write(b"\x03\x04")  # stop whatever runs, then Ctrl-D at the prompt: reboot
        while time.monotonic() < end:
            data += link.read(4096)
    return data


def test_a_game_that_fails_to_import_leaves_the_tile_at_its_repl(make_tile, firmware_copy):
    broken = firmware_copy("broken")
    game = os.path.join(broken, "games", "lostgems", "__init__.py")
    with open(game, "a") as f:
        f.write("\nraise ImportError('shard table missing')\n")
    tile = make_tile(**FAST)
    result = flash_all([tile.port], build(firmware_dir=broken), quiet=True)[0]
    assert result.ok, result.error
    out = read_for(tile.port, 2.0)  # soft reboot: main.py runs and fails
    assert b"BLINKS boot failed" in out and b"shard table missing" in out
    assert out.rstrip().endswith(b">>>")  # the REPL is there: the tile can be flashed again
    good = flash_all([tile.port], build(), quiet=True)[0]
    assert good.ok, good.error
    out = read_for(tile.port, 2.0)
    assert b"BLINKS boot tile=" in out and b"game=games.lostgems:LostGems" in out


def test_ports_lists_named_tiles_with_serial_and_firmware(make_tile, monkeypatch):
    flashed = make_tile("flashed", **FAST)
    blank = make_tile("blank", **FAST)
    assert flashed.serial != blank.serial
    assert flash_all([flashed.port], build(), quiet=True)[0].ok
    # the game names itself by the tile's machine.unique_id(), as on a board: no file for it
    assert f"BLINKS boot tile={flashed.serial.hex()} ".encode() in read_for(flashed.port, 2.0)
    assert not os.path.exists(os.path.join(flashed.flash_dir, "tile_serial.bin"))
    monkeypatch.setenv("BLINKS_PORTS", blank.port)
    proc = run_blinks("ports", "--port", flashed.port, "--json", timeout=60)
    assert proc.returncode == 0, proc.stderr
    rows = {r["port"]: r for r in json.loads(proc.stdout)}
    image = build()
    assert rows[flashed.port]["firmware"] == {
        "build": image.build,
        "game": image.game,
        "version": image.version,
        "arch": native_arch(),  # its hot loops' machine code: the virtual tile's CPU
    }
    assert rows[flashed.port]["serial"] == flashed.serial.hex()
    assert rows[blank.port]["serial"] == blank.serial.hex()  # a tile has its id before firmware
    assert rows[blank.port]["firmware"] is None and rows[blank.port]["error"] is None
    # the MicroPython release and board, as the tile's os.uname() gives them
    release = run_mpremote(blank.port, "exec", "import os; print(os.uname().release)")[1].strip()
    assert release.startswith("1.")
    for row in rows.values():
        assert (row["micropython"], row["board"]) == (release, "virtual tile with unix port")
    table = run_blinks("ports", "--port", blank.port, timeout=60).stdout
    assert f"{release} on virtual tile with unix port" in table


def test_ports_without_probing_does_not_touch_the_tiles(tmp_path):
    missing = str(tmp_path / "ttyGONE")
    proc = run_blinks("ports", "--port", missing, "--no-probe", "--json", timeout=60)
    assert proc.returncode == 0
    assert [r["port"] for r in json.loads(proc.stdout)] == [missing]
    proc = run_blinks("ports", "--port", missing, "--json", timeout=60)
    assert proc.returncode == 1  # a port asked for by name that cannot be probed
    row = json.loads(proc.stdout)[0]
    assert row["firmware"] is None and row["error"].startswith("no such port")


def test_ports_without_probing_says_the_firmware_is_unknown(make_tile):
    tile = make_tile(**FAST)
    assert flash_all([tile.port], build(), quiet=True)[0].ok
    proc = run_blinks("ports", "--port", tile.port, "--no-probe", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "not probed" in proc.stdout and "not flashed" not in proc.stdout
    row = json.loads(run_blinks("ports", "--port", tile.port, "--no-probe", "--json").stdout)[0]
    assert row["probed"] is False and row["firmware"] is None


def test_a_silent_port_is_reported_in_valid_json_whatever_its_path(tmp_path):
    silent = SilentPort()
    alias = tmp_path / "ttySILENT"
    alias.symlink_to(silent.path)
    try:
        for path in (silent.path, str(alias)):  # /dev/pts/N is read differently by mpremote
            proc = run_blinks("ports", "--port", path, "--json", timeout=60)
            assert proc.returncode == 1
            rows = json.loads(proc.stdout)  # nothing else on stdout
            assert [r["port"] for r in rows] == [path]
            assert rows[0]["error"].startswith("no MicroPython prompt within 5 s (heard nothing")
    finally:
        silent.close()


def test_all_adds_every_found_port_after_the_named_ones_each_once(monkeypatch):
    from host_tools.bridge import ports
    from host_tools.bridge.ports import target_ports

    monkeypatch.setattr(ports.list_ports, "comports", list)  # no real tiles plugged in here
    monkeypatch.setenv("BLINKS_PORTS", "/dev/vt-a:/dev/vt-b")
    assert target_ports(["/dev/vt-b"]) == ["/dev/vt-b"]
    assert target_ports(["/dev/vt-b"], every=True) == ["/dev/vt-b", "/dev/vt-a"]
    assert target_ports([], every=False) == []


def test_a_port_named_twice_or_through_a_symlink_is_listed_once(make_tile, tmp_path):
    tile = make_tile(**FAST)
    alias = tmp_path / "by-id-tile"
    alias.symlink_to(tile.port)
    proc = run_blinks("ports", "--port", tile.port, "--port", str(alias), "--no-probe", "--json")
    assert [r["port"] for r in json.loads(proc.stdout)] == [tile.port]


# A tile whose boot is slow and deaf to Ctrl-C (a loaded PC's emulated tile, a big game's imports):
# it says it is booting after a while, and listens only some seconds later.
SLOW_BOOT_MAIN = """
import micropython, time
micropython.kbd_intr(-1)
def busy(s):
    t = time.time()
    while time.time() - t < s:
        pass
busy(1)
print("BLINKS boot tile=00 fw=- game=slow")
busy(6)
micropython.kbd_intr(3)
while True:
    time.sleep(0.01)
"""


def test_a_tile_heard_booting_is_waited_for_and_a_silent_one_is_not(tmp_path):
    """connect() (flash, diag, share, ports) gives a tile that says it is booting up to
    BOOT_WAIT to reach its prompt, beyond the 5 s a silent port gets."""
    from host_tools.bridge.link import BOOT_WAIT, CONNECT_TIMEOUT, LinkError, close, connect
    from host_tools.virtual_tile import VirtualTile

    flash = tmp_path / "slow"
    flash.mkdir()
    (flash / "main.py").write_text(SLOW_BOOT_MAIN)
    with VirtualTile(str(flash), port_dir=str(tmp_path), name="slow", **FAST) as tile:
        time.sleep(0.5)  # its main.py has started and stopped listening (a Ctrl-C before
        # that restarts a virtual tile's interpreter, so the boot would never be met)
        t0 = time.monotonic()
        link = connect(tile.port)
        waited = time.monotonic() - t0
        try:
            link.exec_raw("print(6*7)")
        finally:
            close(link)
    assert CONNECT_TIMEOUT < waited < BOOT_WAIT
    silent = SilentPort()
    try:
        try:
            connect(silent.path)
        except LinkError as exc:
            assert "no MicroPython prompt within 5 s" in str(exc)
        else:
            raise AssertionError("a silent port connected")
    finally:
        silent.close()

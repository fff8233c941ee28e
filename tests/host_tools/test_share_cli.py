"""`blinks share` on virtual tiles (the unix port behind a pseudo-terminal: no faces, so the
cluster is the tile alone) and on the log lines a sharing tile writes. Shares between tiles
run on emulated ones: tests/emu/test_emu_share.py."""

import json
import os

from vtile_helpers import FAST, run_blinks

from host_tools.bridge.share import Watch
from host_tools.cli.flash import flash_all
from simulator.mpy.build import build


def test_bad_usage_exits_2_and_says_what_is_wrong(tmp_path):
    out = run_blinks("share")
    assert out.returncode == 2 and "--port" in out.stderr
    out = run_blinks("share", "--port", str(tmp_path), "--timeout", "0")
    assert out.returncode == 2 and "--timeout" in out.stderr
    out = run_blinks("share", "--port", str(tmp_path))
    assert out.returncode == 2 and "a folder, not a serial port" in out.stderr
    out = run_blinks("share", "--port", "/dev/x", "--refuse", "--accept")
    assert out.returncode == 2


def test_a_lone_tile_shares_with_its_cluster_of_one_and_exits_0(make_tile):
    # The unix port's objects are twice a board's (64-bit): Lost Gems and the share's code and
    # manifest need more than a board's 192 KB there (an emulated rp2 shares in its own heap).
    tile = make_tile("tile0", heap="512K", **FAST)
    assert flash_all([tile.port], build(), quiet=True)[0].ok
    out = run_blinks("share", "--port", tile.port, "--timeout", "120", timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "every tile of the cluster holds it (1 tiles" in out.stdout
    assert not os.path.exists(os.path.join(tile.flash_dir, "share_state.json"))  # used once


def test_a_tile_without_a_build_is_refused_with_exit_1(make_tile):
    tile = make_tile("blank", **FAST)
    out = run_blinks("share", "--port", tile.port, "--timeout", "60", timeout=120)
    assert out.returncode == 1 and "holds no build to share" in out.stderr


def test_refuse_and_accept_set_the_tiles_own_setting(make_tile):
    tile = make_tile("tile0", **FAST)
    out = run_blinks("share", "--port", tile.port, "--refuse", timeout=120)
    assert out.returncode == 0 and "now refuses shares" in out.stdout
    with open(os.path.join(tile.flash_dir, "tile_settings.json")) as f:
        assert json.load(f) == {"shares": "refuse"}
    out = run_blinks("share", "--port", tile.port, "--accept", timeout=120)
    with open(os.path.join(tile.flash_dir, "tile_settings.json")) as f:
        assert json.load(f) == {"shares": "accept"}


def test_the_watch_reads_a_roots_lines():
    w = Watch()
    lines = [
        "BLINKS boot tile=ab fw=fw/x game=g",
        "BLINKS share start session=9 build=b1 bytes=60000 files=41",
        "BLINKS share face=2 tile=0011 receiving",
        "BLINKS share progress face=2 tile=0011 bytes=3000/60000",
        "BLINKS share face=4 tile=0022 failed: set to refuse shares",
        "BLINKS share face=2 tile=0011 done tiles=2 failed=0",
        "BLINKS share failed tile=0022 reason=set to refuse shares",
        "BLINKS share done session=9 build=b1 tiles=3 failed=1 ms=12000",
    ]
    said = [w.feed(line) for line in lines]
    assert said[1] == "sharing build b1 (60000 bytes)"
    assert said[2] == "face 2: tile 0011 receiving"
    assert w.feed("BLINKS share progress face=2 tile=0011 bytes=31000/60000") == (
        "face 2: tile 0011 50% received"
    )
    assert w.peers["2"]["state"] == "done tiles=2 failed=0"
    assert w.failures == [("0022", "set to refuse shares")]
    assert w.done == {"session": "9", "build": "b1", "tiles": "3", "failed": "1", "ms": "12000"}

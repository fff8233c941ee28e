"""`blinks monitor` against virtual tiles: interleaved lines, parsing, recording, reconnecting."""

import json
import os
import time

from vtile_helpers import FAST, run_blinks

from host_tools.bridge.monitor import Monitor, load_records, parse_line

CHATTY_MAIN = """
import time
n = 0
while True:
    print('LG state tile={tile} t=%d face down -> revealed shard=R%d' % (n, n % 3 + 1))
    print('free text %d' % n)
    n += 1
    time.sleep_ms(40)
"""


def chatty_tile(make_tile, tmp_path, name, tile_hex):
    flash = tmp_path / name
    flash.mkdir()
    (flash / "main.py").write_text(CHATTY_MAIN.replace("{tile}", tile_hex))
    return make_tile(name, **FAST)


def wait_for(monitor, seen, predicate, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        rec = monitor.next(timeout=0.05)
        if rec is not None:
            seen.append(rec)
            if predicate(rec):
                return rec
    raise AssertionError(f"not seen in {timeout} s; last records: {seen[-5:]}")


def test_parse_lost_gems_and_boot_lines():
    assert parse_line("LG state tile=ab12 t=5120 face down -> revealed shard=R1") == {
        "kind": "state",
        "tile": "ab12",
        "t": 5120,
        "old": "face down",
        "new": "revealed",
        "shard": "R1",
    }
    assert parse_line("LG state tile=ab12 t=7 undealt -> dealing shard=-")["shard"] is None
    deal = parse_line("LG deal tile=ab12 t=9 dealt size=18 id=77")
    assert deal["kind"] == "deal" and deal["size"] == "18" and deal["t"] == 9
    restore = parse_line("LG restore tile=ab12 t=0 face down shard=B2 board=000")
    assert restore["state"] == "face down" and restore["shard"] == "B2"
    boot = parse_line("BLINKS boot tile=00ff fw=fw/123 game=games.lostgems:LostGems")
    assert boot["kind"] == "boot" and boot["tile"] == "00ff"
    assert parse_line("hello") is None
    assert parse_line("LG state tile=ab12 t=x garbage") is None
    # firmware/main.py's fatal lines carry no tile id, and are events all the same
    assert parse_line("BLINKS boot failed: RuntimeError('no rp2')") == {
        "kind": "boot failed",
        "error": "RuntimeError('no rp2')",
    }
    crash = parse_line("BLINKS game crashed: MemoryError()")
    assert crash == {"kind": "game crashed", "error": "MemoryError()"}
    assert parse_line("BLINKS safe mode entered") == {"kind": "safe", "text": "mode entered"}


def test_monitor_interleaves_two_tiles_records_and_reconnects(make_tile, tmp_path):
    one = chatty_tile(make_tile, tmp_path, "one", "a001")
    two = chatty_tile(make_tile, tmp_path, "two", "b002")
    record = tmp_path / "session.jsonl"
    monitor = Monitor([one.port, two.port], str(record)).start()
    seen = []
    try:
        wait_for(monitor, seen, lambda r: r.get("event", {}).get("tile") == "a001")
        wait_for(monitor, seen, lambda r: r.get("event", {}).get("tile") == "b002")
        two.unplug()  # tile restarted: cable out, then back in
        wait_for(
            monitor, seen, lambda r: r["port"] == two.port and r.get("status") == "disconnected"
        )
        time.sleep(0.3)
        two.plug()
        wait_for(
            monitor, seen, lambda r: r["port"] == two.port and r.get("status") == "reconnected"
        )
        wait_for(monitor, seen, lambda r: r.get("event", {}).get("tile") == "b002")
    finally:
        monitor.stop()
    recorded = load_records(str(record))
    assert recorded[0]["status"] == "started"
    assert len(recorded) >= len(seen)
    states = [r for r in recorded if r.get("event", {}).get("kind") == "state"]
    assert {r["event"]["tile"] for r in states} == {"a001", "b002"}
    assert all(r["event"]["old"] == "face down" and r["event"]["new"] == "revealed" for r in states)
    times = [r["time"] for r in recorded]
    assert times == sorted(times)
    assert any(r.get("line", "").startswith("free text") for r in recorded)


def test_monitor_cli_prefixes_each_tile(make_tile, tmp_path):
    one = chatty_tile(make_tile, tmp_path, "one", "a001")
    two = chatty_tile(make_tile, tmp_path, "two", "b002")
    record = tmp_path / "cli.jsonl"
    proc = run_blinks(
        "monitor",
        "--port",
        one.port,
        "--port",
        two.port,
        "--duration",
        "2",
        "--record",
        str(record),
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    assert "[ttyone a001] LG state tile=a001" in proc.stdout
    assert "[ttytwo b002] LG state tile=b002" in proc.stdout
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    assert any(r.get("event", {}).get("tile") == "b002" for r in lines)


CRASHING_MAIN = """
import time
n = 0
while True:
    print('free text %d' % n)
    print("BLINKS game crashed: RuntimeError('face %d')" % n)
    n += 1
    time.sleep_ms(40)
"""


def test_events_only_still_shows_a_tiles_fatal_lines(make_tile, tmp_path):
    flash = tmp_path / "crashy"
    flash.mkdir()
    (flash / "main.py").write_text(CRASHING_MAIN)
    tile = make_tile("crashy", **FAST)
    proc = run_blinks("monitor", "--port", tile.port, "--events-only", "--duration", "2")
    assert proc.returncode == 0, proc.stderr
    assert "[ttycrashy] BLINKS game crashed: RuntimeError('face " in proc.stdout
    assert "free text" not in proc.stdout


def test_monitor_says_a_missing_port_is_awaited_and_fails_if_it_never_came(tmp_path):
    missing = str(tmp_path / "ttyLATER")
    proc = run_blinks("monitor", "--port", missing, "--duration", "1")
    assert proc.returncode == 1
    assert "[ttyLATER] -- waiting (no such port yet; waiting for it)" in proc.stdout
    assert f"{missing}: never opened" in proc.stderr


def test_monitor_refuses_a_negative_duration():
    proc = run_blinks("monitor", "--port", "/dev/null", "--duration", "-1")
    assert proc.returncode == 2
    assert "usage: blinks monitor" in proc.stderr
    assert "--duration: must be 0 or more seconds (0: until Ctrl-C), not -1" in proc.stderr


def test_monitor_mirror_runs_headless_as_its_no_display_message_says(make_tile, tmp_path):
    """The no-display message names --run-for and --screenshot; monitor --mirror takes both."""
    tile = chatty_tile(make_tile, tmp_path, "one", "a001")
    shot = tmp_path / "mirror.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    proc = run_blinks("monitor", "--port", tile.port, "--mirror", "--run-for", "1", env=env)
    assert proc.returncode == 2
    assert "SDL_VIDEODRIVER=dummy and --run-for SECONDS --screenshot FILE.png" in proc.stderr
    env["SDL_VIDEODRIVER"] = "dummy"
    proc = run_blinks(
        "monitor",
        "--port",
        tile.port,
        "--mirror",
        "--run-for",
        "2",
        "--screenshot",
        str(shot),
        env=env,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    assert "[ttyone a001] LG state tile=a001" in proc.stdout
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    proc = run_blinks("monitor", "--port", tile.port, "--screenshot", str(shot))
    assert proc.returncode == 2 and "--screenshot: goes with --mirror" in proc.stderr


def test_monitor_mirror_draws_the_tiles(make_tile, tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    one = chatty_tile(make_tile, tmp_path, "one", "a001")
    from host_tools.mirror.window import Mirror

    mirror = Mirror()
    monitor = Monitor([one.port]).start()
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end and "a001" not in mirror.session.views:
            assert mirror.update(monitor.next(0.05))
        time.sleep(0.05)
        mirror.update(None)
        assert mirror.session.snapshot()["a001"][0] == "revealed"
        assert mirror.frames > 0
        r, g, b = mirror.pixel(0)
        assert r > g and r > b  # revealed R1..R3: red
    finally:
        monitor.stop()
        mirror.close()


def test_an_uncertain_tile_is_drawn_as_the_tile_draws_it():
    # a tile that voted in a deal and reset before learning its outcome says so in its log; the
    # mirror must draw the turning magenta pair the tile shows, not a dark tile
    from games.lostgems import display

    from host_tools.bridge.tile_states import TileView

    view = TileView("ab12")
    event = parse_line("LG state tile=ab12 t=40 dealing -> uncertain shard=-")
    assert view.apply({"time": 1.0, "event": event})
    for now_s in (1.0, 1.7, 2.4):
        assert view.leds(now_s) == display.uncertain(int(now_s * 1000))
    assert len(set(view.leds(1.0))) == 2  # the magenta pair over dim magenta, never all black

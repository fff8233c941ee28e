"""A session recorded by the monitor from virtual tiles replays in the mirror window."""

import os
import time

import pytest
from vtile_helpers import FAST

from host_tools.bridge.monitor import Monitor
from host_tools.mirror.replay_log import replay, run_replay_log

STORY = """
import os, time
while 'go' not in os.listdir():  # the story starts once the monitor listens
    time.sleep_ms(20)
for line in {lines!r}:
    print(line)
    time.sleep_ms(30)
while True:
    time.sleep_ms(100)
"""


def story_tile(make_tile, tmp_path, name, lines):
    flash = tmp_path / name
    flash.mkdir()
    (flash / "main.py").write_text(STORY.format(lines=lines))
    return make_tile(name, **FAST)


def test_a_recorded_session_replays(make_tile, tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    one = story_tile(
        make_tile,
        tmp_path,
        "one",
        [
            "BLINKS boot tile=a001 fw=- game=games.lostgems:LostGems",
            "LG state tile=a001 t=10 undealt -> dealing shard=-",
            "LG state tile=a001 t=900 dealing -> face down shard=B2",
            "LG state tile=a001 t=2000 face down -> revealed shard=B2",
            "LG state tile=a001 t=2500 revealed -> face down shard=B2",
        ],
    )
    two = story_tile(
        make_tile,
        tmp_path,
        "two",
        [
            "LG state tile=b002 t=5 undealt -> dealing shard=-",
            "LG state tile=b002 t=800 dealing -> face down shard=R1",
            "LG state tile=b002 t=3000 face down -> revealed shard=R1",
        ],
    )
    log = tmp_path / "physical.jsonl"
    monitor = Monitor([one.port, two.port], str(log)).start()
    try:
        end = time.monotonic() + 10
        connected = set()
        while time.monotonic() < end and len(connected) < 2:
            rec = monitor.next(0.05)
            if rec and rec.get("status") == "connected":
                connected.add(rec["port"])
        for name in ("one", "two"):
            (tmp_path / name / "go").write_text("")
        last = set()
        while time.monotonic() < end and last != {"a001", "b002"}:
            rec = monitor.next(0.05)
            event = (rec or {}).get("event") or {}
            if event.get("t") in (2500, 3000):
                last.add(event["tile"])
        assert last == {"a001", "b002"}
    finally:
        monitor.stop()

    session = replay(str(log), window=False)
    assert session.snapshot() == {"a001": ("face down", "B2"), "b002": ("revealed", "R1")}

    # in the window, fast: the tiles end as recorded, drawn in their colours
    from host_tools.mirror import window as mirror_mod

    drawn = {}
    real_close = mirror_mod.Mirror.close

    def close_and_look(self):
        order = self.session.order
        drawn.update({t: self.pixel(i) for i, t in enumerate(order)})
        real_close(self)

    monkeypatch.setattr(mirror_mod.Mirror, "close", close_and_look)
    shown = replay(str(log), speed=20.0, hold_s=0.1)
    assert shown.snapshot() == session.snapshot()
    r, g, b = drawn["a001"]
    assert g > r and g > b  # face down: dim green
    r, g, b = drawn["b002"]
    assert r > g and r > b  # revealed red shard


def test_a_bad_log_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"time": 0, "port": "x"}\nnot json\n')
    assert run_replay_log(str(bad)) == 2
    assert "bad.jsonl:2: not JSON" in capsys.readouterr().err
    with pytest.raises(ValueError):
        replay(str(bad), window=False)
    assert os.path.exists(bad)

"""Replay a recorded physical session (`blinks monitor --record FILE`) in a window.

`replay(path, speed=1.0)` plays the records at their recorded pace (faster with speed > 1) in
the mirror window and returns the final Session; `blinks sim --replay-log FILE` calls it, with
`--run-for` (seconds of the recording), `--screenshot` and `--window` as for a simulation.
With the dummy video driver nobody watches, so the records are played at once. With
`window=False` it only rebuilds the states (for tests and scripts).
"""

import os
import sys
import time

from host_tools.bridge.monitor import load_records
from host_tools.bridge.tile_states import Session


def replay(path, speed=1.0, window=True, hold_s=2.0, run_for=None, screenshot=None, size=None):
    """Play a record file up to `run_for` recorded seconds (all of it by default); returns the
    Session holding every tile's state then. `screenshot`: a PNG of the window at the end."""
    if speed <= 0:
        raise ValueError("speed must be positive")
    records = load_records(path)
    if run_for is not None:
        records = [rec for rec in records if rec["time"] <= run_for]
    session = Session()
    if not window:
        for rec in records:
            session.apply(rec)
        return session
    from host_tools.mirror.window import Mirror
    from simulator.app.display import headless

    start = time.monotonic()
    clock = [0.0]
    mirror = Mirror(f"replay {path}", session, clock=lambda: clock[0], size=size)
    try:
        if headless():
            for rec in records:
                session.apply(rec)
            clock[0] = run_for if run_for is not None else clock[0]
        elif not _play(mirror, records, start, speed, clock, run_for, hold_s):
            return session  # the window was closed
        if records and run_for is None:
            clock[0] = max(clock[0], records[-1]["time"])
        mirror.draw(clock[0])
        if screenshot:
            from simulator.app.display import save_screenshot

            save_screenshot(mirror.screen, screenshot)
    finally:
        mirror.close()
    return session


def _play(mirror, records, start, speed, clock, run_for, hold_s):
    """The records at their recorded pace, then `hold_s` (or on to `run_for`); False if the
    window was closed."""
    for rec in records:
        due = start + rec["time"] / speed
        while time.monotonic() < due:
            clock[0] = (time.monotonic() - start) * speed
            if not mirror.update(None):
                return False
            time.sleep(min(0.01, max(0.0, due - time.monotonic())))
        clock[0] = rec["time"]
        if not mirror.update(rec):
            return False
    end = time.monotonic() + hold_s if run_for is None else start + run_for / speed
    while time.monotonic() < end:
        clock[0] = (time.monotonic() - start) * speed if run_for is not None else clock[0]
        if not mirror.update(None):
            return False
        time.sleep(0.02)
    if run_for is not None:
        clock[0] = run_for
    return True


def run_replay_log(path, speed=1.0, run_for=None, screenshot=None, size=None):
    """Entry point for `blinks sim --replay-log FILE`: 0 done, 2 unreadable file or
    screenshot (said on stderr)."""
    try:
        session = replay(path, speed, run_for=run_for, screenshot=screenshot, size=size)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        where = "" if path in str(exc) else f"{path}: "
        print(f"blinks sim --replay-log: {where}{exc}", file=sys.stderr)
        return 2
    for tile in session.order:
        v = session.views[tile]
        print(f"{tile}: {v.state} {v.shard or '-'}")
    return 0


def main(argv=None):
    """`python -m host_tools.mirror.replay_log FILE [--speed S]` (what `blinks sim --replay-log` runs)."""
    import argparse

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    ap = argparse.ArgumentParser(description="Replay a `blinks monitor --record` file in a window.")
    ap.add_argument("file")
    ap.add_argument("--speed", type=float, default=1.0, help="playback speed (2 = twice as fast)")
    args = ap.parse_args(argv)
    return run_replay_log(args.file, args.speed)


if __name__ == "__main__":
    raise SystemExit(main())

"""Replay a recorded physical session (`blinks monitor --record FILE`) in a window.

`replay(path, speed=1.0)` plays the records at their recorded pace (faster with speed > 1) in
the mirror window and returns the final Session; `blinks sim --replay-log FILE` calls it. With
`window=False` it only rebuilds the states (for tests and scripts).
"""

import time

from host_tools.monitor import load_records
from host_tools.tile_states import Session


def replay(path, speed=1.0, window=True, hold_s=2.0):
    """Play a record file; returns the Session holding every tile's final state."""
    if speed <= 0:
        raise ValueError("speed must be positive")
    records = load_records(path)
    session = Session()
    if not window:
        for rec in records:
            session.apply(rec)
        return session
    from host_tools.mirror import Mirror

    start = time.monotonic()
    clock = [0.0]
    mirror = Mirror(f"replay {path}", session, clock=lambda: clock[0])
    try:
        for rec in records:
            due = start + rec["time"] / speed
            while time.monotonic() < due:
                clock[0] = (time.monotonic() - start) * speed
                if not mirror.update(None):
                    return session
                time.sleep(min(0.01, max(0.0, due - time.monotonic())))
            clock[0] = rec["time"]
            if not mirror.update(rec):
                return session
        end = time.monotonic() + hold_s
        while time.monotonic() < end and mirror.update(None):
            time.sleep(0.02)
        mirror.draw(clock[0])
    finally:
        mirror.close()
    return session


def run_replay_log(path, speed=1.0):
    """Entry point for `blinks sim --replay-log FILE`: 0 done, 2 unreadable file."""
    try:
        session = replay(path, speed)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"blinks sim --replay-log: {exc}")
        return 2
    for tile in session.order:
        v = session.views[tile]
        print(f"{tile}: {v.state} {v.shard or '-'}")
    return 0


def main(argv=None):
    """`python -m host_tools.replay_log FILE [--speed S]` (what `blinks sim --replay-log` runs)."""
    import argparse

    ap = argparse.ArgumentParser(description="Replay a `blinks monitor --record` file in a window.")
    ap.add_argument("file")
    ap.add_argument("--speed", type=float, default=1.0, help="playback speed (2 = twice as fast)")
    args = ap.parse_args(argv)
    return run_replay_log(args.file, args.speed)


if __name__ == "__main__":
    raise SystemExit(main())

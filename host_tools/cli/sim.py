"""`blinks sim`: the simulator's window (simulator.app.cli), plus `--replay-log`, which draws a
physical session recorded by `blinks monitor --record` in the monitor's mirror window
(host_tools.mirror). The replay reads the monitor's records, a host tool's, so it is wired
here, above the simulator, which imports nothing of host_tools."""

import sys

from simulator.app import cli as sim_cli


def add_arguments(parser):
    sim_cli.add_arguments(parser)
    parser.add_argument(
        "--replay-log",
        metavar="FILE",
        help="replay a physical session recorded by `blinks monitor --record` (played at --speed)",
    )


def run(args) -> int:
    if args.replay_log is None:
        return sim_cli.run(args)
    if args.replay_log == "":
        print("blinks sim: --replay-log needs a file name", file=sys.stderr)
        return 2
    status = sim_cli.refused(args)
    if status is not None:
        return status
    empty = nothing_to_replay(args.replay_log)
    if empty:
        print(f"blinks sim --replay-log: {empty}", file=sys.stderr)
        return 2
    sim_cli.hide_pygame_banner()
    no_window = sim_cli.open_display("blinks sim")
    if no_window:
        print(no_window, file=sys.stderr)
        return 2
    # A physical session has no world to rebuild: the tiles' recorded states are drawn as the
    # monitor's mirror draws live tiles.
    from host_tools.mirror.replay_log import run_replay_log

    size = sim_cli.window_size(args.window)
    return run_replay_log(args.replay_log, args.speed, args.run_for, args.screenshot, size)


def nothing_to_replay(path):
    """What to say of a physical session's recording that names no tile (no `LG`/`WF` line
    was recorded, or the file is empty), or None; an unreadable file is left to the replay,
    which names the line."""
    from host_tools.bridge.monitor import load_records

    try:
        records = load_records(path)
    except (OSError, ValueError):
        return None
    if any((rec.get("event") or {}).get("tile") for rec in records):
        return None
    held = f"its {len(records)} records name no tile" if records else "it holds no record"
    return f"{path}: nothing to replay: {held} (a tile's `LG ...` or `WF ...` log lines)"

"""`blinks monitor`: every tile's output, interleaved, prefixed and coloured per tile.

A port that cannot be opened is shown as waiting (the monitor keeps trying, as it does for a
tile that is reset or unplugged). Exit 0, or 1 if a port was never opened; 2 for bad options.
"""

import argparse
import sys
import time

from host_tools.bridge.monitor import Monitor
from host_tools.bridge.ports import no_tile_message, target_ports
from simulator.output_path import output_problem

COLOURS = (
    "cyan",
    "magenta",
    "yellow",
    "green",
    "blue",
    "red",
    "bright_cyan",
    "bright_magenta",
    "bright_yellow",
    "bright_green",
    "bright_blue",
    "bright_red",
)


def seconds(text):
    """--duration's type: a number of seconds, 0 or more (0 means no limit)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds (0: until Ctrl-C), not {text}")
    return value


def add_arguments(parser):
    parser.add_argument(
        "--port", action="append", default=[], metavar="P", help="watch this port (repeatable)"
    )
    parser.add_argument(
        "--all", action="store_true", help="watch every port that looks like a tile"
    )
    parser.add_argument(
        "--record", metavar="FILE", help="also write every line to FILE as JSON Lines"
    )
    parser.add_argument(
        "--mirror",
        action="store_true",
        help="open a window showing the tiles' states as the simulator draws them",
    )
    parser.add_argument(
        "--duration",
        type=seconds,
        default=0.0,
        metavar="S",
        help="stop after S seconds (0, the default: until Ctrl-C)",
    )
    parser.add_argument(
        "--run-for",
        dest="duration",
        type=seconds,
        metavar="S",
        help="the same as --duration (the name blinks sim and blinks emu use)",
    )
    parser.add_argument(
        "--screenshot",
        metavar="FILE",
        help="with --mirror: save the window as a PNG when the monitor stops (with "
        "SDL_VIDEODRIVER=dummy this works with no display)",
    )
    parser.add_argument(
        "--events-only", action="store_true", help="show only structured lines (LG ..., BLINKS ...)"
    )


def format_record(rec, label, wall0):
    """(text, style) for one record: '14:02:07.315 [label] line' or a connection notice; a
    line cut short says so."""
    wall = wall0 + rec["time"]
    stamp = time.strftime("%H:%M:%S", time.localtime(wall)) + f".{int(wall * 1000) % 1000:03d}"
    if "status" in rec:
        detail = f" ({rec['detail']})" if rec.get("detail") else ""
        return f"{stamp} [{label}] -- {rec['status']}{detail}", "dim"
    notes = ""
    if rec.get("truncated"):
        notes += f" [... {rec['truncated']} more bytes left out]"
    if rec.get("unfinished"):
        notes += " [unfinished: the line ended with the connection]"
    return f"{stamp} [{label}] {rec['line']}{notes}", "bold" if "event" in rec else ""


def run(args):
    from rich.console import Console
    from rich.text import Text

    if args.record is not None and output_problem(args.record):
        print(f"blinks monitor: --record: {output_problem(args.record)}", file=sys.stderr)
        return 2
    if args.screenshot is not None:
        problem = "goes with --mirror" if not args.mirror else output_problem(args.screenshot)
        if problem:
            print(f"blinks monitor: --screenshot: {problem}", file=sys.stderr)
            return 2
    ports = target_ports(args.port, args.all)
    if not ports:
        print("blinks monitor: " + no_tile_message(args.all), file=sys.stderr)
        return 1 if args.all else 2
    console = Console(highlight=False)
    colour = {p: COLOURS[i % len(COLOURS)] for i, p in enumerate(ports)}
    label = {p: p.rsplit("/", 1)[-1] for p in ports}
    mirror = None
    if args.mirror:
        from simulator.app.display import hide_pygame_banner, open_display

        hide_pygame_banner()
        no_window = open_display("blinks monitor --mirror")
        if no_window:
            print(no_window, file=sys.stderr)
            return 2
        from host_tools.mirror.window import Mirror

        mirror = Mirror()
    try:
        monitor = Monitor(ports, args.record)
    except OSError as exc:
        print(f"blinks monitor: cannot write {args.record}: {exc}", file=sys.stderr)
        return 2
    monitor.start()
    wall0 = time.time() - monitor.clock()
    end = time.monotonic() + args.duration if args.duration else None
    try:
        while end is None or time.monotonic() < end:
            rec = monitor.next(timeout=0.05)
            if mirror is not None and not mirror.update(rec):
                break  # window closed
            if rec is None or (args.events_only and "event" not in rec and "status" not in rec):
                continue
            port = rec["port"]
            if port not in label:
                continue  # the monitor's own start record
            tile = monitor.tile_of_port.get(port)
            name = label[port] + (" " + tile[-4:] if tile else "")
            text, style = format_record(rec, name, wall0)
            # soft_wrap: a long line is the terminal's to wrap, and a pipe gets it whole
            console.print(Text(text, style=f"{colour[port]} {style}".strip()), soft_wrap=True)
    except KeyboardInterrupt:
        pass
    finally:
        monitor.stop()
        if mirror is not None:
            if args.screenshot:
                from simulator.app.display import save_screenshot

                save_screenshot(mirror.screen, args.screenshot)
            mirror.close()
    never = [r for r in monitor.readers if not r.connected_once]
    for r in never:
        print(f"blinks monitor: {r.port}: never opened ({r.waiting_for})", file=sys.stderr)
    return 1 if never else 0

"""`blinks share --port P`: the tile on P shares its build with every tile of its cluster.

The tile holds a build (`blinks flash` put it there); the command starts the share over USB
(host_tools/bridge/share.py), shows what the tile's log says of its neighbours as it goes, and
exits 0 once every tile of the cluster holds the build. Exit 1 names each tile that did not get
it and why (it refused, its MicroPython cannot load the build, it was pulled away, ...), or
says the share did not end within --timeout; exit 2 for bad usage. `--refuse` / `--accept` set
the tile's own setting to refuse every share (or accept them again) and share nothing.
"""

import sys
import time

from host_tools.bridge.link import LinkError, close
from host_tools.bridge.ports import port_problem
from host_tools.bridge.share import ShareError, follow, set_refusal, start

DEFAULT_TIMEOUT = 300.0  # a real cluster takes well under a minute; emulated tiles far longer


def add_arguments(parser):
    parser.add_argument("--port", metavar="P", help="the tile that shares its build")
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"give up after S seconds (default {DEFAULT_TIMEOUT:.0f})",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--refuse",
        action="store_true",
        help="set the tile to refuse every share from now on (nothing is shared)",
    )
    mode.add_argument("--accept", action="store_true", help="set the tile to accept shares again")
    parser.add_argument("--quiet", action="store_true", help="print only the outcome")


def _usage(message):
    print(f"blinks share: {message}", file=sys.stderr)
    return 2


def run(args):
    if not args.port:
        return _usage("name the tile that shares with --port P")
    if not args.timeout > 0:
        return _usage("--timeout must be a positive number of seconds")
    problem = port_problem(args.port)
    if problem:
        return _usage(f"--port {args.port}: {problem}")
    if args.refuse or args.accept:
        try:
            serial = set_refusal(args.port, args.refuse)
        except (LinkError, OSError) as exc:
            print(f"blinks share: {args.port}: {exc}", file=sys.stderr)
            return 1
        word = "refuses" if args.refuse else "accepts"
        print(f"tile {serial} on {args.port} now {word} shares")
        return 0
    began = time.monotonic()
    deadline = began + args.timeout
    try:
        transport, info = start(args.port, overall=args.timeout + 30)
    except ShareError as exc:
        print(f"blinks share: {exc}", file=sys.stderr)
        return 1
    except (LinkError, OSError) as exc:
        print(f"blinks share: {args.port}: {exc}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"tile {info['serial']} on {args.port} shares build {info['build']}")

    def show(line, said):
        if said and not args.quiet:
            print(f"  {time.monotonic() - began:6.1f} s  {said}", flush=True)

    try:
        watch = follow(transport, deadline, show)
    except ShareError as exc:
        print(f"blinks share: {exc}", file=sys.stderr)
        return 1
    finally:
        close(transport)
    return report(watch, args, time.monotonic() - began)


def report(watch, args, seconds):
    """The outcome, and the exit status."""
    if watch.done is None:
        if watch.problem:
            print(f"blinks share: the tile could not share: {watch.problem}", file=sys.stderr)
            return 1
        busy = [
            f"tile {p['tile']} (face {face}): {p['state']}"
            for face, p in sorted(watch.peers.items())
            if not p["state"].startswith(("done", "has it", "failed"))
        ]
        print(
            f"blinks share: not finished after {args.timeout:g} s"
            + (" (the tile never started sharing)" if watch.started is None else "")
            + ("; still under way: " + "; ".join(busy) if busy else ""),
            file=sys.stderr,
        )
        return 1
    done = watch.done
    if watch.problem and done.get("tiles") == "0":
        print(f"blinks share: the tile could not share: {watch.problem}", file=sys.stderr)
        return 1
    failed = int(done.get("failed", "1"))
    tiles = done.get("tiles", "?")
    if failed:
        for tile, reason in watch.failures:
            print(f"FAILED tile {tile}: {reason}", file=sys.stderr)
        print(
            f"blinks share: build {done.get('build')} reached {tiles} tiles; {failed} did not "
            "get it",
            file=sys.stderr,
        )
        return 1
    print(
        f"build {done.get('build')}: every tile of the cluster holds it ({tiles} tiles, "
        f"{int(done.get('ms', 0)) / 1000:.1f} s on the tiles, {seconds:.1f} s here)"
    )
    return 0

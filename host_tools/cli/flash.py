"""`blinks flash`: build the firmware once, then flash every tile in parallel.

One thread per tile, each with its own mpremote SerialTransport (opened by host_tools.bridge.link);
one progress bar per tile; a summary table at the end. Exit status 1 if any tile failed (each
failure is named with its reason) or --all found no tile, 2 if the firmware could not be built
or no tile was named, 130 on Ctrl-C. Ctrl-C lets each tile finish the command it is running
(so the switch to the new build stays one atomic step), then leaves the raw REPL and restarts
the tile into whichever complete build it holds.
"""

import os
import sys
import threading
import time

from host_tools.bridge.deploy import Cancelled, Deployer
from host_tools.bridge.link import LinkError, close, connect
from host_tools.bridge.ports import no_tile_message, port_problem, target_ports
from host_tools.cli.console import table_console
from simulator.mpy.build import FIRMWARE, BuildError, build

# Longest a tile may take, whatever it does: five minutes plus 500 B/s for the image. A board
# writes ~50 kB/s; emulated tiles (`blinks emu`) share one CPU and can be 50 times slower. A
# tile that stops answering is caught far sooner, by each command's own timeout; this only
# bounds one that never ends a reply.
DEADLINE_S = 300.0
DEADLINE_BYTES_PER_S = 500


def add_arguments(parser):
    parser.add_argument(
        "--port",
        action="append",
        default=[],
        metavar="P",
        help="flash the tile on this port (repeatable)",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="flash every port that looks like a tile (see `blinks ports`)",
    )
    parser.add_argument(
        "--game",
        help="game to run: lostgems, games.lostgems or module:Class "
        "(default: the firmware tree's tile_config.json)",
    )
    parser.add_argument(
        "--no-compile",
        action="store_true",
        help="copy .py sources instead of .mpy (slower to import, easier to read)",
    )
    parser.add_argument(
        "--firmware",
        metavar="DIR",
        default=FIRMWARE,
        help="firmware tree to build (default: the one blinks comes with, a checkout's firmware/)",
    )
    parser.add_argument(
        "--no-reset",
        action="store_true",
        help="leave the tile at its REPL instead of restarting it into the game",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="hash every file on the tile even when it already runs this build (by default a "
        "tile whose main.py names the build is left as it is: a build is only switched to whole)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="build the firmware and list what a tile would receive, touching no tile",
    )


class TileResult:
    def __init__(self, port):
        self.port = port
        self.serial = "?"
        self.ok = False
        self.error = None
        self.unchanged = False  # it already ran this build: nothing walked or sent
        self.files_written = 0
        self.written = []  # paths sent, inside fw/<build>/ (and "main.py")
        self.copied = 0  # files unchanged since the running build, copied on the tile
        self.bytes_written = 0
        self.seconds = 0.0
        self.switched = False  # main.py names the new build (it was there, or was switched to)
        self.cancelled = False  # stopped by Ctrl-C


def classify(exc):
    """A short reason a person can act on."""
    from mpremote.transport import TransportExecError

    if isinstance(exc, LinkError):
        return str(exc)
    if isinstance(exc, TransportExecError):
        lines = exc.error_output.strip().splitlines()
        return "error on the tile: " + (lines[-1] if lines else "?")
    text = f"{type(exc).__name__}: {exc}"
    lowered = text.lower()
    if any(
        s in lowered
        for s in (
            "no such file",
            "could not open port",
            "errno 2",
            "disconnected",
            "input/output error",
            "errno 5",
            "returned no data",
            "bad file descriptor",
        )
    ):
        return "port vanished or unplugged (" + text + ")"
    if "failed to access" in lowered:
        return "port not found or in use (" + text + ")"
    if "raw repl" in lowered:
        return "tile did not answer at its REPL (" + text + ")"
    return text


def flash_one(port, image, result, progress, reset, cancel=None, verify=False):
    """Flash one tile; never raises (the result says what happened).

    Whatever happens the tile leaves the raw REPL, and with `reset` restarts into the build it
    holds (the old one after a failure before the switch): entering the raw REPL stopped its game.
    """
    t0 = time.monotonic()
    transport = None
    deadline = DEADLINE_S + image.total_bytes() / DEADLINE_BYTES_PER_S
    try:
        not_a_port = port_problem(port)
        if not_a_port:
            raise LinkError(not_a_port)
        transport = connect(port, overall=deadline)
        d = Deployer(transport, image, progress, cancel, verify)
        try:
            d.run()
        finally:
            result.serial = d.serial
            result.switched = d.switched
            result.unchanged = d.unchanged
            result.written = list(d.written_files)
            result.copied = len(d.copied_files)
            result.files_written = len(d.written_files)
            sent = d.image  # the build as compiled for this tile's CPU
            result.bytes_written = sum(
                len(sent.files.get(p, sent.main_py)) for p in d.written_files
            )
        result.ok = True
    except Cancelled as exc:
        result.cancelled = True
        result.error = str(exc)
    except Exception as exc:  # noqa: BLE001  one tile's failure must not stop the others
        result.error = classify(exc)
    finally:
        if transport is not None:
            close(transport, restart=reset)
        result.seconds = time.monotonic() - t0


def flash_all(ports, image, reset=True, quiet=False, cancel=None, verify=False):
    """Flash `image` to every port at once; returns the TileResults in port order.

    Ctrl-C sets `cancel`: every tile stops after the command it is running and is left as
    flash_one says; a second Ctrl-C stops waiting for them.
    """
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

    cancel = cancel or threading.Event()
    results = [TileResult(p) for p in ports]
    columns = (
        TextColumn("{task.description:<24}"),
        BarColumn(),
        DownloadColumn(),
        TextColumn("{task.fields[step]}"),
    )
    with Progress(*columns, disable=quiet, transient=False) as bars:
        threads = []
        try:
            for r in results:
                task = bars.add_task(r.port, total=None, step="connecting")

                def progress(done, total, step, task=task):
                    bars.update(task, completed=done, total=max(total, 1), step=step)

                th = threading.Thread(
                    target=flash_one,
                    args=(r.port, image, r, progress, reset, cancel, verify),
                    daemon=True,  # a second Ctrl-C must not wait for them
                )
                th.start()
                threads.append((th, task, r))
            for th, _, _ in threads:
                th.join()
        except KeyboardInterrupt:
            cancel.set()
            for th, _, _ in threads:
                th.join()
        for _, task, r in threads:
            bars.update(task, step=outcome_words(r))
    return results


def outcome_words(result):
    """How a tile's flash ended, for its progress bar: after Ctrl-C, which firmware it kept."""
    if result.ok:
        return "[green]ok (unchanged)" if result.unchanged else "[green]ok"
    if result.cancelled:
        return "[yellow]stopped: " + ("new firmware" if result.switched else "old firmware kept")
    return "[red]failed"


def interrupted_message(results):
    """One line for Ctrl-C: which tiles kept their old firmware and which have the new one."""
    new = [r.port for r in results if r.switched]
    old = [r.port for r in results if not r.switched]
    parts = []
    if old:
        parts.append("old firmware kept on " + ", ".join(old))
    if new:
        parts.append("new firmware on " + ", ".join(new))
    return "blinks flash: interrupted; " + "; ".join(parts)


def print_summary(results, image, console):
    from rich.table import Table

    table = Table(title=f"flash {image.game} build {image.build}")
    for col in ("port", "serial", "result", "files sent", "kept", "bytes sent", "time"):
        table.add_column(col, overflow="fold")  # a narrow terminal folds a path, never cuts it
    for r in results:
        table.add_row(
            r.port,
            r.serial,
            outcome_words(r) if r.ok else f"[red]{r.error}",
            str(r.files_written),
            str(r.copied),
            str(r.bytes_written),
            f"{r.seconds:.1f} s",
        )
    console.print(table)


def print_image(image, console):
    """What a tile receives, file by file: the --dry-run listing."""
    from rich.table import Table

    table = Table(title=f"{image.game} build {image.build}")
    table.add_column("file on the tile", overflow="fold")
    table.add_column("bytes", justify="right")
    table.add_row("main.py", str(len(image.main_py)))
    for path, data in sorted(image.files.items()):
        table.add_row(f"{image.fw_dir}/{path}", str(len(data)))
    console.print(table)
    console.print(
        f"version {image.version}: {len(image.files) + 1} files, {image.total_bytes()} bytes "
        "(nothing was sent: --dry-run)"
    )


def run(args):
    console = table_console()
    if not os.path.isdir(args.firmware):
        print(
            f"blinks flash: --firmware {args.firmware}: no such folder (it holds the firmware "
            "tree: main.py, runtime/, games/, hal/)",
            file=sys.stderr,
        )
        return 2
    if not args.dry_run:
        ports = target_ports(args.port, args.all)
        if not ports:
            print("blinks flash: " + no_tile_message(args.all), file=sys.stderr)
            return 1 if args.all else 2
    try:
        image = build(args.game, compile=not args.no_compile, firmware_dir=args.firmware)
    except BuildError as exc:
        print(f"blinks flash: cannot build the firmware: {exc}", file=sys.stderr)
        return 2
    if args.dry_run:
        print_image(image, console)
        return 0
    cancel = threading.Event()
    results = flash_all(
        ports, image, reset=not args.no_reset, quiet=args.quiet, cancel=cancel, verify=args.verify
    )
    if cancel.is_set():
        print(interrupted_message(results), file=sys.stderr)
        return 130
    print_summary(results, image, console)
    failed = [r for r in results if not r.ok]
    for r in failed:
        print(f"FAILED {r.port}: {r.error}", file=sys.stderr)
    return 1 if failed else 0

"""The `blinks` command: every subcommand's wiring, in one place.

This package holds the host tools' subcommands (flash, share, monitor, ports, diag, emu, uf2, fetch), each a module
with `add_arguments(parser)` and `run(args) -> int` that parses, checks and reports, and leaves
the work to the package that does it (host_tools.bridge, host_tools.emu, ...). The simulator's
subcommands live with the simulator; sim.py adds to `blinks sim` the replay of a physical
session's log, which reads the monitor's records. A subcommand's module is imported only when it runs, so
`blinks ports` never loads pygame.
"""

import argparse
import importlib
import os
import sys

# name -> (module, one-line help)
SUBCOMMANDS = {
    "sim": ("host_tools.cli.sim", "open the desktop simulator (Lost Gems on 18 tiles, or --game)"),
    "session": ("simulator.sessions.cli", "run session scripts (.lg, .wf, .gm, .gb)"),
    "playtest": ("simulator.sessions.playtest_cli", "batch-run bots and report score statistics"),
    "flash": ("host_tools.cli.flash", "compile and deploy the firmware to tiles over USB serial"),
    "share": (
        "host_tools.cli.share",
        "a tile shares its build with its cluster over infrared (exit 0 once all hold it)",
    ),
    "monitor": ("host_tools.cli.monitor", "show and record the output of tiles"),
    "ports": ("host_tools.cli.ports", "list serial ports that look like MicroPython tiles"),
    "emu": ("host_tools.cli.emu", "run emulated rp2 tiles (official MicroPython) on serial ports"),
    "diag": (
        "host_tools.cli.diag",
        "check tiles on themselves: faces, link margin, pixels, button",
    ),
    "uf2": ("host_tools.cli.uf2", "make one UF2 file that turns a Pico into a tile (and flash it)"),
    "fetch": (
        "host_tools.cli.fetch",
        "download the pinned MicroPython UF2 and bootrom ahead of time",
    ),
}


def version():
    """The installed package's version (what `pip show blinks-tiles` says)."""
    from importlib import metadata

    try:
        return metadata.version("blinks-tiles")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def build_parser(argv):
    parser = argparse.ArgumentParser(
        prog="blinks",
        description="Blinks-style hexagonal tiles: simulator, sessions and host tools.",
    )
    parser.add_argument("--version", action="version", version="%(prog)s " + version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    modules = {}
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == wanted:
            module = importlib.import_module(module_name)
            module.add_arguments(p)
            modules[name] = (module, p)
    return parser, modules


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser, modules = build_parser(argv)  # imports the subcommand (pygame for sim)
    except KeyboardInterrupt:
        print("blinks: interrupted", file=sys.stderr)
        return 130
    args, unknown = parser.parse_known_args(argv)
    if not args.command:
        if unknown:
            parser.error("unrecognized arguments: " + " ".join(unknown))
        parser.print_help()
        return 2
    module, subparser = modules[args.command]
    if unknown:
        # argparse would blame the top-level parser and print its usage; the subcommand's
        # usage is the one that lists the options that were meant.
        subparser.error("unrecognized arguments: " + " ".join(unknown))
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        # Ctrl-C: commands that hold something (tiles mid-flash) tidy up themselves; here
        # only the traceback is spared, with the shell's code for SIGINT.
        print(f"blinks {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`blinks ... | head`): stop quietly, as Unix tools do. Later
        # writes to stdout (at exit) go nowhere instead of raising again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a tool killed by it

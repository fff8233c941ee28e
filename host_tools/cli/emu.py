"""`blinks emu`: emulated rp2 tiles on serial ports, for `blinks flash`, `monitor` and mpremote.

    blinks emu --tiles N [--shape blob|line|ring] [--firmware UF2] [--bootrom BIN] [--state DIR]
               [--fast] [--loss P] [--seed N] [--transceiver NAME=VALUE,...] [--offline]
               [--window [--run-for S] [--screenshot FILE] [--table GAME]]

Each tile prints `PORT <index> <path>` alone on a line of stdout once its USB serial is up;
everything else goes to stderr. Then standard input takes a person's hands on the tiles, one
command a line (press, click, place, lift, loss, leds, log, wait, tiles, help, quit: see
host_tools.emu.commands), each answered on stdout; the end of the input ends only the commands. It runs until SIGINT or SIGTERM and leaves no process behind.
With --window the tiles lie on the simulator's table instead
(host_tools/emu/window.py): its gestures are the hands, and standard input is not read.
Without --state the tiles start blank (MicroPython only) and their flash is thrown away at
exit; with --state DIR they keep it there, so a later run starts from the same flash.

The MicroPython UF2 and the bootrom are found as host_tools.emu.images says; when neither an
option, an environment variable nor the data folder names one, the pinned file is fetched
once into the cache (host_tools.fetch), unless --offline or BLINKS_OFFLINE=1. Exit 1 when a
fetch fails (named), 2 when a file is missing and may not be fetched.
"""

import os
import signal
import sys
import threading

from host_tools.emu import images, transceiver
from host_tools.emu.cluster import SHAPES, EmuCluster, EmuError
from host_tools.emu.commands import Commands
from host_tools.emu.node_env import EmuSetupError
from host_tools.fetch import FetchError
from simulator.output_path import folder_problem

MAX_TILES = 18
GAME_TILES = 6  # --game's default: a quick deal that shows the game (Lost Gems: one colour)
DEALT_GAMES = ("lostgems", "waterfall", "gemmatch")  # firmware games dealt by a 6 s hold


def add_arguments(p):
    p.add_argument(
        "--tiles",
        type=int,
        metavar="N",
        help=f"how many tiles, 1-{MAX_TILES} (default 1; with --game, {GAME_TILES})",
    )
    p.add_argument("--shape", choices=sorted(SHAPES), default="blob", help="how they touch (blob)")
    p.add_argument(
        "--firmware",
        metavar="UF2",
        help=f"MicroPython UF2 for the Raspberry Pi Pico (default: ${images.FIRMWARE_ENV}, "
        f"else {os.path.join(images.data_dir(), 'firmware.uf2')}, else the pinned 1.28.0 "
        "fetched once into the cache)",
    )
    p.add_argument(
        "--bootrom",
        metavar="BIN",
        help=f"RP2040 bootrom (default: ${images.BOOTROM_ENV}, "
        f"else {os.path.join(images.data_dir(), 'bootrom.bin')}, else the pinned B1 fetched "
        "once into the cache)",
    )
    p.add_argument(
        "--offline",
        action="store_true",
        help=f"never download: a missing file is an error naming how to supply it "
        f"(also ${images.OFFLINE_ENV}=1)",
    )
    p.add_argument("--state", metavar="DIR", help="keep the tiles' flash images in DIR")
    p.add_argument(
        "--fast",
        action="store_true",
        help="let emulated time run ahead of the wall clock when the tiles are idle",
    )
    p.add_argument("--loss", type=float, default=0.0, metavar="P", help="IR frame loss, 0-1")
    p.add_argument("--seed", type=int, default=0, help="seed of the tiles' randomness (0)")
    p.add_argument(
        "--transceiver",
        metavar="NAME=VALUE,...",
        default="",
        help="change the faces' transceiver model from the datasheets' worst case, e.g. "
        "recovery_us=600,recovery_mode=ring (host_tools/emu/transceiver.py lists the figures)",
    )
    p.add_argument(
        "--window",
        action="store_true",
        help="show the tiles on the simulator's table: left click a tile's button, right-drag "
        "moves a tile (rewired to its new neighbours), the panel shows logs and heap",
    )
    p.add_argument(
        "--run-for",
        type=float,
        metavar="SECONDS",
        help="with --window: stop after this much emulated time (headless: run that long)",
    )
    p.add_argument("--screenshot", metavar="FILE", help="with --window: a PNG of it at exit")
    p.add_argument(
        "--table",
        metavar="GAME",
        help="with --window: whose table to lay out (default lostgems, or --game's); the tiles "
        "run what is flashed on them",
    )
    p.add_argument(
        "--game",
        metavar="GAME",
        help=f"with --window: flash GAME ({', '.join(DEALT_GAMES)}) onto the tiles and deal it "
        "(a 6 s hold on tile 0), so a game is ready to play in one command; the tiles start "
        "from the file `blinks uf2` makes for GAME, as boards a builder dragged it onto",
    )


def run(args):
    if args.game is not None:
        if args.game not in DEALT_GAMES:
            print(
                f"blinks emu: --game must be one of {', '.join(DEALT_GAMES)} (games the tiles "
                f"deal), not {args.game!r}",
                file=sys.stderr,
            )
            return 2
        if not args.window:
            print("blinks emu: --game goes with --window", file=sys.stderr)
            return 2
        args.table = args.table or args.game
    if args.tiles is None:
        args.tiles = GAME_TILES if args.game else 1
    if not 1 <= args.tiles <= MAX_TILES:
        print(f"blinks emu: --tiles must be 1-{MAX_TILES}, got {args.tiles}", file=sys.stderr)
        return 2
    if not 0.0 <= args.loss <= 1.0:
        print(f"blinks emu: --loss must be 0-1, got {args.loss}", file=sys.stderr)
        return 2
    if args.seed < 0:
        print(f"blinks emu: --seed must be a whole number >= 0, got {args.seed}", file=sys.stderr)
        return 2
    if args.state is not None and folder_problem(args.state):
        print(f"blinks emu: --state {args.state}: {folder_problem(args.state)}", file=sys.stderr)
        return 2
    try:
        model = transceiver.parse(args.transceiver)
    except ValueError as exc:
        print(f"blinks emu: --transceiver: {exc}", file=sys.stderr)
        return 2
    from host_tools.emu.window import window_problem

    if window_problem(args):
        print(f"blinks emu: {window_problem(args)}", file=sys.stderr)
        return 2
    # before the signal handlers: Ctrl-C stops a download (which then keeps nothing). Both
    # files are looked for before either is reported, so one run names everything missing.
    found, missing, failed = {}, [], []
    for name, find, given in (
        ("firmware", images.firmware_path, args.firmware),
        ("bootrom", images.bootrom_path, args.bootrom),
    ):
        try:
            found[name] = find(given, fetch=True, offline=args.offline)
        except images.MissingImage as exc:
            missing.append(str(exc))
        except FetchError as exc:
            failed.append(str(exc))
    for problem in failed + missing:
        print(f"blinks emu: {problem}", file=sys.stderr)
    if failed or missing:
        return 1 if failed else 2
    firmware, bootrom = found["firmware"], found["bootrom"]
    if args.window:  # the tiles on the simulator's table (host_tools/emu/window.py)
        from host_tools.emu.window import run_window

        return run_window(args, firmware, bootrom, model)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        cluster = EmuCluster(
            tiles=args.tiles,
            shape=args.shape,
            firmware=firmware,
            bootrom=bootrom,
            state_dir=args.state,
            mode="fast" if args.fast else "realtime",
            seed=args.seed,
            loss=args.loss,
            transceiver=model,
        )
    except (images.MissingImage, ValueError) as exc:
        print(f"blinks emu: {exc}", file=sys.stderr)
        return 2
    try:
        cluster.start(wait_up=False)
        announced = set()
        while not stop.is_set() and len(announced) < args.tiles:
            for i in range(args.tiles):
                if i not in announced and cluster.up[i].is_set():
                    announced.add(i)
                    print(f"PORT {i} {cluster.ports[i]}", flush=True)
            if not cluster.alive():
                raise EmuError("the emulator stopped while the tiles were starting")
            stop.wait(0.1)
        print(f"blinks emu: {args.tiles} tile(s) ({args.shape}); Ctrl-C to stop", file=sys.stderr)
        print(
            "blinks emu: to flash them, in another terminal:\n"
            f"  export BLINKS_PORTS={os.pathsep.join(cluster.ports)}\n"
            "  blinks flash --all && blinks monitor --all",
            file=sys.stderr,
        )
        _take_commands(cluster, stop)
        while not stop.wait(0.5):
            if not cluster.alive():
                raise EmuError("the emulator stopped")
    except (EmuSetupError, EmuError) as exc:
        print(f"blinks emu: {exc}", file=sys.stderr)
        return 1
    finally:
        cluster.stop()
    return 0


def _take_commands(cluster, stop):
    """Read commands from stdin on a thread of their own; `quit` sets `stop`. A job in a
    terminal's background is left alone: reading the terminal would stop it (SIGTTIN)."""
    stdin = sys.stdin
    if stdin is None or stdin.closed:
        return
    if stdin.isatty() and os.tcgetpgrp(stdin.fileno()) != os.getpgrp():
        print("blinks emu: in the background: no commands from the terminal", file=sys.stderr)
        return
    if stdin.isatty():
        print("blinks emu: commands here (help lists them)", file=sys.stderr)
    commands = Commands(cluster)

    def read():
        try:
            for line in stdin:
                try:
                    lines, done = commands.answer(line)
                except EmuError as exc:
                    lines, done = [f"error {commands.line_no}: {exc}"], False
                for answer in lines:
                    print(answer, flush=True)
                if done:
                    stop.set()
                    return
        except (OSError, ValueError) as exc:  # a standard input that cannot be read: no commands
            print(f"blinks emu: no commands: standard input: {exc}", file=sys.stderr)

    threading.Thread(target=read, name="emu-commands", daemon=True).start()

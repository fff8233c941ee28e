"""`blinks session run SCRIPT... [--rules-only] [--seed N] [--ir-loss P] [--ir-bit-flip P] [--json]
[--mpy N] [-q] [--ceiling] [--board-png DIR]`.

Exit codes: 0 every expect held; 1 an expect failed (each printed as `SCRIPT:LINE: ...`, the
session runs on); 2 the script is malformed, asks for an illegal or out-of-turn move, or cannot
be run; 3 a tile running on MicroPython (--mpy) failed (its process died, hung, or the firmware
raised), so the session has no verdict: the line it had reached is named and --json still
prints the game as it stood. The transcript goes to stdout, or to stderr with --json so stdout
holds only the JSON.

A script's game is told by its suffix: `.lg` Lost Gems, `.wf` Waterfall, `.gm` Gem Match,
`.gb` Gembatan (and a game registered with BLINKS_GAMES by its own); anything else is read as
Lost Gems. Each game brings its own script language (docs/session-scripts.md).

Several scripts (or a directory: its *.lg, *.wf, *.gm and *.gb files) run one after the other,
as a batch: each as if run alone (with --json, the object it would print, one a line), then a line that counts
them; the exit code is the worst of theirs. With --rules-only, a script found in a directory
that needs the simulator (`expect tile`) is skipped, and said to be; named alone it is refused.
"""

import argparse
import json
import os
import sys

from simulator.cosim import CosimError
from simulator.games import game_of_script, script_games
from simulator.mpy import host_micropython
from simulator.sessions.runner import (
    EXIT_BAD_SCRIPT,
    EXIT_OK,
    EXIT_TILE_DIED,
    SessionResult,
)
from simulator.sessions.script import ScriptError, number_error, whole_number

SKIPPED = "skipped"  # a batch's script that --rules-only cannot run (it checks tiles)


def add_arguments(parser):
    sub = parser.add_subparsers(dest="session_command", metavar="ACTION")
    run_p = sub.add_parser(
        "run",
        help="run a session script",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run_p.add_argument(
        "script",
        metavar="SCRIPT",
        nargs="+",
        help=f"session script ({script_patterns()}); several, or a directory of them, run as a "
        "batch",
    )
    run_p.add_argument(
        "--rules-only",
        action="store_true",
        help="referee alone, no simulated tiles (tiles: [], deal_ms: null)",
    )
    run_p.add_argument(
        "--seed",
        type=seed_number,
        default=None,
        help="random seed, a whole number >= 0 (overrides `seed` in the script)",
    )
    run_p.add_argument(
        "--ir-loss",
        type=float,
        default=0.0,
        metavar="P",
        help="drop each infrared frame with probability P (simulator only)",
    )
    run_p.add_argument(
        "--ir-bit-flip",
        type=float,
        default=0.0,
        metavar="P",
        help="flip each bit of an infrared frame with probability P (simulator only)",
    )
    run_p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object at the end (transcript on stderr)",
    )
    run_p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no transcript: only errors, failed expects and how each session ended",
    )
    run_p.add_argument(
        "--ceiling",
        action="store_true",
        help="also say the best score the deal allows (every shard known) and each move "
        "that lowers it",
    )
    run_p.add_argument(
        "--board-png",
        metavar="DIR",
        help="write a picture of the board after each move into DIR (board-001.png, ...), for "
        "games that draw one",
    )
    run_p.add_argument(
        "--mpy",
        type=int,
        default=0,
        metavar="N",
        help="run the first N of the 18 tiles as real MicroPython processes (simulator only)",
    )
    # `blinks session` alone prints the usage of `run`, every option included
    parser.set_defaults(session_usage=run_p.format_usage().replace("usage: ", "", 1))


def seed_number(text):
    """--seed takes what a script's `seed N` takes: a whole number, 0 or more."""
    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(number_error(text, "expected a whole number >= 0"))
    return value


def run(args):
    if getattr(args, "session_command", None) != "run":
        print("usage: " + args.session_usage.strip(), file=sys.stderr)
        return EXIT_BAD_SCRIPT
    paths = script_paths(args.script)
    if not paths:
        where = ", ".join(args.script)
        print(
            f"blinks session run: no session scripts ({script_patterns()}) in {where}",
            file=sys.stderr,
        )
        return EXIT_BAD_SCRIPT
    batch = len(paths) > 1
    bad_option = option_error(args.rules_only, args.ir_loss, args.mpy, args.ir_bit_flip)
    if batch and bad_option:  # said once for the batch, not once a script
        print(f"blinks session run: {bad_option}", file=sys.stderr)
        return EXIT_BAD_SCRIPT
    transcript = sys.stderr if args.json else sys.stdout
    named = set(args.script)
    codes = []
    for path in paths:
        if batch and not args.quiet:  # quiet: each outcome line names its script anyway
            print(f"== {path}", file=transcript)
        if args.rules_only and path not in named and needs_tiles(path):
            print(
                f"{path}: skipped: it checks tiles (`expect tile`), run it without --rules-only",
                file=transcript,
            )
            codes.append(SKIPPED)
            continue
        codes.append(
            run_session(
                path,
                rules_only=args.rules_only,
                seed=args.seed,
                ir_loss=args.ir_loss,
                ir_bit_flip=args.ir_bit_flip,
                as_json=args.json,
                mpy=args.mpy,
                quiet=args.quiet,
                ceiling=args.ceiling,
                board_png=args.board_png,
            )
        )
    if batch:
        print(batch_summary(codes), file=transcript)
    return max((code for code in codes if code != SKIPPED), default=EXIT_OK)


def script_runners(game, statements):
    """The runners (rules, tiles) for a parsed script: a game whose scripts name a variant in
    their header (Gem Match's `variant printed`) picks them by `script_runners(statements)`."""
    choose = getattr(game, "script_runners", None)
    return choose(statements) if choose else game.session_runners()


def needs_tiles(path):
    """Whether a script checks tiles (`expect tile`), which --rules-only cannot; a script that
    cannot be read or parsed does not, so running it reports what is wrong with it."""
    try:
        statements = game_of_script(path).parse_script(read_script(path))
    except (OSError, ScriptError):
        return False
    return any(st.kind == "expect_tile" for st in statements)


def script_patterns():
    """The games' script names, for messages: "*.lg, *.wf, *.gm, *.gb"."""
    return ", ".join("*" + suffix for suffix in script_games())


def script_paths(named):
    """The scripts to run: each named file, and a named directory's scripts (every game's
    suffix) by name."""
    suffixes = tuple(script_games())
    paths = []
    for path in named:
        if os.path.isdir(path):
            paths += sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(suffixes))
        else:
            paths.append(path)
    return paths


def batch_summary(codes):
    """The line that ends a batch: how many scripts exited 0, 1 and 2 (and, when any did, 3,
    or were skipped)."""
    counts = [codes.count(c) for c in (0, 1, EXIT_BAD_SCRIPT)]
    line = "{} scripts: {} passed, {} failed (exit 1), {} stopped by an error (exit 2)".format(
        len(codes), *counts
    )
    if EXIT_TILE_DIED in codes:
        line += f", {codes.count(EXIT_TILE_DIED)} stopped by a tile on MicroPython (exit 3)"
    if SKIPPED in codes:
        line += f", {codes.count(SKIPPED)} skipped (they check tiles: not with --rules-only)"
    return line


def option_error(rules_only, ir_loss, mpy, ir_bit_flip=0.0):
    """What is wrong with the options, whatever the script, or None."""
    if not 0.0 <= ir_loss <= 1.0:
        return f"--ir-loss must be a probability between 0 and 1, got {ir_loss}"
    if not 0.0 <= ir_bit_flip <= 1.0:
        return f"--ir-bit-flip must be a probability between 0 and 1, got {ir_bit_flip}"
    if not 0 <= mpy <= 18:
        return f"--mpy takes a number of tiles from 0 to 18, got {mpy}"
    if mpy and rules_only:
        return "--mpy runs tiles on MicroPython: it needs the simulator, not --rules-only"
    return None


def run_session(
    path,
    rules_only=False,
    seed=None,
    ir_loss=0.0,
    as_json=False,
    out=None,
    err=None,
    mpy=0,
    quiet=False,
    ceiling=False,
    ir_bit_flip=0.0,
    board_png=None,
):
    out = out or sys.stdout
    err = err or sys.stderr
    transcript = err if as_json else out
    say = (lambda line: None) if quiet else (lambda line: print(line, file=transcript))

    def fail(line, message):
        where = f"{path}:{line}" if line else path
        print(f"{where}: {message}", file=err)
        return EXIT_BAD_SCRIPT

    bad_option = option_error(rules_only, ir_loss, mpy, ir_bit_flip)
    if bad_option:
        return fail(0, bad_option)
    try:
        text = read_script(path)
    except OSError as exc:
        return fail(0, f"cannot read the script: {exc}")
    except ScriptError as exc:
        return fail(exc.line, exc.message)
    game = game_of_script(path)  # the script's game brings its language and runners
    try:
        statements = game.parse_script(text)
    except ScriptError as exc:
        return fail(exc.line, exc.message)
    rules_class, tiles_class = script_runners(game, statements)
    if ceiling and not getattr(game, "CEILING", False):
        return fail(
            0, f"--ceiling: {game.NAME} scripts have no deal ceiling (Lost Gems scripts do)"
        )
    if board_png is not None and not getattr(rules_class, "BOARD_PICTURE", None):
        which = " of this variant" if getattr(game, "script_runners", None) else ""
        return fail(0, f"--board-png: {game.NAME} scripts{which} draw no board picture")
    if rules_only:
        runner_class, options = rules_class, {"ceiling": ceiling}
    else:
        runner_class = tiles_class
        options = {"ir_loss": ir_loss, "bit_flip": ir_bit_flip, "mpy": mpy, "ceiling": ceiling}
        if runner_class is None:
            return fail(
                0,
                "the simulator runner is not available (it needs simulator.world and "
                f"the {game.NAME} firmware); use --rules-only",
            )
    if mpy and not host_micropython.micropython_command():
        return fail(0, host_micropython.not_found_message())
    runner = None
    stop = None  # the ScriptError that stopped a game under way

    def failed(line, message):  # a failed expect, said once, as it happens
        print(f"{path}:{line}: {message}", file=err)

    try:
        if board_png is not None:
            options["board_png"] = board_png
        if not statements:  # nothing to run is a mistake, not a game that passed
            raise ScriptError(1, "the script is empty: expected a move or an expect line")
        runner = runner_class(statements, seed=seed, say=say, failed=failed, **options)
        result = runner.run()
    except ScriptError as exc:
        if runner is None or runner.state is None:
            return fail(exc.line, exc.message)
        # Stopped mid-game: the expects that failed before are still reported, then the
        # error, and with --json the game as it stood, so nothing the run found is lost.
        stop = exc
        result_class = getattr(runner, "result_class", SessionResult)
        result = result_class(EXIT_BAD_SCRIPT, runner.state, runner.failures, runner)
    except CosimError as exc:
        # A tile's MicroPython process failed: not the script's fault (2) nor a failed expect
        # (1). The line reached is named, and the game is kept as it stood.
        stop = ScriptError(runner.line, tile_failure(runner, exc))
        result_class = getattr(runner, "result_class", SessionResult)
        result = result_class(EXIT_TILE_DIED, runner.state, runner.failures, runner)
    if stop is not None:
        fail(stop.line, stop.message)
    if as_json:
        print(json.dumps(result.to_dict()), file=out)
    elif stop is None:  # after an error, its line says how the session ended
        print(f"{path}: {outcome(result)}", file=out)
    return result.code


def read_script(path):
    """The text of a script. A BOM, as some editors write, is no code; line ends are left
    alone (the parser breaks lines at "\n" only, as `wc -l` and grep -n count them).
    Raises OSError, or ScriptError naming the line of a byte that is not UTF-8."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ScriptError(
            line,
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} at column {column} "
            "(save the script as UTF-8)",
        ) from None


def tile_failure(runner, exc):
    """What to say when a co-simulated tile failed: which tile, if the tiles tell, and why."""
    dead = [t["id"] for t in getattr(runner, "tiles", []) if t["state"] is None]
    who = f"tile {dead[0]}" if len(dead) == 1 else "a tile"
    return f"{who} on MicroPython failed, the session cannot go on: {exc}"


def outcome(result):
    """The last line of a session run without --json: the game's result words it."""
    return result.outcome()

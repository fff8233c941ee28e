"""`blinks sim`: the desktop simulator window (Lost Gems on 18 tiles by default)."""

import math
import os
import sys

from simulator.app.display import headless, hide_pygame_banner, open_display, save_screenshot
from simulator.output_path import folder_problem, output_problem

WINDOW_TITLE = "Blinks simulator"
FRAME_MS = 1000.0 / 60.0
MIN_WINDOW = (1100, 700)  # the side panel and five table areas need this much
MAX_WINDOW = (7680, 4320)  # an 8K screen; past it pygame runs out of memory for the table


def add_arguments(parser):
    from simulator.sessions.cli import seed_number

    parser.add_argument(
        "--tiles",
        type=int,
        default=None,
        help="number of tiles (default: the game's, 18 for Lost Gems, 27 for Waterfall)",
    )
    parser.add_argument(
        "--seed",
        type=seed_number,
        default=0,
        help="world seed, a whole number >= 0: same seed and inputs give the same run",
    )
    parser.add_argument(
        "--game", default=None, help="game to run (default lostgems; e.g. waterfall, demo)"
    )
    parser.add_argument(
        "--ir-loss",
        type=float,
        default=0.0,
        metavar="P",
        help="drop each infrared frame with probability P",
    )
    parser.add_argument(
        "--ir-bit-flip",
        type=float,
        default=0.0,
        metavar="P",
        help="flip each bit of an infrared frame with probability P",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="players at the table, for games with a choice (Waterfall: 2-4, default 2): "
        "their hands and score piles, and with --bot the bots in the other seats",
    )
    parser.add_argument("--speed", type=int, default=1, choices=(1, 4, 16), help="starting speed")
    parser.add_argument(
        "--record", metavar="FILE", help="record every input with its simulated time (JSON Lines)"
    )
    parser.add_argument(
        "--replay", metavar="FILE", help="replay a recording (its seed, game and layout win)"
    )
    parser.add_argument(
        "--run-for", type=float, metavar="SECONDS", help="run this much simulated time, then exit"
    )
    parser.add_argument("--screenshot", metavar="FILE", help="save a PNG of the window at exit")
    parser.add_argument(
        "--window",
        default="1280x800",
        metavar="WxH",
        help="window size (default 1280x800, from 1100x700 to 7680x4320)",
    )
    parser.add_argument(
        "--mpy",
        type=int,
        default=0,
        metavar="N",
        help="run the first N tiles as real MicroPython processes (co-simulation)",
    )
    parser.add_argument(
        "--bot",
        metavar="NAME",
        help="play as A against this bot playing B, in games that have one (Lost Gems: "
        "conventions, cautious, ... or module:Class for a bot of your own)",
    )
    parser.add_argument(
        "--scripts",
        metavar="DIR",
        help="with --bot: save each game as a session script in DIR (when it ends, or is left "
        "unfinished), to replay with `blinks session run`",
    )
    parser.add_argument(
        "--variant",
        metavar="NAME",
        help="a game's variant, for games that have one (gemmatch: printed, tetrominoes on a "
        "square field, no tiles: you play A against --bot in B)",
    )
    parser.add_argument(
        "--field",
        type=int,
        metavar="N",
        help="with --game gemmatch --variant printed: the square field, N by N (6-12, default 8)",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="with --game gemmatch --variant printed: the bot plays both seats, you watch",
    )
    from simulator.sessions.playtest_cli import add_debug_argument

    add_debug_argument(parser)


def default_tiles(game):
    """How many tiles a game lays out when --tiles is not given (its host module says)."""
    from simulator.games import host_game

    return getattr(host_game(game), "TILES", 18)


def _check(args):
    if args.replay is not None and args.replay != "":
        if os.path.isdir(args.replay):
            return f"--replay {args.replay}: a folder, not a recording"
        if not os.path.isfile(args.replay):
            return f"--replay {args.replay}: no such file"
    elif args.game is not None:
        from simulator.games import host_game

        not_on_tiles = getattr(host_game(args.game), "NOT_ON_TILES", None)
        if not_on_tiles:
            return not_on_tiles
    if args.tiles is None:
        args.tiles = default_tiles(args.game)
    if not 1 <= args.tiles <= 60:
        return f"--tiles must be between 1 and 60, not {args.tiles}"
    if not 0.0 <= args.ir_loss <= 1.0:
        return f"--ir-loss must be a probability between 0 and 1, not {args.ir_loss:g}"
    if not 0.0 <= args.ir_bit_flip <= 1.0:
        return f"--ir-bit-flip must be a probability between 0 and 1, not {args.ir_bit_flip:g}"
    if args.run_for is not None and not (math.isfinite(args.run_for) and args.run_for >= 0):
        return f"--run-for takes simulated seconds, 0 or more, not {args.run_for:g}"
    for option in ("record", "replay", "screenshot"):
        if getattr(args, option, None) == "":
            return f"--{option.replace('_', '-')} needs a file name"
    for option in ("record", "screenshot"):  # found now, not after the whole run
        path = getattr(args, option, None)
        if path is not None and output_problem(path):
            return f"--{option} {path}: {output_problem(path)}"
    for option in ("field", "watch"):
        if getattr(args, option, None) not in (None, False):
            return f"--{option} is the printed Gem Match's: give --game gemmatch --variant printed"
    scripts = getattr(args, "scripts", None)
    if scripts == "":
        return "--scripts needs a folder name"
    if scripts is not None and args.bot is None:
        return "--scripts DIR saves the games played against a bot: use it with --bot NAME"
    if scripts is not None and folder_problem(scripts):
        return f"--scripts {scripts}: {folder_problem(scripts)}"
    try:
        w, h = window_size(args.window)
    except ValueError:
        return f"--window wants WIDTHxHEIGHT like 1280x800, not {args.window!r}"
    if w < MIN_WINDOW[0] or h < MIN_WINDOW[1]:
        return f"--window must be at least {MIN_WINDOW[0]}x{MIN_WINDOW[1]}, not {w}x{h}"
    if w > MAX_WINDOW[0] or h > MAX_WINDOW[1]:
        return f"--window must be at most {MAX_WINDOW[0]}x{MAX_WINDOW[1]}, not {w}x{h}"
    if args.replay and args.record and os.path.abspath(args.replay) == os.path.abspath(args.record):
        return "--record must not overwrite the --replay file"
    if not args.replay and not 0 <= args.mpy <= args.tiles:
        return f"--mpy takes a number of tiles from 0 to {args.tiles}, not {args.mpy}"
    players = getattr(args, "players", None)
    if players is not None:
        from simulator.games import host_game

        counts = getattr(host_game(args.game), "PLAYER_COUNTS", None)
        if not counts:
            return f"--players: {args.game or 'lostgems'} has no choice of players"
        if players not in counts:
            return f"--players must be one of {', '.join(map(str, counts))}, not {players}"
    if args.bot is not None:
        return _check_bot(args)
    return None


def window_size(text):
    """(width, height) of a WxH option; ValueError if it is not two whole numbers."""
    w, h = text.lower().split("x")
    if not (w.isascii() and w.isdigit() and h.isascii() and h.isdigit()) or len(w + h) > 12:
        raise ValueError(text)
    return int(w), int(h)


def _check_bot(args):
    from simulator.games import host_game

    if args.replay:
        return "--bot plays a new game: it cannot be combined with --replay (replay the recording alone)"
    game = host_game(args.game)
    problem_of = getattr(game, "sim_bot_problem", None)
    if problem_of is None:
        return f"--bot: {game.NAME} has no bot to play against in the simulator"
    return problem_of(args)


def make_app(args, size=None, runners=None):
    """Build the SimApp for parsed arguments (no window yet). Raises ValueError on bad input.

    `runners` ({tile index: runner factory}) is the co-simulation hook (see world_setup); without
    it, `args.mpy` tiles (the first ones) run on MicroPython. `args.bot` adds a bot game."""
    from simulator.app import recorder as rec
    from simulator.app.app import HEIGHT, WIDTH, SimApp, table_for
    from simulator.app.games import load_game
    from simulator.app.world_setup import build_world, starting_layout

    window = getattr(args, "window", None)
    size = size or (window_size(window) if window else (WIDTH, HEIGHT))
    replay = None
    game, seed, ir_loss, tiles = args.game, args.seed, args.ir_loss, args.tiles
    players = getattr(args, "players", None)
    bit_flip = getattr(args, "ir_bit_flip", 0.0)
    layout = None
    if args.replay:
        header, events = rec.load(args.replay)
        game, seed, ir_loss = header.get("game"), header["seed"], float(header.get("ir_loss", 0.0))
        bit_flip = float(header.get("ir_bit_flip", 0.0))
        players = header.get("players")
        layout = [tuple(cell) for cell in header.get("layout") or []]
        tiles = len(layout)
        replay = rec.Replay(events)
    game_class, game_name, note = load_game(game)
    if layout is None:
        from simulator.games import host_game, table_areas

        host = host_game(game_name)
        if tiles is None:
            tiles = default_tiles(game_name)
        layout = starting_layout(table_for(size, tiles, table_areas(host, players)), tiles)
    if runners is None and getattr(args, "mpy", 0):
        from simulator.cosim import mpy_runners

        if not 0 <= args.mpy <= len(layout):  # a recording's layout fixes the tiles
            raise ValueError(
                f"--mpy takes a number of tiles from 0 to {len(layout)}, not {args.mpy}"
            )
        runners = mpy_runners(args.mpy, len(layout))
    world = build_world(game_class, layout, seed, ir_loss, runners, bit_flip)
    recorder = None
    if args.record:
        header = {
            "game": game_name,
            "seed": seed,
            "tiles": tiles,
            "ir_loss": ir_loss,
            "ir_bit_flip": bit_flip,
            "layout": [list(c) for c in layout],
        }
        if players is not None:
            header["players"] = players
        try:
            recorder = rec.Recorder(args.record, header)
        except OSError:
            _close_runners(world, runners)
            raise
    app = SimApp(
        world,
        game_name,
        seed,
        note=note,
        recorder=recorder,
        replay=replay,
        size=size,
        players=players,
    )
    app.badge_micropython = bool(runners)
    app.clock.set_speed(args.speed)
    bot = getattr(args, "bot", None)
    if bot is not None:
        try:
            seats = {"players": players} if players is not None else {}
            app.host.attach_sim_bot(app, bot, seed, getattr(args, "scripts", None), **seats)
        except OSError as exc:  # the scripts folder cannot be made
            app.close()
            raise OSError(f"--scripts: {exc}") from None
    return app


def _close_runners(world, runners):
    if runners:
        from simulator.cosim import close_runners

        close_runners(world)


def refused(args):
    """2 when the options cannot run (the problem said on stderr), else None."""
    from simulator.sessions.user_code import UserCodeError, report

    try:
        problem = _check(args)
    except UserCodeError as error:  # a bot module of your own that fails to load
        return report("blinks sim", error, args)
    if problem:
        print("blinks sim: " + problem, file=sys.stderr)
        return 2
    return None


def run_variant(args):
    """`--variant NAME`: the game's own window for that variant (its descriptor's
    run_sim_variant); a game without one refuses it."""
    from simulator.games import host_game

    window = getattr(host_game(args.game), "run_sim_variant", None)
    if window is None:
        print(f"blinks sim: --variant: {args.game or 'lostgems'} has no variants", file=sys.stderr)
        return 2
    return window(args)


def run(args) -> int:
    from simulator.sessions.user_code import UserCodeError, report

    if getattr(args, "variant", None) is not None:
        return run_variant(args)
    status = refused(args)
    if status is not None:
        return status
    hide_pygame_banner()
    import pygame

    no_window = open_display("blinks sim")
    if no_window:
        print(no_window, file=sys.stderr)
        return 2
    from simulator.app.games import GameNotFound
    from simulator.app.recorder import RecordingError
    from simulator.cosim import CosimError

    try:
        app = make_app(args)
    except (RecordingError, GameNotFound, OSError, ValueError, CosimError) as exc:
        pygame.quit()
        print(f"blinks sim: {exc}", file=sys.stderr)
        return 2
    except UserCodeError as error:
        pygame.quit()
        return report("blinks sim", error, args)
    except Exception as exc:  # noqa: BLE001 - a game's own code; game_failed raises ours again
        pygame.quit()
        return report("blinks sim", game_failed(exc, args.game, args.seed), args)
    from simulator.app.app import ReplayError

    try:
        screen = pygame.display.set_mode((app.width, app.height))
    except pygame.error as exc:
        app.close()
        pygame.quit()
        print(f"blinks sim: cannot open a {app.width}x{app.height} window ({exc})", file=sys.stderr)
        return 2
    status = 0
    try:
        pygame.display.set_caption(f"{WINDOW_TITLE} - {app.game_name}")
        try:
            run_loop(app, screen, args.run_for)
        except ReplayError as exc:
            print(f"blinks sim: {args.replay}: {exc}", file=sys.stderr)
            status = 2
        except Exception as exc:  # noqa: BLE001 - a game's own code; ours is raised again
            error = game_failed(exc, app.game_name, app.seed, app.world.now)
            status = report("blinks sim", error, args)
        if args.screenshot:
            try:
                save_screenshot(screen, args.screenshot)
            except (pygame.error, OSError) as exc:
                print(
                    f"blinks sim: cannot save the screenshot {args.screenshot}: {exc}",
                    file=sys.stderr,
                )
                status = 2
    finally:
        app.close()
        pygame.quit()
        status = _tell_at_exit(app, args, status)
    return status


def game_failed(exc, game, seed, now=None):
    """The UserCodeError for a firmware game of your own that raised (as it was built or in a
    pass: its setup() or loop()), naming the tile and the simulated time; `exc` itself, raised
    again, when no line of the game's own is on the way (the platform's own failure)."""
    from simulator.sessions.user_code import is_theirs, wrap

    if not is_theirs(exc):
        raise exc
    running = [f"world seed {seed}"]
    tile = failing_tile(exc)
    if tile is not None:
        running.append(f"tile {tile}")
    if now is not None:
        running.append(f"{now / 1000:.3f} s simulated")
    return wrap(exc, f"game {game or 'lostgems'}", ", ".join(running))


def failing_tile(exc):
    """The tile whose pass raised `exc`: the world's advance() was running it (its `tid`)."""
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name == "advance" and "tid" in frame.f_locals:
            tid = frame.f_locals["tid"]
            if isinstance(tid, int):
                return tid
        tb = tb.tb_next
    return None


def _tell_at_exit(app, args, status):
    """What the controllers (a bot game) have to say once the window is closed: the scripts
    saved, and why none was; a game that could not be saved or a bot that failed make it 1."""
    from simulator.sessions.user_code import report

    for controller in app.controllers:
        for path in getattr(controller, "saved_scripts", ()):
            print(f"blinks sim: saved {path}")
        for note in getattr(controller, "notes", ()):
            print(f"blinks sim: {note}")
        for problem in getattr(controller, "unsaved", ()):
            print(f"blinks sim: {problem}", file=sys.stderr)
            status = status or 1
        for error in getattr(controller, "failures", ()):
            code = report("blinks sim", error, args)
            status = status or code
    return status


def run_loop(app, screen, run_for=None):
    """Frames until the window closes or run_for simulated seconds pass.

    With no display (SDL_VIDEODRIVER=dummy) nobody watches: frames take exactly 1/60 s of
    simulated time at the chosen speed and only the last one is drawn; without --run-for the
    run ends when the replay does (or at once).
    """
    import pygame

    unwatched = headless()
    limit = None if run_for is None else round(run_for * 1000)
    if unwatched and limit is None:
        limit = app.replay.end_time if app.replay is not None else 0
    ticker = pygame.time.Clock()
    while not app.quit:
        for ev in pygame.event.get():
            app.handle_event(ev)
        if limit is not None and app.world.now >= limit:
            break
        real_ms = FRAME_MS if unwatched else ticker.tick(60)
        ran = app.update(real_ms, limit)
        if unwatched and not ran:
            break  # paused with nobody to unpause
        if not unwatched:
            app.render(screen)
            pygame.display.flip()
    app.render(screen)
    pygame.display.flip()

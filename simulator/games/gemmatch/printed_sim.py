"""`blinks sim --game gemmatch --variant printed [--field N] [--bot NAME] [--seed S]`: the
printed Gem Match in the simulator's window, a bot in each seat, one move a second of simulated
time (faster with --speed). The printed game has no tiles, so the window shows the game's
picture (printed_png, the one --board-png saves): the field, the hands, the scores, whose turn.

Keys: space pauses, N deals the next seed, Esc closes. With no display (SDL_VIDEODRIVER=dummy)
it plays --run-for simulated seconds at once and draws the last frame; --screenshot FILE.png
saves the window at exit.
"""

import sys

from simulator.app import cli as sim_cli
from simulator.app.display import headless, hide_pygame_banner, open_display, save_screenshot
from simulator.games.gemmatch import printed as pr
from simulator.games.gemmatch import printed_bots
from simulator.games.gemmatch.printed_png import rgba
from simulator.output_path import output_problem
from simulator.play.bots import bot_seed

MOVE_MS = 1000  # a move a second, so a person can follow
NO_TILES = ("tiles", "players", "replay", "record", "scripts")  # options of the tiles' game
KEYS = "space: pause   N: next seed   Esc: close"


def problem(args):
    """What is wrong with the options for the printed window, or None."""
    if args.variant != "printed":
        return (
            f"--variant: Gem Match's window shows the printed game (printed), not {args.variant!r}"
        )
    for option in NO_TILES:
        if getattr(args, option, None) is not None:
            return f"--{option}: the printed game has no tiles (--variant printed)"
    if args.mpy or args.ir_loss or args.ir_bit_flip:
        return "--mpy, --ir-loss and --ir-bit-flip need tiles; the printed game has none"
    size = pr.FIELD_SIZE if args.field is None else args.field
    if size not in pr.FIELD_SIZES:
        return f"--field must be from {pr.FIELD_SIZES[0]} to {pr.FIELD_SIZES[-1]}, not {size}"
    bot = args.bot or printed_bots.BEST_BOT
    if bot not in printed_bots.BOTS:
        return f"--bot: no printed Gem Match bot called {bot!r}; known: " + ", ".join(
            sorted(printed_bots.BOTS)
        )
    if args.run_for is not None and args.run_for < 0:
        return f"--run-for takes simulated seconds, 0 or more, not {args.run_for:g}"
    if args.screenshot is not None and output_problem(args.screenshot):
        return f"--screenshot {args.screenshot}: {output_problem(args.screenshot)}"
    try:
        w, h = sim_cli.window_size(args.window)
    except ValueError:
        return f"--window wants WIDTHxHEIGHT like 1280x800, not {args.window!r}"
    low, high = sim_cli.MIN_WINDOW, sim_cli.MAX_WINDOW
    if not (low[0] <= w <= high[0] and low[1] <= h <= high[1]):
        return f"--window must be from {low[0]}x{low[1]} to {high[0]}x{high[1]}, not {w}x{h}"
    return None


class Watch:
    """A printed game played by bots, a move every MOVE_MS of simulated time."""

    def __init__(self, seed, size, bot):
        self.size, self.bot = size, bot
        self.deal(seed)

    def deal(self, seed):
        self.seed, self.clock, self.due = seed, 0, MOVE_MS
        self.state = pr.GameState(seed=seed, size=self.size)
        self.bots = [
            printed_bots.bot_class(self.bot)(p, bot_seed(seed, p, 0x9E7)) for p in range(2)
        ]
        self.views = [self.state.observation(p) for p in range(2)]
        self.moves = 0  # changes when the picture must be drawn again

    def advance(self, ms):
        """Let `ms` of simulated time pass, making the moves that fall due."""
        self.clock += ms
        while self.clock >= self.due and not self.state.over:
            seat = self.state.current
            event = self.state.apply(self.bots[seat].act(self.views[seat]))
            for p in range(2):
                self.bots[p].observe(self.views[p], event)
            self.moves += 1
            self.due += MOVE_MS

    def title(self):
        n = self.size
        return f"Gem Match, printed: {self.bot} in both seats, seed {self.seed}, field {n} by {n}"


def run(args):
    """The window's run; the exit code."""
    wrong = problem(args)
    if wrong:
        print(f"blinks sim: {wrong}", file=sys.stderr)
        return 2
    hide_pygame_banner()
    import pygame

    no_window = open_display("blinks sim")
    if no_window:
        print(no_window, file=sys.stderr)
        return 2
    size = sim_cli.window_size(args.window)
    field = pr.FIELD_SIZE if args.field is None else args.field
    watch = Watch(args.seed, field, args.bot or printed_bots.BEST_BOT)
    try:
        screen = pygame.display.set_mode(size)
        pygame.display.set_caption(f"{sim_cli.WINDOW_TITLE} - gemmatch (printed)")
        _loop(pygame, screen, watch, args)
        if args.screenshot:
            save_screenshot(screen, args.screenshot)
    except (pygame.error, OSError) as exc:
        print(f"blinks sim: {exc}", file=sys.stderr)
        return 2
    finally:
        pygame.quit()
    return 0


def _loop(pygame, screen, watch, args):
    limit = None if args.run_for is None else round(args.run_for * 1000)
    if headless():  # nobody watches: play the time at once, draw the last frame
        watch.advance(limit or 0)
        _draw(pygame, screen, watch, False)
        return
    ticker, paused, drawn = pygame.time.Clock(), False, None
    while limit is None or watch.clock < limit:
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                return
            if ev.type == pygame.KEYDOWN and ev.key == pygame.K_SPACE:
                paused, drawn = not paused, None
            elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_n:
                watch.deal(watch.seed + 1)
                drawn = None
        ms = ticker.tick(30) * args.speed
        if not paused:
            watch.advance(ms if limit is None else min(ms, limit - watch.clock))
        if drawn != (watch.seed, watch.moves):
            _draw(pygame, screen, watch, paused)
            drawn = (watch.seed, watch.moves)
    _draw(pygame, screen, watch, paused)


def _draw(pygame, screen, watch, paused):
    size = screen.get_size()
    note = "paused; " + KEYS if paused else KEYS
    picture = rgba(watch.state, watch.title(), size, note)
    screen.blit(pygame.image.frombuffer(picture, size, "RGBA"), (0, 0))
    pygame.display.flip()

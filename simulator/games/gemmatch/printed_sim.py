"""`blinks sim --game gemmatch --variant printed [--field N] [--bot NAME] [--watch]`: the
printed Gem Match in the simulator's window. You play A against the bot in B (`--watch`: the
bot in both seats), a bot's move a second of simulated time after the move before it (faster
with --speed). The printed game has no tiles, so the window shows the game's picture
(printed_png, the one --board-png saves); what a click means is printed_play's.

Keys: R (or the right button, or the wheel) turns the held token, space pauses the bots, N
deals the next seed, Esc closes. With no display (SDL_VIDEODRIVER=dummy) it plays --run-for
simulated seconds at once and draws the last frame; --screenshot FILE.png saves the window.
"""

import sys

from simulator.app import cli as sim_cli
from simulator.app.display import headless, hide_pygame_banner, open_display, save_screenshot
from simulator.games.gemmatch import printed as pr
from simulator.games.gemmatch import printed_bots
from simulator.games.gemmatch.printed_play import Table, button_boxes, square_at
from simulator.games.gemmatch.printed_png import RGB, Layout, rgba
from simulator.output_path import output_problem

NO_TILES = ("tiles", "players", "replay", "record", "scripts")  # options of the tiles' game
KEYS = "R: turn   space: pause   N: next seed   Esc: close"
HINT, BUTTON, BUTTON_TEXT = (179, 64, 15), (231, 224, 208), (34, 34, 34)


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
    people = () if args.watch else (0,)
    table = Table(args.seed, field, args.bot or printed_bots.BEST_BOT, people)
    try:
        screen = pygame.display.set_mode(size)
        pygame.display.set_caption(f"{sim_cli.WINDOW_TITLE} - gemmatch (printed)")
        Window(pygame, screen, table).loop(args)
        if args.screenshot:
            save_screenshot(screen, args.screenshot)
    except (pygame.error, OSError) as exc:
        print(f"blinks sim: {exc}", file=sys.stderr)
        return 2
    finally:
        pygame.quit()
    return 0


def title(table):
    n, bot = table.size, table.bot
    seats = f"{bot} in both seats" if not table.people else f"you are A, {bot} is B"
    return f"Gem Match, printed: {seats}, seed {table.seed}, field {n} by {n}"


class Window:
    """The picture of the game (redrawn when a move is made) and over it what is a person's
    own: the held token under the pointer, the hint and the buttons."""

    def __init__(self, pygame, screen, table):
        self.pygame, self.screen, self.table = pygame, screen, table
        from matplotlib import font_manager

        pygame.font.init()  # the picture's own typeface (matplotlib's), so the two read as one
        face = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans"))
        self.font = pygame.font.Font(face, max(14, screen.get_height() // 45))
        self.picture, self.drawn, self.layout = None, None, Layout()
        self.pointer, self.paused = None, False

    def loop(self, args):
        pygame, table = self.pygame, self.table
        limit = None if args.run_for is None else round(args.run_for * 1000)
        if headless():  # nobody watches: play the time at once, draw the last frame
            table.advance(limit or 0)
            self.draw()
            return
        ticker = pygame.time.Clock()
        while limit is None or table.clock < limit:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT or (
                    ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE
                ):
                    return
                self.handle(ev)
            ms = ticker.tick(30) * args.speed
            if not self.paused:
                table.advance(ms if limit is None else min(ms, limit - table.clock))
            self.draw()
        self.draw()

    def handle(self, ev):
        pygame, table = self.pygame, self.table
        if ev.type == pygame.MOUSEMOTION:
            self.pointer = ev.pos
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            table.click(ev.pos, self.layout)
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 3:
            table.rotate()
        elif ev.type == pygame.MOUSEWHEEL:
            table.rotate(1 if ev.y > 0 else -1)
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_r:
            table.rotate()
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_SPACE:
            self.paused = not self.paused
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_n:
            table.deal(table.seed + 1)

    def draw(self):
        pygame, table = self.pygame, self.table
        if self.drawn != (table.seed, table.moves, self.paused):
            size = self.screen.get_size()
            note = "paused; " + KEYS if self.paused else KEYS
            picture = rgba(table.state, title(table), size, note, self.layout)
            self.picture = pygame.image.frombuffer(picture, size, "RGBA").copy()
            self.drawn = (table.seed, table.moves, self.paused)
        self.screen.blit(self.picture, (0, 0))
        self._held()
        self._choices()
        pygame.display.flip()

    def _held(self):
        """The held token's box in the hand outlined, and the token over the square the
        pointer is on: in its colours where it fits, crossed where it does not."""
        pygame, table = self.pygame, self.table
        if table.slot is None or not table.persons_turn():
            return
        box = self.layout.hands[table.state.current][table.slot - 1]
        pygame.draw.rect(self.screen, HINT, pygame.Rect(*box).inflate(8, 8), 3)
        square = None if self.pointer is None else square_at(self.pointer, self.layout)
        if square is None:
            return
        left, top, cell, _ = self.layout.field
        cells, fits = table.ghost(square)
        shade = pygame.Surface((int(cell), int(cell)), pygame.SRCALPHA)
        for (x, y), gem in cells:
            colour = pygame.Color(RGB[gem]) if fits else pygame.Color(120, 120, 120)
            shade.fill((colour.r, colour.g, colour.b, 170))
            at = (left + x * cell, top + y * cell)
            self.screen.blit(shade, at)
            if not fits:
                pygame.draw.line(self.screen, HINT, at, (at[0] + cell, at[1] + cell), 3)

    def _choices(self):
        """The hint line and a button for each move that is not a placement."""
        pygame, table = self.pygame, self.table
        left, top = self.layout.free[:2]
        self.screen.blit(self.font.render(table.said, True, HINT), (left, top))
        choices = table.choices()
        for move, box in zip(choices, button_boxes(self.layout, len(choices))):
            rect = pygame.Rect(*box)
            pygame.draw.rect(self.screen, BUTTON, rect, border_radius=4)
            pygame.draw.rect(self.screen, BUTTON_TEXT, rect, 1, border_radius=4)
            words = self.font.render(str(move), True, BUTTON_TEXT)
            self.screen.blit(words, words.get_rect(center=rect.center))

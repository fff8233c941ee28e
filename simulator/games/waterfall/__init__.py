"""Waterfall on the host, all in this package: rules and geometry (`rules`), moves, the referee
and observations, bots, session scripts (`script`, `runner`, `physical`), playtests and the
table the simulator shows. This module describes the game to the platform (simulator.games).

    from simulator.games.waterfall.referee import GameState
    from simulator.games.waterfall.bots import play_game
    play_game("greedy", seed=3, players=3).scores
"""

NAME = "waterfall"
FIRMWARE = ("games.waterfall", "Waterfall")
TILES = 27  # the deck: one deal of 27 tiles
SCRIPT_SUFFIX = ".wf"
PIECE = "card"  # what a tile is (its inspect() key, shown by the inspector)
DEAL_TIP = (
    "To deal: hold any tile of the cluster for 6 s. Then carry an ADD tile alone to the "
    "waterfall and triple-click it: the top."
)


def table_areas(width, height, size, margin, label_px=30):
    """The draw pile (where the dealt cluster lies) on the left, the waterfall's open felt in
    the middle, the discard pile on the right; each player's hand and score pile in the bands
    at the bottom (A, D) and the top (B, C)."""
    band = label_px + int(size * 3.6)
    mid_top = band + 2 * margin
    mid_h = height - 2 * band - 4 * margin
    side = width // 5
    water_w = width - 2 * side - 4 * margin
    quarter = (width - 5 * margin) // 4
    top, bottom = margin, height - band - margin

    def column(i):
        return margin + i * (quarter + margin)

    return [
        ("draw", "Draw pile", (margin, mid_top, side, mid_h)),
        ("waterfall", "Waterfall", (2 * margin + side, mid_top, water_w, mid_h)),
        ("discard", "Discard", (3 * margin + side + water_w, mid_top, side, mid_h)),
        ("hand_a", "Hand A", (column(0), bottom, quarter, band)),
        ("score_a", "Score A", (column(1), bottom, quarter, band)),
        ("hand_d", "Hand D", (column(2), bottom, quarter, band)),
        ("score_d", "Score D", (column(3), bottom, quarter, band)),
        ("hand_b", "Hand B", (column(0), top, quarter, band)),
        ("score_b", "Score B", (column(1), top, quarter, band)),
        ("hand_c", "Hand C", (column(2), top, quarter, band)),
        ("score_c", "Score C", (column(3), top, quarter, band)),
    ]


def parse_script(text):
    from simulator.games.waterfall.script import parse_script as parse

    return parse(text)


def session_runners():
    """(rules runner class, tiles runner class or None while the world or firmware is missing)."""
    from simulator.games.waterfall.runner import RulesRunner

    try:
        from simulator.games.waterfall.physical import TilesRunner
    except ImportError:
        TilesRunner = None
    return RulesRunner, TilesRunner


def bot_names():
    """The bots `blinks playtest --game waterfall` knows, by name."""
    from simulator.games.waterfall.bots import BOTS

    return sorted(BOTS)


def run_playtest(args):
    from simulator.games.waterfall.playtest import run

    return run(args)


def sim_bot_problem(args):
    """What is wrong with `blinks sim --game waterfall --bot NAME` and its options, or None."""
    from simulator.games.waterfall.bots import BOTS

    if args.tiles not in (None, TILES):
        return f"--bot plays Waterfall with its whole deck, {TILES} tiles, not --tiles {args.tiles}"
    if args.bot not in BOTS:
        return f"--bot: no Waterfall bot called {args.bot!r}; known bots: {', '.join(sorted(BOTS))}"
    return None


def attach_sim_bot(app, name, seed, scripts=None):
    """`blinks sim --game waterfall --bot NAME`: the person plays A against the bot playing B
    on the app's 27 tiles (bot_play). Raises OSError if the `scripts` folder cannot be made."""
    from simulator.games.waterfall.bot_play import BotGame

    BotGame(app, name, seed, scripts).attach()

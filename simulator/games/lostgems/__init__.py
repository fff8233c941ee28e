"""Lost Gems on the host, all in this package; this module describes the game to the platform
(simulator.games) and is its Python API.

- the rules: `shards` (the deck), `moves`, `referee` (GameState: legal_moves, apply,
  observation), `observation` (what a seat may know);
- the bots (`bots/`) and batch playtests (`playtest`, `playtest_cli`), with where points went
  (`lost_points`) and what a deal allowed at best (`deal_ceiling`);
- session scripts: the `.lg` language (`script`), played on the referee alone (`runner`) or on
  18 simulated tiles (`physical`), and games written back as scripts (`game_scripts`);
- the simulator's bot game, `blinks sim --bot` (`window`, `table_moves`).

    from simulator.games.lostgems import GameState, Move, play_game, run_games, score_stats
    g = GameState(seed=3)                  # or GameState(deck=[...], start=1)
    g.apply(Move.hint_colour(0))           # A hints B "red"; IllegalMove names a broken rule
    g.legal_moves(); g.to_dict(); g.observation(1)
    play_game(bot_class("conventions"), seed=7).score
    score_stats(run_games("conventions", 1000, seed=0))["mean"]
    run_script_text(open("examples/rules-basics.lg").read()).to_dict()
"""

import importlib

# The Python API: each name from the module that holds it, imported on first use (a module
# __getattr__, PEP 562). The platform reads this module to lay out `blinks sim`'s table; the
# bots and playtests behind these names would add ~150 ms to every window's start.
_API = {
    "BEST_BOT": "bots",
    "BOTS": "bots",
    "Bot": "bots",
    "UnknownBot": "bots",
    "bot_class": "bots",
    "play_game": "bots",
    "Move": "moves",
    "Observation": "observation",
    "run_games": "playtest",
    "score_stats": "playtest",
    "Event": "referee",
    "GameState": "referee",
    "IllegalMove": "referee",
    "RulesRunner": "runner",
    "SessionResult": "runner",
    "run_script_text": "runner",
    "ScriptError": "script",
    "parse_script": "script",
    "parse_shard": "shards",
    "shard_name": "shards",
}
__all__ = sorted(_API)  # noqa: PLE0605 - the API is _API's names, one list


def __getattr__(name):
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


NAME = "lostgems"
TITLE = "Lost Gems"
PLAYTEST = "simulator.games.lostgems.playtest_cli"  # `blinks playtest`: its options and figures
FIRMWARE = ("games.lostgems", "LostGems")
TILES = 18
SCRIPT_SUFFIX = ".lg"
CEILING = True  # blinks session run --ceiling: what the deal allows at best
TOKENS = True  # the side panel shows the hint and error coins players flip
PIECE = "shard"  # what a tile is (its inspect() key, shown by the inspector)
DEAL_TIP = "To deal: hold any tile of the cluster for 6 s (6, 12 or 18 tiles)."
# Viewing the table as a player (the simulator's V key): a shard in their own hand in one of
# VIEW_HIDES shows its back; the inspector names only shards in a FACE_UP state.
VIEW_HIDES = ("revealed",)
FACE_UP = ("revealed", "played", "error", "discarded")
AREA_WORDS = {  # how the inspector names the area a tile lies in
    "hand_a": "hand A",
    "hand_b": "hand B",
    "jungle": "jungle",
    "board": "gem board",
    "discard": "discard",
}


def table_areas(width, height, size, margin, label_px=30):
    """Hand B at the top (the far player), hand A at the bottom, the jungle in the middle with
    the gem board to its right and the discard pile at the far right. The jungle comes first:
    the starting cluster lies there."""
    # A hand band holds its label and, below it, room for a whole hexagon in every column
    # (3.48 sizes: two hex heights), so both hands' slots can sit in the centre column.
    band = label_px + int(size * 3.6)
    mid_top = band + 2 * margin
    mid_h = height - 2 * band - 4 * margin
    third = (width - 4 * margin) // 3
    hand_w = min(width - 2 * margin, int(size * 14))
    hx = (width - hand_w) // 2
    return [
        ("jungle", "Jungle", (margin, mid_top, third + 40, mid_h)),
        ("hand_b", "Hand B (far player)", (hx, margin, hand_w, band)),
        ("board", "Gem board", (2 * margin + third + 40, mid_top, third - 20, mid_h)),
        ("discard", "Discard", (3 * margin + 2 * third + 20, mid_top, third - 20, mid_h)),
        ("hand_a", "Hand A (near player)", (hx, height - band - margin, hand_w, band)),
    ]


def session_runners():
    """(rules runner class, tiles runner class or None while the world or firmware is missing)."""
    from simulator.games.lostgems.runner import RulesRunner

    try:
        from simulator.games.lostgems.physical import PhysicalRunner
    except ImportError:
        PhysicalRunner = None
    return RulesRunner, PhysicalRunner


RETURNS = (0, 9)  # the play layer's returns: the shared score, 3 gems of 3 colours at most


def dealt(seed, players=2):
    """The rules-only game dealt from `seed` (simulator.play.state deals with it)."""
    from simulator.games.lostgems.referee import GameState

    return GameState(seed=seed)


def returns(state):
    """Each seat's return: the players share one score."""
    return [state.score, state.score]


def bot_names():
    """The bots `blinks playtest --game lostgems` knows, by name."""
    from simulator.games.lostgems.bots import BOTS, OPENSPIEL

    return sorted(BOTS) + list(OPENSPIEL)


def sim_bot_problem(args):
    """What is wrong with `blinks sim --bot NAME` and its other options, or None."""
    from simulator.games.lostgems.window import BOT_TILES, check_bot_name

    if args.tiles not in (None, BOT_TILES):
        return f"--bot plays full Lost Gems on {BOT_TILES} tiles, not --tiles {args.tiles}"
    return check_bot_name(args.bot)


def attach_sim_bot(app, name, seed, scripts=None):
    """`blinks sim --bot NAME`: the person plays A against the bot playing B on the app's
    tiles (window). Raises OSError if the `scripts` folder cannot be made."""
    from simulator.games.lostgems.window import BotGame

    BotGame(app, name, seed, scripts).attach()

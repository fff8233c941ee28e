"""Gem Match on the host, all in this package: rules and geometry (`rules`, `field`), moves,
the referee and observations, bots (`tactics`, `bots`), playtest figures, session scripts
(`script`), its moves on the tiles (`tiles`) and a person against a bot in the window
(`window`). This module describes the game to the
platform (simulator.games); docs/gemmatch.md gives the rules.

    from simulator.games.gemmatch.bots import play_game
    play_game("careful", seed=3).scores
"""

from simulator.games import script_hooks

NAME = "gemmatch"
TITLE = "Gem Match"
PLAYTEST = "simulator.games.gemmatch.figures"  # `blinks playtest`: its options and figures
FIRMWARE = ("games.gemmatch", "Gemmatch")
TILES = 27  # the tokens: one deal of 27 tiles
SCRIPT_SUFFIX = ".gm"
PIECE = "token"  # what a tile is (its inspect() key, shown by the inspector)
DEAL_TIP = (
    "To deal: hold any tile of the cluster for 6 s. Then double-click a pile tile to draw it, "
    "basic side up; triple-click a lone token to start the field."
)

AREA_WORDS = {
    "hand_a": "A's hand",
    "heap_a": "A's victory heap",
    "hand_b": "B's hand",
    "heap_b": "B's victory heap",
}


def table_areas(width, height, size, margin, label_px=30):
    """The pile (where the dealt cluster lies) on the left, the field (a hexagon of 19 cells,
    drawn) in the middle; each player's hand and victory heap in the bands at the bottom (A)
    and the top (B): tall enough for two rows of tokens (a heap may hold a dozen)."""
    band = label_px + int(size * 4.6)
    mid_top = band + 2 * margin
    mid_h = height - 2 * band - 4 * margin
    side = width // 3
    field_w = width - side - 3 * margin
    half = (width - 3 * margin) // 2
    top, bottom = margin, height - band - margin
    return [
        ("pile", "Pile", (margin, mid_top, side, mid_h)),
        ("field", "Field", (2 * margin + side, mid_top, field_w, mid_h)),
        ("hand_a", "Hand A", (margin, bottom, half, band)),
        ("heap_a", "Victory heap A", (2 * margin + half, bottom, half, band)),
        ("hand_b", "Hand B", (margin, top, half, band)),
        ("heap_b", "Victory heap B", (2 * margin + half, top, half, band)),
    ]


def legend(players=2):
    """The side panel's legend (simulator.app.panels): the gem letters of a token's name in
    the hands' lines, as [(heading, [(15-bit colour, words)])], in the firmware's colours."""
    from games.gemmatch import display

    words = ("R ruby", "G emerald", "B sapphire", "Y topaz", "P amethyst", "C aquamarine")
    items = list(zip(display.GEM_COLORS[1:], words))
    return [("Gems: a token's letters, face 0 first", items[:3]), ("", items[3:])]


# `blinks session run`: the hex game's script language and runners, loaded when a script runs
_parse_hex, session_runners = script_hooks(
    "simulator.games.gemmatch.script", "simulator.games.gemmatch.tiles"
)


def parse_script(text):
    """A `.gm` script in its variant's language: a `variant printed` header line picks the
    printed game's (printed_script), else the hex game's (script)."""
    from simulator.games.gemmatch import printed_script

    if printed_script.variant_of(text) == "printed":
        return printed_script.parse_script(text)
    return _parse_hex(text)


def script_runners(statements):
    """The runners of a parsed script: the printed game's referee for both (it has no tiles),
    or the hex game's session_runners()."""
    from simulator.games.gemmatch import printed_script

    if printed_script.is_printed(statements):
        return printed_script.RulesRunner, printed_script.RulesRunner
    return session_runners()


RETURNS = (0, 27)  # the play layer's returns: a point a token at most


def dealt(seed, players=2):
    """The rules-only game dealt from `seed` (simulator.play.state deals with it)."""
    from simulator.games.gemmatch.referee import GameState

    return GameState(seed=seed)


def bot_names():
    """The bots `blinks playtest --game gemmatch` knows, by name."""
    from simulator.games.gemmatch.bots import TABLE

    return TABLE.names()


def sim_bot_problem(args):
    """What is wrong with `blinks sim --game gemmatch --bot NAME` and its options, or None."""
    from simulator.games.gemmatch.bots import TABLE
    from simulator.play.bots import sim_bot_problem as problem

    return problem(args, TITLE, TILES, TABLE, "all its tokens")


def attach_sim_bot(app, name, seed, scripts=None):
    """`blinks sim --game gemmatch --bot NAME`: the person plays A against the bot playing B
    on the app's 27 tiles (window). Raises OSError if the `scripts` folder cannot be made."""
    from simulator.games.gemmatch.window import BotGame

    BotGame(app, name, seed, scripts).attach()


def run_sim_variant(args):
    """`blinks sim --game gemmatch --variant printed`: the printed game's window (printed_sim)."""
    from simulator.games.gemmatch.printed_sim import run

    return run(args)

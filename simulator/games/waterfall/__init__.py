"""Waterfall on the host, all in this package: its numbers, places, moves, observations and
script words (`rules`), the referee and scripts played on it (`referee`), bots and playtest
figures (`bots`), its moves on the tiles (`tiles`) and a person against bots in the window
(`window`). This module describes the game to the platform (simulator.games).

    from simulator.games.waterfall.referee import GameState
    from simulator.games.waterfall.bots import play_game
    play_game("greedy", seed=3, players=3).scores
"""

from simulator.games import script_hooks

NAME = "waterfall"
TITLE = "Waterfall"
PLAYTEST = "simulator.games.waterfall.bots"  # `blinks playtest`: its options and figures
FIRMWARE = ("games.waterfall", "Waterfall")
TILES = 27  # the deck: one deal of 27 tiles
PLAYER_COUNTS = (2, 3, 4)  # `blinks sim --players N` lays out these seats' hands and scores
DEFAULT_PLAYERS = 2
SCRIPT_SUFFIX = ".wf"
PIECE = "card"  # what a tile is (its inspect() key, shown by the inspector)
DEAL_TIP = (
    "To deal: hold any tile of the cluster for 6 s. Then carry an ADD tile alone to the "
    "waterfall and triple-click it: the top."
)


def table_areas(width, height, size, margin, label_px=30, players=2):
    """The draw pile (where the dealt cluster lies) on the left, the waterfall's open felt in
    the middle, the discard pile on the right; each player's hand and score pile in the bands
    at the bottom (A, and D with four players) and the top (B, and C with three or four), and
    only the seats in play. The side areas are sized in tiles (`size`, a hexagon's centre to
    corner): the draw pile holds the 27-tile cluster, the discard pile a dozen tiles, and the
    waterfall takes the rest. A band holds one zigzag row of tiles under its label (two with
    three or four players, whose hands are half as wide)."""
    band = label_px + int(size * (3.6 if players == 2 else 5.4))
    mid_top = band + 2 * margin
    mid_h = height - 2 * band - 4 * margin
    room = width - 4 * margin
    # in tiles: a waterfall of 20 (its sixth row, 6 tiles, is 17 sizes wide), the discards in
    # a few columns, and the draw pile the rest; when that is too narrow for the 27-tile
    # cluster, the app draws smaller tiles (simulator.app.app.table_for) until it is not.
    water_w = min(int(size * 17.6), room * 3 // 5)
    discard_w = min(int(size * 5.4), room // 5)
    draw_w = room - water_w - discard_w
    out = [
        ("draw", "Draw pile", (margin, mid_top, draw_w, mid_h)),
        ("waterfall", "Waterfall", (2 * margin + draw_w, mid_top, water_w, mid_h)),
        ("discard", "Discard", (3 * margin + draw_w + water_w, mid_top, discard_w, mid_h)),
    ]
    bottom = ("A", "D") if players >= 4 else ("A",)
    top = ("B", "C") if players >= 3 else ("B",)
    for seats, y in ((bottom, height - band - margin), (top, margin)):
        seat_w = (width - margin) // len(seats)
        for i, seat in enumerate(seats):
            x = margin + i * seat_w
            hand_w = (seat_w - 2 * margin) * 3 // 5  # a hand grows longer than a score pile
            score_w = seat_w - 2 * margin - hand_w
            out.append((f"hand_{seat.lower()}", f"Hand {seat}", (x, y, hand_w, band)))
            score = (x + hand_w + margin, y, score_w, band)
            out.append((f"score_{seat.lower()}", f"Score {seat}", score))
    return out


def legend(players=DEFAULT_PLAYERS):
    """The side panel's legend (simulator.app.panels): what a card's name and its lights mean,
    as [(heading, [(15-bit colour, words)])], in the firmware's own colours."""
    from games.waterfall import display

    return [
        ("Cards: ACTION-gem number, as ADD-R2", []),
        ("Gem: its colour; number: 1-3 bright spots", list(zip(display.GEM_COLORS, GEM_WORDS))),
        ("Action: the faces between the spots", list(zip(display.ACTION_COLORS, ACTIONS))),
        ("Pawns", list(zip(display.PLAYER_COLORS, "ABCD"[:players]))),
    ]


GEM_WORDS = ("R ruby", "G emerald", "B sapphire")
ACTIONS = ("ADD", "DRAW", "SCORE", "STOP")


# `blinks session run`: the script language and its runners, loaded when a script runs
parse_script, session_runners = script_hooks(
    "simulator.games.waterfall.referee",
    "simulator.games.waterfall.tiles",
    words="simulator.games.waterfall.rules",
)


RETURNS = (0, 54)  # the play layer's returns: a score pile holds at most the deck's 54 points


def dealt(seed, players=DEFAULT_PLAYERS):
    """The rules-only game dealt from `seed` (simulator.play.state deals with it)."""
    from simulator.games.waterfall.referee import GameState

    return GameState(players=players, seed=seed)


def bot_names():
    """The bots `blinks playtest --game waterfall` knows, by name."""
    from simulator.games.waterfall.bots import TABLE

    return TABLE.names()


def sim_bot_problem(args):
    """What is wrong with `blinks sim --game waterfall --bot NAME` and its options, or None."""
    from simulator.games.waterfall.bots import TABLE
    from simulator.play.bots import sim_bot_problem as problem

    return problem(args, TITLE, TILES, TABLE, "its whole deck")


def attach_sim_bot(app, name, seed, scripts=None, players=None):
    """`blinks sim --game waterfall --bot NAME [--players N]`: the person plays A against the
    bot in every other seat, on the app's 27 tiles (window). Raises OSError if the `scripts`
    folder cannot be made."""
    from simulator.games.waterfall.window import BotGame

    BotGame(app, name, seed, scripts, players or DEFAULT_PLAYERS).attach()

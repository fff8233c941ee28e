"""Gem Match's part of `blinks playtest --game gemmatch [--against NAME] [--physical]
[--variant printed [--field N]]` (the driver is simulator.play.playtest): each seat's mean
score, wins, how the games ended (the pile ran out, both players skipped, the turn limit) and
how many groups of each tier a game makes. `--variant printed` plays the printed game
(printed.py) in place of the tiles' hex game.
With --against the --bot sits in seat A in even games and in seat B in odd ones (the first
player has the first placement, on an empty field), and the figures are also given per bot.
"""

import os
import sys
from collections import Counter

from simulator.games.gemmatch import printed, printed_bots, printed_script
from simulator.games.gemmatch.bots import BEST_BOT, bot_class, play_game
from simulator.games.gemmatch.referee import IllegalMove
from simulator.games.gemmatch.rules import ENDS, PLAYERS, TIER_NAMES
from simulator.games.gemmatch.script import game_script as hex_script
from simulator.output_path import folder_problem
from simulator.play.figures import (
    ended_fractions,
    report_seats,
    seat_figures,
    seats_words,
    with_bots,
)

VARIANTS = ("hex", "printed")


def add_arguments(options):
    options.standard("against", "physical", "scripts")
    options.add_argument(
        "--variant",
        choices=VARIANTS,
        help="gemmatch: hex (the tiles' game, the default) or printed (tetrominoes on a "
        "square field, rules only; docs/gemmatch.md)",
    )
    options.add_argument(
        "--field",
        type=int,
        metavar="N",
        help=f"the printed variant's square field, N by N ({printed.FIELD_SIZES[0]}-"
        f"{printed.FIELD_SIZES[-1]}, default {printed.FIELD_SIZE})",
    )
    options.add_argument(
        "--board-png",
        metavar="DIR",
        help="the printed variant: save each game's field as it ended, DIR/seedN.png",
    )


def play_options(args):
    """The printed variant's options (none for the hex game); bad ones end the run (exit 2)."""
    if args.variant != "printed":
        for flag, value in (("--field", args.field), ("--board-png", args.board_png)):
            if value is not None:
                _refuse(f"{flag} is the printed variant's: give --variant printed")
        return {}
    size = printed.FIELD_SIZE if args.field is None else args.field
    if size not in printed.FIELD_SIZES:
        _refuse(f"--field must be from {printed.FIELD_SIZES[0]} to {printed.FIELD_SIZES[-1]}")
    if args.physical:
        _refuse("--physical: the printed variant is rules only, it has no tiles")
    if args.bot is None:
        args.bot = printed_bots.BEST_BOT
    for name in (args.bot, args.against):
        if name is not None and name not in printed_bots.BOTS:
            _refuse(
                f"no printed Gem Match bot called {name!r}; known bots: "
                + ", ".join(sorted(printed_bots.BOTS))
            )
    if args.board_png is not None and folder_problem(args.board_png):
        _refuse(f"--board-png {args.board_png}: {folder_problem(args.board_png)}")
    return {"variant": "printed", "field_size": size, "board_png": args.board_png}


def _refuse(message):
    print(f"playtest: {message}", file=sys.stderr)
    raise SystemExit(2)


def play(seats, seed, players, variant="hex", field_size=None, board_png=None):
    if variant == "printed":
        state = printed_bots.play_game(None, seed=seed, seats=seats, size=field_size)
        if board_png:
            from simulator.games.gemmatch.printed_png import save_field

            title = f"Gem Match, printed, {' against '.join(dict.fromkeys(seats))}, seed {seed}: "
            title += f"A {state.score(0)}, B {state.score(1)}"
            save_field(state, os.path.join(board_png, f"seed{seed}.png"), title)
        return state
    return play_game(None, seed=seed, seats=seats)


def game_script(state, title, seed=0):
    """A finished game as a `.gm` script, in its variant's language."""
    if isinstance(state, printed.GameState):
        return printed_script.game_script(state, title, seed)
    return hex_script(state, title, seed)


def script_names(seats, players, seed):
    who = "-".join(seats)
    return f"{who}-seed{seed}.gm", f"{who}, seed {seed}"


def stats(games):
    """The figures of finished games, each (state, seat names as bot names)."""
    states = [s for s, _ in games]
    n = len(states)
    figures = seat_figures("gemmatch", states, PLAYERS)
    figures["ended"] = ended_fractions(states, ENDS)
    names = printed.TIER_WORDS if isinstance(states[0], printed.GameState) else TIER_NAMES
    tiers = Counter()
    for s in states:
        for ev in s.history:
            for pending in ev.groups:
                tiers[names[pending.tier]] += 1
    figures["groups_per_game"] = {name: tiers[name] / n for name in names.values()}
    figures["mean_turns"] = sum(s.turns for s in states) / n
    return with_bots(figures, games)


def report(args, figures):
    who = seats_words(args)
    if figures.get("variant") == "printed":
        size = figures["field_size"]
        who = f"printed, field {size} by {size}, {who}"
    head = f"Gem Match, {who}: {figures['games']} games from seed {args.seed}"
    ends = (("pile", "the pile ran out"), ("skips", "both skipped"), ("turns", "the turn limit"))
    report_seats(args, head, figures, ends)
    groups = figures["groups_per_game"]
    print("groups a game: " + ", ".join(f"{count:.2f} of {n} gems" for n, count in groups.items()))


__all__ = ["BEST_BOT", "IllegalMove", "bot_class"]

"""Gembatan's part of `blinks playtest --game gembatan [--against NAME] [--players N]` (the
driver is simulator.play.playtest): each seat's mean score, wins, how the games ended (a player
used up their gems once the tray was empty, a round passed without a play, the turn limit),
chains and Gembatans. With --against (two players) the --bot sits in seat A in even games and
in seat B in odd ones, and the figures are also given per bot. Gembatan is not played on the
tiles.
"""

from simulator.games.gembatan.bots import BEST_BOT, bot_class, play_game
from simulator.games.gembatan.referee import IllegalMove
from simulator.games.gembatan.rules import ENDS, PLAYERS
from simulator.games.gembatan.script import game_script
from simulator.play.figures import (
    ended_fractions,
    report_seats,
    seat_figures,
    seats_words,
    with_bots,
)


def add_arguments(options):
    options.standard("players", "against", "scripts")


def play(seats, seed, players):
    return play_game(None, seed=seed, players=players, seats=seats)


def script_names(seats, players, seed):
    who = "-".join(dict.fromkeys(seats))
    return f"{who}-{players}p-seed{seed}.gb", f"{who}, {players} players, seed {seed}"


def stats(games):
    """The figures of finished games, each (state, seat names as bot names)."""
    states = [s for s, _ in games]
    n = len(states)
    figures = seat_figures("gembatan", states, PLAYERS[: states[0].players])
    figures["ended"] = ended_fractions(states, ENDS)
    figures["mean_turns"] = sum(s.turns for s in states) / n
    figures["chains_per_game"] = sum(len(ev.chains) for s in states for ev in s.history) / n
    figures["gembatans_per_game"] = sum(ev.bonus for s in states for ev in s.history) / n
    return with_bots(figures, games)


def report(args, figures):
    head = (
        f"Gembatan, {figures['players']} players, {seats_words(args)}: {figures['games']} "
        f"games from seed {args.seed}"
    )
    ends = (
        ("gems", "a player's gems used up"),
        ("stuck", "a round without a play"),
        ("turns", "the turn limit"),
    )
    report_seats(args, head, figures, ends)
    print(
        f"chains a game {figures['chains_per_game']:.2f}, Gembatans a game "
        f"{figures['gembatans_per_game']:.2f}"
    )


__all__ = ["BEST_BOT", "IllegalMove", "bot_class", "game_script"]

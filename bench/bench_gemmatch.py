"""Gem Match bench: how fast its bots play whole rules-only games.

- gemmatch_games_per_s: careful-bot games (both seats) per second of this process's CPU time
  (the machine is shared, so wall time would measure the neighbours), the best of three runs
  as timeit takes the best of its repeats; goal >= 50. gemmatch_greedy_games_per_s: the same
  for the greedy bot. gemmatch_mean_a / _b: the careful bot's mean score in each seat, to show
  the speed bought no change of play (the same seeds give the same games).
"""

import time

from simulator.games.gemmatch.bots import play_game

FIGURES = {
    "gemmatch_games_per_s": (
        "Rules-only Gem Match games per s of CPU, careful bot in both seats, best of 3 runs.",
        "≥ 50",
    ),
    "gemmatch_greedy_games_per_s": ("The same with the greedy bot.", "—"),
    "gemmatch_games": ("Games in each run (seeds from 0).", "—"),
    "gemmatch_mean_a": ("The careful bot's mean score as the first player over those games.", "—"),
    "gemmatch_mean_b": ("The careful bot's mean score as the second player.", "—"),
}


def games_per_cpu_s(bot, games, runs=3):
    best = None
    scores = []
    for _ in range(runs):
        t0 = time.process_time()
        scores = [play_game(bot, seed=s).scores for s in range(games)]
        spent = time.process_time() - t0
        best = spent if best is None else min(best, spent)
    return games / best, scores


def run(quick: bool) -> dict:
    games = 40 if quick else 200
    careful, scores = games_per_cpu_s("careful", games)
    greedy, _ = games_per_cpu_s("greedy", games)
    return {
        "gemmatch_games_per_s": round(careful, 1),
        "gemmatch_greedy_games_per_s": round(greedy, 1),
        "gemmatch_games": games,
        "gemmatch_mean_a": round(sum(a for a, _ in scores) / games, 3),
        "gemmatch_mean_b": round(sum(b for _, b in scores) / games, 3),
    }


if __name__ == "__main__":
    print(run(quick=True))

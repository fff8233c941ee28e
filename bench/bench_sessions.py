"""Sessions bench: referee speed and the best bot's strength.

- referee_games_per_s: whole rules-only games per second of process CPU time (the machine is
  shared, so wall time would measure the neighbours), both seats played by the best bot, in
  one process, each run from empty memo caches; the best of five runs (three in full runs),
  as timeit takes the best of its repeats: on this shared machine the same run's CPU time
  swings by a fifth from one second to the next, and only ever upwards of what the code
  costs (goal >= 2000). referee_games_per_s_slowest: the slowest of those runs, to show
  how far the machine swings.
- cautious_games_per_s: the same for the cautious bot (both seats), its runs taken turn about
  with the best bot's so that both meet the same phases of the machine (goal: within 2x of
  the best bot, i.e. cautious_vs_best = cautious_games_per_s / referee_games_per_s >= 0.5;
  in absolute terms >= 1000, half of referee_games_per_s's goal).
- playtest_games_per_s: the same games by wall clock with `blinks playtest --jobs 0` (one
  worker process per CPU, playtest_jobs of them), as a person running a batch sees it.
- bot_mean, bot_stderr, bot_perfect_pct, bot_zero_pct: the best bot over 10,000 deals (seeds
  0..9999), 2,000 with --quick (goal: mean >= 8.6).
"""

import os
import time

from simulator.games.lostgems.bots import BEST_BOT
from simulator.games.lostgems.bots.cautious import CautiousBot
from simulator.games.lostgems.bots.handsets import clear_caches
from simulator.games.lostgems.playtest import run_games, score_stats

# {figure: (what it measures, goal)}: docs/benchmarks.md's rows (bench/run.py checks every key).
FIGURES = {
    "referee_games_per_s": (
        "Rules-only Lost Gems games per s of CPU with the best bot, best of the runs.",
        "≥ 2000",
    ),
    "referee_games_per_s_slowest": (
        "The same, slowest of the runs: how far the machine swings.",
        "—",
    ),
    "cautious_games_per_s": ("The same with the cautious bot in both seats.", "—"),
    "cautious_vs_best": ("cautious_games_per_s divided by referee_games_per_s.", "≥ 0.5"),
    "playtest_games_per_s": (
        "The best bot's games per wall s with `blinks playtest --jobs 0`.",
        "—",
    ),
    "playtest_jobs": ("Worker processes of that playtest.", "—"),
    "bot_name": ("The best bot.", "—"),
    "bot_games": ("Deals the best bot's score is measured over (seeds 0 up).", "—"),
    "bot_mean": ("The best bot's mean score out of 9.", "≥ 8.6"),
    "bot_stderr": ("Standard error of that mean.", "—"),
    "bot_perfect_pct": ("Percent of its games that scored 9.", "—"),
    "bot_zero_pct": ("Percent of its games that scored 0.", "—"),
}


def run(quick):
    games = 2000 if quick else 10000
    times = []
    cautious_times = []
    for _ in range(5 if quick else 3):
        clear_caches()
        t0 = time.process_time()
        scores = run_games(BEST_BOT, games, seed=0)
        times.append(time.process_time() - t0)
        cautious_times.append(cpu_time_of_games(CautiousBot.name, games))
    stats = score_stats(scores)
    clear_caches()  # the workers start from what this process holds: start them cold too
    jobs = os.cpu_count() or 1
    t0 = time.perf_counter()
    parallel = run_games(BEST_BOT, games, seed=0, jobs=jobs)
    wall = time.perf_counter() - t0
    if parallel != scores:
        raise AssertionError("worker processes changed the scores")
    return {
        "referee_games_per_s": round(games / min(times), 1),
        "referee_games_per_s_slowest": round(games / max(times), 1),
        "cautious_games_per_s": round(games / min(cautious_times), 1),
        "cautious_vs_best": round(min(times) / min(cautious_times), 3),
        "playtest_games_per_s": round(games / wall, 1),
        "playtest_jobs": jobs,
        "bot_name": BEST_BOT,
        "bot_games": games,
        "bot_mean": round(stats["mean"], 4),
        "bot_stderr": round(stats["stderr"], 4),
        "bot_perfect_pct": round(stats["perfect_pct"], 2),
        "bot_zero_pct": round(stats["zero_pct"], 2),
    }


def cpu_time_of_games(bot_name, games):
    """CPU seconds `bot_name` takes to play `games` games against itself, from cold caches."""
    clear_caches()
    t0 = time.process_time()
    run_games(bot_name, games, seed=0)
    return time.process_time() - t0

"""Search bot figures (issue 58): the convention bot corrected by rollouts (bots/search.py),
both seats, on deals 0..999 (0..99 with --quick), in at most 2 worker processes.

- bot_search_mean, bot_search_perfect_pct, bot_search_zero_pct, bot_search_stderr,
  bot_search_games (goal: mean >= 8.8 and perfect >= 85 % over >= 1,000 games).
- bot_search_s_per_game: CPU seconds a game costs (the workers' and this process's CPU time
  over the games: the machine is shared, so wall time would measure the neighbours; goal: 1,000
  games in about 30 minutes on 2 cores, i.e. <= 3.6). bot_search_wall_s: the batch's wall time.
- bot_search_rollouts_per_s: the rollout engine's speed (bots/rollout.py): whole games played
  out from the deal by the blueprint in both seats, per second of this process's CPU time,
  from warm memo caches (as in a search, where the blueprint's positions recur).
- bot_search_vs_conventions: the convention bot on the same deals, paired deal by deal as
  `blinks playtest --against` pairs them: the mean difference per deal and its standard error,
  and how many deals came out better, the same and worse.
- Where the search bot's missing points go (9 - score per game, bot_search_lost_points): what
  the deal itself made impossible (bot_search_lost_to_deal: 9 - the deal's ceiling, the best
  score with every shard known, deal_ceiling.py) and what the play lost (bot_search_lost_to_play:
  ceiling - score), and the loss reasons of `blinks playtest --json`'s `lost` (bot_search_lost:
  last copy discarded or misplayed, out of turns, two errors, per game).
"""

import os
import resource
import time

from simulator.games.lostgems.bots.beliefs import opening_facts
from simulator.games.lostgems.bots.handsets import ALL_PAIRS_MASK
from simulator.games.lostgems.bots.rollout import World, play_out
from simulator.games.lostgems.deal_ceiling import deal_ceiling
from simulator.games.lostgems.lost_points import mean_losses, score_and_losses
from simulator.games.lostgems.playtest import paired_stats, run_games, score_stats
from simulator.games.lostgems.referee import GameState
from simulator.games.lostgems.shards import MAX_HINTS

FIGURES = {
    "bot_search_games": (
        "Games the search bot played in both seats (seeds from 0).",
        "≥ 1000 (full run)",
    ),
    "bot_search_mean": ("The search bot's mean score over those games.", "≥ 8.8"),
    "bot_search_stderr": ("The standard error of that mean.", "—"),
    "bot_search_perfect_pct": ("% of those games that scored 9.", "≥ 85"),
    "bot_search_zero_pct": ("% of those games that scored 0.", "—"),
    "bot_search_s_per_game": ("CPU s a game costs (workers' and this process's).", "≤ 3.6"),
    "bot_search_wall_s": ("Wall s of the batch, in at most 2 worker processes.", "—"),
    "bot_search_rollouts_per_s": (
        "Whole blueprint games played out per CPU s by the rollout engine.",
        "—",
    ),
    "bot_search_vs_conventions": (
        "Search minus conventions on the same deals: difference a deal, its error, better/same/worse.",
        "> 0",
    ),
    "bot_search_lost_points": ("9 minus the mean score: points a game short of perfect.", "—"),
    "bot_search_lost_to_deal": ("Of those, what the deal made impossible (9 - its ceiling).", "—"),
    "bot_search_lost_to_play": ("Of those, what the play lost (the deal's ceiling - score).", "—"),
    "bot_search_lost": ("Points a game by loss reason, as `blinks playtest --json`'s `lost`.", "—"),
}


def cpu_seconds():
    """CPU time of this process and of its finished, waited-for children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def rollouts_per_s(deals=2000):
    """Whole games from the deal played out by the rollout engine, per CPU second."""
    worlds = []
    for seed in range(deals):
        deck = GameState(seed=seed).deck
        hands = (tuple(deck[0:2]), tuple(deck[2:4]))
        masks = (ALL_PAIRS_MASK, ALL_PAIRS_MASK)
        worlds.append(World(0, hands, deck[4:], MAX_HINTS, 0, opening_facts(), masks, None))
    for world in worlds[: deals // 2]:  # warm the memo caches
        play_out(world)
    t0 = time.process_time()
    for world in worlds[deals // 2 :]:
        play_out(world)
    return (deals - deals // 2) / (time.process_time() - t0)


def run(quick):
    games = 100 if quick else 1000
    jobs = min(2, os.cpu_count() or 1)
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    results = run_games("search", games, seed=0, jobs=jobs, outcome=score_and_losses)
    cpu, wall = cpu_seconds() - cpu0, time.perf_counter() - t0
    scores = [score for score, _ in results]
    stats = score_stats(scores)
    paired = paired_stats(scores, run_games("conventions", games, seed=0), first_seed=0)
    ceilings = [deal_ceiling(GameState(seed=seed).deck) for seed in range(games)]
    return {
        "bot_search_games": games,
        "bot_search_mean": round(stats["mean"], 4),
        "bot_search_stderr": round(stats["stderr"], 4),
        "bot_search_perfect_pct": round(stats["perfect_pct"], 2),
        "bot_search_zero_pct": round(stats["zero_pct"], 2),
        "bot_search_s_per_game": round(cpu / games, 3),
        "bot_search_wall_s": round(wall, 1),
        "bot_search_rollouts_per_s": round(rollouts_per_s(), 1),
        "bot_search_vs_conventions": {
            "difference": round(paired["difference"], 4),
            "stderr": round(paired["difference_stderr"], 4),
            "better": paired["better"],
            "same": paired["same"],
            "worse": paired["worse"],
        },
        "bot_search_lost_points": round(9 - stats["mean"], 4),
        "bot_search_lost_to_deal": round(sum(9 - c for c in ceilings) / games, 4),
        "bot_search_lost_to_play": round(sum(c - s for c, s in zip(ceilings, scores)) / games, 4),
        "bot_search_lost": {
            cause: round(points, 4)
            for cause, points in mean_losses([lost for _, lost in results]).items()
        },
    }

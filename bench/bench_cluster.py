"""Cluster bench: Lost Gems playtests of the search bot as Ray tasks (`blinks playtest --ray`),
on a Ray instance of this machine with 1 and then 2 CPUs.

- ray_speedup_2: the wall time of the batch on 1 CPU divided by that on 2 (goal >= 1.6 on
  this 2-core machine; what is left is Ray's start and the batch's tail).
- ray_start_s: starting and stopping the local instance with no games (a cluster's head
  already runs: its drivers pay only the connection).
- ray_game_s: wall seconds a game costs one worker, from the 1-CPU run less the start.
- ray_model_1000_games_100_workers_s: what the model start + games x ray_game_s / workers
  predicts for 1,000 games on 100 workers (docs/playtests.md says what it leaves out).
"""

import time

from simulator.games.lostgems.playtest import run_games
from simulator.play.spread import play_on_ray

FIGURES = {
    "ray_speedup_2": (
        "Wall time of a search-bot batch on a 1-CPU local Ray instance over that on 2 CPUs.",
        "≥ 1.6",
    ),
    "ray_start_s": ("Wall s to start and stop a local Ray instance with no games.", "—"),
    "ray_game_s": (
        "Wall s one search-bot game costs a Ray worker (1-CPU run less the start).",
        "—",
    ),
    "ray_games": ("Games in each batch (seeds from 0).", "—"),
    "ray_model_1000_games_100_workers_s": (
        "Start + 1,000 games x ray_game_s / 100: the model's wall s for 100 workers.",
        "—",
    ),
}


def _nothing():
    return []


def run(quick: bool) -> dict:
    games = 8 if quick else 60
    t0 = time.perf_counter()
    play_on_ray(_nothing, [], "local", cpus=1)
    start = time.perf_counter() - t0
    walls = {}
    results = {}
    for cpus in (1, 2):
        t0 = time.perf_counter()
        results[cpus] = run_games("search", games, seed=0, jobs=cpus, ray="local")
        walls[cpus] = time.perf_counter() - t0
    if results[1] != results[2]:
        raise AssertionError("two workers changed the games")
    game_s = max(0.0, walls[1] - start) / games
    return {
        "ray_speedup_2": round(walls[1] / walls[2], 2),
        "ray_start_s": round(start, 1),
        "ray_game_s": round(game_s, 2),
        "ray_games": games,
        "ray_model_1000_games_100_workers_s": round(start + 1000 * game_s / 100, 1),
    }


if __name__ == "__main__":
    print(run(quick=True))

"""Evaluate an agent on Lost Gems through the PettingZoo API: each seat reads only its own
observation (the feature vector and the action mask) and picks an action.

    python examples/research/evaluate.py --agent hinter --games 200

Agents: `random` (a legal action at random) and `hinter` (plays a shard its hints pin down
as playable, else hints the colour, then the value, of a playable shard the partner holds,
else discards its slot 1, else takes a legal action at random). Swap in your own: a
function (observation dict, rng) -> action.
"""

import argparse
import random
import sys
import time

import numpy as np

from simulator.envs import pettingzoo_env
from simulator.envs.encoding import LOSTGEMS_MOVES
from simulator.envs.features import lostgems_pieces

PLAY = {m.slot - 1: a for a, m in enumerate(LOSTGEMS_MOVES) if m.kind == "play"}
DISCARD = {m.slot - 1: a for a, m in enumerate(LOSTGEMS_MOVES) if m.kind == "discard"}
HINT_COLOUR = {m.hint: a for a, m in enumerate(LOSTGEMS_MOVES) if m.hint_kind == "colour"}
HINT_VALUE = {m.hint: a for a, m in enumerate(LOSTGEMS_MOVES) if m.hint_kind == "value"}


def random_agent(observation, rng):
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def hinter_agent(observation, rng):
    mask = observation["action_mask"]
    seen = lostgems_pieces(observation["observation"])
    heights = [int(seen["gems"][c * 3 : c * 3 + 3].sum()) for c in range(3)]
    for slot in range(2):  # a shard whose knowledge allows only playable shards: play it
        know = seen["own_knowledge"][slot * 6 : slot * 6 + 6]
        colours = np.flatnonzero(know[:3])
        values = np.flatnonzero(know[3:]) + 1
        pinned = seen["own_slots"][slot] and len(colours) == 1 and len(values) == 1
        if pinned and heights[colours[0]] + 1 == values[0] and mask[PLAY[slot]]:
            return PLAY[slot]
    for slot in range(2):  # the partner holds a playable shard they do not know: hint it
        shard = np.flatnonzero(seen["partner_hand"][slot * 9 : slot * 9 + 9])
        if len(shard) and heights[shard[0] // 3] + 1 == shard[0] % 3 + 1:
            colour, value = shard[0] // 3, shard[0] % 3 + 1
            know = seen["partner_knowledge"][slot * 6 : slot * 6 + 6]
            if know[:3].sum() > 1 and mask[HINT_COLOUR[colour]]:
                return HINT_COLOUR[colour]
            if know[3:].sum() > 1 and mask[HINT_VALUE[value]]:
                return HINT_VALUE[value]
    if mask[DISCARD[0]]:
        return DISCARD[0]
    return random_agent(observation, rng)


AGENTS = {"random": random_agent, "hinter": hinter_agent}


def play(agent, seed, rng):
    """One game of `agent` in both seats; its final shared score."""
    env = pettingzoo_env("lostgems")
    env.reset(seed=seed)
    score = 0
    for _ in env.agent_iter():
        observation, reward, done, cut, _ = env.last()
        score += reward if env.agent_selection == "player_0" else 0
        env.step(None if done or cut else agent(observation, rng))
    return score


def evaluate(agent, games, seed=0):
    """(mean score, % of perfect games (9), seconds a game) over the deals seed..seed+games-1."""
    rng = random.Random(seed)
    start = time.perf_counter()
    scores = [play(agent, s, rng) for s in range(seed, seed + games)]
    seconds = (time.perf_counter() - start) / games
    return sum(scores) / games, 100 * scores.count(9) / games, seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", choices=sorted(AGENTS), default="hinter")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games is 1 or more")
    mean, perfect, seconds = evaluate(AGENTS[args.agent], args.games, args.seed)
    print(f"{args.agent}: mean {mean:.2f} of 9, perfect {perfect:.1f}%, {seconds:.4f} s a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())

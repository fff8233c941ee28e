"""The same seeds give the same games: a PettingZoo episode of Lost Gems, written out as a
session script of its seed and moves, replays through `blinks session run` to the score the
environment gave; and OpenSpiel's chance nodes dealt from that seed play it to the same end."""

import json
import random

import pytest

from host_tools.cli import main
from simulator.envs import openspiel_game, pettingzoo_env
from simulator.envs.deal import seed_identities
from simulator.envs.encoding import LOSTGEMS_MOVES


def play_episode(seed, pick):
    """Play a PettingZoo episode by `pick`; (actions, the moves' script lines, total reward)."""
    env = pettingzoo_env("lostgems")
    env.reset(seed=seed)
    actions, lines, total = [], [], 0
    for agent in env.agent_iter():
        _, reward, done, cut, _ = env.last()
        if agent == "player_0":
            total += reward  # the shared score's changes, as one seat gets them
        if done or cut:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        action = pick([a for a in range(len(mask)) if mask[a]])
        seat = "AB"[env.possible_agents.index(agent)]
        lines.append(f"{seat} {LOSTGEMS_MOVES[action]}")
        actions.append(action)
        env.step(action)
    return actions, lines, total, env.unwrapped.table.referee.score


@pytest.mark.parametrize("seed", [2, 19, 300])
def test_episode_replays_as_a_session_script(seed, tmp_path, capsys):
    rng = random.Random(seed)
    actions, lines, total, score = play_episode(seed, lambda legal: rng.choice(legal))
    assert total == score
    script = tmp_path / f"episode{seed}.lg"
    script.write_text("\n".join([f"seed {seed}", *lines, f"expect score {score}"]) + "\n")
    assert main(["session", "run", str(script), "--rules-only", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["score"] == score and got["over"] is True and got["turns"] == len(lines)

    state = openspiel_game("lostgems").new_initial_state()
    for identity in seed_identities(seed):
        state.apply_action(identity)
    for action in actions:
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [score, score]


def test_a_wrong_score_fails_the_replay(tmp_path, capsys):
    _, lines, _, score = play_episode(5, lambda legal: legal[0])
    script = tmp_path / "wrong.lg"
    script.write_text("\n".join(["seed 5", *lines, f"expect score {score + 1}"]) + "\n")
    assert main(["session", "run", str(script), "--rules-only"]) == 1

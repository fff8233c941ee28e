"""Every game as a PettingZoo AEC environment, written as PettingZoo's classic turn-based
environments are (hanabi_v5, connect_four_v3): agents `player_0`.., a dict observation of
`observation` and `action_mask`, a fixed Discrete action space (simulator.envs.encoding),
`reset(seed=...)` dealing the referee's game of that seed, and rewards as the change of each
player's score (Lost Gems: of the shared score, to both).

`observation` is Lost Gems' feature vector (simulator.envs.features); for the other games it
is the player's observation string as UTF-8 bytes, zero-padded to TEXT_SIZES.
"""

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from simulator.envs import render
from simulator.envs.encoding import encoding
from simulator.envs.features import LOSTGEMS_SIZE, fill_lostgems, text_bytes
from simulator.envs.table import SharedGame, dealt

# Bytes for the text observation: the longest seen in random play, about doubled (Waterfall
# 1.5 kB, Gem Match 10 kB with its move list, Gembatan 12 kB with a board of 60 tiles).
TEXT_SIZES = {"waterfall": 4096, "gemmatch": 20480, "gembatan": 32768}
SEEDS = 1 << 31  # an unseeded reset deals a seed below this, drawn from the env's generator


def env(name, **options):
    """The environment wrapped as PettingZoo's classic ones are: an illegal action ends the
    game (reward -1 to its maker), an action out of range raises, and calls must come in order."""
    out = raw_env(name, **options)
    out = wrappers.TerminateIllegalWrapper(out, illegal_reward=-1)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


RENDER_MODES = ("human", "ansi")


class raw_env(AECEnv, EzPickle):
    """Game `name` for `players` (its default when None); see the module's docstring."""

    def __init__(self, name, players=None, render_mode=None):
        EzPickle.__init__(self, name, players, render_mode)
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode is one of human, ansi, not {render_mode!r}")
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"blinks_{name}_v0",
            "is_parallelizable": False,
            "render_fps": 2,
        }
        self.name = name
        self.game = SharedGame(name, players)
        self.encoding = encoding(name)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.game.players)]
        self.agents = self.possible_agents[:]
        if name == "lostgems":
            seen = spaces.Box(0.0, 1.0, (LOSTGEMS_SIZE,), np.float32)
        else:
            seen = spaces.Box(0, 255, (TEXT_SIZES[name],), np.uint8)
        mask = spaces.Box(0, 1, (self.encoding.size,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": seen, "action_mask": mask}) for a in self.agents
        }
        self.action_spaces = {a: spaces.Discrete(self.encoding.size) for a in self.agents}
        self.table = None  # the play layer's state of the game in play (AECEnv.state is a method)
        self.deal_seed = None  # the deal of the game in play
        self._np_random = None
        self._window = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Deal the game of `seed` (the referee's and `blinks playtest`'s seed), else a seed
        drawn from the env's generator (seeded by the last seed given)."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            self.deal_seed = seed
        else:
            if self._np_random is None:
                self._np_random, _ = seeding.np_random()
            self.deal_seed = int(self._np_random.integers(SEEDS))
        self.table = dealt(self.game, self.deal_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.table.current_player()]
        self.last_move = None

    def observe(self, agent):
        player = self.possible_agents.index(agent)
        seen = self.observation_spaces[agent]["observation"]
        if self.name == "lostgems":
            observation = fill_lostgems(
                np.zeros(seen.shape, np.float32), self.table.referee, player
            )
        else:
            observation = text_bytes(self.table.observation_string(player), seen.shape[0])
        mask = np.zeros(self.encoding.size, np.int8)
        if player == self.table.current_player():
            mask[self.encoding.actions(self.table.legal_moves())] = 1
        return {"observation": observation, "action_mask": mask}

    def legal_action_strings(self):
        """{action: the move it makes} for the agent to move (for people and logs)."""
        moves = self.table.legal_moves()
        return {a: str(m) for a, m in zip(self.encoding.actions(moves), moves)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        moves = self.table.legal_moves()
        move = self.encoding.move(moves, int(action))
        self._cumulative_rewards[agent] = 0
        before = self.table.returns()
        self.table.apply_action(moves.index(move))
        self.last_move = (agent, move)
        after = self.table.returns()
        self.rewards = {a: after[p] - before[p] for p, a in enumerate(self.agents)}
        if self.table.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        else:
            self.agent_selection = self.agents[self.table.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = render.table_text(self)
        if self.render_mode == "ansi":
            return text
        self._window = render.show(self._window, text, self.metadata["render_fps"])
        return None

    def close(self):
        render.close(self._window)
        self._window = None

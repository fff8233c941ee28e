"""OpenSpiel's own bots as Lost Gems players, for `blinks playtest --bot openspiel:NAME`
(random, mcts, ismcts) or `--bot simulator.envs.bots:OpenSpielMcts` and `--partner`.

A bot sees only its Observation, as every Lost Gems bot does. To search, it deals itself a
world the observation allows (a determinization): its own shards drawn from the shards it
cannot see, consistent with its hint knowledge, and the jungle shuffled from the rest. The
random bot and MCTS (UCT with random rollouts, OpenSpiel's MCTSBot) act in one such world a
move; IS-MCTS (OpenSpiel's ISMCTSBot) draws a new world for each of its simulations.
"""

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from simulator.envs import openspiel_game
from simulator.envs.encoding import LOSTGEMS_MOVES
from simulator.envs.worlds import determinized
from simulator.games.lostgems.bots import Bot

SIMULATIONS = 100  # searches a move (MCTS and IS-MCTS)
UCT_C = 2.0


class OpenSpielBot(Bot):
    """A Lost Gems bot whose choice an OpenSpiel bot makes in a determinized world."""

    def __init__(self, player, seed=0):
        super().__init__(player, seed)
        self.rng = random.Random(seed)
        self.game = openspiel_game("lostgems")
        self.search = self.make(np.random.RandomState(seed))

    def make(self, random_state):
        raise NotImplementedError

    def world(self, obs):
        return self.game.new_initial_state().world(determinized(obs, self.rng))

    def act(self, obs):
        return LOSTGEMS_MOVES[self.search.step(self.world(obs))]


class OpenSpielRandom(OpenSpielBot):
    name = "openspiel:random"

    def make(self, random_state):
        return pyspiel.make_uniform_random_bot(self.player, int(random_state.randint(1 << 30)))


class OpenSpielMcts(OpenSpielBot):
    name = "openspiel:mcts"

    def make(self, random_state):
        rollouts = mcts.RandomRolloutEvaluator(1, random_state)
        return mcts.MCTSBot(
            self.game, UCT_C, SIMULATIONS, rollouts, solve=False, random_state=random_state
        )


class OpenSpielIsmcts(OpenSpielBot):
    name = "openspiel:ismcts"

    def make(self, random_state):
        rollouts = mcts.RandomRolloutEvaluator(1, random_state)
        return ismcts.ISMCTSBot(
            self.game,
            rollouts,
            UCT_C,
            SIMULATIONS,
            random_state=random_state,
            use_observation_string=True,  # a world holds no record of the moves before it
        )

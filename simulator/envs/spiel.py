"""Every game as an OpenSpiel Python game, registered as `python_blinks_<name>`.

The state wraps the play layer's (simulator.play.state) and adds what OpenSpiel asks for:
fixed action ids (simulator.envs.encoding), the deal as chance nodes, per-player observation
and information-state strings, and Lost Gems' observation tensor.

The deal. Lost Gems: 18 chance nodes, one shard identity each (simulator.envs.deal). The
others draw later pieces from their deal's seed too, so their deal is one chance node over the
seeds 0..deals-1 (the game parameter `deals`, DEALS by default), equally likely: outcome s is
the game `blinks playtest --seed s` plays. The seed's later draws are hidden in that outcome.

An information state is the player's whole record: each move made so far with a digest of
what the player saw after it (blake2b of their observation string, 8 bytes), then their
observation now in full. Digests keep it short (a Gembatan view is ~10 kB a move); equal
records mean equal sights, up to a 64-bit hash's collisions.
"""

import hashlib
import random

import numpy as np
import pyspiel

from simulator.envs.deal import deck_of
from simulator.envs.encoding import encoding
from simulator.envs.features import LOSTGEMS_SIZE, fill_lostgems, lostgems_pieces
from simulator.envs.table import PlayState, SharedGame, dealt
from simulator.envs.worlds import determinized
from simulator.games.lostgems.shards import DECK_SIZE

DEALS = 1000  # the seed games' chance outcomes by default
PREFIX = "python_blinks_"

# name -> (long name, utility, player counts, the longest game in moves, parameters)
# The longest games: Lost Gems' 18 shards allow at most 18 plays and discards and 3 + 18 + 3
# hints (the tokens at the start, one a discard, one a completed gem), 42 moves, and 18 deal
# outcomes: 60 in all. The others' referees end a game at a turn limit (400, 200, 400 turns);
# these bounds give each turn 10 moves, where whole games in random play take 200-340.
GAMES = {
    "lostgems": ("Blinks Lost Gems", "IDENTICAL", (2,), 2 * DECK_SIZE + 24, {}),
    "waterfall": ("Blinks Waterfall", "GENERAL_SUM", (2, 3, 4), 4000, {"players": 2}),
    "gemmatch": ("Blinks Gem Match", "GENERAL_SUM", (2,), 2000, {}),
    "gembatan": ("Blinks Gembatan", "GENERAL_SUM", (2, 3, 4), 4000, {"players": 2}),
}


def game_type(name):
    long_name, utility, counts, _, params = GAMES[name]
    spec = dict(params) if name == "lostgems" else dict(params, deals=DEALS)
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=getattr(pyspiel.GameType.Utility, utility),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=name == "lostgems",
        parameter_specification=spec,
    )


class BlinksGame(pyspiel.Game):
    """One of our games with its parameters; `name` is set by the registered subclass."""

    name = None

    def __init__(self, params=None):
        params = dict(params or {})
        _, _, counts, longest, _ = GAMES[self.name]
        players = params.get("players", 2)
        if players not in counts:
            raise ValueError(f"{self.name} is for {', '.join(map(str, counts))} players")
        self.play = SharedGame(self.name, players)
        self.encoding = encoding(self.name)
        self.deals = DECK_SIZE if self.name == "lostgems" else params.get("deals", DEALS)
        if self.deals < 1:
            raise ValueError("deals is the number of deal seeds: 1 or more")
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.size,
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=float(self.play.min_utility),
            max_utility=float(self.play.max_utility),
            utility_sum=None,
            max_game_length=longest,
        )
        super().__init__(game_type(self.name), info, params)

    def __deepcopy__(self, memo):
        return self  # a game never changes: states' copies share it

    def new_initial_state(self):
        return BlinksState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return Observer(self.name == "lostgems" and not recall, recall)


class BlinksState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self._spec = game
        self._play = PlayState(game.play)
        self._dealt = []  # Lost Gems: the shard identities dealt so far
        self._seen = [[] for _ in range(game.play.players)]  # per player: move and digest
        self._sights = None  # each player's observation string, read once a state
        self.recording = True  # keep each player's record (a bot's search world need not)

    @property
    def referee(self):
        """The referee (None before the deal is complete)."""
        return self._play.referee

    def current_player(self):
        if self._play.referee is None:
            return pyspiel.PlayerId.CHANCE
        if self._play.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self._play.current_player()

    def _legal_actions(self, player):
        if self._play.referee is None or player != self.current_player():
            return []
        return sorted(self._spec.encoding.actions(self._play.legal_moves()))

    def chance_outcomes(self):
        if self._play.referee is not None:
            return []
        if self._spec.name == "lostgems":
            left = [i for i in range(DECK_SIZE) if i not in self._dealt]
            return [(i, 1.0 / len(left)) for i in left]
        return [(seed, 1.0 / self._spec.deals) for seed in range(self._spec.deals)]

    def _apply_action(self, action):
        if self._play.referee is None:
            self._deal(action)
            return
        moves = self._play.legal_moves()
        move = self._spec.encoding.move(moves, action)
        self._play.apply_action(moves.index(move))
        self._sights = None
        if not self.recording:
            return
        self._look()
        for seen, sight in zip(self._seen, self._sights):
            digest = hashlib.blake2b(sight.encode("utf-8"), digest_size=8).hexdigest()
            seen.append(f"{move} | {digest}")

    def _look(self):
        """Read every player's observation string once a state (they are asked often)."""
        self._sights = [self._play.observation_string(p) for p in range(len(self._seen))]

    def _deal(self, outcome):
        if self._spec.name != "lostgems":
            if not 0 <= outcome < self._spec.deals:
                raise ValueError(f"the deal takes a seed 0..{self._spec.deals - 1}")
            self._play = dealt(self._spec.play, outcome)
            return
        if outcome in self._dealt or not 0 <= outcome < DECK_SIZE:
            raise ValueError(f"shard identity {outcome} is dealt already or not 0..17")
        self._dealt.append(outcome)
        if len(self._dealt) == DECK_SIZE:
            from simulator.games.lostgems.referee import GameState

            self._play = dealt(self._spec.play, referee=GameState(deck=deck_of(self._dealt)))

    def world(self, referee):
        """This (new) state made the game `referee` is in, for a bot's search: no record of
        the moves before it, and none kept of the moves after (the search asks for none)."""
        self._play = dealt(self._spec.play, referee=referee)
        self.recording = False
        return self

    def resample_from_infostate(self, player, sampler):
        """Lost Gems: a world `player`'s observation allows, their hidden shards drawn anew
        (simulator.envs.worlds), as OpenSpiel's IS-MCTS asks."""
        rng = random.Random(int(sampler() * (1 << 30)))
        world = self._spec.new_initial_state()
        return world.world(determinized(self.referee.observation(player), rng))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if self._spec.name == "lostgems":
                return f"deal shard identity {action}"
            return f"deal seed {action}"
        moves = self._play.legal_moves()
        try:
            return str(self._spec.encoding.move(moves, action))
        except ValueError:
            return f"action {action}"

    def is_terminal(self):
        return self._play.is_terminal()

    def returns(self):
        """Each player's final score once the game is over (Lost Gems: the shared score),
        else 0s: the utility is the end's, as OpenSpiel's search bots expect."""
        if not self._play.is_terminal():
            return [0.0] * len(self._seen)
        return [float(r) for r in self._play.returns()]

    def rewards(self):
        return self.returns()

    def observation_text(self, player):
        """What `player` sees now (the play layer's observation string)."""
        if self._play.referee is None:
            return f"deal: {len(self._dealt)} dealt" if self._spec.name == "lostgems" else "deal"
        if self._sights is None:
            self._look()
        return self._sights[player]

    def information_text(self, player):
        """`player`'s record: every move with a digest of their sight after it, then now."""
        return "\n".join(self._seen[player] + ["now:", self.observation_text(player)])

    def __str__(self):
        if self._play.referee is None:
            return f"deal: {self._dealt}" if self._spec.name == "lostgems" else "deal"
        sights = [f"[{p}]\n{self.observation_text(p)}" for p in range(len(self._seen))]
        return "\n".join(sights)


class Observer:
    """OpenSpiel's PyObserver: strings for every game, Lost Gems' tensor for its observation."""

    def __init__(self, lostgems_tensor, recall):
        self.recall = recall
        self.tensor = np.zeros(LOSTGEMS_SIZE if lostgems_tensor else 0, np.float32)
        self.dict = lostgems_pieces(self.tensor) if lostgems_tensor else {}

    def set_from(self, state, player):
        if not self.tensor.size:
            return
        self.tensor.fill(0)
        if state.referee is not None:
            fill_lostgems(self.tensor, state.referee, player)

    def string_from(self, state, player):
        return state.information_text(player) if self.recall else state.observation_text(player)


class LostGemsGame(BlinksGame):
    name = "lostgems"


class WaterfallGame(BlinksGame):
    name = "waterfall"


class GemMatchGame(BlinksGame):
    name = "gemmatch"


class GembatanGame(BlinksGame):
    name = "gembatan"


# Module-level classes, so OpenSpiel's pickling of a game finds them by name.
CLASSES = {cls.name: cls for cls in (LostGemsGame, WaterfallGame, GemMatchGame, GembatanGame)}


def register(name):
    """Register game `name` under PREFIX + name once; returns the short name."""
    short = PREFIX + name
    if short not in pyspiel.registered_names():
        pyspiel.register_game(game_type(name), CLASSES[name])
    return short

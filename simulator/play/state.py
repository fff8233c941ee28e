"""Any game as OpenSpiel's `Game`/`State` pair over its referee, so adapters (PettingZoo,
OpenSpiel) and search bots are thin: integer actions, `legal_actions`, `apply_action`,
`current_player`, `is_terminal`, `returns`, `observation_string(player)`, `clone`, and the deal
as a chance node.

The deal is the only chance event: a game's referee is dealt from a seed and draws every later
card (and any random return to a pile) from that seed, so the first state is a chance node with
DEALS equally likely outcomes, the seeds 0..DEALS-1. After it, action `i` is the i-th of the
referee's `legal_moves()` (in the referee's own order, which is fixed for a state), so
`legal_actions()` is `range(n)` and `action_to_string` names the move.

A game joins by its descriptor (simulator.games): `dealt(seed, players)` deals a referee for
one of its REFEREE_PLAYERS (else PLAYER_COUNTS, else 2) player counts, and
`RETURNS = (low, high)` bounds every player's return; a cooperative game (one shared score)
gives `returns(referee)` to say what each seat gets, else each seat gets `referee.score(p)`.
"""

import copy
import inspect

from simulator.games import host_game

CHANCE = -1  # current_player() at the deal (OpenSpiel's kChancePlayerId)
TERMINAL = -4  # current_player() once the game is over (OpenSpiel's kTerminalPlayerId)
DEALS = 1 << 16  # the deal's outcomes: seeds 0..DEALS-1, equally likely


class Game:
    """One game with a number of players: makes the first state (OpenSpiel's `Game`)."""

    def __init__(self, name, players=None):
        self.descriptor = host_game(name)
        if not hasattr(self.descriptor, "dealt"):
            raise ValueError(f"{name} has no rules-only referee (no `dealt` in its descriptor)")
        self.name = name
        counts = (
            getattr(self.descriptor, "REFEREE_PLAYERS", None)
            or getattr(self.descriptor, "PLAYER_COUNTS", None)
            or (2,)
        )
        self.players = players or getattr(self.descriptor, "DEFAULT_PLAYERS", counts[0])
        if self.players not in counts:
            raise ValueError(f"{name} is for {', '.join(map(str, counts))} players")
        self.min_utility, self.max_utility = self.descriptor.RETURNS

    def num_players(self):
        return self.players

    def new_initial_state(self):
        return State(self)

    def dealt_state(self, seed):
        """The state after the deal of `seed` (a shortcut for the chance node's apply_action)."""
        state = State(self)
        state.apply_action(seed)
        return state


class State:
    """A game in play: before the deal a chance node, then the referee's turns."""

    def __init__(self, game):
        self.game = game
        self.referee = None  # dealt by the chance node's apply_action
        self._moves = None  # the referee's legal moves, read once a state

    def current_player(self):
        if self.referee is None:
            return CHANCE
        if self.referee.over:
            return TERMINAL
        return self.referee.current

    def is_chance_node(self):
        return self.referee is None

    def is_terminal(self):
        return self.referee is not None and self.referee.over

    def chance_outcomes(self):
        """[(seed, probability)] of the deal: every seed alike."""
        if self.referee is not None:
            return []
        p = 1.0 / DEALS
        return [(seed, p) for seed in range(DEALS)]

    def legal_moves(self):
        """The referee's moves behind the actions (empty at the deal and once over)."""
        if self.referee is None or self.referee.over:
            return []
        if self._moves is None:
            self._moves = list(self.referee.legal_moves())
        return self._moves

    def legal_actions(self, player=None):
        if self.referee is None:
            return list(range(DEALS)) if player in (None, CHANCE) else []
        if player is not None and player != self.current_player():
            return []
        return list(range(len(self.legal_moves())))

    def apply_action(self, action):
        """Deal (at the chance node: `action` is the seed) or make the `action`-th legal move.
        Raises ValueError for an action not among legal_actions()."""
        if self.referee is None:
            if not 0 <= action < DEALS:
                raise ValueError(f"the deal takes a seed 0..{DEALS - 1}, not {action}")
            self.referee = self.game.descriptor.dealt(action, self.game.players)
        else:
            moves = self.legal_moves()
            if not 0 <= action < len(moves):
                raise ValueError(f"action {action} is not legal: {len(moves)} moves now")
            self.referee.apply(moves[action])
        self._moves = None

    def action_to_string(self, action):
        if self.referee is None:
            return f"deal seed {action}"
        return str(self.legal_moves()[action])

    def returns(self):
        """Each player's score (a cooperative game: what its descriptor says each seat gets)."""
        if self.referee is None:
            return [0] * self.game.players
        shares = getattr(self.game.descriptor, "returns", None)
        if shares is not None:
            return list(shares(self.referee))
        return [self.referee.score(p) for p in range(self.game.players)]

    def observation(self, player):
        """The referee's observation for `player` (what the game's own bots read)."""
        return self.referee.observation(player)

    def observation_string(self, player):
        """What `player` may see, one `name: value` line a property of their observation (and
        `name(): value` a method it answers without arguments), sorted by name; "deal" before
        the deal."""
        if self.referee is None:
            return "deal"
        obs = self.referee.observation(player)
        lines = []
        for name in sorted(dir(type(obs))):
            if name.startswith("_"):
                continue
            kind = getattr(type(obs), name)
            if isinstance(kind, property):
                lines.append(f"{name}: {shown(getattr(obs, name))}")
            elif callable(kind) and _bare(kind):
                lines.append(f"{name}(): {shown(getattr(obs, name)())}")
        return "\n".join(lines)

    def clone(self):
        """An independent copy: moves made on either leave the other as it was."""
        other = State(self.game)
        other.referee = copy.deepcopy(self.referee)
        return other

    def __str__(self):
        return self.observation_string(self.current_player()) if self.referee else "deal"


def _bare(method):
    """Whether `method` (an observation's) is called with no argument but self."""
    try:
        params = list(inspect.signature(method).parameters.values())[1:]
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty for p in params)


def shown(value):
    """A value as text that is the same from run to run (no ids, sets sorted)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{shown(k)}: {shown(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(shown(v) for v in value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    if type(value).__str__ is not object.__str__:
        return str(value)
    slots = getattr(type(value), "__slots__", None) or sorted(vars(value))
    return (
        f"{type(value).__name__}("
        + ", ".join(f"{s}={shown(getattr(value, s, None))}" for s in slots)
        + ")"
    )

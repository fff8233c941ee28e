"""The bot interface and the loop that plays one game between two bots.

A bot is built per seat (`bot_class(player, seed)`), sees only `Observation`s, and is told
about every turn (its own and its partner's) through `observe`, right after the move, while the
public state is still the one the move was made in (hints change no gem or discard).
"""

from simulator.games.lostgems.observation import event_seen_by
from simulator.games.lostgems.referee import GameState, IllegalMove
from simulator.sessions.user_code import bot_failed


class Bot:
    """Base class: override `act`; override `observe` to keep private notes."""

    name = "bot"
    # Something the bot has to tell the person it plays with (the simulator shows it once and
    # sets it back to None), such as a change in how it reads their hints.
    remark = None

    def __init__(self, player, seed=0):
        self.player = player
        self.seed = seed  # for the bot's own randomness; never the deal's seed (bot_seed)

    def act(self, obs):
        """Return the Move to make; `obs.legal_moves()` lists the legal ones."""
        raise NotImplementedError

    def observe(self, obs, event):
        """Called after every turn, with this bot's observation and the (masked) event."""


def bot_seed(deal_seed, player):
    """The seed a bot gets for its own randomness in the game dealt from `deal_seed`: not the
    deal's seed itself, or a bot drawing from `random.Random(self.seed)` would replay the
    shuffle that dealt its own shards (cheating by accident). Deterministic across runs."""
    return hash((deal_seed, player, 0x5EED)) & 0xFFFFFFFF


def seated_bots(bot_class, partner, deal_seed):
    """The two bots of a game: `bot_class` in seat A, `partner` (None: the same) in seat B."""
    partner = partner or bot_class
    return (bot_class(0, bot_seed(deal_seed, 0)), partner(1, bot_seed(deal_seed, 1)))


def play_game(bot_class, seed=0, deck=None, start=0, partner=None):
    """Play one game with `bot_class` in seat A and `partner` (by default the same class) in
    seat B; return the final GameState."""
    state = GameState(seed=seed, deck=deck, start=start)
    bots = seated_bots(bot_class, partner, seed)
    obs = (state.observation(0), state.observation(1))
    bot_a, bot_b = bots
    obs_a, obs_b = obs
    seat = 0  # whose code runs: named if a bot of your own raises
    try:
        while not state.over:
            seat = p = state.current
            event = state.apply(bots[p].act(obs[p]))
            # Each seat is told what its obs.last_event holds: only the player who moved may
            # have drawn, and does not see that shard.
            seat = 0
            bot_a.observe(obs_a, event if p else event_seen_by(event, 0))
            seat = 1
            bot_b.observe(obs_b, event_seen_by(event, 1) if p else event)
    except IllegalMove:
        raise
    except Exception as exc:  # noqa: BLE001 - a bot of your own may raise anything
        raise bot_failed(exc, bots[seat], seed, state.turns + 1, "AB"[seat]) from None
    return state

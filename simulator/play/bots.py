"""What every game's bots share, written once: the Bot base class, the bot table (a game's bots
by name, or `module:Class` for a bot of your own), each bot's seed, and one game played out by
bots that each see only their seat's observation."""

import random

from simulator.sessions.user_code import bot_failed, load_class

SEATS = "ABCD"


class Bot:
    """A bot of any game (a game's own Bot subclasses this one, and a bot of yours subclasses
    the game's): override `act(obs)`, the move for this seat's observation; `observe(obs,
    event)` hears every move, as this seat may see it."""

    name = "bot"

    def __init__(self, player, seed=0):
        self.player = player
        self.seed = seed

    def act(self, obs):
        raise NotImplementedError

    def observe(self, obs, event):
        """Called after every move, with this bot's observation and the event as it sees it."""


class RandomPlay:
    """A legal move at random (the yardstick); a game's RandomBot is `RandomPlay` and its Bot."""

    name = "random"

    def __init__(self, player, seed=0):
        super().__init__(player, seed)
        self.rng = random.Random(seed)

    def act(self, obs):
        return self.rng.choice(obs.legal_moves())


class UnknownBot(KeyError):
    """No bot by that name; the message (args[0]) says what would do."""


class BotTable:
    """A game's bots by name (`bots`: {name: class}, each a subclass of `base`, which
    `base_path` names for a bot of your own to subclass)."""

    def __init__(self, title, bots, base, base_path):
        self.title = title
        self.bots = bots
        self.base = base
        self.base_path = base_path

    def names(self):
        return sorted(self.bots)

    def bot_class(self, name):
        """The bot class called `name` (or `name` itself, a Bot subclass): one of the table's,
        or `module:Class` for a Bot subclass of your own. Raises UnknownBot saying what is
        wrong."""
        if isinstance(name, type) and issubclass(name, self.base):
            return name
        if ":" in name:
            return load_class(name, "bot", self.base, self.base_path, UnknownBot)
        try:
            return self.bots[name]
        except KeyError:
            raise UnknownBot(
                f"no {self.title} bot called {name!r}; known bots: {', '.join(self.names())}, "
                "or module:Class for a Bot subclass of your own"
            ) from None


def bot_seed(deal_seed, player, salt):
    """A bot's own seed: never the deal's, so it cannot replay the shuffle (`salt` is the
    game's, so two games' bots differ)."""
    return hash((deal_seed, player, salt)) & 0xFFFFFFFF


def play_out(state, bots, seed, illegal, seen_by=None):
    """Play referee `state` to its end, each seat's bot acting on its own observation and
    hearing every event as its seat may see it (`seen_by(event, seat)`, else as it is). A move
    the rules refuse raises the referee's `illegal` exception; a bot of your own that raises
    is told by its line (simulator.sessions.user_code). The finished state."""
    obs = [state.observation(p) for p in range(len(bots))]
    seat = 0  # whose code runs: named if a bot of your own raises
    try:
        while not state.over:
            seat = state.current
            event = state.apply(bots[seat].act(obs[seat]))
            for seat in range(len(bots)):
                bots[seat].observe(obs[seat], seen_by(event, seat) if seen_by else event)
    except illegal:
        raise
    except Exception as exc:  # noqa: BLE001 - a bot of your own may raise anything
        raise bot_failed(exc, bots[seat], seed, state.turns + 1, SEATS[seat]) from None
    return state


def sim_bot_problem(args, title, tiles, table, pieces):
    """What is wrong with `blinks sim --game NAME --bot BOT` for game `title`, which a bot
    plays on all its `tiles` (`pieces` words them: "all its tokens"), its bots in `table`; or
    None."""
    if args.tiles not in (None, tiles):
        return f"--bot plays {title} with {pieces}, {tiles} tiles, not --tiles {args.tiles}"
    if args.bot not in table.bots:
        return f"--bot: no {title} bot called {args.bot!r}; known bots: {', '.join(table.names())}"
    return None

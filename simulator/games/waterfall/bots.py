"""Bots that play Waterfall from observations only, by name: `greedy` (the default) and
`random`, and the game's part of `blinks playtest`. A bot sees its own hand, the face-up
waterfall and discards, the pawns and how many tiles the others hold; never the draw pile's
order nor another player's hand.
"""

from games.waterfall import cards

from simulator.games.waterfall import rules
from simulator.games.waterfall.referee import (
    GameState,
    IllegalMove,
    game_script,  # noqa: F401  (playtest --scripts)
)
from simulator.games.waterfall.rules import (
    DEFAULT_RULES,
    ENDS,
    LEFT,
    RIGHT,
    RULES,
    below,
    event_seen_by,
)
from simulator.play import bots as play_bots
from simulator.play.bots import BotTable, play_out
from simulator.play.bots import bot_seed as seed_of_bot
from simulator.play.figures import ended_fractions, mean_err


class Bot(play_bots.Bot):
    """Waterfall's bots' base: its draws are hidden from the other seats (observation.event_seen_by)."""


class RandomBot(play_bots.RandomPlay, Bot):
    """A legal move at random (a yardstick for the greedy bot)."""


class GreedyBot(Bot):
    """Plays its low tiles for steps and keeps the high ones to score; steers its pawn to the
    tile worth most now (a SCORE it can use, then DRAW or ADD), falls no further once nothing
    worth having lies within its steps, adds its lowest tile high up in the waterfall and
    scores its highest matching tiles."""

    name = "greedy"

    def act(self, obs):
        phase = obs.phase
        hand = obs.hand
        if phase == "play":
            return self._play(obs, hand)
        if phase == "fall":
            return self._step(obs, hand)
        if phase == "add":
            slot = _lowest(hand)
            place = min(obs.open_places())  # the shallowest, leftmost place
            return rules.add(slot, place)
        best = None
        for m in obs.legal_moves():
            if m.kind == rules.SCORE and (
                best is None
                or cards.number_of(hand[m.slot - 1]) > cards.number_of(hand[best.slot - 1])
            ):
                best = m
        return best or rules.done()

    def _play(self, obs, hand):
        if obs.steps and (not hand or obs.steps >= self._wanted_steps(obs, hand)):
            return rules.fall()
        return rules.play(_lowest(hand))

    def _wanted_steps(self, obs, hand):
        """How far to fall: down to the best tile within reach, as the pawn would go."""
        return self._reach(obs, hand, 5)[0]

    def _reach(self, obs, hand, most):
        """(depth, value) of the best tile within `most` steps, as the pawn would go."""
        here = obs.pawns[self.player]
        water = obs.waterfall
        best_depth, best_value = 1, -1.0
        place, visited = here, set(obs.visited)
        for depth in range(1, most + 1):
            if place is None:
                nxt = (0, 0)
            else:
                options = [below(place, s) for s in (LEFT, RIGHT)]
                options = [p for p in options if p in water] or [None]
                nxt = max(options, key=lambda p: self._value(p, water, hand, visited))
            if nxt is None or nxt not in water:
                break
            visited.add(cards.gem_of(water[nxt]))
            value = self._value(nxt, water, hand, visited) - 0.3 * depth
            if value > best_value:
                best_depth, best_value = depth, value
            if cards.action_of(water[nxt]) == cards.STOP:
                break
            place = nxt
        return best_depth, best_value

    def _value(self, place, water, hand, visited):
        if place not in water:
            return -0.5
        kind = water[place]
        action = cards.action_of(kind)
        if action == cards.SCORE:
            gems = visited | {cards.gem_of(kind)}
            points = sorted(
                (cards.number_of(k) for k in hand if cards.gem_of(k) in gems), reverse=True
            )
            return float(sum(points[:2]))
        if action == cards.DRAW:
            return 2.0 if len(hand) < 4 else 0.8
        if action == cards.ADD:
            return 1.0 if hand else 0.0
        return 0.2

    def _step(self, obs, hand):
        if rules.done() in obs.legal_moves() and self._reach(obs, hand, obs.steps)[1] < STOP_BELOW:
            return rules.done()
        options = obs.step_options()
        if len(options) == 1:
            return rules.step(options[0])
        here = obs.pawns[self.player]
        water = obs.waterfall
        visited = obs.visited
        return rules.step(
            max(
                options,
                key=lambda s: (self._value(below(here, s), water, hand, visited), s == LEFT),
            )
        )


STOP_BELOW = 0.5  # fall no further when the best tile within the steps left is worth less


def _lowest(hand):
    """The 1-based slot of the hand's lowest-numbered tile."""
    return min(range(len(hand)), key=lambda i: (cards.number_of(hand[i]), i)) + 1


BOTS = {GreedyBot.name: GreedyBot, RandomBot.name: RandomBot}
BEST_BOT = GreedyBot.name


TABLE = BotTable("Waterfall", BOTS, Bot, "simulator.games.waterfall.bots.Bot")
bot_class = TABLE.bot_class


def bot_seed(deal_seed, player):
    return seed_of_bot(deal_seed, player, 0x3A7E)


def play_game(bot, seed=0, players=2, deck=None, start=0, seats=None, rules=DEFAULT_RULES):
    """One game, `bot` (a class or name) in every seat unless `seats` lists a class per seat;
    the final GameState."""
    state = GameState(players=players, seed=seed, deck=deck, start=start, rules=rules)
    classes = seats or [bot_class(bot)] * players
    bots = [bot_class(c)(p, bot_seed(seed, p)) for p, c in enumerate(classes)]
    return play_out(state, bots, seed, IllegalMove, event_seen_by)


# Its part of `blinks playtest --game waterfall [--players N] [--physical]` (the driver is
# simulator.play.playtest): the winner's mean score and how the games ended (the 20-tile rule,
# an empty deck, or the turn limit). With --physical every game is also played move by move
# on 27 simulated tiles, as people would, and the tiles are checked against the referee.


def add_arguments(options):
    options.standard("players", "physical", "scripts")
    options.add_argument(
        "--rules",
        choices=RULES,
        action="append",
        help="a rules option, as a script's `rules` line (docs/waterfall.md#rules-options)",
    )


def play_options(args):
    return {"rules": tuple(sorted(set(args.rules or ())))}


def play(seats, seed, players, rules=()):
    return play_game(None, seed=seed, players=players, seats=seats, rules=rules)


def script_names(seats, players, seed):
    return f"{seats[0]}-{players}p-seed{seed}.wf", f"{seats[0]}, {players} players, seed {seed}"


def stats(games):
    """The figures of finished games: winner's mean score and its standard error, the mean of
    every player's score, the fraction of games by how they ended, turns, wins by seat."""
    states = [s for s, _ in games]
    n = len(states)
    mean, stderr = mean_err([max(s.scores) for s in states])
    ended = ended_fractions(states, ENDS)
    players = states[0].players
    wins = [0] * players
    for s in states:
        for p in s.winners():
            wins[p] += 1
    return {
        "game": "waterfall",
        "games": n,
        "players": players,
        "mean": mean,
        "stderr": stderr,
        "mean_all": sum(sum(s.scores) for s in states) / (n * players),
        "ended": ended,
        "twenty_fraction": ended["twenty"],
        "deck_fraction": ended["deck"],
        "mean_turns": sum(s.turns for s in states) / n,
        "wins_by_seat": wins,
    }


def report(args, figures):
    rules = "".join(f", rules {r}" for r in figures["rules"])
    print(
        f"Waterfall, {figures['players']} players{rules}, {args.bot}: "
        f"{figures['games']} games from seed {args.seed}"
    )
    if args.physical:
        print("every move also played on 27 simulated tiles: they agreed with the referee")
    print(f"winner's score: mean {figures['mean']:.3f} ± {figures['stderr']:.3f} (standard error)")
    print(
        f"every player's score: mean {figures['mean_all']:.3f}; turns a game: {figures['mean_turns']:.1f}"
    )
    ended = figures["ended"]
    print(
        f"ended by the 20-tile rule {100 * ended['twenty']:.1f}%, an empty deck "
        f"{100 * ended['deck']:.1f}%, the turn limit {100 * ended['turns']:.1f}%"
    )
    print(
        "wins by seat: "
        + ", ".join(f"{'ABCD'[p]} {w}" for p, w in enumerate(figures["wins_by_seat"]))
    )

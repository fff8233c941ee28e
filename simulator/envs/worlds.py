"""Worlds a Lost Gems player's observation allows (determinizations), for search bots: the
shards they cannot see, dealt anew."""

from simulator.games.lostgems.observation import possible_shards
from simulator.games.lostgems.referee import GameState
from simulator.games.lostgems.shards import TYPE_COUNTS

DRAWS = 200  # tries at own shards that fit the hints, before taking any that are left


def unseen(obs):
    """The shards `obs`'s player cannot see: their own and the jungle's, as a list."""
    left = list(TYPE_COUNTS)
    seen = obs.partner_hand + obs.discards
    seen += [c * 3 + v for c, height in enumerate(obs.gems) for v in range(height)]
    for shard in seen:
        left[shard] -= 1
    return [s for s, n in enumerate(left) for _ in range(n)]


def determinized(obs, rng):
    """A referee in a state `obs` allows, its hidden shards drawn by `rng`."""
    pool = unseen(obs)
    knowledge = obs.knowledge(obs.player)
    for _ in range(DRAWS):
        rng.shuffle(pool)
        own = pool[: obs.hand_size]
        if all(s in possible_shards(k) for s, k in zip(own, knowledge)):
            break
    jungle = pool[obs.hand_size :]
    me, partner = obs.player, obs.partner
    referee = GameState(seed=0)
    referee.hands = [None, None]
    referee.hands[me], referee.hands[partner] = list(own), obs.partner_hand
    referee.knowledge = [obs.knowledge(0), obs.knowledge(1)]
    referee.next_draw = len(referee.deck) - len(jungle)
    referee.deck = referee.deck[: referee.next_draw] + jungle
    referee.gems, referee.discards = obs.gems, obs.discards
    referee.hints, referee.errors, referee.turns = obs.hints, obs.errors, obs.turns
    referee.current, referee.final_turns = obs.current, obs.final_turns
    return referee

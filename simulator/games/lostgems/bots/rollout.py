"""A compact Lost Gems game for rollouts: both seats play the convention bot's `decide`.

The search bot plays out each candidate move thousands of times a game. A GameState with its
Observations, Events and two bot objects per rollout costs more than the game itself, so a
`World` holds only what the convention policy reads (the two hands as tuples, the draw order,
tokens, the PublicFacts, and the common-knowledge hand masks) and `Step` applies a move to it
by the referee's rules (referee.py), updating the masks through the convention bot's own
memoised readers. tests/lostgems/test_search_rollout.py checks that a world played out from
the deal gives the very game play_game() does.
"""

from simulator.games.lostgems.bots.conventions import _ACTIONS_READ, _HINTS_READ, ConventionBot
from simulator.games.lostgems.bots.handsets import new_cache
from simulator.games.lostgems.moves import DISCARD, HINT
from simulator.games.lostgems.shards import MAX_ERRORS, MAX_HINTS

BLUEPRINT = ConventionBot(0)
STALL_JUNGLE = BLUEPRINT.stall_jungle
_KEY_CLASS = ConventionBot  # the class in the readers' memo keys (ConventionBot.observe)
_DECISIONS = new_cache()  # World.blueprint_move's inputs -> the blueprint's move


class World:
    """One possible state of a game, as a full deal: who moves, both hands, the shards still to
    draw (`jungle`, top first), tokens, public facts, and both common-knowledge masks."""

    __slots__ = ("current", "errors", "facts", "final_turns", "hands", "hints", "jungle", "masks")

    def __init__(self, current, hands, jungle, hints, errors, facts, masks, final_turns):
        self.current = current
        self.hands = list(hands)
        self.jungle = list(jungle)
        self.hints = hints
        self.errors = errors
        self.facts = facts
        self.masks = list(masks)
        self.final_turns = final_turns

    def blueprint_move(self):
        """The move the convention bot makes here (memoised: rollouts from one turn replay
        the same positions until their draws differ)."""
        p = self.current
        key = (
            self.masks[p],
            self.masks[1 - p],
            self.facts,
            self.hints,
            self.errors,
            self.hands[1 - p],
            len(self.hands[p]),
            self.final_turns,
            len(self.jungle) <= STALL_JUNGLE,
        )
        got = _DECISIONS.get(key)
        if got is None:
            got = _DECISIONS[key] = BLUEPRINT.decide(
                key[0], key[1], key[2], key[3], key[4] == 0, *key[5:]
            )
        return got

    @property
    def score(self):
        if self.errors >= MAX_ERRORS:
            return 0
        g = self.facts.gems
        return g[0] + g[1] + g[2]


def step(world, move):
    """Apply `move` for the player to move; return whether the game is over."""
    p = world.current
    q = 1 - p
    masks = world.masks
    facts = world.facts
    if move.kind == HINT:
        world.hints -= 1
        pa = move.points_at
        target = world.hands[q]
        touched = tuple(i + 1 for i in range(len(target)) if pa >> target[i] & 1)
        key = (_KEY_CLASS, masks[p], masks[q], facts, move.code, touched)
        got = _HINTS_READ.get(key)
        if got is None:
            got = _HINTS_READ[key] = BLUEPRINT.read_hint(*key[1:])
        masks[q] = got  # (0 only for a hint naming no hand the partner may hold: evaluate)
        ended = drew_last = False
    else:
        hand = world.hands[p]
        i = move.slot - 1
        s = hand[i]
        hand = hand[:i] + hand[i + 1 :]
        kind = move.kind
        regained = ended = False
        if kind == DISCARD:
            world.facts = facts.after_discard(s)
            world.hints += 1
        elif facts.playable[s]:
            world.facts = after = facts.after_play(s)
            if s % 3 == 2:
                if world.hints < MAX_HINTS:
                    world.hints += 1
                    regained = True
                g = after.gems
                ended = g[0] + g[1] + g[2] == 9
        else:
            world.errors += 1
            world.facts = facts.after_discard(s)
            ended = world.errors >= MAX_ERRORS
        jungle = world.jungle
        drew_last = False
        if jungle:
            hand += (jungle.pop(0),)
            drew_last = not jungle
        world.hands[p] = hand
        token_left = world.hints > (1 if kind == DISCARD or regained else 0)
        key = (_KEY_CLASS, masks[p], masks[q], facts, token_left, kind, move.slot, s, len(hand))
        got = _ACTIONS_READ.get(key)
        if got is None:
            got = _ACTIONS_READ[key] = BLUEPRINT.read_action(*key[1:])
        masks[q] = got[1]
        masks[p] = got[0] or masks[p]
    world.current = q
    if ended:
        return True
    if world.final_turns is not None:
        world.final_turns -= 1
        return world.final_turns <= 0
    if drew_last:
        world.final_turns = 2  # one more turn each, the partner first
    return False


def play_out(world):
    """Play the world to its end with the blueprint in both seats; return the score."""
    while not step(world, world.blueprint_move()):
        pass
    return world.score


def evaluate(world, move, partner_bit):
    """The score of making `move` now and then playing the blueprint in both seats (the world
    is used up); None if after `move` the partner's common-knowledge mask no longer holds
    their hand (`partner_bit`, the bit of the hand they hold), which would mislead them."""
    over = step(world, move)
    if not world.masks[world.current] & partner_bit:
        return None
    if over:
        return world.score
    return play_out(world)

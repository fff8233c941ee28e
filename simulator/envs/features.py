"""What a player sees, as numbers: Lost Gems' feature vector (HLE's canonical encoding cut to
our 18 shards), and for the other games their observation text as bytes.

Both read only the referee's `observation(player)` or the play layer's `observation_string`,
which hide what the player may not see, so the numbers cannot leak it either.
"""

import numpy as np

from simulator.envs.encoding import LOSTGEMS_MOVES
from simulator.games.lostgems.moves import HINT
from simulator.games.lostgems.shards import DECK_SIZE, HAND_SIZE, MAX_ERRORS, MAX_HINTS, TYPE_COUNTS

# Lost Gems' pieces, in order: (name, length)
LOSTGEMS_PIECES = (
    ("my_turn", 1),
    ("partner_hand", HAND_SIZE * 9),  # a one-hot shard per slot, zeros for an empty slot
    ("own_slots", HAND_SIZE),  # 1 for each slot that holds a shard (its shard unseen)
    ("own_knowledge", HAND_SIZE * 6),  # per slot: colours still possible (3), values (3)
    ("partner_knowledge", HAND_SIZE * 6),  # what the partner knows of their hand
    ("gems", 9),  # per colour, thermometer of its height 1-3
    ("discards", sum(TYPE_COUNTS)),  # per shard type, a thermometer of its copies discarded
    ("hints", MAX_HINTS),  # thermometer of available hint tokens
    ("errors", MAX_ERRORS),  # thermometer of error tokens lost
    ("jungle", DECK_SIZE - 2 * HAND_SIZE),  # thermometer of shards left to draw
    ("final_turns", 2),  # thermometer of turns left once the jungle is empty
    ("last_move", len(LOSTGEMS_MOVES)),  # one-hot of the last move's action
    ("last_by_me", 1),
    ("last_shard", 9),  # the shard the last play or discard showed
    ("last_outcome", 2),  # it joined its gem, it cost an error
    ("last_touched", HAND_SIZE),  # the slots the last hint pointed at
)
LOSTGEMS_SIZE = sum(n for _, n in LOSTGEMS_PIECES)


def lostgems_pieces(tensor):
    """Named views into a flat LOSTGEMS_SIZE tensor."""
    out, at = {}, 0
    for name, n in LOSTGEMS_PIECES:
        out[name] = tensor[at : at + n]
        at += n
    return out


def _thermometer(view, count):
    view[: max(0, min(count, len(view)))] = 1


def _knowledge(view, knowledge):
    for slot, (colours, values) in enumerate(knowledge):
        for bit in range(3):
            view[slot * 6 + bit] = colours >> bit & 1
            view[slot * 6 + 3 + bit] = values >> bit & 1


def fill_lostgems(tensor, referee, player):
    """Write `player`'s view of a Lost Gems referee into `tensor` (length LOSTGEMS_SIZE)."""
    tensor.fill(0)
    views = lostgems_pieces(tensor)
    obs = referee.observation(player)
    views["my_turn"][0] = obs.current == player
    for slot, shard in enumerate(obs.partner_hand):
        views["partner_hand"][slot * 9 + shard] = 1
    _thermometer(views["own_slots"], obs.hand_size)
    _knowledge(views["own_knowledge"], obs.knowledge(player))
    _knowledge(views["partner_knowledge"], obs.knowledge(obs.partner))
    for colour, height in enumerate(obs.gems):
        _thermometer(views["gems"][colour * 3 : colour * 3 + 3], height)
    start = 0
    for shard, copies in enumerate(TYPE_COUNTS):
        _thermometer(views["discards"][start : start + copies], obs.discards.count(shard))
        start += copies
    _thermometer(views["hints"], obs.hints)
    _thermometer(views["errors"], obs.errors)
    _thermometer(views["jungle"], obs.jungle)
    if obs.final_turns is not None:
        _thermometer(views["final_turns"], obs.final_turns)
    ev = obs.last_event
    if ev is not None:
        views["last_move"][LOSTGEMS_MOVES.index(ev.move)] = 1
        views["last_by_me"][0] = ev.player == player
        if ev.move.kind == HINT:
            for slot in ev.touched:
                views["last_touched"][slot - 1] = 1
        else:
            views["last_shard"][ev.shard] = 1
            views["last_outcome"][:] = (ev.played, ev.error)
    return tensor


def text_bytes(text, size):
    """`text` as UTF-8 bytes in a zero-padded uint8 vector of `size`; ValueError if too long."""
    data = text.encode("utf-8")
    if len(data) > size:
        raise ValueError(f"an observation of {len(data)} bytes does not fit in {size}")
    out = np.zeros(size, np.uint8)
    out[: len(data)] = np.frombuffer(data, np.uint8)
    return out

"""What a Gem Match tile keeps across a reset: one small blob (with the deal's record)."""

from runtime.deal import RECORD_SIZE
from runtime.dealt import DEALING, UNCERTAIN, UNDEALT  # noqa: F401  (a store names every state)

PILE = "pile"  # dealt, face down: the pile to draw from
HAND = "hand"  # a token face up, off the field: in a hand (or being carried)
FIELD = "field"
TAKEN = "taken"  # clicked in a group: leaves the field once lifted
HEAP = "heap"  # in a victory heap
SAVED = (UNDEALT, PILE, HAND, FIELD, TAKEN, HEAP, UNCERTAIN)  # a state's code in the blob
MAGIC = 0x47
SIZE = 6 + RECORD_SIZE


def encode(state, kind, side, to_hand, prior, record):
    """state, kind (0: none), side up (0 basic, 1 improved), whether a taken token goes to the
    hand, the state before an uncertain deal, the deal's record."""
    blob = bytearray(SIZE)
    blob[0] = MAGIC
    blob[1] = SAVED.index(state)
    blob[2] = kind
    blob[3] = side
    blob[4] = 1 if to_hand else 0
    blob[5] = SAVED.index(prior)
    blob[6:] = record
    return bytes(blob)


def decode(blob):
    """(state, kind, side, to_hand, prior, record), or None for a blob that is not ours."""
    if not blob or len(blob) != SIZE or blob[0] != MAGIC:
        return None
    if blob[1] >= len(SAVED) or blob[5] >= len(SAVED) or blob[3] > 1 or blob[4] > 1:
        return None
    return (SAVED[blob[1]], blob[2], blob[3], blob[4] == 1, SAVED[blob[5]], bytes(blob[6:]))

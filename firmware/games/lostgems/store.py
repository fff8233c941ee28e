"""What a Lost Gems tile saves to flash, and the names of its states.

The saved blob is 8 bytes: b"LG", format version 1, state code, shard code, board value, rank,
and a checksum (sum of the first seven bytes mod 256). `dealing` is never saved: a deal is a
conversation with the neighbours that cannot resume after a reset, so a tile saves the state it
had before the deal and comes back in it (the deal then fails or is simply repeated).
"""

UNDEALT = "undealt"
DEALING = "dealing"
FACE_DOWN = "face down"
REVEALED = "revealed"
PLAYED = "played"
ERROR = "error"
DISCARDED = "discarded"

# Saved codes; the index in this tuple is the code. Never reorder (saved on tiles).
SAVED_STATES = (UNDEALT, FACE_DOWN, REVEALED, PLAYED, ERROR, DISCARDED)
MAGIC = b"LG"
VERSION = 1
SIZE = 8


def encode(state, shard, board, rank):
    """The blob for a state; ValueError for a state that is never saved."""
    if state not in SAVED_STATES:
        raise ValueError(f"state {state!r} is not saved")
    body = bytearray(MAGIC)
    body.append(VERSION)
    body.append(SAVED_STATES.index(state))
    body.append(shard & 255)
    body.append(board & 63)
    body.append(rank & 255)
    body.append(sum(body) & 255)
    return bytes(body)


def decode(blob):
    """(state, shard, board, rank) from a saved blob, or None when the blob is not ours or damaged."""
    if blob is None or len(blob) != SIZE or blob[0:2] != MAGIC or blob[2] != VERSION:
        return None
    if sum(blob[0:7]) & 255 != blob[7] or blob[3] >= len(SAVED_STATES):
        return None
    return SAVED_STATES[blob[3]], blob[4], blob[5], blob[6]

"""What a Lost Gems tile saves to flash, and the names of its states.

The saved blob (format 2): b"LG", 2, state code, shard code, board value, rank, the code of the
state before the deal under way, the deal's record (runtime.deal: what a reset must not make the
tile forget), and a checksum (sum of the bytes before it, mod 256). Format 1 blobs (8 bytes, no
deal record) still load.

`dealing` is never saved: until a tile has voted READY it saves the state it had before the deal
and comes back in it after a reset (its deal then fails). Once it voted it saves `uncertain`,
with the state to go back to if the deal aborted; its new shard is in the deal record.
"""

from runtime.dealt import DEALING, UNCERTAIN, UNDEALT  # noqa: F401  (a store names every state)

FACE_DOWN = "face down"
REVEALED = "revealed"
PLAYED = "played"
ERROR = "error"
DISCARDED = "discarded"

# Saved codes; the index in this tuple is the code. Never reorder (saved on tiles).
SAVED_STATES = (UNDEALT, FACE_DOWN, REVEALED, PLAYED, ERROR, DISCARDED, UNCERTAIN)
MAGIC = b"LG"
VERSION = 2


def encode(state, shard, board, rank, prior=UNDEALT, record=b""):
    """The blob for a state; ValueError for a state that is never saved."""
    if state not in SAVED_STATES or prior not in SAVED_STATES:
        raise ValueError(f"state {state!r} is not saved")
    body = bytearray(MAGIC)
    body.append(VERSION)
    body.append(SAVED_STATES.index(state))
    body.append(shard & 255)
    body.append(board & 63)
    body.append(rank & 255)
    body.append(SAVED_STATES.index(prior))
    body.extend(record)
    body.append(sum(body) & 255)
    return bytes(body)


def decode(blob):
    """(state, shard, board, rank, prior state, deal record) from a saved blob, or None when the
    blob is not ours or damaged (a format 1 blob has prior `undealt` and an empty record)."""
    if blob is None or len(blob) < 8 or blob[0:2] != MAGIC:
        return None
    n = len(blob)
    if sum(blob[0 : n - 1]) & 255 != blob[n - 1]:
        return None
    if blob[2] == 1 and n == 8:
        prior, record = 0, b""
    elif blob[2] == VERSION and n > 8:
        prior, record = blob[7], blob[8 : n - 1]
    else:
        return None
    if blob[3] >= len(SAVED_STATES) or prior >= len(SAVED_STATES):
        return None
    return SAVED_STATES[blob[3]], blob[4], blob[5], blob[6], SAVED_STATES[prior], record

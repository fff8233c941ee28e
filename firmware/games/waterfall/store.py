"""What a Waterfall tile keeps across a reset: one small blob (with the deal's record).

A pawn being handed to another tile is saved with the face it goes on, so that a reset cannot
lose it (see `travel`).
"""

from runtime.deal import RECORD_SIZE
from runtime.dealt import DEALING, UNCERTAIN, UNDEALT  # noqa: F401  (a store names every state)

CARD = "card"  # dealt, off the waterfall, face down
REVEALED = "revealed"  # dealt, off the waterfall, its card shown
WATERFALL = "waterfall"
SAVED = (UNDEALT, CARD, REVEALED, WATERFALL, UNCERTAIN)  # a state's code in the blob
MAGIC = 0x58  # 0x57 was the layout without hand-overs and with 8-bit move numbers
NO_UP = 255
NO_FACE = 255  # a pawn not being handed over
_SEQS = 12  # 4 move numbers, 2 bytes each (high first)
_HANDING = 20  # 4 faces (0-5, 6: up, face not chosen yet)
SIZE = 24 + RECORD_SIZE


def encode(state, card, up, top, above, pawns, prior, record, seqs=(0,) * 4, handing=(-1,) * 4):
    """state, card, up face (None: unknown), top (start tile), above (bit per player waiting
    above the waterfall), pawns (players resting on this tile, oldest first), the state before
    an uncertain deal, the deal's record, each pawn's newest move number seen here, and the face
    each pawn is being handed over on (-1: none)."""
    blob = bytearray(SIZE)
    blob[0] = MAGIC
    blob[1] = SAVED.index(state)
    blob[2] = card
    blob[3] = NO_UP if up is None else up
    blob[4] = 1 if top else 0
    blob[5] = above
    blob[6] = len(pawns)
    for i in range(len(pawns)):
        blob[7 + i] = pawns[i]
    blob[11] = SAVED.index(prior)
    for i in range(4):
        blob[_SEQS + 2 * i] = seqs[i] >> 8 & 255
        blob[_SEQS + 2 * i + 1] = seqs[i] & 255
        blob[_HANDING + i] = NO_FACE if handing[i] < 0 else handing[i]
    blob[SIZE - RECORD_SIZE :] = record
    return bytes(blob)


def decode(blob):
    """(state, card, up, top, above, pawns, prior, record, seqs, handing), or None for a blob
    that is not ours."""
    if not blob or len(blob) != SIZE or blob[0] != MAGIC:
        return None
    if (
        blob[1] >= len(SAVED)
        or blob[11] >= len(SAVED)
        or blob[6] > 4
        or blob[3] > 5
        and blob[3] != NO_UP
    ):
        return None
    for i in range(4):
        if blob[_HANDING + i] > 6 and blob[_HANDING + i] != NO_FACE:
            return None
    up = None if blob[3] == NO_UP else blob[3]
    pawns = [blob[7 + i] for i in range(blob[6])]
    seqs = [blob[_SEQS + 2 * i] << 8 | blob[_SEQS + 2 * i + 1] for i in range(4)]
    handing = [-1 if blob[_HANDING + i] == NO_FACE else blob[_HANDING + i] for i in range(4)]
    return (
        SAVED[blob[1]],
        blob[2],
        up,
        blob[4] == 1,
        blob[5],
        pawns,
        SAVED[blob[11]],
        bytes(blob[SIZE - RECORD_SIZE :]),
        seqs,
        handing,
    )

"""What a Waterfall tile keeps across a reset: one small blob (with the deal's record)."""

from runtime.deal import RECORD_SIZE

UNDEALT = "undealt"
DEALING = "dealing"
UNCERTAIN = "uncertain"
CARD = "card"  # dealt, off the waterfall, face down
REVEALED = "revealed"  # dealt, off the waterfall, its card shown
WATERFALL = "waterfall"
SAVED = (UNDEALT, CARD, REVEALED, WATERFALL, UNCERTAIN)  # a state's code in the blob
MAGIC = 0x57
NO_UP = 255
SIZE = 16 + RECORD_SIZE


def encode(state, card, up, top, above, pawns, prior, record, seqs=(0, 0, 0, 0)):
    """state, card, up face (None: unknown), top (start tile), above (bit per player waiting
    above the waterfall), pawns (players on this tile, oldest first), the state before an
    uncertain deal, the deal's record, and each pawn's move number last seen here."""
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
        blob[12 + i] = seqs[i] & 255
    blob[16:] = record
    return bytes(blob)


def decode(blob):
    """(state, card, up, top, above, pawns, prior, record, seqs), or None for a blob that is not
    ours."""
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
    up = None if blob[3] == NO_UP else blob[3]
    pawns = [blob[7 + i] for i in range(blob[6])]
    return (
        SAVED[blob[1]],
        blob[2],
        up,
        blob[4] == 1,
        blob[5],
        pawns,
        SAVED[blob[11]],
        bytes(blob[16:]),
        [blob[12 + i] for i in range(4)],
    )

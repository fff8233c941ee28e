"""Unit checks of Lost Gems' pure parts, runnable by pytest (CPython) and by real MicroPython.

Under MicroPython: `MICROPYPATH=firmware:tests/lostgems micropython tests/lostgems/lg_checks.py`
runs every check_* function and prints `ok <count>` (test_micropython.py does that).
The deal protocol itself (runtime.deal) and the courier are checked in tests/firmware.
"""

from games.lostgems import board, display, shards, store
from runtime.dealt import shuffle


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return True
    return False


# -- shards ---------------------------------------------------------------------------------
def check_shard_codes_round_trip():
    for text in ("R1", "R2", "R3", "Y1", "Y3", "B1", "B2", "B3"):
        assert shards.name(shards.parse(text)) == text
    assert shards.name(shards.NO_SHARD) is None


def check_bad_shards_are_refused():
    for bad in ("R4", "G1", "r1", "R", "R11", "", None, 5):
        assert raises(ValueError, shards.parse, bad), bad
    assert raises(ValueError, shards.code, 3, 1)
    assert raises(ValueError, shards.code, 0, 0)


def check_decks_have_the_rulebook_values():
    for colours, size in ((1, 6), (2, 12), (3, 18)):
        d = shards.deck(colours)
        assert len(d) == size
        for c in range(colours):
            values = sorted(shards.value_of(s) for s in d if shards.colour_of(s) == c)
            assert values == [1, 1, 1, 2, 2, 3]
    assert raises(ValueError, shards.deck, 4)
    assert [shards.colours_for_cluster(n) for n in (5, 6, 12, 17, 18, 24)] == [0, 1, 2, 0, 3, 0]


class Lcg:
    """A little deterministic generator standing in for the tile's random(limit)."""

    def __init__(self, seed):
        self.x = seed

    def random(self, limit):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x % (limit + 1)


def check_shuffle_is_a_permutation_and_depends_on_the_seed():
    """runtime.dealt's shuffle, on the shard deck."""
    a = shuffle(shards.deck(3), Lcg(1).random)
    b = shuffle(shards.deck(3), Lcg(2).random)
    assert sorted(a) == sorted(shards.deck(3)) == sorted(b)
    assert a != b
    assert a == shuffle(shards.deck(3), Lcg(1).random)


# -- board ----------------------------------------------------------------------------------
def check_board_value_fits_six_bits_and_merges_by_colour():
    b = board.play(board.EMPTY, shards.parse("R1"))
    assert b == 1 and board.score(b) == 1
    y = board.play(board.play(board.EMPTY, shards.parse("Y1")), shards.parse("Y2"))
    m = board.merge(b, y)
    assert board.describe(m) == {"R": 1, "Y": 2, "B": 0}
    assert board.merge(m, b) == m and board.merge(board.EMPTY, m) == m
    assert board.with_highest(board.FULL, 1, 0) == 0b110011
    assert board.score(board.FULL) == 9


def check_playable_means_one_more_than_the_highest():
    assert board.is_playable(board.EMPTY, shards.parse("B1"))
    assert not board.is_playable(board.EMPTY, shards.parse("B2"))
    b = board.play(board.EMPTY, shards.parse("B1"))
    assert board.is_playable(b, shards.parse("B2"))
    assert not board.is_playable(b, shards.parse("B1"))
    assert not board.is_playable(b, shards.parse("R2"))


def check_completion_is_reported_once():
    b2 = board.with_highest(board.EMPTY, 2, 2)
    b3 = board.play(b2, shards.parse("B3"))
    assert board.completed(b2, b3) == [2]
    assert board.completed(b3, b3) == []


# -- store ----------------------------------------------------------------------------------
def check_saved_states_round_trip():
    record = bytes(range(16))
    for state in store.SAVED_STATES:
        blob = store.encode(state, shards.parse("Y2"), 0b011001, 4, store.REVEALED, record)
        want = (state, shards.parse("Y2"), 0b011001, 4, store.REVEALED, record)
        assert store.decode(blob) == want
    assert raises(ValueError, store.encode, store.DEALING, 0, 0, 0)
    assert raises(ValueError, store.encode, store.FACE_DOWN, 1, 0, 0, store.DEALING)


def check_a_format_1_save_still_loads():
    old = bytearray(b"LG\x01\x03\x01\x01\x01")  # played R1 on a board of R1, rank 1
    old.append(sum(old) & 255)
    assert store.decode(bytes(old)) == (store.PLAYED, shards.parse("R1"), 1, 1, store.UNDEALT, b"")


def check_damaged_blobs_are_refused():
    blob = store.encode(store.PLAYED, shards.parse("R1"), 1, 1)
    assert store.decode(None) is None
    assert store.decode(b"") is None
    assert store.decode(blob[:-1]) is None
    assert store.decode(b"XX" + blob[2:]) is None
    broken = bytearray(blob)
    broken[4] ^= 1
    assert store.decode(bytes(broken)) is None


# -- display --------------------------------------------------------------------------------
def check_revealed_shows_value_as_spots():
    for text, faces in (("R1", (0,)), ("Y2", (0, 3)), ("B3", (0, 2, 4))):
        frame = display.revealed(shards.parse(text))
        bright = [f for f in range(6) if frame[f] == max(frame)]
        assert tuple(bright) == faces, (text, frame)
        assert min(frame) > 0
    assert max(display.discarded(shards.parse("B3"))) < max(display.revealed(shards.parse("B3")))


def check_uncertain_looks_like_nothing_else():
    s = shards.parse("B3")
    others = (
        display.face_down(),
        display.revealed(s),
        display.discarded(s),
        display.played(s, False, 0),
        display.error(0),
        display.flash(display.GOLD, 0),
    )
    for now in range(0, 3000, 100):
        picture = display.uncertain(now)
        assert picture not in others
        assert picture != display.dealing(now, 0) and picture != display.undealt(now)
    assert display.uncertain(0) != display.uncertain(display.UNCERTAIN_STEP_MS)


def check_flashes_alternate_and_animations_move():
    assert display.error(0) != display.error(display.FLASH_MS)
    assert display.error(0) == display.error(2 * display.FLASH_MS)
    assert display.undealt(0) != display.undealt(display.BREATHE_MS // 2)
    assert display.dealing(0, 0) != display.dealing(0, 3)
    assert display.copper_spin(0) != display.copper_spin(display.SPIN_STEP_MS)


def check_count_lights_a_tile_at_its_rank():
    s = shards.parse("R2")
    step = display.COUNT_STEP_MS
    dark = display.counting(s, False, 2 * step - 1, 2, 0)
    lit = display.counting(s, False, 2 * step + 200, 2, 0)
    assert max(dark) < max(lit)
    assert lit == display.played(s, False, 0)


def run_all():
    names = sorted(n for n in globals() if n.startswith("check_"))
    for n in names:
        globals()[n]()
    return len(names)


if __name__ == "__main__":
    print("ok", run_all())

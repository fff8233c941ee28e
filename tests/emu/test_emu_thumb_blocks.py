"""Compiled blocks (host_tools/emu/js/thumb_blocks.mjs) do exactly what the emulator's CPU does
an instruction at a time.

tests/emu/thumb_blocks_check.mjs runs random programs, in flash and in SRAM, two ways from the
same states: through blocks (each compiled on its first entry) with the ordinary instruction
wherever a block stops, as the tile's loop does, and an instruction at a time through
thumb_fast.mjs, each to the same random budget of cycles. The registers, flags, mode and cycles
must agree after every step, the SRAM and the fabric touches after every trial; between trials
the code is rewritten in SRAM and in flash. The check needs Node and rp2040js, not the
MicroPython image."""

import pytest
from emu_helpers import node_check


@pytest.mark.parametrize("seed", [7, 2026])
def test_random_programs_run_the_same_through_blocks_and_one_instruction_at_a_time(seed):
    code, report = node_check("thumb_blocks_check.mjs", 4000, seed)
    assert report["differences"] == [], report["differences"][:1]
    assert code == 0
    assert report["trials"] == 4000
    # the blocks did run a fair share of the programs, not only the ordinary loop
    assert report["blockCycles"] > 100_000


def test_a_restarted_tile_takes_its_blocks_unless_a_store_changed_its_code():
    """After a reset the next board takes the blocks over; not after a CPU store over the
    bootrom or flash code, which the reset undoes (the blocks made since would be stale)."""
    code, report = node_check("blocks_handon_check.mjs")
    assert code == 0
    assert report == {
        "handed": True,
        "oldBoardLetGo": True,
        "handedAfterPeripheralStore": True,
        "freshAfterFlashStore": True,
        "freshAfterRomStore": True,
    }

"""What the rp2 HAL needs from the MicroPython on the board, said in one place.

`main.py` checks it at boot and `blinks flash` (and `blinks uf2`) check it before they write
anything, so a board with too old a MicroPython is told which release it has and which it
needs, instead of failing somewhere inside the IR links or the sleep.

1.26 is the oldest release this project would vouch for (its tests run 1.28): the rp2
APIs the HAL uses arrived earlier (rp2.DMA 1.22, a StateMachine as a DMA address 1.23), and 1.26
changed the layout of `rp2.asm_pio`'s result. No release has the fix for a watchdog that fires
in `machine.lightsleep` (MicroPython issue 17228, committed after 1.28.0); none is needed here:
the tile sleeps only in DORMANT, where the RP2040's watchdog, ticking from clk_ref, stands
still. docs/hardware.md has the whole table.
"""

MIN_MICROPYTHON = (1, 26, 0)


def release_tuple(release: str):
    """'1.28.0' or '1.29.0-preview' -> (1, 28, 0) / (1, 29, 0); None when unreadable."""
    parts = release.split("-")[0].split(".")
    numbers = []
    for part in parts[:3]:
        if not part.isdigit():
            return None
        numbers.append(int(part))
    while len(numbers) < 3:
        numbers.append(0)
    return tuple(numbers)


def too_old(release: str) -> bool:
    """True when `release` (as os.uname().release says it) is older than MIN_MICROPYTHON."""
    version = release_tuple(release)
    return version is not None and version < MIN_MICROPYTHON


def min_release() -> str:
    return ".".join(str(n) for n in MIN_MICROPYTHON)

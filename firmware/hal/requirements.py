"""What the rp2 HAL needs from the MicroPython on the board, said in one place.

`main.py` checks it at boot and `blinks flash` (and `blinks uf2`) check it before they write
anything, so a board with too old a MicroPython is told which release it has and which it
needs, instead of failing somewhere inside the IR links or the sleep.

1.26 is the first release with everything the firmware relies on, and the oldest this project
would vouch for (its tests run 1.28): the rp2 APIs the HAL uses arrived earlier (rp2.DMA 1.22,
a StateMachine as a DMA address 1.23, RP2350 boards 1.24), but 1.26 fixed `machine.lightsleep`
with the watchdog running (an RP2040 whose watchdog fired in light sleep locked up at power-up)
and changed the layout of `rp2.asm_pio`'s result. docs/hardware.md has the whole table.
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

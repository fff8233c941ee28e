"""What the rp2 HAL needs from the MicroPython on the board, said in one place.

`main.py` checks it at boot and `blinks flash` checks it before it writes anything, so a board
with too old a MicroPython is told which release it has and which it needs, instead of failing
somewhere inside the IR links.

1.24 is the first release with both things the HAL uses: DMA to and from a PIO state machine's
FIFOs (`rp2.DMA` with a `StateMachine` as the address, since 1.23) and RP2350 boards (1.24).
"""

MIN_MICROPYTHON = (1, 24, 0)


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

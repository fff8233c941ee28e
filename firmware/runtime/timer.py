"""Countdown timers on the tile's pass clock (`tile.millis()`, frozen during a pass)."""

_NEVER = 1 << 62


class Timer:
    """A new timer starts expired. `set(ms)` arms it, `never()` makes it never expire."""

    def __init__(self, tile):
        self._tile = tile
        self._expires = 0

    def set(self, ms: int) -> None:
        self._expires = self._tile.millis() + ms

    def is_expired(self) -> bool:
        return self._tile.millis() >= self._expires

    def get_remaining(self) -> int:
        left = self._expires - self._tile.millis()
        return max(0, left)

    def add(self, ms: int) -> None:
        """Push the expiry later by ms (from the old expiry, not from now)."""
        if self._expires != _NEVER:
            self._expires += ms

    def never(self) -> None:
        self._expires = _NEVER

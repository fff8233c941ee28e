"""Colours as ints `r << 10 | g << 5 | b` with 5-bit channels (0-31), as on the reference tile.

Ints keep the hot path allocation-free and compare cheaply; helpers convert from the 0-255
scales game authors know.
"""

RED = 31 << 10
ORANGE = 31 << 10 | 15 << 5
YELLOW = 31 << 10 | 31 << 5
GREEN = 31 << 5
CYAN = 31 << 5 | 31
BLUE = 31
MAGENTA = 31 << 10 | 31
WHITE = 31 << 10 | 31 << 5 | 31
OFF = 0


def make(r: int, g: int, b: int) -> int:
    """A colour from 5-bit channels (each clamped to 0-31)."""
    return _c5(r) << 10 | _c5(g) << 5 | _c5(b)


def _c5(x: int) -> int:
    return 0 if x < 0 else (min(x, 31))


def _c8(x: int) -> int:
    return 0 if x < 0 else (min(x, 255))


def rgb(r: int, g: int, b: int) -> int:
    """A colour from 0-255 channels (shifted right by 3, as the reference does)."""
    return _c8(r) >> 3 << 10 | _c8(g) >> 3 << 5 | _c8(b) >> 3


def red_of(c: int) -> int:
    return c >> 10 & 31


def green_of(c: int) -> int:
    return c >> 5 & 31


def blue_of(c: int) -> int:
    return c & 31


def hsb(h: int, s: int, b: int) -> int:
    """A colour from hue, saturation and brightness, each 0-255 (hue wraps).

    Integer arithmetic scaled by `>> 8` as the reference's makeColorHSB does, so a game ported
    from it gets the very same colours."""
    h = h & 255
    s = _c8(s)
    b = _c8(b)
    if s == 0:
        return rgb(b, b, b)
    region = h * 6 >> 8
    rem = h * 6 & 255
    p = b * (255 - s) >> 8
    q = b * (255 - (s * rem >> 8)) >> 8
    t = b * (255 - (s * (255 - rem) >> 8)) >> 8
    if region == 0:
        return rgb(b, t, p)
    if region == 1:
        return rgb(q, b, p)
    if region == 2:
        return rgb(p, b, t)
    if region == 3:
        return rgb(p, q, b)
    if region == 4:
        return rgb(t, p, b)
    return rgb(b, p, q)


def dim(c: int, brightness: int) -> int:
    """Scale a colour by brightness 0-255 (255 keeps it, 0 turns it off)."""
    k = _c8(brightness)
    return (c >> 10 & 31) * k // 255 << 10 | (c >> 5 & 31) * k // 255 << 5 | (c & 31) * k // 255


def lighten(c: int, amount: int) -> int:
    """Move a colour toward white by amount 0-255 (255 gives WHITE)."""
    k = _c8(amount)
    r = c >> 10 & 31
    g = c >> 5 & 31
    b = c & 31
    return (
        (r + (31 - r) * k // 255) << 10 | (g + (31 - g) * k // 255) << 5 | (b + (31 - b) * k // 255)
    )

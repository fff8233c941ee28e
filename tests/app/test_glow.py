"""Tile art: the light a face shows on screen is the light its LED gives."""

from simulator.app.glow import to_rgb8

SCREEN_GAMMA = 2.2  # sRGB, roughly: 8-bit value v gives light in proportion to (v / 255) ** 2.2


def test_each_led_level_shows_its_share_of_full_light_on_screen():
    """An LED level L of 31 gives L/31 of full light. Written to the screen linearly, the dim
    levels Lost Gems uses (a discarded shard's 1 and 6, the face-down green's 7) would show a
    tenth to a sixth of that, and the discard pile would look almost off."""
    for level in range(32):
        r, g, b = to_rgb8(level << 10 | level << 5 | level)
        assert r == g == b
        assert abs((r / 255) ** SCREEN_GAMMA - level / 31) < 0.01, level


def test_channels_stay_apart():
    assert to_rgb8(31 << 10) == (255, 0, 0)
    assert to_rgb8(31 << 5) == (0, 255, 0)
    assert to_rgb8(31) == (0, 0, 255)
    assert to_rgb8(0) == (0, 0, 0)

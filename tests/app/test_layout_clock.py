"""Pure parts of the simulator app: hex geometry, the capped clock, tokens."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.app.app import table_for
from simulator.app.clock import STEP_MS, SimClock, format_clock
from simulator.app.layout import DIRECTIONS, HexLayout, Table, hex_distance
from simulator.app.panels import Tokens

SMALL_DEFAULT_BIG = ((1100, 700), (1280, 800), (1920, 1080))


@given(st.integers(-30, 30), st.integers(-30, 30), st.floats(10, 60))
def test_pixel_of_a_cell_converts_back_to_that_cell(q, r, size):
    layout = HexLayout(size, (400.0, 300.0))
    assert layout.to_hex(*layout.to_pixel(q, r)) == (q, r)


def test_points_inside_a_hexagon_round_to_it_and_neighbours_are_one_step_away():
    layout = HexLayout(30, (0, 0))
    x, y = layout.to_pixel(2, -1)
    for dx, dy in ((10, 0), (-10, 5), (0, 20), (-18, -12)):
        assert layout.to_hex(x + dx, y + dy) == (2, -1)
    for dq, dr in DIRECTIONS:
        assert hex_distance((2, -1), (2 + dq, -1 + dr)) == 1
        nx, ny = layout.to_pixel(2 + dq, -1 + dr)
        assert abs(((nx - x) ** 2 + (ny - y) ** 2) ** 0.5 - 30 * 3**0.5) < 1e-6


def test_directions_go_clockwise_on_screen_from_north():
    layout = HexLayout(30, (0, 0))
    angles = []
    import math

    for dq, dr in DIRECTIONS:
        x, y = layout.to_pixel(dq, dr)
        angles.append(round(math.degrees(math.atan2(y, x))) % 360)
    assert angles == [270, 330, 30, 90, 150, 210]


def test_table_areas_are_labelled_and_hands_are_at_bottom_and_top():
    table = Table(970, 800)
    names = [a.name for a in table.areas]
    assert sorted(names) == ["board", "discard", "hand_a", "hand_b", "jungle"]
    assert (
        table.area("hand_a").rect[1] > table.area("jungle").rect[1] > table.area("hand_b").rect[1]
    )
    q, r = table.centre_cell("jungle")
    assert table.area_of_cell(q, r).name == "jungle"


def test_tiles_grow_and_shrink_with_the_window():
    small, default, big = (table_for(size).layout.size for size in SMALL_DEFAULT_BIG)
    assert small < default < big
    assert table_for((1920, 1080)).width > table_for((1280, 800)).width


def test_clock_caps_a_lagging_frame_and_scales_with_speed():
    clock = SimClock()
    assert clock.frame(16) == 16
    assert clock.frame(5000) == 50  # a 5 s stall runs only 50 ms: time never jumps
    clock.set_speed(16)
    assert clock.frame(10) == 160
    assert clock.frame(5000) == 800


def test_clock_carries_fractions_so_sixty_frames_make_a_second():
    clock = SimClock()
    assert sum(clock.frame(1000 / 60) for _ in range(60)) in (999, 1000)


def test_pause_and_single_step():
    clock = SimClock()
    clock.toggle_pause()
    assert clock.frame(16) == 0
    clock.step()
    clock.step()
    assert clock.frame(16) == 2 * STEP_MS
    assert clock.frame(16) == 0
    clock.toggle_pause()
    assert clock.frame(16) == 16


def test_speed_cycles_and_rejects_unknown_speeds():
    clock = SimClock()
    seen = []
    for _ in range(3):
        clock.cycle_speed()
        seen.append(clock.speed)
    assert seen == [4, 16, 1]
    with pytest.raises(ValueError):
        clock.set_speed(3)


def test_clock_display():
    assert format_clock(0) == "0:00.0"
    assert format_clock(61_250) == "1:01.2"


def test_token_coins_flip():
    tokens = Tokens()
    tokens.flip_hint(0)  # an available coin: spend one
    assert tokens.hints == 2
    tokens.flip_hint(2)  # the spent coin: available again
    assert tokens.hints == 3
    tokens.flip_error(1)
    assert tokens.errors == 1


@pytest.mark.parametrize("size", SMALL_DEFAULT_BIG)
@pytest.mark.parametrize("tiles", [1, 18, 30, 45, 60])
def test_the_starting_cluster_lies_inside_the_jungle_under_its_label(size, tiles):
    from simulator.app.world_setup import starting_layout

    table = table_for(size, tiles)
    x0, y0, w, h = table.area("jungle").rect
    s = table.layout.size
    for q, r, _ in starting_layout(table, tiles):
        x, y = table.layout.to_pixel(q, r)
        corners = table.layout.corners(x, y)
        assert all(x0 <= cx <= x0 + w and y0 + table.label_px <= cy <= y0 + h for cx, cy in corners)
        assert table.on_table(q, r)
    if tiles <= 18:  # only a large cluster makes the tiles smaller than the window's
        assert s == table_for(size).layout.size


def test_the_side_panel_and_its_text_grow_with_a_big_window_only():
    from simulator.app.app import panel_width, ui_scale

    assert ui_scale((1100, 700)) == ui_scale((1280, 800)) == 1.0
    assert ui_scale((1920, 1080)) == 1.35
    assert panel_width((1920, 1080)) > panel_width((1280, 800)) == 310

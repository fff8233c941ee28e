"""Gem Match on simulated tiles, as stories: a deal, drawing and turning tokens over, starting
the field, a placement lighting a group across two tiles, taking tokens to heap and hand, a
group of three by an improved token's twin, rotation, a click outside a group, a reset."""

from gm_story import deal, draw, info, lit, put, start_field, state, table, tile_with

HANDS = [(-20, 20), (-18, 19), (-16, 18), (-14, 17)]


def test_a_deal_puts_every_token_face_down_in_the_pile():
    w = table()
    deal(w)
    kinds = sorted(info(w, t)["token"] for t in w.tiles)
    assert kinds == sorted(f"T{k}" for k in range(1, 10) for _ in range(3))
    assert {info(w, t)["show"] for t in w.tiles} == {"pile"}


def test_drawing_shows_the_basic_side_and_a_double_click_turns_it_over():
    w = table()
    deal(w)
    t = tile_with(w, "T8")
    draw(w, t, HANDS[0])
    assert (state(w, t), info(w, t)["side"], info(w, t)["gems"]) == ("hand", "basic", "YBYBYB")
    w.double_click(t)
    assert (info(w, t)["side"], info(w, t)["gems"]) == ("improved", "RRYBYB")


def test_two_gems_alike_across_two_tiles_light_and_a_click_takes_a_token_to_the_heap():
    w = table()
    deal(w)
    t1, t7 = tile_with(w, "T1"), tile_with(w, "T7")
    draw(w, t1, HANDS[0])
    draw(w, t7, HANDS[1])
    start_field(w, t1, rotation=0)
    put(w, t7, (0, -1), rotation=0)  # G on R: nothing lights
    assert lit(w, t1) == [0] * 6 and lit(w, t7) == [0] * 6
    w.lift(t7)
    w.advance(2000)
    assert state(w, t7) == "field"  # lifted off the field untaken: still a field token
    w.place(t7, *HANDS[1])
    w.advance(500)
    put(w, t7, (0, -1), rotation=1)  # its face 2 (R) turned south, on T1's north R
    assert lit(w, t1) == [2, 0, 0, 0, 0, 0] and lit(w, t7) == [0, 0, 2, 0, 0, 0]
    w.click(t1)
    assert state(w, t1) == "taken" and lit(w, t7) == [0, 0, 2, 0, 0, 0]  # lit until lifted
    w.lift(t1)
    w.advance(2000)
    assert state(w, t1) == "heap" and lit(w, t7) == [0] * 6


def test_an_improved_twin_makes_a_group_of_three_and_a_double_click_takes_it_to_the_hand():
    w = table()
    deal(w)
    t1, t8 = tile_with(w, "T1"), tile_with(w, "T8")
    draw(w, t1, HANDS[0])
    draw(w, t8, HANDS[1], side="improved")
    start_field(w, t1, rotation=2)  # T1's R faces point north, south-east, south-west
    put(w, t8, (0, -1), rotation=3)  # RR (faces 0, 1) turned to south and south-west
    assert lit(w, t8)[:2] == [3, 3] and sum(1 for x in lit(w, t1) if x) == 1
    w.double_click(t8)
    assert state(w, t8) == "taken" and info(w, t8)["to_hand"]
    w.lift(t8)
    w.advance(2000)
    assert state(w, t8) == "hand" and info(w, t8)["side"] == "improved"


def test_a_click_on_a_field_tile_in_no_group_is_refused():
    w = table()
    deal(w)
    t1 = tile_with(w, "T1")
    draw(w, t1, HANDS[0])
    start_field(w, t1)
    w.click(t1)
    assert state(w, t1) == "field" and info(w, t1)["show"] == "refused"


def test_a_hold_on_a_field_tile_never_deals_and_a_groups_tile_shows_its_other_side():
    w = table()
    deal(w)
    t1, t7 = tile_with(w, "T1"), tile_with(w, "T7")
    draw(w, t1, HANDS[0])
    draw(w, t7, HANDS[1])
    start_field(w, t1)
    put(w, t7, (0, -1), rotation=1)
    w.press(t7)
    w.advance(2500)
    assert info(w, t7)["show"] == "other side"
    w.advance(5000)
    w.release(t7)
    w.advance(500)
    assert state(w, t7) == "field" and info(w, t7)["deal"]["phase"] == info(w, t1)["deal"]["phase"]


def test_a_field_tile_reset_comes_back_on_the_field_with_its_group():
    w = table()
    deal(w)
    t1, t7 = tile_with(w, "T1"), tile_with(w, "T7")
    draw(w, t1, HANDS[0])
    draw(w, t7, HANDS[1], side="improved")
    start_field(w, t1)
    put(w, t7, (0, -1), rotation=0)  # CCRGRG: face 3 (G) south, on T1's R: nothing
    w.reset_tile(t7)
    w.advance(1500)
    assert (state(w, t7), info(w, t7)["side"]) == ("field", "improved")


def test_a_twin_between_two_gems_alike_lights_a_group_of_four_on_three_tiles():
    w = table()
    deal(w)
    t1, t7, t8 = tile_with(w, "T1"), tile_with(w, "T7"), tile_with(w, "T8")
    draw(w, t1, HANDS[0])
    draw(w, t7, HANDS[1])
    draw(w, t8, HANDS[2], side="improved")
    start_field(w, t1)  # R north
    put(w, t7, (-1, 0), rotation=1)  # R north-east, toward the cell north of T1
    put(w, t8, (0, -1), rotation=3)  # RR south and south-west: between the two R
    assert lit(w, t8) == [4, 4, 0, 0, 0, 0]
    assert lit(w, t1) == [4, 0, 0, 0, 0, 0] and lit(w, t7) == [4, 0, 0, 0, 0, 0]

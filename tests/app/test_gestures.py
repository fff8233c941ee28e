"""Mouse gestures on the table do what a playtester's hands do to real tiles."""

import pygame
from sim_hands import Hands, edge_tile, lone_cell

from simulator.app.app import BACK
from simulator.app.layout import Table, hex_distance
from simulator.world.grid import DIRECTIONS, face_toward


def test_hold_deals_then_a_double_click_in_hand_reveals_and_view_as_hides_it(make_app):
    app = make_app()
    hands = Hands(app)
    hands.deal()
    tid = edge_tile(app)
    q, r = lone_cell(app, "hand_a")
    hands.drag(hands.at(tid), hands.cell(q, r))
    assert app.world.position(tid)[:2] == (q, r)
    assert app.world.neighbours(tid) == {}
    face_down = app.world.leds(tid)
    hands.clicks(tid, 2)
    info = app.world.inspect(tid)
    assert info["state"] == "revealed"
    assert app.world.leds(tid) != face_down
    jungle_tile = edge_tile(app)
    app.view_as = "A"  # A must not see A's own revealed shard, nor any face-down shard
    assert app.hidden(tid) and app.shown_leds(tid) == list(BACK)
    assert app.piece_shown(tid) == "hidden" and app.piece_shown(jungle_tile) == "hidden"
    app.view_as = "B"
    assert not app.hidden(tid) and app.shown_leds(tid) == app.world.leds(tid)
    assert app.piece_shown(tid) == info["shard"] and app.piece_shown(jungle_tile) == "hidden"
    app.view_as = None
    assert app.piece_shown(jungle_tile) == app.world.inspect(jungle_tile)["shard"]
    hands.clicks(tid, 2)  # a double-click again turns it back face down
    assert app.world.inspect(tid)["state"] == "face down"


def test_viewing_as_a_a_carried_shard_from_a_hand_stays_hidden(make_app):
    app = make_app()
    hands = Hands(app)
    hands.deal()
    tid = edge_tile(app)
    hands.drag(hands.at(tid), hands.cell(*lone_cell(app, "hand_a")))
    hands.clicks(tid, 2)
    app.view_as = "A"
    start = hands.at(tid)
    hands.down(start, button=3)  # A picks up their own revealed shard...
    hands.move((start[0], start[1] - 4 * round(app.table.layout.size)))
    assert app.world.position(tid) is None  # ...and carries it over the table
    assert app.hidden(tid) and app.shown_leds(tid) == list(BACK)
    assert app.piece_shown(tid) == "hidden"
    hands.up(start, button=3)
    assert app.area_name(tid) == "hand_a" and app.hidden(tid)  # put back in the hand


def test_right_drag_joins_a_tile_with_the_facing_faces_paired(make_app):
    app = make_app(tiles=3, game="lostgems")  # its table: gem board, discard, hands
    hands = Hands(app)
    world = app.world
    a, b, c = world.tiles
    # Spread the three tiles out: a stays, b and c go far apart and alone.
    qa, ra, _ = world.position(a)
    free = lone_cell(app, "board")
    hands.drag(hands.at(b), hands.cell(*free))
    free2 = lone_cell(app, "discard")
    hands.drag(hands.at(c), hands.cell(*free2))
    assert world.neighbours(a) == {}
    # Rotate b twice with the wheel, then carry it to the cell south-east of a.
    hands.move(hands.at(b))
    hands.event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False)
    hands.event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False)
    rot_b = world.position(b)[2]
    assert rot_b == 2
    d = 2  # south-east
    target = (qa + DIRECTIONS[d][0], ra + DIRECTIONS[d][1])
    hands.drag(hands.at(b), hands.cell(*target))
    assert world.position(b) == (target[0], target[1], rot_b)
    rot_a = world.position(a)[2]
    fa = face_toward(d, rot_a)
    fb = face_toward((d + 3) % 6, rot_b)
    assert world.neighbours(a) == {fa: (b, fb)}
    assert world.neighbours(b) == {fb: (a, fa)}
    hands.frames(600)  # the link comes up on exactly those faces
    assert [not e for e in world.inspect(b)["expired"]] == [f == fb for f in range(6)]


def test_shift_right_drag_carries_the_whole_cluster_and_keeps_its_shape(make_app):
    app = make_app(tiles=7, game="lostgems")  # its table: gem board, discard, hands
    hands = Hands(app)
    world = app.world
    before = {t: world.position(t) for t in world.tiles}
    pairs = {t: world.neighbours(t) for t in world.tiles}
    q, r = app.table.centre_cell("board")  # room all round for the cluster
    grabbed = 0
    hands.drag(hands.at(grabbed), hands.cell(q, r), button=3, mod=pygame.KMOD_SHIFT)
    dq, dr = q - before[grabbed][0], r - before[grabbed][1]
    assert (dq, dr) != (0, 0)
    for t in world.tiles:
        assert world.position(t) == (before[t][0] + dq, before[t][1] + dr, before[t][2])
        assert world.neighbours(t) == pairs[t]


def test_drop_on_an_occupied_cell_snaps_to_the_nearest_free_one(make_app):
    app = make_app(tiles=7, game="lostgems")  # its table: gem board, discard, hands
    hands = Hands(app)
    world = app.world
    centre_tile = world.tile_at(*world.position(0)[:2])
    q, r = lone_cell(app, "board")
    hands.drag(hands.at(3), hands.cell(q, r))
    hands.drag(hands.at(3), hands.at(centre_tile))  # onto a taken cell
    q3, r3, _ = world.position(3)
    assert world.tile_at(q3, r3) == 3 and (q3, r3) != world.position(centre_tile)[:2]
    assert world.neighbours(3)  # it snapped next to the cluster, so it joined it


def test_a_tile_dropped_on_an_area_label_moves_off_it(make_app):
    app = make_app(tiles=7, game="lostgems")  # its table: gem board, discard, hands
    hands = Hands(app)
    world = app.world
    table = app.table
    for name in ("board", "hand_b", "discard", "jungle"):
        area = table.area(name)
        x0, y0, _, _ = area.rect
        label = (x0 + 40, y0 + 14)  # on the label's text
        assert table.layout.to_hex(*label) != world.position(3)[:2]
        hands.drag(hands.at(3), label)
        q, r, _ = world.position(3)
        x, y = table.layout.to_pixel(q, r)
        for other in table.areas:
            assert not table.hexagon_meets(x, y, other.label_strip()), (name, other.name)
        assert table.area_of_cell(q, r) is area  # it lands in the area whose label it was on
        assert hex_distance((q, r), table.layout.to_hex(*label)) <= 2  # just below the label


def test_hexagon_meets_a_rect_only_where_it_really_overlaps():
    # A flat-top hexagon of size 30 at (100, 100): flat top and bottom at y 100 -+ 25.98,
    # corners at x 70 and 130 on the centre's height, narrowing above and below.
    table = Table(970, 800)
    table.layout.size = 30.0
    assert table.hexagon_meets(100, 100, (0, 0, 200, 80))  # the strip reaches the flat top
    assert not table.hexagon_meets(100, 100, (0, 0, 200, 74))  # ... stops above it
    assert table.hexagon_meets(100, 100, (125, 95, 50, 10))  # near the east corner
    assert not table.hexagon_meets(100, 100, (131, 95, 50, 10))  # past it
    assert not table.hexagon_meets(100, 100, (125, 60, 50, 20))  # beside the sloping edge
    assert table.hexagon_meets(100, 100, (112, 60, 50, 20))  # over it


def test_knife_across_a_cluster_splits_it_and_the_parts_do_not_touch(make_app):
    app = make_app(tiles=7, game="demo")  # a hexagon: a centre and its ring
    hands = Hands(app)
    ops = app.ops
    assert len(ops.clusters()) == 1
    x, y = hands.at(0)
    size = app.table.layout.size
    hands.drag((x - 4 * size, y + 0.4 * size), (x + 4 * size, y + 0.4 * size), button=1)
    parts = ops.clusters()
    assert len(parts) == 2
    assert sorted(len(p) for p in parts) == [3, 4]
    for t in parts[0]:
        assert all(other not in parts[1] for other, _ in app.world.neighbours(t).values())


def test_a_left_press_is_the_tile_button_with_real_timing(make_app):
    app = make_app(tiles=1, game="demo")
    hands = Hands(app)
    world = app.world
    edges = []
    hal = world.hal(0)
    hands.down(hands.at(0))
    edges.extend(hal.edges)
    t_down = world.now
    hands.frames(2100)
    hands.up(hands.at(0))
    edges.extend(hal.edges)
    assert (t_down, True) in edges and (world.now, False) in edges


def test_keys_pause_step_speed_and_overlay(make_app):
    app = make_app(tiles=2, game="demo")
    hands = Hands(app)
    assert app.update(5000) == 50  # a window that froze for 5 s runs only 50 ms: no jump
    for key in (pygame.K_SPACE, pygame.K_s, pygame.K_d, pygame.K_v):
        hands.event(pygame.KEYDOWN, key=key, mod=0)
    assert app.clock.paused and app.clock.speed == 4 and app.overlay
    assert app.view_as is None  # the demo hides nothing in a hand from its holder: V is off
    now = app.world.now
    assert app.update(1000) == 0 and app.world.now == now
    hands.event(pygame.KEYDOWN, key=pygame.K_n, mod=0)
    assert app.update(16) == 10 and app.world.now == now + 10
    surface = pygame.Surface((app.width, app.height))
    app.hover = 0
    app.render(surface)  # overlay and inspector draw without error


def test_token_coins_are_clicked_on_the_panel(make_app):
    app = make_app(tiles=1, game="lostgems")  # its players keep hint and error tokens
    hands = Hands(app)
    app.render(pygame.Surface((app.width, app.height)))
    rect, _kind, _i = next(c for c in app.panel.coins if c[1] == "hint" and c[2] == 2)
    hands.down(rect.center)
    hands.up(rect.center)
    assert app.tokens.hints == 2


def test_v_views_the_table_as_each_player_in_a_game_with_hidden_hands(make_app):
    app = make_app(tiles=2, game="lostgems")
    hands = Hands(app)
    seen = []
    for _ in range(3):
        hands.event(pygame.KEYDOWN, key=pygame.K_v, mod=0)
        seen.append(app.view_as)
    assert seen == ["A", "B", None]

"""Record a session, replay it: the same LEDs at the same simulated times. And the CLI's checks."""

import json

import pygame
from sim_hands import Hands, edge_tile, lone_cell

from host_tools.cli import main as blinks


def play_a_little(app, hands, snapshots):
    """Deal, carry two shards to the hands, reveal one, rotate one, snapshotting the LEDs."""
    world = app.world

    def snap():
        snapshots.append((world.now, [world.leds(t) for t in world.tiles]))

    hands.deal()
    snap()
    a = edge_tile(app)
    hands.drag(hands.at(a), hands.cell(*lone_cell(app, "hand_a")))
    snap()
    b = edge_tile(app)
    hands.drag(hands.at(b), hands.cell(*lone_cell(app, "hand_b")))
    hands.clicks(a, 2)
    snap()
    hands.move(hands.at(b))
    hands.event(pygame.KEYDOWN, key=pygame.K_r, mod=0)
    hands.clicks(b, 2)
    hands.frames(1234)
    snap()
    return a, b


def test_a_replay_reproduces_the_recorded_run_exactly(make_app, tmp_path):
    path = str(tmp_path / "run.jsonl")
    app = make_app(seed=7, record=path)
    snapshots = []
    a, b = play_a_little(app, Hands(app), snapshots)
    assert app.world.inspect(a)["state"] == "revealed"
    end = app.world.now
    app.close()
    with open(path) as f:
        ops = [json.loads(line).get("op") for line in f][1:]
    assert {"press", "release", "lift", "place", "rotate", "end"} <= set(ops)

    again = make_app(replay=path)
    assert again.seed == 7 and again.replaying
    for t, leds in snapshots:  # frames of a different length than the original run
        while again.world.now < t:
            again.update(min(33.0, t - again.world.now))
        assert again.world.now == t
        assert [again.world.leds(tid) for tid in again.world.tiles] == leds
    again.advance(end - again.world.now)
    assert not again.replaying
    assert again.world.inspect(a)["state"] == "revealed"
    assert again.world.position(b) == app.world.position(b)


def test_replay_ignores_mouse_presses_until_it_is_over(make_app, tmp_path):
    path = str(tmp_path / "run.jsonl")
    app = make_app(tiles=2, game="demo", record=path)
    Hands(app).frames(500)
    app.close()
    again = make_app(replay=path)
    hands = Hands(again)
    hands.down(hands.at(0))
    assert again.gestures.pressed is None and not again.world.hal(0).edges


def test_screenshot_at_exit_is_a_real_picture(tmp_path):
    shot = tmp_path / "shot.png"
    assert blinks(["sim", "--run-for", "1.5", "--seed", "3", "--screenshot", str(shot)]) == 0
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1280, 800)
    colours = {tuple(image.get_at((x, y))) for x in range(0, 1280, 37) for y in range(0, 800, 23)}
    assert len(colours) > 10


def test_a_screenshot_is_a_png_whatever_its_name(tmp_path):
    for name in ("shot", "shot.out"):
        assert blinks(["sim", "--run-for", "0.1", "--screenshot", str(tmp_path / name)]) == 0
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")
    assert blinks(["sim", "--run-for", "0.1", "--screenshot", str(tmp_path / "shot.bmp")]) == 0
    assert (tmp_path / "shot.bmp").read_bytes().startswith(b"BM")


def test_cli_replay_runs_to_the_end_headless(tmp_path, capsys):
    rec = tmp_path / "r.jsonl"
    assert (
        blinks(["sim", "--game", "demo", "--tiles", "3", "--run-for", "0.5", "--record", str(rec)])
        == 0
    )
    lines = [json.loads(line) for line in rec.read_text().splitlines()]
    assert (
        lines[0]["kind"] == "blinks-sim"
        and lines[0]["game"] == "demo"
        and lines[-1] == {"op": "end", "t": 500}
    )
    assert blinks(["sim", "--replay", str(rec), "--screenshot", str(tmp_path / "s.png")]) == 0
    assert (tmp_path / "s.png").exists()


def test_bad_options_and_files_are_clear_errors(tmp_path, capsys):
    assert blinks(["sim", "--ir-loss", "1.5"]) == 2
    assert "--ir-loss" in capsys.readouterr().err
    assert blinks(["sim", "--tiles", "0"]) == 2
    capsys.readouterr()
    assert blinks(["sim", "--replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl: no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"kind": "blinks-sim", "version": 1, "seed": 0, "tiles": 1, "layout": [[0, 0, 0]]}\n'
        '{"t": 1, "op": "fly"}\n'
    )
    assert blinks(["sim", "--replay", str(bad)]) == 2
    assert "bad.jsonl:2: unknown op 'fly'" in capsys.readouterr().err
    assert blinks(["sim", "--game", "no_such_game"]) == 2
    capsys.readouterr()
    for seconds in ("inf", "nan", "-1"):  # a run that could never end, or no time at all
        assert blinks(["sim", "--run-for", seconds]) == 2
        assert capsys.readouterr().err == (
            f"blinks sim: --run-for takes simulated seconds, 0 or more, not {seconds}\n"
        )
    for option in ("--screenshot", "--record", "--replay", "--replay-log"):
        assert blinks(["sim", option, ""]) == 2  # not silently ignored
        assert capsys.readouterr().err == f"blinks sim: {option} needs a file name\n"


def test_a_recording_that_does_not_fit_the_table_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "edited.jsonl"
    head = {
        "kind": "blinks-sim",
        "version": 1,
        "game": "demo",
        "seed": 0,
        "tiles": 2,
        "ir_loss": 0.0,
        "layout": [[0, 0, 0], [1, 0, 0]],
    }
    lines = [
        head,
        {"t": 10, "op": "place", "tile": 0, "q": 1, "r": 0, "rot": 0},
        {"t": 20, "op": "end"},
    ]
    bad.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert blinks(["sim", "--replay", str(bad)]) == 2
    assert "cannot be replayed" in capsys.readouterr().err
    assert blinks(["sim", "--window", "800x600"]) == 2
    assert blinks(["sim", "--window", "big"]) == 2

"""`blinks sim --mpy N`: the first N tiles run as real MicroPython processes, badged, closed at exit."""

import pygame
from sim_hands import Hands

from host_tools.cli import main as blinks


def test_the_first_n_tiles_run_on_micropython_and_end_with_the_app(make_app):
    app = make_app(tiles=3, game="demo", mpy=2)
    Hands(app).frames(300)
    assert [bool(app.inspect(t).get("micropython")) for t in app.world.tiles] == [True, True, False]
    assert app.badge_micropython
    app.render(pygame.Surface((app.width, app.height)))
    processes = [app.world.runner(t)._process for t in (0, 1)]
    app.close()
    assert all(p.poll() is not None for p in processes)


def test_cli_mpy_runs_headless_and_checks_n(tmp_path, capsys):
    shot = tmp_path / "mpy.png"
    assert (
        blinks(
            [
                "sim",
                "--game",
                "demo",
                "--tiles",
                "3",
                "--mpy",
                "2",
                "--run-for",
                "0.5",
                "--screenshot",
                str(shot),
            ]
        )
        == 0
    )
    assert pygame.image.load(str(shot)).get_size() == (1280, 800)
    assert blinks(["sim", "--tiles", "3", "--mpy", "4"]) == 2
    assert "--mpy takes a number of tiles from 0 to 3" in capsys.readouterr().err
    assert blinks(["sim", "--mpy", "-1"]) == 2

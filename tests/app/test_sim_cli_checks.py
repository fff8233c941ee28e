"""`blinks sim` refuses what it cannot do, at once and in one line: no display to show a
window on, a window too large to draw, a negative seed, a screenshot or recording whose folder
is missing (the environment of these tests has the dummy driver; see conftest)."""

import os
import subprocess
import sys

import pytest

from host_tools.cli import main as blinks
from simulator.app.display import fallback_reason, no_display_reason

NO_DISPLAY = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
NO_DISPLAY.pop("SDL_VIDEODRIVER", None)


def sim(args, env):
    return subprocess.run(
        [sys.executable, "-m", "host_tools.cli", "sim", *args],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,  # a hang, as before, fails here instead of holding the suite
    )


@pytest.mark.skipif(sys.platform == "darwin" or os.name != "posix", reason="X11/Wayland desktops")
def test_with_no_display_sim_exits_2_saying_what_to_do():
    proc = sim([], NO_DISPLAY)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("blinks sim: cannot open a window: there is no display")
    assert "SDL_VIDEODRIVER=dummy" in proc.stderr and "--screenshot" in proc.stderr


@pytest.mark.skipif(sys.platform == "darwin" or os.name != "posix", reason="X11/Wayland desktops")
def test_a_display_sdl_cannot_reach_is_not_a_silent_offscreen_run():
    proc = sim(["--run-for", "1"], {**NO_DISPLAY, "DISPLAY": ":97"})  # no X server there
    assert proc.returncode == 2
    assert "cannot open a window" in proc.stderr


def test_the_display_checks_trust_a_chosen_driver_and_refuse_a_fallback():
    assert no_display_reason({"SDL_VIDEODRIVER": "dummy"}, "linux") is None
    assert no_display_reason({"DISPLAY": ":0"}, "linux") is None
    assert no_display_reason({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert "no display" in no_display_reason({}, "linux")
    assert fallback_reason("offscreen", {}) is not None
    assert fallback_reason("x11", {}) is None
    assert fallback_reason("dummy", {"SDL_VIDEODRIVER": "dummy"}) is None


@pytest.mark.parametrize("window", ["99999x99999", "20000x20000", "7681x800"])
def test_a_window_too_large_to_draw_is_refused_before_any_work(window, capsys):
    assert blinks(["sim", "--window", window]) == 2
    err = capsys.readouterr().err
    assert err == f"blinks sim: --window must be at most 7680x4320, not {window}\n"


def test_the_largest_window_opens(tmp_path, capsys):
    shot = tmp_path / "big.png"
    assert (
        blinks(["sim", "--window", "7680x4320", "--run-for", "0", "--screenshot", str(shot)]) == 0
    )
    assert shot.exists()


def test_a_negative_seed_is_refused_as_in_sessions_and_playtests(capsys):
    with pytest.raises(SystemExit) as stop:
        blinks(["sim", "--seed", "-1"])
    assert stop.value.code == 2
    assert "--seed: expected a whole number >= 0, got '-1'" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--screenshot", "--record"])
def test_an_output_file_in_a_missing_folder_is_refused_before_the_run(option, tmp_path, capsys):
    path = tmp_path / "missing" / "x.png"
    assert blinks(["sim", "--run-for", "5", option, str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"blinks sim: {option} {path}: there is no folder {path.parent}\n"

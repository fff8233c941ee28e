"""`blinks sim --game gemmatch --variant printed`: the printed game in the window, its picture
(the field, hands, scores, whose turn) on screen and in --screenshot; `--watch` puts the bot in
both seats."""

import pygame
import pytest

from host_tools.cli import main
from simulator.games.gemmatch import printed_png

RGB = {
    gem: tuple(int(code[i : i + 2], 16) for i in (1, 3, 5)) for gem, code in printed_png.RGB.items()
}
EMPTY = tuple(int(printed_png.EMPTY[i : i + 2], 16) for i in (1, 3, 5))


@pytest.fixture(autouse=True)
def no_display(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def square_colour(image, x, y, size=8):
    """The colour near the top-left corner of field square (x, y), as printed_png lays out a
    window of height h: a margin of 3 % of h, the field below the title (6 % of h more)."""
    w, h = image.get_size()
    margin = round(h * 0.03)
    top = margin + h * 0.06
    cell = min(h - top - margin, w * 0.56) / size
    return tuple(image.get_at((int(margin + (x + 0.2) * cell), int(top + (y + 0.2) * cell))))[:3]


@pytest.mark.parametrize("window", ["1100x700", "1920x1080"])
def test_the_screenshot_shows_the_field_as_the_bots_left_it(tmp_path, window):
    shot = tmp_path / "printed.png"
    args = ["sim", "--game", "gemmatch", "--variant", "printed", "--watch", "--seed", "23"]
    assert main([*args, "--run-for", "3.5", "--window", window, "--screenshot", str(shot)]) == 0
    image = pygame.image.load(str(shot))
    w, h = image.get_size()
    assert f"{w}x{h}" == window
    colours = {tuple(image.get_at((x, y))) for x in range(0, w, 37) for y in range(0, h, 23)}
    assert len(colours) > 10  # not blank
    # three moves in a second each: S17, L10 and J5's group of 4 Y (examples/gemmatch)
    assert square_colour(image, 1, 1) == RGB["Y"] and square_colour(image, 2, 2) == RGB["Y"]
    assert square_colour(image, 0, 2) == RGB["B"] and square_colour(image, 3, 0) == RGB["P"]
    assert square_colour(image, 6, 6) == EMPTY


def test_no_time_shows_the_deal_on_an_empty_field(tmp_path):
    shot = tmp_path / "deal.png"
    args = ["sim", "--game", "gemmatch", "--variant", "printed", "--field", "6"]
    assert main([*args, "--run-for", "0", "--screenshot", str(shot)]) == 0
    image = pygame.image.load(str(shot))
    assert all(square_colour(image, x, y, 6) == EMPTY for x in range(6) for y in range(6))


@pytest.mark.parametrize(
    "extra, said",
    [
        (["--variant", "hex"], "Gem Match's window shows the printed game"),
        (["--variant", "printed", "--field", "13"], "--field must be from 6 to 12"),
        (["--variant", "printed", "--tiles", "27"], "--tiles: the printed game has no tiles"),
        (["--variant", "printed", "--bot", "careful"], "no printed Gem Match bot called 'careful'"),
        (["--field", "8"], "--field is the printed Gem Match's"),
        (["--watch"], "--watch is the printed Gem Match's"),
    ],
)
def test_the_printed_window_refuses_what_it_cannot_do(extra, said, capsys):
    assert main(["sim", "--game", "gemmatch", "--run-for", "0", *extra]) == 2
    assert said in capsys.readouterr().err


def test_a_game_without_variants_refuses_one(capsys):
    assert main(["sim", "--game", "waterfall", "--variant", "printed"]) == 2
    assert "--variant: waterfall has no variants" in capsys.readouterr().err


def test_without_watch_the_bot_waits_for_you_in_seat_a(tmp_path):
    """Seed 23 deals A the first move: with nobody clicking, ten seconds leave the field empty."""
    shot = tmp_path / "yours.png"
    args = ["sim", "--game", "gemmatch", "--variant", "printed", "--seed", "23"]
    assert main([*args, "--run-for", "10", "--screenshot", str(shot)]) == 0
    image = pygame.image.load(str(shot))
    assert all(square_colour(image, x, y) == EMPTY for x in range(8) for y in range(8))


def test_the_window_shows_the_held_token_where_it_would_lie_and_a_click_places_it():
    from simulator.games.gemmatch.printed_play import Table
    from simulator.games.gemmatch.printed_sim import Window

    pygame.display.init()
    try:
        screen = pygame.display.set_mode((1100, 700))
        table = Table(23, 8, "greedy")
        window = Window(pygame, screen, table)
        window.draw()
        left, top = window.layout.hands[0][0][:2]
        window.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(left + 3, top + 3), button=1))
        assert table.slot == 1
        left, top, cell, _ = window.layout.field
        pointer = (int(left + 3.5 * cell), int(top + 3.5 * cell))
        window.handle(
            pygame.event.Event(pygame.MOUSEMOTION, pos=pointer, rel=(0, 0), buttons=(0, 0, 0))
        )
        window.draw()
        cells, fits = table.ghost((3, 3))
        assert fits
        for (x, y), _ in cells:  # shaded over the empty field, before any move
            spot = (int(left + (x + 0.2) * cell), int(top + (y + 0.2) * cell))
            assert tuple(screen.get_at(spot))[:3] != EMPTY
        window.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pointer, button=1))
        assert str(table.state.history[-1].move).startswith("place 1 at ")
        window.draw()
        for (x, y), gem in cells:  # now drawn by the picture, in the gems' own colours
            spot = (int(left + (x + 0.2) * cell), int(top + (y + 0.2) * cell))
            assert tuple(screen.get_at(spot))[:3] == RGB[gem]
    finally:
        pygame.display.quit()

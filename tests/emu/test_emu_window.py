"""`blinks emu --window`: emulated tiles on the simulator's table, played with its gestures.

The window is driven as a playtester's hand drives it (pygame events into SimApp, frames of
its clock), headless and in lockstep, so emulated time is the window's and every run is the
same. What the tiles do is read back from the emulator: the colours decoded from their pixel
pins and the lines on their serial ports.
"""

import os
import subprocess
import sys

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest
from emu_helpers import flashed_image
from games.lostgems import display, shards

from host_tools.emu.window import make_app
from simulator.app.display import save_screenshot
from simulator.mpy.build import build

FRAME_MS = 50  # the most a frame of the window's clock runs (simulator/app/clock.py)


@pytest.fixture
def window():
    """window(cluster) -> Hands on a SimApp over those emulated tiles (headless, lockstep)."""
    pygame.display.init()
    apps = []

    def make(cluster):
        app = make_app(cluster, lockstep=True)
        apps.append(app)
        return Hands(app)

    yield make
    for app in apps:
        app.close()
    pygame.display.quit()


class Hands:
    def __init__(self, app):
        self.app = app
        self.world = app.world

    def frames(self, ms):
        end = self.world.now + ms
        while self.world.now < end:
            self.app.update(min(FRAME_MS, end - self.world.now))

    def until(self, ready, limit_ms, what):
        waited = 0
        while not ready():
            assert waited < limit_ms, f"{what} not within {limit_ms} ms: {self.logs()}"
            self.frames(200)
            waited += 200

    def logs(self):
        return {t: self.world.logs(t)[-4:] for t in self.world.tiles}

    def at(self, tid):
        q, r, _ = self.world.position(tid)
        return self.cell(q, r)

    def cell(self, q, r):
        x, y = self.app.table.layout.to_pixel(q, r)
        return round(x), round(y)

    def event(self, kind, **fields):
        self.app.handle_event(pygame.event.Event(kind, **fields))

    def down(self, pos, button=1):
        self.event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        self.event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button, mod=0)

    def up(self, pos, button=1):
        self.event(pygame.MOUSEBUTTONUP, pos=pos, button=button)

    def hold(self, tid, ms):
        pos = self.at(tid)
        self.down(pos)
        self.frames(ms)
        self.up(pos)

    def drag(self, tid, cell):
        """Right-drag tile `tid` by its centre onto `cell` (q, r)."""
        start, end = self.at(tid), self.cell(*cell)
        self.down(start, button=3)
        for i in range(1, 5):
            pos = (start[0] + (end[0] - start[0]) * i // 4, start[1] + (end[1] - start[1]) * i // 4)
            self.event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 1))
            self.frames(20)
        self.up(end, button=3)


def test_lost_gems_dealt_on_emulated_tiles_by_holding_one_in_the_window(cluster, window, tmp_path):
    state = tmp_path / "table"
    flashed_image(build(), state, tiles=6)
    hands = window(cluster(6, state=state, shape="blob", mode="driven"))
    world = hands.world
    hands.until(lambda: all(world.inspect(t)["heap"] for t in world.tiles), 5000, "booted")
    assert all(world.leds(t) != [0] * 6 for t in world.tiles)  # breathing white: undealt
    assert all(world.inspect(t)["heap"]["free"] > 100_000 for t in world.tiles)
    tip = hands.app.controllers[0].hint()
    assert tip and tip.startswith("To deal: hold any tile")

    hands.hold(0, 6300)  # the left button held on tile 0 for 6.3 s of the window's clock
    hands.until(
        lambda: all(world.inspect(t).get("state") == "face down" for t in world.tiles),
        20000,
        "every tile face down",
    )
    hands.until(
        lambda: all(world.leds(t) == display.face_down() for t in world.tiles),
        2000,
        "every tile showing its back",
    )
    dealt = sorted(world.inspect(t)["shard"] for t in world.tiles)
    assert dealt == ["R1", "R1", "R1", "R2", "R2", "R3"]  # one colour, each shard once
    assert any("dealt size=6" in line for t in world.tiles for line in world.logs(t))
    assert [shards.name(shards.parse(s)) for s in dealt] == dealt

    surface = pygame.Surface((hands.app.width, hands.app.height))
    hands.app.hover = 0
    hands.app.render(surface)  # the panel: tile 0's state, shard, heap and log
    save_screenshot(surface, str(tmp_path / "dealt.png"))


def heard(world, tid):
    """The faces of a Demo tile that hear a neighbour: those glow at full brightness in the
    neighbour's hue; the others dimly (a quarter) in the tile's own."""
    colours = world.leds(tid)
    return {f for f, c in enumerate(colours) if max(c >> 10 & 31, c >> 5 & 31, c & 31) > 15}


def test_a_tile_dragged_away_is_alone_and_dropped_among_others_hears_each(
    cluster, window, tmp_path
):
    state = tmp_path / "table"
    flashed_image(build("games.demo:Demo"), state, tiles=6)
    hands = window(cluster(6, state=state, shape="blob", mode="driven"))
    world = hands.world
    # the blob: 0 in the middle, 1 south-west, 2 north-west, 3 north, 4 north-east, 5 south-east
    (q, r, _), s = world.position(0), hands.until
    s(lambda: heard(world, 0) == {0, 1, 2, 4, 5}, 5000, "the blob's links")
    assert heard(world, 3) == {2, 3, 4}

    hands.drag(3, (q + 5, r))  # far away: alone; its three neighbours lose a face each
    s(lambda: heard(world, 3) == set(), 2000, "tile 3 alone")
    s(lambda: heard(world, 0) == {1, 2, 4, 5}, 2000, "tile 0 without its north")
    assert heard(world, 2) == {2, 3} and heard(world, 4) == {3, 4}

    hands.drag(3, (q, r + 1))  # south of 0: touches 0 (north), 1 (north-west), 5 (north-east)
    assert world.position(3)[:2] == (q, r + 1)
    s(lambda: heard(world, 3) == {0, 1, 5}, 2000, "tile 3 among three")
    s(lambda: heard(world, 0) == {1, 2, 3, 4, 5}, 2000, "tile 0 hearing it on its south")
    assert 2 in heard(world, 1) and 4 in heard(world, 5)

    hands.event(pygame.MOUSEMOTION, pos=hands.at(3), rel=(0, 0), buttons=(0, 0, 0))
    hands.event(pygame.KEYDOWN, key=pygame.K_r, mod=0)  # turned a step: face f looks along f+1
    s(lambda: heard(world, 3) == {0, 4, 5}, 2000, "tile 3 turned")
    assert heard(world, 0) == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("driver", ["dummy", "offscreen"])  # headless (lockstep); watched (paced)
def test_blinks_emu_window_prints_the_ports_and_saves_a_screenshot(driver, rp2_images, tmp_path):
    shot = tmp_path / "shot.png"
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools.cli", "emu", "--tiles", "2", "--window"]
        + ["--run-for", "1", "--screenshot", str(shot), "--state", str(tmp_path / "emu")],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, SDL_VIDEODRIVER=driver),
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"PORT {i} {tmp_path / 'emu'}/tty{i}" for i in range(2)]
    assert "blinks flash --all" in proc.stderr
    assert pygame.image.load(str(shot)).get_size() == (1280, 800)
    assert not any(p.name.startswith("tty") for p in (tmp_path / "emu").iterdir())  # cleaned up


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--run-for", "3"], "--run-for goes with --window"),
        (["--screenshot", "x.png"], "--screenshot goes with --window"),
        (["--window", "--table", "nosuch"], "--table must be one of demo, "),
        (["--window", "--run-for", "-1"], "--run-for takes emulated seconds"),
        (["--window", "--screenshot", "no/such/folder/x.png"], "there is no folder no/such/folder"),
    ],
)
def test_the_window_s_options_are_checked_before_anything_starts(argv, said, capsys):
    from host_tools.cli import main

    assert main(["emu", "--tiles", "2", *argv]) == 2
    assert said in capsys.readouterr().err


@pytest.mark.long
def test_blinks_emu_window_game_flashes_and_deals_in_one_command(rp2_images, tmp_path):
    """`blinks emu --window --game lostgems`: tiles that hold the game and are dealt, with no
    other terminal and no flash to wait for (they start from `blinks uf2`'s file)."""
    shot = tmp_path / "dealt.png"
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools.cli", "emu", "--window", "--game", "lostgems"]
        + ["--run-for", "12", "--screenshot", str(shot)],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, SDL_VIDEODRIVER="dummy"),
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) == 6  # PORT lines: six tiles by default
    assert "they hold lostgems, dealt by a 6 s hold on tile 0" in proc.stderr
    picture = pygame.image.load(str(shot))
    # face-down tiles glow green; undealt ones breathe white: count clearly green pixels
    width, height = picture.get_size()
    pixels = (picture.get_at((x, y)) for x in range(0, width, 2) for y in range(0, height, 2))
    green = sum(1 for p in pixels if p.g > 120 and p.g > 2 * p.r and p.g > 2 * p.b)
    assert green > 300, green

"""Render speed of the simulator window: `render_fps`, frames per second drawing 18 Lost Gems
tiles with their LED glows, the table and the side panel (dummy video driver, software
rendering). Goal: >= 120 (a 60 fps window with room to spare for the world).

The tiles are captured mid-deal-animation and while breathing, so glow colours change from frame
to frame (tinted masks are cached by colour, which is the point being measured).
"""

import os
import time

# {figure: (what it measures, goal)}: docs/benchmarks.md's rows (bench/run.py checks every key).
FIGURES = {
    "render_fps": (
        "Frames per second drawing 18 tiles with glows, table and panel (dummy video driver).",
        "≥ 120",
    ),
}


def run(quick: bool) -> dict:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import argparse

    import pygame

    from simulator.app import cli

    pygame.display.init()
    pygame.font.init()
    args = argparse.Namespace(
        tiles=18, seed=1, game=None, ir_loss=0.0, speed=1, record=None, replay=None
    )
    app = cli.make_app(args)
    screen = pygame.display.set_mode((app.width, app.height))
    app.hover = app.world.tiles[0]
    app.update(1000)  # warm up: tiles running, caches filled for the first colours
    frames = 120 if quick else 600
    draw_time = 0.0
    for i in range(frames):
        app.advance(17)  # the world's share of a frame is not counted, only drawing
        t0 = time.perf_counter()
        app.render(screen)
        pygame.display.flip()
        draw_time += time.perf_counter() - t0
    pygame.quit()
    return {"render_fps": round(frames / draw_time, 1)}


if __name__ == "__main__":
    print(run(quick=True))

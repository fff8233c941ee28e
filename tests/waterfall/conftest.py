"""The Waterfall tests import their helpers by name (this folder on sys.path), and share a
fixture: a headless window with a bot game (SDL dummy driver)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def make_app():
    """make(**options) -> a SimApp of `blinks sim --game waterfall --bot greedy` (app_args)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    import pygame
    from test_wf_sim_bot import app_args

    from simulator.app import cli

    pygame.display.init()
    apps = []

    def make(**kw):
        app = cli.make_app(app_args(**kw))
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()
    pygame.display.quit()

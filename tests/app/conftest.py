"""Fixtures for the app tests: a headless SimApp factory (SDL dummy driver)."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest
from sim_hands import app_args


@pytest.fixture
def make_app():
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

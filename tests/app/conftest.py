"""Fixtures for the app tests: a headless SimApp factory (SDL dummy driver)."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest
from bot_window import app_maker
from sim_hands import app_args


@pytest.fixture
def make_app():
    yield from app_maker(app_args)

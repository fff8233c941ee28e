"""The Waterfall tests import their helpers by name (this folder on sys.path), and share a
fixture: a headless window with a bot game (SDL dummy driver)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def make_app():
    """make(**options) -> a SimApp of `blinks sim --game waterfall --bot greedy` (app_args)."""
    from bot_window import app_maker
    from test_wf_sim_bot import app_args

    yield from app_maker(app_args)

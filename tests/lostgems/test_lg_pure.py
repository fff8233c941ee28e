"""The pure unit checks under CPython (the same file runs under MicroPython, see test_micropython)."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lg_checks

CHECKS = sorted(n for n in dir(lg_checks) if n.startswith("check_"))


@pytest.mark.parametrize("name", CHECKS)
def test_check(name):
    getattr(lg_checks, name)()

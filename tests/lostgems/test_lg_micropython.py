"""The firmware imports and its unit checks pass on the real MicroPython unix port."""

import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MICROPYTHON = shutil.which("micropython")


@pytest.mark.skipif(MICROPYTHON is None, reason="the micropython command is not installed")
def test_unit_checks_pass_on_micropython():
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware") + ":" + HERE)
    out = subprocess.run(
        [MICROPYTHON, os.path.join(HERE, "lg_checks.py")],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    with open(os.path.join(HERE, "lg_checks.py")) as f:
        checks = sum(1 for line in f if line.startswith("def check_"))
    assert out.stdout.strip() == f"ok {checks}"

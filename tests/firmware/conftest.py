"""The runtime's unit tests on CPython keep their files in the test's own temporary folder."""

import pytest


@pytest.fixture(autouse=True)
def _rt_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("BLINKS_RT_TMP", str(tmp_path))

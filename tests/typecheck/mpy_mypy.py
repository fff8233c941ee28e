"""Run mypy on firmware code against MicroPython's stubs instead of CPython's.

The stub packages install into site-packages: micropython-stdlib-stubs as `stdlib/` (a typeshed
replacement, with `_mpy_shed/`), micropython-rp2-stubs as top-level `.pyi` files (machine,
rp2, neopixel ...). mypy refuses site-packages on its search path, so this builds a small tree of
symlinks: a custom typeshed (stdlib/, stubs/) and a stub directory with only the rp2 board's
modules. Errors inside the stubs themselves are not ours and are silenced per module.
"""

import glob
import os
import sysconfig

from mypy import api

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")


def site_packages():
    return sysconfig.get_paths()["purelib"]


def rp2_stub_names(sp):
    """Top-level names (files and packages) the rp2 stubs installed, from their RECORD."""
    records = glob.glob(os.path.join(sp, "micropython_rp2_stubs-*.dist-info", "RECORD"))
    if not records:
        raise RuntimeError("micropython-rp2-stubs is not installed (pip install -e '.[test]')")
    names = set()
    with open(records[0]) as f:
        for line in f:
            path = line.split(",", 1)[0]
            if path.endswith(".pyi"):
                names.add(path.split("/", 1)[0])
    return sorted(names | {"_mpy_shed"})


def stub_tree(workdir):
    """(typeshed_dir, stubs_dir, stub module names) under workdir."""
    sp = site_packages()
    typeshed = os.path.join(workdir, "typeshed")
    stubs = os.path.join(workdir, "stubs")
    os.makedirs(typeshed, exist_ok=True)
    os.makedirs(stubs, exist_ok=True)
    for name in ("stdlib", "stubs"):
        link = os.path.join(typeshed, name)
        if not os.path.lexists(link):
            os.symlink(os.path.join(sp, name), link)
    names = rp2_stub_names(sp)
    for name in names:
        link = os.path.join(stubs, name)
        if not os.path.lexists(link):
            os.symlink(os.path.join(sp, name), link)
    modules = sorted({n.removesuffix(".pyi") for n in names})
    return typeshed, stubs, modules


def write_config(workdir, firmware_dir, quiet_packages=()):
    """A mypy config for checking `firmware_dir` as it runs on an rp2 board."""
    typeshed, stubs, modules = stub_tree(workdir)
    lines = [
        "[mypy]",
        f"custom_typeshed_dir = {typeshed}",
        f"mypy_path = {stubs}:{firmware_dir}",
        "no_site_packages = True",
        "explicit_package_bases = True",
        "check_untyped_defs = True",  # our firmware has few annotations: check every body
        "warn_unused_ignores = True",
        f"cache_dir = {os.path.join(workdir, 'cache')}",
        "",
    ]
    # the stubs' own inconsistencies are not our errors
    patterns = ",".join(f"{m},{m}.*" for m in modules)
    lines += [f"[mypy-{patterns}]", "ignore_errors = True", ""]
    if quiet_packages:  # followed for their types, their errors reported by another check
        lines += [
            "[mypy-" + ",".join(f"{p},{p}.*" for p in quiet_packages) + "]",
            "follow_imports = silent",
            "",
        ]
    text = "\n".join(lines)
    path = os.path.join(workdir, "mypy-firmware.ini")
    with open(path, "w") as f:
        f.write(text)
    return path


def check(paths, workdir, firmware_dir=FIRMWARE, quiet_packages=()):
    """Run mypy on `paths`: (exit status, report text)."""
    config = write_config(workdir, firmware_dir, quiet_packages)
    stdout, stderr, status = api.run(["--config-file", config, *paths])
    return status, stdout + stderr

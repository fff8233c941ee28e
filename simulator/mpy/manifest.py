"""Read a firmware tree's manifest.py: the list of modules that go on a tile.

The manifest is written in MicroPython's own manifest format (docs: reference/manifest), so one
file does two jobs: `blinks flash` sends what it lists, and a firmware builder can freeze the
same modules into a MicroPython image (FROZEN_MANIFEST). This reader runs a manifest the way
MicroPython's compile mode does: `metadata()`, `package()`, `module()` and `include()` (with its
`options`), paths relative to the manifest being run. What a flash over USB cannot do, fetching
`require()`d micropython-lib packages, C modules, `freeze()`, fails with a message that names
the manifest's file and line and says what to do instead.
"""

import os
import traceback

MANIFEST = "manifest.py"
PATH_VARIABLES = ("$(MPY_DIR)", "$(MPY_LIB_DIR)", "$(PORT_DIR)", "$(BOARD_DIR)")


class ManifestError(Exception):
    """A manifest that cannot be read; the message starts `FILE:LINE:` where there is a line."""


class Options:
    """The `options` a manifest sees: include()'s keyword arguments, else its defaults()."""

    def __init__(self, **given):
        self._given = given
        self._defaults = {}

    def defaults(self, **defaults):
        self._defaults = defaults

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._given.get(name, self._defaults.get(name))


class Manifest:
    """The modules a manifest lists: `files` maps a path on the tile (e.g. `runtime/tile.py`)
    to the source file on this machine; `opt` maps a path to the mpy-cross optimisation level
    its package() or module() asked for (-O0..-O3), where one did; `metadata` is the top
    manifest's metadata() call."""

    def __init__(self):
        self.files = {}
        self.opt = {}
        self.metadata = {}


def read_manifest(path):
    """Run the manifest at `path` (a file, or a directory holding manifest.py)."""
    manifest = Manifest()
    _Reader(manifest).include(path)
    return manifest


class _Reader:
    def __init__(self, manifest):
        self.manifest = manifest
        self.visited = set()
        self.here = [os.getcwd()]  # the directory of the manifest being run, innermost last
        self.metadata_given = []  # per manifest being run: has it called metadata()?

    # --- the functions a manifest calls ----------------------------------------------------
    def include(self, manifest_path, **options):
        """Run another manifest (a path, a directory holding manifest.py, or several)."""
        if not isinstance(manifest_path, str):
            for one in manifest_path:
                self.include(one, **options)
            return
        path = self._resolve(manifest_path)
        if os.path.isdir(path):
            path = os.path.join(path, MANIFEST)
        if path in self.visited:
            return
        self.visited.add(path)
        try:
            with open(path) as f:
                source = f.read()
        except OSError as exc:
            problem = f"cannot read manifest {path}: {exc.strerror}"
            if len(self.here) > 1:  # include()d: the including manifest's line is named
                raise ValueError(problem) from None
            raise ManifestError(problem) from None
        try:
            code = compile(source, path, "exec")
        except SyntaxError as exc:
            raise ManifestError(f"{path}:{exc.lineno}: {exc.msg}") from None
        self.here.append(os.path.dirname(path))
        self.metadata_given.append(False)
        try:
            exec(code, self._globals(options))  # noqa: S102  a manifest is a Python program
        except ManifestError:
            raise
        except Exception as exc:  # noqa: BLE001  any mistake in the manifest: name its line
            raise ManifestError(f"{_where(path, exc)}: {_reason(exc)}") from None
        finally:
            self.here.pop()
            self.metadata_given.pop()

    def metadata(self, **fields):
        if fields:
            if self.metadata_given[-1]:
                raise ValueError("metadata() is called twice")
            self.metadata_given[-1] = True
            if len(self.here) == 2:  # the top manifest's own (here[0] is the caller's cwd)
                self.manifest.metadata = dict(fields)
        return dict(self.manifest.metadata)

    def package(self, package_path, files=None, base_path=".", opt=None):
        """Every .py file under base_path/package_path (or just `files`, relative to it), kept
        at package_path/... on the tile."""
        base = self._resolve(base_path)
        if files is not None:
            for name in files:
                self._add(os.path.join(package_path, name), base, opt)
            return
        top = os.path.join(base, package_path)
        if not os.path.isdir(top):
            raise ValueError(f"no package directory {top}")
        found = []
        for dirpath, dirnames, filenames in os.walk(top, followlinks=True):
            dirnames.sort()
            for name in filenames:
                if name.endswith(".py"):
                    found.append(os.path.relpath(os.path.join(dirpath, name), base))
        for target in sorted(found):
            self._add(target, base, opt)

    def module(self, module_path, base_path=".", opt=None):
        """One .py file, kept at module_path on the tile."""
        if not module_path.endswith(".py"):
            raise ValueError(f"module({module_path!r}): a module must be a .py file")
        self._add(module_path, self._resolve(base_path), opt)

    def require(self, name, *args, **kwargs):
        raise ValueError(
            f"require({name!r}): blinks flash does not fetch micropython-lib packages; install "
            f"it on the tiles with `mpremote mip install {name}`, or put its files in the "
            "firmware tree and list them with package() or module()"
        )

    def add_library(self, *args, **kwargs):
        raise ValueError("add_library() serves require(), which blinks flash does not do")

    def c_module(self, *args, **kwargs):
        raise ValueError("c_module(): C modules need a MicroPython firmware build, not a flash")

    def freeze(self, *args, **kwargs):
        raise ValueError(
            "freeze() belongs in a MicroPython firmware build's manifest (FROZEN_MANIFEST); "
            "here list the modules with package() or module()"
        )

    # --- helpers ---------------------------------------------------------------------------
    def _globals(self, options):
        return {
            "metadata": self.metadata,
            "include": self.include,
            "require": self.require,
            "add_library": self.add_library,
            "package": self.package,
            "module": self.module,
            "c_module": self.c_module,
            "freeze": self.freeze,
            "freeze_as_str": self.freeze,
            "freeze_as_mpy": self.freeze,
            "freeze_mpy": self.freeze,
            "options": Options(**options),
        }

    def _resolve(self, path):
        for variable in PATH_VARIABLES:
            if variable in path:
                raise ValueError(
                    f"{variable} in {path!r} means something only in a MicroPython firmware build"
                )
        return os.path.normpath(os.path.join(self.here[-1], path))

    def _add(self, target, base, opt=None):
        target = os.path.normpath(target).replace(os.sep, "/")
        if target.startswith("../") or os.path.isabs(target):
            raise ValueError(f"{target}: a file on the tile must stay inside the firmware")
        source = os.path.join(base, target)
        if not target.endswith(".py"):
            raise ValueError(f"{target}: only .py files can be listed")
        if not os.path.isfile(source):
            raise ValueError(f"no file {source}")
        known = self.manifest.files.get(target)
        if known is not None and os.path.realpath(known) != os.path.realpath(source):
            raise ValueError(f"{target} is listed twice, from {known} and {source}")
        if opt is not None and opt not in (0, 1, 2, 3):
            raise ValueError(f"opt={opt!r}: mpy-cross optimisation levels are 0 to 3")
        self.manifest.files[target] = source
        if opt is not None:
            self.manifest.opt[target] = opt


def _where(path, exc):
    """`FILE:LINE` of the innermost line of a manifest that raised `exc`."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename == path:
            return f"{path}:{frame.lineno}"
    return path


def _reason(exc):
    if isinstance(exc, NameError):
        return f"{exc} (a manifest can call metadata, package, module and include)"
    return str(exc)

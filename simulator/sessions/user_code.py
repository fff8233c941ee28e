"""An error in a person's own code (a bot of their own, a firmware game of their own) told in one
message: the file and line in *their* code, the exception, and what was running. The full
traceback, the platform's frames and all, is printed only with `--debug` or `BLINKS_DEBUG=1`.

Their code is the innermost frame of the traceback that is not the platform's (simulator/,
host_tools/, firmware/runtime/, firmware/hal/) nor Python's own library; a syntax error names
the line it is on.
"""

import importlib
import os
import sys
import sysconfig
import traceback

DEBUG_ENV = "BLINKS_DEBUG"

_HERE = os.path.dirname(os.path.abspath(__file__))
_SIMULATOR = os.path.dirname(_HERE)
_ROOT = os.path.dirname(_SIMULATOR)
PLATFORM = tuple(
    os.path.join(p, "")
    for p in (
        _SIMULATOR,
        os.path.join(_ROOT, "host_tools"),
        os.path.join(_ROOT, "firmware", "runtime"),
        os.path.join(_ROOT, "firmware", "hal"),
    )
)
_LIBRARY = tuple(
    os.path.join(os.path.realpath(sysconfig.get_paths()[k]), "") for k in ("stdlib", "platstdlib")
)


class UserCodeError(Exception):
    """Someone's own code raised; str() is the one-line message, `details` the full traceback
    (kept as text: it crosses process boundaries, where a traceback object cannot)."""

    def __init__(self, message, details=""):
        Exception.__init__(self, message, details)  # both in args: a worker's pickles whole
        self.message = message
        self.details = details

    def __str__(self):
        return self.message


def debugging(args=None):
    """Whether the full traceback is wanted: `--debug`, or BLINKS_DEBUG set to anything but 0."""
    if args is not None and getattr(args, "debug", False):
        return True
    return os.environ.get(DEBUG_ENV, "0") not in ("", "0")


def _theirs(filename):
    path = os.path.realpath(filename)
    if filename.startswith("<") or path.startswith(_LIBRARY) or "site-packages" in path:
        return False
    return not path.startswith(PLATFORM)


def where(exc):
    """(file, line) in the person's own code where `exc` was raised (or None)."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return shown_path(exc.filename), exc.lineno
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        if _theirs(frame.filename):
            return shown_path(frame.filename), frame.lineno
    cause = exc.__cause__ or exc.__context__
    return where(cause) if cause is not None else None


def shown_path(filename):
    """A path as the person would type it: relative to the current folder when inside it."""
    try:
        rel = os.path.relpath(filename)
    except ValueError:
        return filename
    return filename if rel.startswith("..") else rel


def what(exc):
    """`ZeroDivisionError: division by zero` (a syntax error: its message alone)."""
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg}"
    text = str(exc)
    return type(exc).__name__ + (f": {text}" if text else "")


def user_code_error(exc, whose, running):
    """The one-line message: `FILE:LINE: Exception: text (in WHOSE; RUNNING)`."""
    place = where(exc)
    at = f"{place[0]}:{place[1]}: " if place else ""
    return f"{at}{what(exc)} (in {whose}; {running})"


def is_theirs(exc):
    """Whether `exc` was raised in someone's own code (not the platform's alone)."""
    return where(exc) is not None


def wrap(exc, whose, running):
    """A UserCodeError for `exc`, its traceback kept as text."""
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return UserCodeError(user_code_error(exc, whose, running), details)


def report(prefix, error, args=None, stream=None):
    """Print `error` (a UserCodeError) on stderr after `prefix` (the command's, e.g.
    "blinks sim"): the whole traceback first with --debug or BLINKS_DEBUG=1, else one line
    saying how to get it. Returns the exit code, 1."""
    stream = stream or sys.stderr
    if debugging(args) and error.details:
        stream.write(error.details)
    print(f"{prefix}: {error.message}", file=stream)
    if not debugging(args):
        print(f"{prefix}: (the whole traceback: add --debug, or set {DEBUG_ENV}=1)", file=stream)
    return 1


def bot_name(bot):
    """How a bot is named where a bot name goes: its `name`, or `module:Class` for one of
    your own that keeps the base class's name."""
    cls = type(bot)
    own = cls.__dict__.get("name")
    return own if own else f"{cls.__module__}:{cls.__qualname__}"


def bot_failed(exc, bot, seed, turn, seat):
    """The UserCodeError for a bot that raised in game `seed`, at `turn`, in `seat` (A, B...),
    or `exc` itself when the platform raised it (no line of the bot's own on the way)."""
    if not is_theirs(exc):
        return exc
    return wrap(exc, f"bot {bot_name(bot)}", f"game seed {seed}, turn {turn}, seat {seat}")


def load_class(spec, kind, base, base_name, unknown):
    """The class `module:Class` names, a subclass of `base` (a bot of your own, say, whose
    base's public name is `base_name`): the
    module is looked for in the current folder and on the Python path. A name that finds
    nothing raises `unknown(text)`; a module that fails as it loads (a syntax error, an
    exception) raises UserCodeError naming its line."""
    module_name, _, class_name = spec.partition(":")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # as `python -m` would find a module beside you
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise unknown(f"{spec}: cannot import {module_name!r} ({exc})") from None
        raise wrap(exc, f"{kind} {spec}", "loading its module") from None
    except (ValueError, TypeError):  # importlib refuses a module named '' or '.x'
        raise unknown(f"{spec}: name the module in full, not {module_name!r}") from None
    except Exception as exc:  # noqa: BLE001 - their module may raise anything as it loads
        raise wrap(exc, f"{kind} {spec}", "loading its module") from None
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise unknown(
            f"{spec}: {module_name} has no {base.__name__} subclass called {class_name!r} "
            f"(subclass {base_name} and override act)"
        )
    return cls

"""An error in a person's own code (a bot of their own, a firmware game of their own) told in one
message: the file and line in *their* code, the exception, and what was running. The full
traceback, the platform's frames and all, is printed only with `--debug` or `BLINKS_DEBUG=1`.

Their code is the innermost frame of the traceback that is not the platform's (simulator/,
host_tools/, firmware/runtime/, firmware/hal/) nor Python's own library; a syntax error names
the line it is on.
"""

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
        Exception.__init__(self, message)
        self.message = message
        self.details = details


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


def wrap(exc, whose, running):
    """A UserCodeError for `exc`, its traceback kept as text."""
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return UserCodeError(user_code_error(exc, whose, running), details)


def report(command, error, args=None, stream=None):
    """Print `error` (a UserCodeError) for `blinks COMMAND`: the traceback first with --debug
    or BLINKS_DEBUG=1, else a pointer to them. Returns the exit code, 1."""
    stream = stream or sys.stderr
    if debugging(args) and error.details:
        stream.write(error.details)
    print(f"blinks {command}: {error.message}", file=stream)
    if not debugging(args):
        print(
            f"blinks {command}: (the full traceback: add --debug, or set {DEBUG_ENV}=1)",
            file=stream,
        )
    return 1

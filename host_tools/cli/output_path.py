"""Checking, before any work, that a file can be written where the user asked.

A recording, a screenshot or a plot that cannot be saved should be said at once, in words,
not after a long run or as a bare `[Errno 2]`.
"""

import os


def output_problem(path):
    """Why a file cannot be written at `path` (no such folder, a folder, no permission), or
    None when it looks writable. The write can still fail later (a full disk)."""
    if not path:
        return "needs a file name"
    if os.path.isdir(path):
        return f"{path} is a folder: give a file name"
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        return f"there is no folder {folder}"
    if not os.access(folder, os.W_OK):
        return f"cannot write in {folder}"
    return None

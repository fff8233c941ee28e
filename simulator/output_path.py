"""Checking, before any work, that a file or a folder can be written where the user asked.

A recording, a screenshot or a plot that cannot be saved should be said at once, in words,
not after a long run or as a bare `[Errno 2]`.

One rule for every command: what an option names (a file, or a folder such as `--scripts DIR`
or `blinks emu --state DIR`) is created if it is missing, but only in a folder that exists: a
typo never grows a tree of folders.
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


def folder_problem(path):
    """Why the folder `path` cannot be used for output (a file is there, its parent folder is
    missing, no permission), or None: it is there, or can be made in a folder that is."""
    if not path:
        return "needs a folder name"
    if os.path.exists(path):
        if not os.path.isdir(path):
            return "not a folder"
        return None if os.access(path, os.W_OK) else f"cannot write in {path}"
    parent = os.path.dirname(os.path.normpath(path)) or "."
    if not os.path.isdir(parent):
        return f"there is no folder {parent} (only the last folder of a path is made)"
    if not os.access(parent, os.W_OK):
        return f"cannot make a folder in {parent}"
    return None

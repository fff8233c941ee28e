"""Where blinks keeps what it can make again (compiled modules, rp2040js, fetched images,
flash images): $XDG_CACHE_HOME/blinks as the XDG base directory spec says, ~/.cache/blinks
without it. One place, so a fresh cache (CI's empty XDG_CACHE_HOME) empties all of them."""

import os


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "blinks")

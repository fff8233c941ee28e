"""Fetch a pinned file (host_tools.pins) once into the user's cache, and keep it only if it checks.

Fetched files live in $XDG_CACHE_HOME/blinks/rp2/ (usually ~/.cache/blinks/rp2/): they are
downloads anyone can make again, checked against their pin at every use, so a cache that is
cleared costs one download. The data folder (~/.local/share/blinks/rp2/) stays the place a
person puts files by hand, and is never written here.

Before a download it says what is fetched, from where, under which licence, and where it goes;
a progress bar follows. The bytes go to a temporary name beside the final one
(.NAME.XXXX.part), and only a file whose SHA-256 matches the pin is renamed to its real name:
a download that is cut, corrupted or changed upstream leaves nothing behind, and nothing that
could pass for a good file. A file lock keeps two commands from fetching the same file at once.
"""

import contextlib
import fcntl
import glob
import hashlib
import http.client
import os
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

from simulator.cache_folder import cache_root

CHUNK = 1 << 16
TIMEOUT_S = 30  # longest wait for the server at any one moment
USER_AGENT = "blinks-tiles (fetching a pinned file)"  # some sites refuse Python's default


# --from with a UF2 that is not the pinned release: still usable, named rather than cached
OTHER_UF2 = (
    "\n  another MicroPython release works too: name it with --firmware (blinks emu), "
    "--firmware-uf2 (blinks uf2) or BLINKS_RP2_FIRMWARE, or copy it to "
    "~/.local/share/blinks/rp2/firmware.uf2"
)


class FetchError(RuntimeError):
    """A fetch failed or did not match its pin; nothing was kept. The message says why."""


def cache_dir():
    return os.path.join(cache_root(), "rp2")


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def cached_path(pin, folder=None):
    return os.path.join(folder or cache_dir(), pin.filename)


def cached(pin, folder=None, say=None):
    """The path of `pin`'s file in the cache when it is there and matches its pin, else None.
    A cached file that no longer matches (changed on disk) is removed, and said."""
    path = cached_path(pin, folder)
    if not os.path.isfile(path):
        return None
    actual = sha256_of(path)
    if actual == pin.sha256:
        return path
    with contextlib.suppress(OSError):
        os.remove(path)
    (say or _stderr)(
        f"removed {path}: its sha256 {actual} is not the pinned {pin.sha256} (changed on disk)"
    )
    return None


def _stderr(text):
    print(text, file=sys.stderr, flush=True)


def fetch(pin, folder=None, say=None, progress=True):
    """The path of `pin`'s file in the cache, downloaded first if it is not there; FetchError
    when it cannot be had or does not match its pin (nothing is left behind then)."""
    say = say or _stderr
    folder = folder or cache_dir()
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, ".fetch.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        path = cached(pin, folder, say)
        if path:
            return path
        for stale in glob.glob(os.path.join(folder, f".{pin.filename}.*.part")):
            with contextlib.suppress(OSError):
                os.remove(stale)  # a download killed outright (kill -9, power cut)
        say(
            f"Fetching {pin.what}\n  from {pin.url}\n  licence: {pin.licence}\n  into {cached_path(pin, folder)}"
        )
        parts = []
        try:
            part = _part(folder, pin, parts)
            _download(pin, part, progress)
            with open(part, "rb") as f:
                data = f.read()  # a few hundred kB at most
        finally:
            for p in parts:
                with contextlib.suppress(OSError):
                    os.remove(p)
        if pin.decode is not None:
            try:
                data = pin.decode(data)
            except ValueError as exc:
                raise FetchError(
                    f"{pin.url} is not the source expected for {pin.what} ({exc}); nothing was kept"
                ) from None
        actual = hashlib.sha256(data).hexdigest()
        if actual != pin.sha256:
            raise FetchError(
                f"{pin.what} from {pin.url} does not match its pin: sha256 {actual}, "
                f"expected {pin.sha256} (changed upstream or corrupted); nothing was kept"
            )
        path = _keep(folder, pin, data)
        say(f"  sha256 {pin.sha256} checked: {path}")
        return path


def install_from(pin, source, folder=None, say=None):
    """Put a copy a person has of `pin`'s file into the cache, as a download would: decoded when
    it is the source the pin downloads (rp2040js's bootrom.ts), checked against the pin, written
    under a temporary name and renamed. Returns the cached path; FetchError says what is wrong."""
    say = say or _stderr
    folder = folder or cache_dir()
    try:
        with open(source, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise FetchError(f"cannot read {source}: {exc.strerror or exc}") from None
    if pin.decode is not None and hashlib.sha256(data).hexdigest() != pin.sha256:
        try:
            data = pin.decode(data)
        except ValueError:
            pass  # not the source form either: the pin check below says so
    actual = hashlib.sha256(data).hexdigest()
    if actual != pin.sha256:
        raise FetchError(
            f"{source} is not {pin.what}: sha256 {actual}, pinned {pin.sha256}; nothing was kept"
            + (OTHER_UF2 if data[:4] == b"UF2\n" else "")
        )
    os.makedirs(folder, exist_ok=True)
    path = _keep(folder, pin, data)
    say(f"{pin.what}: sha256 checked, copied to {path}")
    return path


def _keep(folder, pin, data):
    """Write `data` as `pin`'s cached file: under a temporary name, synced, then renamed, so a
    power cut leaves no file or the whole one, never half of one. Returns its path."""
    path = cached_path(pin, folder)
    parts = []
    try:
        part = _part(folder, pin, parts)
        with open(part, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)
    finally:
        for p in parts:
            with contextlib.suppress(OSError):
                os.remove(p)
    return path


def _part(folder, pin, parts):
    fd, part = tempfile.mkstemp(dir=folder, prefix=f".{pin.filename}.", suffix=".part")
    os.close(fd)
    parts.append(part)
    return part


def _download(pin, part, progress):
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

    request = urllib.request.Request(pin.url, headers={"User-Agent": USER_AGENT})
    try:
        response = urllib.request.urlopen(request, timeout=TIMEOUT_S)
    except urllib.error.HTTPError as exc:
        raise FetchError(f"could not download {pin.url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        host = urllib.parse.urlsplit(pin.url).hostname
        raise FetchError(
            f"could not download {pin.url}\n  {host} cannot be reached ({reason}): no network?"
        ) from None
    with response:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        got = 0
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
        )
        console = Console(stderr=True)
        with (
            open(part, "wb") as out,
            Progress(*columns, console=console, disable=not progress) as bar,
        ):
            task = bar.add_task(pin.filename, total=total)
            while True:
                try:
                    chunk = response.read(CHUNK)
                except (OSError, http.client.HTTPException) as exc:  # reset, timeout, cut
                    raise FetchError(
                        f"the download of {pin.url} broke off after {got} bytes ({exc}); "
                        "nothing was kept"
                    ) from None
                if not chunk:
                    break
                out.write(chunk)
                got += len(chunk)
                bar.update(task, completed=got)
    if total is not None and got != total:
        raise FetchError(
            f"the download of {pin.url} stopped after {got} of {total} bytes; nothing was kept"
        )

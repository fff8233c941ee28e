"""A playtest's games spread out: the Ctrl-C that stops a batch part way (Interrupted, with the
chunks that finished), and the games on a Ray cluster (`blinks playtest --ray ADDRESS`) or on a
Ray instance of this machine's own (`--ray local`).

The games go out in the same chunks as over local worker processes (one Ray task a chunk), and
come back in seed order, so the figures are the same as with `-j 1` on the same seeds. Each
task is a plain function call in a Ray worker; the nodes of a real cluster need this package
installed as the driver has it (docs/playtests.md says how to start one). Ctrl-C cancels the
tasks still out, shuts down the instance it started, and hands back the chunks that finished.
"""

import contextlib
import signal
import threading

LOCAL = "local"
WAIT_S = 0.5  # how often the driver looks up from waiting, to report progress


class Interrupted(Exception):
    """Ctrl-C during the games: `finished` holds (first seed, results) of each chunk done, so
    the playtest can still give the figures of the games that finished."""

    def __init__(self, finished):
        Exception.__init__(self, "interrupted")
        self.finished = finished


def _call(play, args):
    return play(*args)


def play_on_ray(play, chunks, address, cpus=None, progress=None):
    """[play(*args) for _key, args in chunks], each chunk a Ray task whose result is a list of
    one entry a game; `progress(done)` gets the games finished so far. `address` is LOCAL for
    an instance of this machine with `cpus` CPUs (None: all), else a cluster's address (`ray
    start --head` prints it). Raises Interrupted on Ctrl-C, holding (key, results) of each
    chunk done (the key is the caller's: its first seed, say), and RuntimeError when Ray
    cannot start or reach the cluster."""
    import ray

    started_here = not ray.is_initialized()
    results = [None] * len(chunks)
    refs = []
    with ctrl_c_as_a_flag() as stopped:
        try:
            if started_here:
                try:
                    ray.init(**_init_options(address, cpus))
                except (ConnectionError, RuntimeError, ValueError) as exc:
                    raise RuntimeError(f"cannot start Ray at {address!r}: {exc}") from None
                stopped.arm()  # again: Ray's native start-up may have taken the signal over
            remote = ray.remote(num_cpus=1, max_retries=0)(_call)
            for _key, args in chunks:
                if stopped.is_set():
                    break
                refs.append(remote.remote(play, args))
            index = {ref: i for i, ref in enumerate(refs)}
            pending = list(refs)
            done = 0
            while pending and not stopped.is_set():
                ready, pending = ray.wait(pending, num_returns=1, timeout=WAIT_S)
                for ref in ready:
                    i = index[ref]
                    results[i] = ray.get(ref)
                    done += len(results[i])
                if ready and progress:
                    progress(done)
            if stopped.is_set():
                for ref in pending:
                    ray.cancel(ref, force=True)
                raise Interrupted(
                    [(chunks[i][0], got) for i, got in enumerate(results) if got is not None]
                )
            return results
        finally:
            if started_here and ray.is_initialized():
                ray.shutdown()  # ends the workers, and the instance itself when it was local


@contextlib.contextmanager
def ctrl_c_as_a_flag():
    """Ctrl-C sets an Event instead of raising KeyboardInterrupt, for as long as this lasts (in
    the main thread; elsewhere Ctrl-C cannot reach it anyway): Ray's driver runs native code
    that a KeyboardInterrupt raised at a random point can leave in a state that aborts the
    process, so the loop looks at the flag between its short waits instead."""
    stopped = _Flag()
    if threading.current_thread() is not threading.main_thread():
        yield stopped
        return
    previous = signal.getsignal(signal.SIGINT)
    stopped.arm()
    try:
        yield stopped
    finally:
        signal.signal(signal.SIGINT, previous)


class _Flag(threading.Event):
    def arm(self):
        """Make Ctrl-C set this flag (main thread only)."""
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, lambda *_: self.set())


def _init_options(address, cpus):
    options = {
        "include_dashboard": False,
        "log_to_driver": False,
        "configure_logging": False,
    }
    if address == LOCAL:
        options.update(num_cpus=cpus, object_store_memory=80 * 1024 * 1024)
    else:
        options["address"] = address
    return options

"""A playtest's games spread out: the Ctrl-C that stops a batch part way (Interrupted, with the
chunks that finished), and the games on a Ray cluster (`blinks playtest --ray ADDRESS`) or on a
Ray instance of this machine's own (`--ray local`).

The games go out in the same chunks as over local worker processes (one Ray task a chunk), and
come back in seed order, so the figures are the same as with `-j 1` on the same seeds. Each
task is a plain function call in a Ray worker; the nodes of a real cluster need this package
installed as the driver has it (docs/playtests.md says how to start one). Ctrl-C cancels the
tasks still out, shuts down the instance it started, and hands back the chunks that finished.
"""

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
    """[play(*args) for args, _count in chunks], each chunk a Ray task; `progress(done)` gets
    the games finished so far (the counts of the chunks done). `address` is LOCAL for an
    instance of this machine with `cpus` CPUs (None: all), else a cluster's address
    (`ray start --head` prints it). Raises Interrupted on Ctrl-C, RuntimeError when Ray cannot
    start or reach the cluster."""
    import ray

    started_here = not ray.is_initialized()
    results = [None] * len(chunks)
    pending = []
    try:
        if started_here:
            try:
                ray.init(**_init_options(address, cpus))
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise RuntimeError(f"cannot start Ray at {address!r}: {exc}") from None
        remote = ray.remote(num_cpus=1, max_retries=0)(_call)
        refs = []
        for args, _count in chunks:
            refs.append(remote.remote(play, args))
            pending.append(refs[-1])
        index = {ref: i for i, ref in enumerate(refs)}
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=WAIT_S)
            for ref in ready:
                i = index[ref]
                results[i] = ray.get(ref)
                done += chunks[i][1]
            if ready and progress:
                progress(done)
        return results
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise Interrupted(
            [(chunks[i][0], got) for i, got in enumerate(results) if got is not None]
        ) from None
    finally:
        if started_here and ray.is_initialized():
            ray.shutdown()  # ends the workers, and the instance itself when it was local


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

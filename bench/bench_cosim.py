"""Co-simulation speed: `cosim_speedup`, simulated seconds per wall second with 18 Lost Gems
tiles all running on real MicroPython processes (one process per tile, in lockstep with the
world), through a deal: the faces finding each other, the 6-second hold and the deal's traffic.
No goal yet; above 1 means faster than real time. Also `cosim_inprocess_ratio`: how many times
faster the same run is with every tile in-process, i.e. what the pipe and MicroPython cost.
Process start-up is not counted (`cosim_startup_ms_per_tile` reports it: wall ms for the
cluster's processes to start and boot, which they do side by side, divided by 18).
"""

import time

# {figure: (what it measures, goal)}: docs/benchmarks.md's rows (bench/run.py checks every key).
FIGURES = {
    "cosim_speedup": (
        "Simulated s per wall s of an 18-tile deal with every tile a real MicroPython process.",
        "—",
    ),
    "cosim_inprocess_ratio": (
        "How many times faster the same deal runs with every tile in-process.",
        "—",
    ),
    "cosim_startup_ms_per_tile": (
        "Wall ms to start and boot the 18 MicroPython processes, divided by 18.",
        "—",
    ),
}


def timed_deal(mpy, sim_ms):
    from games.lostgems import LostGems

    from simulator.cosim import close_runners, mpy_runners
    from simulator.world import World, shapes

    world = World(seed=1)
    runners = mpy_runners(mpy, tiles=18)
    t0 = time.perf_counter()
    try:
        for i, (q, r) in enumerate(shapes.blob(18)):
            world.add_tile(LostGems, q=q, r=r, runner=runners.get(i))
        world.advance(2 * world.loop_ms)  # every tile has booted and run its first passes
        startup = time.perf_counter() - t0
        t0 = time.perf_counter()
        start_ms = world.now
        world.advance(300)
        world.press(4)
        world.advance(6020)
        world.release(4)
        world.advance(sim_ms - world.now)
        wall = time.perf_counter() - t0
    finally:
        close_runners(world)
    return (world.now - start_ms) / 1000.0 / wall, startup


def run(quick: bool) -> dict:
    sim_ms = 8000 if quick else 14000
    mpy_speed, startup = timed_deal(18, sim_ms)
    local_speed, _ = timed_deal(0, sim_ms)
    return {
        "cosim_speedup": round(mpy_speed, 2),
        "cosim_inprocess_ratio": round(local_speed / mpy_speed, 1),
        "cosim_startup_ms_per_tile": round(startup * 1000 / 18, 1),
    }

# Runs on an emulated tile (bench/bench_rp2.py prepends FW = its firmware folder): times loop
# passes of a face-down Lost Gems tile whose faces all talk, the bytes a pass allocates, the
# heap left after setup, and how busy the CPU is awake and in warm sleep. MicroPython only.
import gc
import sys
import time

sys.path.insert(0, FW)  # noqa: F821  set by the bench

from games.lostgems import LostGems, shards, store
from hal.rp2_hal import Rp2Hal
from runtime.tile import Tile

hal = Rp2Hal()
Tile(hal, LostGems).save_state(store.encode(store.FACE_DOWN, shards.code(0, 1), 0, 0))
tile = Tile(hal, LostGems)
tile.step()  # setup(): the saved state comes back
gc.collect()
free = gc.mem_free()


def passes(times, period_ms):
    """Run len(times) passes `period_ms` apart; their durations in us go into `times` (a list
    made before, so that it is not counted as the passes' allocation)."""
    due = time.ticks_ms()
    for i in range(len(times)):
        start = time.ticks_us()
        tile.step()
        times[i] = time.ticks_diff(time.ticks_us(), start)
        due = time.ticks_add(due, period_ms)
        wait = time.ticks_diff(due, time.ticks_ms())
        if wait > 0:
            time.sleep_ms(wait)


awake = [0] * 50
asleep = [0] * 20
passes(awake, 20)  # the links come up, the neighbour's values arrive
passes(awake, 20)
gc.collect()
gc.disable()
before = gc.mem_alloc()
passes(awake, 20)
alloc = (gc.mem_alloc() - before) // len(awake)
gc.enable()
awake.sort()
tile._sleep(hal.millis())  # warm sleep, as after 10 minutes without a press
passes(asleep, 100)
state = tile.game.state.replace(" ", "_")
print(
    f"pass_us={awake[25]} alloc={alloc} free={free} state={state}",
    f"awake_busy={sum(awake) / (50 * 20000):.4f} sleep_busy={sum(asleep) / (20 * 100000):.4f}",
)

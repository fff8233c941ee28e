"""A tile's current at its parts' worst asleep, and in real play (bench/power_model.py has
every term and its source; docs/hardware.md, "Power budget", the same table).

- tile_ma_asleep_worst, battery_days_asleep_worst: DORMANT with every part at its datasheet
  maximum for a tile at 45 C, the charger and protection standby and the cell's
  self-discharge counted. Goals: <= 2.5 mA, >= 10 days on 500 mAh.
- pixel_ma_in_play, tile_ma_in_play, battery_hours_in_play: bot games of Lost Gems played on
  the simulated tiles (the real firmware) at a table's pace, a move every 8 s, every tile's
  LED frames turned into current with the pixel's datasheet mA a channel at the firmware's
  brightness cap, averaged over time and tiles. The CPU's share is rp2_awake_busy's reading.
  Goal: >= 10 hours on 500 mAh.
- pixel_cap_for_10_hours: the largest brightness cap (of 255) at which those games give
  10 hours: the budget the firmware would need if battery_hours_in_play falls short.

--quick plays 3 games, the full run 100.
"""

import play_pixels
import power_model

BOT = "conventions"
# rp2_awake_busy as bench_rp2 reads it on an emulated tile (0.069), rounded up.
AWAKE_BUSY = 0.07
TARGET_HOURS = 10

FIGURES = {
    "tile_ma_asleep_worst": (
        "A tile's DORMANT current, every part at its datasheet maximum at 45 C, mA.",
        "≤ 2.5",
    ),
    "battery_days_asleep_worst": ("Days a 500 mAh cell gives at tile_ma_asleep_worst.", "≥ 10"),
    "pixel_ma_in_play": (
        "Six pixels' average 5 V current over bot games of Lost Gems on simulated tiles, mA.",
        "—",
    ),
    "tile_ma_in_play": (
        "A tile's current in play: those pixels, the CPU at rp2_awake_busy, the faces talking, mA.",
        "—",
    ),
    "battery_hours_in_play": ("Hours a 500 mAh cell gives at tile_ma_in_play.", "≥ 10"),
    "pixel_cap_for_10_hours": (
        "Largest pixel brightness cap (of 255) at which those games give 10 hours.",
        "—",
    ),
}


def cap_for_hours(colour_ms, tile_ms, pulses, hours):
    """The largest cap (0-255) at which the games' pixels leave `hours` on the cell."""
    for cap in range(255, -1, -1):
        ma = power_model.in_play_ma(
            AWAKE_BUSY, play_pixels.pixel_ma(colour_ms, tile_ms, cap), pulses
        )
        if power_model.CELL_MAH / ma >= hours:
            return cap
    return 0


def run(quick: bool) -> dict:
    from hal.board import PIXEL_MAX

    colour_ms, tile_ms = play_pixels.play_games(3 if quick else 100, BOT)
    pixels = play_pixels.pixel_ma(colour_ms, tile_ms, PIXEL_MAX)
    pulses = power_model.value_pulses()
    figures = power_model.worst_and_play_figures(AWAKE_BUSY, pixels, pulses)
    figures["pixel_ma_in_play"] = round(pixels, 1)
    figures["pixel_cap_for_10_hours"] = cap_for_hours(colour_ms, tile_ms, pulses, TARGET_HOURS)
    return figures

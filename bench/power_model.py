"""A tile's current, modelled from its parts' datasheets and the CPU's duty measured on an
emulated tile. A model, not a measurement: only a real board's ammeter settles these figures
(docs/hardware.md, "Power budget", has the same table and says what to measure).

Every figure below names its source; where a part's datasheet gives none, the worst
comparable figure found is taken and said so. Currents are from the cell at its nominal
3.7 V: the 3.3 V rail comes through the Pico's buck-boost, the pixels' 5 V through the
boost, each at the efficiency below.

Three pictures: the typical tile (`figures`: face down, and asleep at typical currents), the
worst sleeping tile (`asleep_worst_terms`, term by term, each with its source), and a tile in
play (`in_play_ma`, its pixels' average taken from real games by bench/play_pixels.py).
"""

CELL_V = 3.7  # a LiPo's nominal voltage
CELL_MAH = 500

# The RP2040 (datasheet Table 637, typical average currents): BOOTSEL mode idle, the CPU
# waiting with its clocks running, at 48 MHz: DVDD 9.0 mA, IOVDD 1.2 mA, USB_VDD 0.2 mA;
# 'Popcorn' (CPU and peripherals busy, 48 MHz): DVDD 10.9 mA; DORMANT: DVDD 0.18 mA.
# A tile runs at 125 MHz: the dynamic DVDD current is taken to scale with the clock.
RP2040_DVDD_IDLE_MA_48MHZ = 9.0
RP2040_DVDD_BUSY_MA_48MHZ = 10.9
RP2040_IOVDD_MA = 1.2
RP2040_USB_MA = 0.2
CLOCK_MHZ = 125
# The Pico's own regulator (RT6150 buck-boost) at a tile's ~30 mA: its efficiency curve was not
# available here; 85 % is taken, below what buck-boost converters of its class reach there.
PICO_REGULATOR_EFFICIENCY = 0.85
# A Pico in DORMANT, measured from its USB port with machine.lightsleep() (MicroPython commit
# b004e7e397, "about 0.9 mA"). Most of it is the regulator's quiescent current, which does not
# scale with the input voltage: taken as the current from the cell.
PICO_DORMANT_MA = 0.9

# TFBS4711 (datasheet 82633, p. 4): idle supply current 70 uA typical (40-100 at 25 C), on
# the 3.3 V rail. Its emitter's pulses: ~38 mA through the 47 ohm resistor at 3.3 V (the
# emitter's ~1.5 V forward voltage), 1.63 us a pulse.
TRANSCEIVER_IDLE_MA = 0.070
EMITTER_PULSE_MA = 38.0
PULSE_US = 1.63

# WS2812B-2020 (Worldsemi, via its datasheet's key figures): quiescent under 0.6 mA, 12 mA a
# channel at full brightness (PWM: the average is 12 mA x value/255), on the 5 V rail.
PIXEL_QUIESCENT_MA = 0.6
PIXEL_CHANNEL_MA = 12.0
PIXEL_RAIL_V = 5.0
# TPS61240 boost: its efficiency at ~10 mA out was not available here; 85 % is taken. Off
# (EN low): shutdown current 1.5 uA plus leakage from the battery to VOUT 2.5 uA (TPS61240
# datasheet SLVS806, electrical characteristics).
BOOST_EFFICIENCY = 0.85
BOOST_SHUTDOWN_MA = 0.0015 + 0.0025


def rail_3v3(ma):
    """Current from the cell for `ma` on the Pico's 3.3 V rail."""
    return ma * 3.3 / (CELL_V * PICO_REGULATOR_EFFICIENCY)


def rail_5v(ma):
    return ma * PIXEL_RAIL_V / (CELL_V * BOOST_EFFICIENCY)


def pixel_ma(colors, cap):
    """The six pixels' average current on the 5 V rail for the game's 15-bit `colors`, each
    channel scaled to at most `cap` of 255 as hal/rp2_hal.show writes it."""
    total = 0.0
    for c in colors:
        for shift in (10, 5, 0):
            value = ((c >> shift) & 31) * cap // 31
            total += PIXEL_CHANNEL_MA * value / 255
    return total + PIXEL_QUIESCENT_MA * len(colors)


def emitter_ma(pulses_per_pass, faces=6, pass_ms=20):
    """The six emitters' average current for `pulses_per_pass` pulses a face a pass."""
    duty = pulses_per_pass * PULSE_US / (pass_ms * 1000)
    return faces * EMITTER_PULSE_MA * duty


def awake_ma(busy, colors, cap, pulses_per_pass):
    """A tile mid-game: the CPU `busy` of the time at 125 MHz, showing `colors`."""
    return in_play_ma(busy, pixel_ma(colors, cap), pulses_per_pass)


def asleep_ma():
    """A tile in DORMANT: its pixel rail off, its transceivers watching for light."""
    return PICO_DORMANT_MA + rail_3v3(6 * TRANSCEIVER_IDLE_MA) + BOOST_SHUTDOWN_MA


def value_pulses():
    """Emitter pulses a face sends a pass: the face value a tile sends every pass (a start
    pulse and one for each 0 bit of each byte on the wire)."""
    from hal.ir_frames import wire_bytes
    from runtime.link import VALUE_FRAME

    return sum(1 + 8 - b.bit_count() for b in wire_bytes(VALUE_FRAME[0]))


def figures(busy, colors, cap, pulses_per_pass):
    awake = awake_ma(busy, colors, cap, pulses_per_pass)
    asleep = asleep_ma()
    return {
        "tile_ma_awake": round(awake, 1),
        "tile_ma_asleep": round(asleep, 2),
        "battery_hours_awake": round(CELL_MAH / awake, 1),
        "battery_days_asleep": round(CELL_MAH / asleep / 24, 1),
    }


# ---- the worst case asleep, and a tile in play ----------------------------------------------
# Every term of the worst sleeping current: (name, mA from the cell, source). Worst means each
# part at the largest figure its datasheet gives for a tile at 45 C (a closed shell on a warm
# table); where the datasheet gives none, the assumption is named in the source.
SLEEP_LOAD_EFFICIENCY = 0.75  # the Pico's regulator at a ~1 mA load: assumed (no curve found)
HOT_C = 45
RP2040_DORMANT_DVDD_TYP_MA = 0.18  # RP2040 datasheet, Table 637, Dormant, typical
RP2040_DORMANT_DVDD_MAX_MA = 4.2  # the same, maximum: a worst-case device at the extremes
RP2040_MAX_C = 85  # the extremes' top: the RP2040's operating range
LEAKAGE_DOUBLING_C = 10  # assumed: CMOS leakage doubles every 10 C
TRANSCEIVER_IDLE_MAX_MA = 0.150  # TFBS4711, datasheet 82633 rev 3.1 p. 4, -25..85 C
CELL_LOSS_PER_YEAR = 0.40  # a full cell stored a year at 40-60 C keeps 60-65 %


def sleep_rail_3v3(ma):
    """Cell current for `ma` more on the 3.3 V rail while the tile sleeps."""
    return ma * 3.3 / (CELL_V * SLEEP_LOAD_EFFICIENCY)


def rp2040_dormant_hot_ma():
    """The RP2040's DORMANT DVDD at HOT_C on a worst-case device: the datasheet's maximum
    (at the temperature extremes) brought down to HOT_C by the leakage rule above."""
    halvings = (RP2040_MAX_C - HOT_C) / LEAKAGE_DOUBLING_C
    return RP2040_DORMANT_DVDD_MAX_MA / 2**halvings


def asleep_worst_terms():
    """[(term, mA from the cell, source)] of a tile in DORMANT at its parts' worst."""
    return [
        (
            "Pico board in DORMANT (RP2040 typical, flash, regulator, VSYS divider)",
            PICO_DORMANT_MA * 5.0 / CELL_V,
            (
                "0.9 mA measured at the USB port's 5 V in machine.lightsleep() (MicroPython commit "
                "b004e7e397); taken to the cell at constant power (x 5.0/3.7), the larger of the "
                "two ways a regulator's draw can scale"
            ),
        ),
        (
            "RP2040 DORMANT leakage above typical, worst device at 45 C",
            sleep_rail_3v3(rp2040_dormant_hot_ma() - RP2040_DORMANT_DVDD_TYP_MA),
            (
                "RP2040 datasheet Table 637, Dormant DVDD 0.18 mA typical, 4.2 mA maximum across "
                "the temperature extremes; brought to 45 C assuming leakage doubles every 10 C "
                "(no figure at 45 C is published)"
            ),
        ),
        (
            "six transceivers watching for light, at their maximum",
            sleep_rail_3v3(6 * TRANSCEIVER_IDLE_MAX_MA),
            (
                "TFBS4711 datasheet 82633 rev 3.1, p. 4: idle supply current 40/70/150 uA "
                "min/typ/max over -25..85 C (100 max at 25 C); the regulator at an assumed 75 %"
            ),
        ),
        (
            "pixel boost off (EN low)",
            BOOST_SHUTDOWN_MA,
            (
                "TPS61240 datasheet SLVS806, electrical characteristics: shutdown current 1.5 uA "
                "plus leakage from the battery to VOUT 2.5 uA (EN = GND)"
            ),
        ),
        (
            "charger IC on battery (no USB)",
            0.002,
            "TP4056 datasheet, BAT pin: under 2 uA in sleep mode (VCC within 30 mV of BAT)",
        ),
        (
            "charger board LEDs",
            0.0,
            (
                "a TP4056 module's CHRG and STDBY LEDs hang from its USB input through open-drain "
                "pins (TP4056 datasheet, pins 6-7): dark on battery. A Pimoroni LiPo SHIM's power "
                "LED stays lit on battery: desolder it if a SHIM is used"
            ),
        ),
        (
            "protection: two DW01A (the cell's and the charger module's)",
            2 * 0.006,
            (
                "DW01x datasheet (Fortune, rev 1.7): 3 uA typical at 3.9 V; 6 uA each taken as "
                "the maximum (twice typical: the table's maximum was not available). The FS8205 "
                "switches conduct and draw nothing of their own"
            ),
        ),
        (
            "the cell's self-discharge at 40-60 C",
            CELL_MAH * CELL_LOSS_PER_YEAR / (365 * 24),
            (
                "a full Li-ion cell stored a year keeps 65 % at 40 C, 60 % at 60 C (storage table "
                "in Battery University BU-702 and cell makers' pages); 40 % a year taken"
            ),
        ),
    ]


def asleep_worst_ma(terms=None):
    return sum(ma for _, ma, _ in (terms or asleep_worst_terms()))


def in_play_ma(busy, pixel_rail_ma, pulses_per_pass):
    """A tile in play: the CPU `busy` of the time, its pixels drawing `pixel_rail_ma` on the
    5 V rail on average (the quiescent current included)."""
    scale = CLOCK_MHZ / 48
    dvdd = (
        RP2040_DVDD_IDLE_MA_48MHZ + busy * (RP2040_DVDD_BUSY_MA_48MHZ - RP2040_DVDD_IDLE_MA_48MHZ)
    ) * scale
    chip = dvdd + RP2040_IOVDD_MA + RP2040_USB_MA
    infrared = 6 * TRANSCEIVER_IDLE_MA + emitter_ma(pulses_per_pass)
    return rail_3v3(chip + infrared) + rail_5v(pixel_rail_ma)


def worst_and_play_figures(busy, pixel_rail_ma, pulses_per_pass):
    asleep = asleep_worst_ma()
    play = in_play_ma(busy, pixel_rail_ma, pulses_per_pass)
    return {
        "tile_ma_asleep_worst": round(asleep, 2),
        "battery_days_asleep_worst": round(CELL_MAH / asleep / 24, 1),
        "tile_ma_in_play": round(play, 1),
        "battery_hours_in_play": round(CELL_MAH / play, 1),
    }

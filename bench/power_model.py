"""A tile's current, modelled from its parts' datasheets and the CPU's duty measured on an
emulated tile. A model, not a measurement: only a real board's ammeter settles these figures
(docs/hardware.md, "Power budget", has the same table and says what to measure).

Every figure below names its source; where a part's datasheet gives none, the worst
comparable figure found is taken and said so. Currents are from the cell at its nominal
3.7 V: the 3.3 V rail comes through the Pico's buck-boost, the pixels' 5 V through the
boost, each at the efficiency below.
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
# (EN low), its shutdown current: the TI boosts of its class give 1 uA at most (TPS6102x).
BOOST_EFFICIENCY = 0.85
BOOST_SHUTDOWN_MA = 0.001


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
    scale = CLOCK_MHZ / 48
    dvdd = (
        RP2040_DVDD_IDLE_MA_48MHZ + busy * (RP2040_DVDD_BUSY_MA_48MHZ - RP2040_DVDD_IDLE_MA_48MHZ)
    ) * scale
    chip = dvdd + RP2040_IOVDD_MA + RP2040_USB_MA
    infrared = 6 * TRANSCEIVER_IDLE_MA + emitter_ma(pulses_per_pass)
    return rail_3v3(chip + infrared) + rail_5v(pixel_ma(colors, cap))


def asleep_ma():
    """A tile in DORMANT: its pixel rail off, its transceivers watching for light."""
    return PICO_DORMANT_MA + rail_3v3(6 * TRANSCEIVER_IDLE_MA) + BOOST_SHUTDOWN_MA


def figures(busy, colors, cap, pulses_per_pass):
    awake = awake_ma(busy, colors, cap, pulses_per_pass)
    asleep = asleep_ma()
    return {
        "tile_ma_awake": round(awake, 1),
        "tile_ma_asleep": round(asleep, 2),
        "battery_hours_awake": round(CELL_MAH / awake, 1),
        "battery_days_asleep": round(CELL_MAH / asleep / 24, 1),
    }

"""The infrared transceiver an emulated face has: its figures, in one place, from datasheets.

A tile's faces use a Vishay TFBS4711 (docs/hardware.md). The emulated cluster (js/cluster.mjs)
and the PIO link tests (tests/host_tools/pio_link.py) draw each face's detector output (RXD) from
the light that reaches it through this model, never as a clean copy of the sender's TXD:

- the detector answers the *rising* edge of light with a pulse of its own width (SIR receivers
  shape their output pulse, whatever the input pulse's length), `pulse_min_us`..`pulse_max_us`,
  drawn anew for every pulse;
- that pulse starts `delay_us` after the light, plus up to `jitter_us` more (uniform), so a
  detector never answers before the light reaches it;
- a face's own light reaches its own detector too (`echo`): the TFBS4711 echoes its
  transmission on RXD, so a half-duplex face must ignore it;
- after its own light goes out, the detector is blind (`recovery_mode` "blind": no output at
  all) or rings ("ring": pulses of the usual width at random, 2 to 20 us apart) for
  `recovery_us`: the receiver latency of the datasheets, the time a receiver saturated by its
  own emitter needs before it can receive.
- `pulse_loss`: the probability that a rising edge of light from another face gives no pulse
  (a single pulse lost inside a frame; `--loss` loses whole bursts);
- `crosstalk`: light between a tile's own faces (a shell that leaks inside), as the probability
  that each pulse of a face's emitter reaches each other face of the same tile.

Both are 0 by default: no datasheet gives them; they are levels to try the firmware against.

Where the figures come from (every default is the worst case found):

| figure | default | source |
|---|---|---|
| pulse width | 1.0-4.0 us | Avago/Broadcom HSDL-3220 datasheet, "RXD pulse width (SIR)" 1 min, 4.0 max (Vishay parts sit inside that: TFBS4710 2.0 us, TFBS4652 2.9 us). The TFBS4711's own optoelectronic table (datasheet 82633, page 5) was not available here. |
| delay | 0.27 us | an assumption: no datasheet gives it for these parts; the emitter's rise time plus a comparator, well under a microsecond |
| jitter | 0.5 us | an assumption: no figure found; IrDA SIR receivers are specified to accept pulses from 1.41 us, so a spread of half a microsecond on the edge is what a 115.2 kbit/s decoder must live with |
| recovery | 300 us, blind | the TFBS4711's latency was not available here. Comparable SIR parts: HSDL-3220 "receiver latency time" 25 typ, 50 max; ROHM RPM871-H14 turnaround latency 100 typ, 300 max (as quoted from its datasheet's table, pages 4-5). The worst, 300 us, is the default. |
| echo | on | TFBS4711 datasheet, pin description: RXD echoes the transmitted signal |

Change one with `Transceiver(recovery_us=600)`, or on the command line with `blinks emu
--transceiver recovery_us=600,recovery_mode=ring`.
"""

from dataclasses import asdict, dataclass, fields, replace

RECOVERY_MODES = ("blind", "ring")


@dataclass(frozen=True)
class Transceiver:
    pulse_min_us: float = 1.0
    pulse_max_us: float = 4.0
    delay_us: float = 0.27
    jitter_us: float = 0.5
    recovery_us: float = 300.0
    recovery_mode: str = "blind"
    echo: bool = True
    pulse_loss: float = 0.0
    crosstalk: float = 0.0

    def __post_init__(self):
        if not 0 < self.pulse_min_us <= self.pulse_max_us:
            raise ValueError("need 0 < pulse_min_us <= pulse_max_us")
        if self.delay_us < 0 or self.jitter_us < 0 or self.recovery_us < 0:
            raise ValueError("delay_us, jitter_us and recovery_us must be 0 or more")
        if not (0 <= self.pulse_loss <= 1 and 0 <= self.crosstalk <= 1):
            raise ValueError("pulse_loss and crosstalk must be from 0 to 1")
        if self.recovery_mode not in RECOVERY_MODES:
            raise ValueError(f"recovery_mode must be one of {', '.join(RECOVERY_MODES)}")

    def as_config(self) -> dict:
        """The figures as the emulator's config takes them (JSON-ready)."""
        return asdict(self)


DATASHEET_WORST = Transceiver()
IDEAL = Transceiver(
    pulse_min_us=1.63, pulse_max_us=1.63, delay_us=0.27, jitter_us=0.0, recovery_us=0.0
)


def parse(text: str, base: Transceiver = DATASHEET_WORST) -> Transceiver:
    """`recovery_us=600,recovery_mode=ring` -> a Transceiver; ValueError naming what is wrong."""
    known = {f.name: f.type for f in fields(Transceiver)}
    changes = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or name not in known:
            raise ValueError(
                f"expected NAME=VALUE with NAME one of {', '.join(known)}; got {item!r}"
            )
        value = value.strip()
        if name == "recovery_mode":
            changes[name] = value
        elif name == "echo":
            if value not in ("0", "1", "on", "off", "true", "false"):
                raise ValueError(f"echo must be on or off, got {value!r}")
            changes[name] = value in ("1", "on", "true")
        else:
            try:
                changes[name] = float(value)
            except ValueError:
                what = "from 0 to 1" if name in ("pulse_loss", "crosstalk") else "of microseconds"
                raise ValueError(f"{name} must be a number {what}, got {value!r}") from None
    return replace(base, **changes)

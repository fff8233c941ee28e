"""Turn the rp2 PIO assembler DSL (as written in firmware/hal/ir_pio.py) into pioasm text.

On a board `@rp2.asm_pio` runs the function body with the DSL's names in scope. Here a stand-in
`rp2` module does the same, but each DSL call records its instruction as pioasm source, which
adafruit_pioasm (an independent assembler) then assembles for the rp2040-pio-emulator. This
is a translator for tests only: nothing here runs on a tile.
"""

import importlib.util
import os
import sys
import types

import adafruit_pioasm


class Operand(str):
    """A DSL name such as pins, x or x_dec, standing for its pioasm spelling."""


OPERANDS = {
    "pins": "pins",
    "pin": "pin",
    "x": "x",
    "y": "y",
    "x_dec": "x--",
    "y_dec": "y--",
    "not_x": "!x",
    "not_y": "!y",
    "block": "block",
    "noblock": "noblock",
    "null": "null",
    "isr": "isr",
    "osr": "osr",
    "pc": "pc",
    "exec": "exec",
    "gpio": "gpio",
    "not_osre": "!osre",
    "x_not_y": "x!=y",
    "status": "status",
}


class Instr:
    def __init__(self, text):
        self.text = text
        self.side_value = None
        self.delay_value = None

    def side(self, value):
        self.side_value = value
        return self

    def delay(self, value):
        self.delay_value = value
        return self

    def __getitem__(self, value):
        return self.delay(value)

    def source(self):
        out = self.text
        if self.side_value is not None:
            out += f" side {self.side_value}"
        if self.delay_value is not None:
            out += f" [{self.delay_value}]"
        return out


class Recorder:
    def __init__(self):
        self.items = []

    def _add(self, text):
        instr = Instr(text)
        self.items.append(instr)
        return instr

    def namespace(self):
        ns = {name: Operand(text) for name, text in OPERANDS.items()}
        ns.update(
            label=lambda name: self.items.append(f"{name}:"),
            wrap_target=lambda: self.items.append(".wrap_target"),
            wrap=lambda: self.items.append(".wrap"),
            nop=lambda: self._add("nop"),
            pull=lambda *a: self._add(" ".join(["pull", *a]) if a else "pull block"),
            push=lambda *a: self._add(" ".join(["push", *a]) if a else "push block"),
            set=lambda dest, value: self._add(f"set {dest}, {value}"),
            out=lambda dest, n: self._add(f"out {dest}, {n}"),
            in_=lambda src, n: self._add(f"in {src}, {n}"),
            mov=lambda dest, src: self._add(f"mov {dest}, {src}"),
            jmp=lambda cond, target=None: self._add(
                f"jmp {cond}" if target is None else f"jmp {cond} {target}"
            ),
            wait=lambda polarity, src, index: self._add(f"wait {polarity} {src} {index}"),
            irq=lambda *a: self._add("irq " + " ".join(str(x) for x in a)),
        )
        return ns


# The entries of the list `rp2.asm_pio` returns (ports/rp2/modules/rp2.py), by MicroPython
# release: 1.26 added PIO2's program offset before EXECCTRL.
LAYOUTS = {
    "1.26": ("data", "offset_pio0", "offset_pio1", "offset_pio2", "execctrl", "shiftctrl",
             "out_pins", "set_pins", "sideset_pins"),
    "1.25": ("data", "offset_pio0", "offset_pio1", "execctrl", "shiftctrl", "out_pins",
             "set_pins", "sideset_pins"),
}  # fmt: skip


class Program:
    """A recorded program: pioasm `text`, its opcodes, wrap points and the asm_pio settings.

    Indexing and len() give the words of an rp2 asm_pio program list laid out as the chosen
    MicroPython release lays it out (`layout`, a key of LAYOUTS), so the firmware's
    `prog[i] |= 1` works on both and a test sees which word it changed."""

    def __init__(self, name, items, settings, layout="1.26"):
        self.name = name
        self.settings = settings
        self.layout = LAYOUTS[layout]
        self.words = [0 if name.endswith("ctrl") else None for name in self.layout]
        self.words[1:3] = [-1, -1]
        sideset = [i for i in items if isinstance(i, Instr) and i.side_value is not None]
        instrs = [i for i in items if isinstance(i, Instr)]
        header = [f".program {name}"]
        if sideset:
            opt = " opt" if len(sideset) < len(instrs) else ""
            header.append(f".side_set 1{opt}")
        body = [i.source() if isinstance(i, Instr) else i for i in items]
        self.text = "\n".join(header + body) + "\n"
        self.labels = {}  # label -> index of the instruction it names
        for item in items:
            if isinstance(item, Instr):
                continue
            if item.endswith(":"):
                self.labels[item[:-1]] = sum(
                    isinstance(i, Instr) for i in items[: items.index(item)]
                )
        assembled = adafruit_pioasm.Program(self.text)
        self.opcodes = list(assembled.assembled)
        self.wrap_target = assembled.pio_kwargs.get("wrap_target", 0)
        self.wrap = assembled.pio_kwargs.get("wrap", len(self.opcodes) - 1)

    def __len__(self):
        return len(self.words)

    def __getitem__(self, index):
        return self.words[index]

    def __setitem__(self, index, value):
        self.words[index] = value

    def word(self, name):
        return self.words[self.layout.index(name)]

    @property
    def status_n(self):
        """EXECCTRL.STATUS_N: `mov(x, status)` is all ones while the TX FIFO holds fewer."""
        return self.word("execctrl") & 0xF


def fake_rp2(layout="1.26"):
    mod = types.ModuleType("rp2")
    mod.PIO = types.SimpleNamespace(
        OUT_LOW=2,
        OUT_HIGH=3,
        IN_LOW=0,
        IN_HIGH=1,
        SHIFT_LEFT=0,
        SHIFT_RIGHT=1,
        JOIN_NONE=0,
        JOIN_TX=1,
        JOIN_RX=2,
    )

    def asm_pio(**settings):
        def assemble(fn):
            rec = Recorder()
            types.FunctionType(fn.__code__, rec.namespace())()
            return Program(fn.__name__, rec.items, settings, layout)

        return assemble

    mod.asm_pio = asm_pio
    return mod


def load_pio_module(path, layout="1.26"):
    """Import firmware/hal/ir_pio.py with the recording rp2 of a MicroPython release's `layout`:
    its programs become Program objects."""
    saved = sys.modules.get("rp2")
    sys.modules["rp2"] = fake_rp2(layout)
    try:
        spec = importlib.util.spec_from_file_location("ir_pio_recorded", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        if saved is None:
            del sys.modules["rp2"]
        else:
            sys.modules["rp2"] = saved


FIRMWARE_PIO = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    "firmware",
    "hal",
    "ir_pio.py",
)

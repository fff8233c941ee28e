// PIO state machines stepped on emulated time, in time order with the board's pin inputs.
//
// rp2040js runs PIO from a setTimeout loop outside emulated time and ignores clock dividers
// and delay cycles. Here each enabled state machine ticks every CLKDIV system clocks (integer
// and fractional parts honoured) of emulated time, an instruction with a delay holds the
// machine for its delay cycles, and pin changes are reported with the time they happened. The
// board's state machines and its scheduled pin inputs are stepped together, earliest first
// (`run`), by the fabric (fabric.mjs); anything else a machine can see changing (a FIFO written
// or read, a PIO register) calls `changing(t)` first.
//
// Two ways not to step a machine whose future is already known, both exact:
//
// - Parking: a machine that comes back to its wrap target in exactly the state it had on the
//   previous turn, with nothing it can see having changed and no pin written on the way, is in
//   a steady loop (an idle face polling a dark line). It is not stepped while that lasts; when
//   something changes at time t, it resumes at the last whole turn of its loop before t.
// - Coasting: an isolated machine (what it reads can only change through the board's inputs:
//   its pins are no state machine's, no IRQ flag it waits for, no DMA channel of another's on
//   its FIFOs) goes, from a given state, through the same instructions every time until it
//   does something observable (writes a pin, pushes, pulls, raises an IRQ) or parks. The first
//   time, that stretch is stepped and remembered (its length and its end); the next times the
//   machine jumps to its end. If anything changes before the end, the machine goes back to the
//   stretch's start and is stepped up to that moment. (The faces' quiet wait of 2,575 clocks
//   after every byte is such a stretch: one jump instead of ~1,700 steps.)
//
// Lookahead: `emitBound()` is the earliest time any machine of the board could write a pin,
// from each machine's place in its program (pio_program.mjs: the fewest cycles along any path
// to an instruction that writes pins). The fabric lets other boards run ahead up to there.

import { analyse } from './pio_program.mjs';

const CTRL = 0x000;
const INSTR_MEM0 = 0x048;
const SM3_PINCTRL = 0x124;
const TXF0 = 0x010;
const RXF0 = 0x020;
const FUNCTION_PIO0 = 6;
const FUNCTION_PIO1 = 7;
const DMA_EN = 1;
const MEMO_ENTRIES = 64; // stretches remembered a machine (its program's few ways)
const MIN_STRETCH_CLOCKS = 64; // a shorter stretch costs more to remember than to step

export class PioClock {
  /**
   * @param mcu the RP2040
   * @param onPins called as onPins(timeNs) when a step changed PIO outputs, just before the
   *   GPIO listeners run, and onPins(-1) after them, so that they can read when it happened
   */
  constructor(mcu, onPins) {
    this.mcu = mcu;
    this.onPins = onPins;
    // DORMANT (dormant.mjs): the machines' clock stands still, so an input that changes
    // meanwhile steps none of them; they go on from where they stopped once it runs again
    this.frozen = false;
    mcu.addClockListener(() => {
      this.changing(this.now()); // what ran so far ran at the old rate
      for (const m of this.machines) {
        m.period = this.periodNs(m.sm);
      }
    });
    this.machines = [];
    this.on = []; // the enabled machines
    this.stepNs = -1; // the time of the step under way (a DMA transfer inside it uses it)
    mcu.pio.forEach((pio, block) => {
      pio.run = () => {}; // no free-running loop: we step it
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (offset, value) => {
        const t = this.now();
        this.changing(t);
        write(offset, value);
        if (offset === CTRL) {
          this.syncEnabled(t);
        }
        if (offset >= INSTR_MEM0 && offset <= SM3_PINCTRL) {
          for (const m of this.machines) {
            if (m.pio === pio) {
              m.prog = null; // its program, wrap or pin mapping may have changed
              m.memo.clear();
              m.short.fill(0);
              m.iso = null;
              m.period = this.periodNs(m.sm);
            }
          }
        }
        this.reportPins(pio, t); // an instruction the CPU made a machine execute
      };
      pio.machines.forEach((sm, index) => {
        const base = 0x50200000 + block * 0x100000;
        const m = {
          pio,
          sm,
          txf: base + TXF0 + 4 * index, // its FIFOs' addresses, as a DMA channel names them
          rxf: base + RXF0 + 4 * index,
          on: false,
          nextNs: 0,
          period: 0, // ns a clock of the machine
          prog: null,
          // parking
          parked: false,
          sig: new Float64Array(9), // its state at the wrap target on the turn before
          sigValid: false,
          lastNs: 0,
          loopNs: 0,
          wrote: false, // a pin was written since the last turn began
          turnDist: Infinity, // the nearest a pin write was, in cycles, during the turn
          loopDist: Infinity, // the same for the loop it is parked in
          // coasting
          iso: null, // isolated (null: to be found out again)
          memo: new Map(), // state at a stretch's start -> the stretch
          short: new Uint8Array(32), // a stretch from that instruction was short: not worth it
          segStart: true, // the next step starts a stretch
          rec: null, // the stretch being stepped for the first time
          coast: null, // the stretch it is jumping over: {startNs, endNs, start, dist}
        };
        this.machines.push(m);
        // its FIFOs are seen by it alone
        const writeFIFO = sm.writeFIFO.bind(sm);
        sm.writeFIFO = (value) => {
          this.catchUp(m, this.now());
          writeFIFO(value);
        };
        const readFIFO = sm.readFIFO.bind(sm);
        sm.readFIFO = () => {
          this.catchUp(m, this.now());
          return readFIFO();
        };
      });
    });
  }

  /** The time of whatever touches the machines: a step's, else the CPU's (the fabric is
   * brought to the CPU's time before the CPU touches PIO). */
  now() {
    return this.stepNs >= 0 ? this.stepNs : this.mcu.clock.nanos;
  }

  /** The CPU wrote something that may change what a machine depends on (a pin's function, a
   * DMA channel): whether each machine is isolated is found out again. */
  configChanged() {
    for (const m of this.machines) {
      m.iso = null;
    }
  }

  /** Machines just enabled start ticking at t; disabled ones stop. */
  syncEnabled(t) {
    for (const m of this.machines) {
      if (m.sm.enabled && !m.on) {
        m.on = true;
        m.nextNs = t;
        m.parked = false;
        m.coast = null;
        forget(m);
        m.period = this.periodNs(m.sm);
      } else if (!m.sm.enabled) {
        m.on = false;
      }
    }
    this.on = this.machines.filter((m) => m.on);
  }

  periodNs(sm) {
    const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
    return (div * 1e9) / this.mcu.clkSys;
  }

  /** Something the machines can see changes at time t (pin >= 0: that pin's input, seen only
   * by the machines that read it): parked ones resume where they would be, coasting ones go
   * back to their stretch's start, and each is stepped up to just before t. */
  changing(t, pin = -1) {
    for (const m of this.on) {
      if (pin < 0 || this.reads(m, 1 << pin)) {
        this.catchUp(m, t);
      }
    }
  }

  catchUp(m, t) {
    if (!m.on || this.frozen) {
      return;
    }
    if (m.coast !== null && t < m.coast.endNs) {
      setRegs(m.sm, m.coast.start); // the stretch is cut short: step it up to t
      m.nextNs = m.coast.startNs;
      m.parked = false;
    }
    m.coast = null;
    if (m.parked) {
      const turns = Math.floor((t - m.nextNs) / m.loopNs);
      if (turns > 0) {
        m.nextNs += turns * m.loopNs;
      }
      m.parked = false;
    }
    while (m.nextNs < t) {
      this.stepOnce(m, false);
    }
    forget(m);
  }

  /** Whether machine m reads any of the pins in `mask`. */
  reads(m, mask) {
    return ((m.prog || this.program(m)).readMask & mask) !== 0;
  }

  /** The earliest time a machine steps (Infinity when all are off or parked). */
  nextNs() {
    let next = Infinity;
    for (const m of this.on) {
      if (!m.parked && m.nextNs < next) {
        next = m.nextNs;
      }
    }
    return next;
  }

  /** The earliest time a machine could write a pin; `inputOn(mask)` is the time of the
   * board's next input on those pins. A parked or coasting machine goes on as known until a
   * change: an input on a pin it reads, or, for one not isolated, any input or anything a
   * running machine of the board does (the CPU does nothing while the fabric runs); then it
   * goes on from where it is, never nearer a pin write than it came in its loop or stretch. */
  emitBound(inputOn) {
    let bound = Infinity;
    let running = -1; // found when first needed
    for (const m of this.on) {
      const prog = m.prog || this.program(m);
      let t;
      if (m.parked || m.coast !== null) {
        let wake;
        if (this.isolated(m)) {
          wake = inputOn(prog.readMask);
        } else {
          if (running < 0) {
            running = this.nextNs();
          }
          wake = Math.min(inputOn(-1), running);
        }
        if (m.parked) {
          t = Math.max(wake, m.nextNs) + m.loopDist * m.period;
        } else {
          const known = m.nextNs + prog.dist[m.sm.pc] * m.period; // from the stretch's end
          t = Math.min(known, Math.max(wake, m.coast.startNs) + m.coast.dist * m.period);
        }
      } else {
        t = m.nextNs + prog.dist[m.sm.pc] * m.period;
      }
      if (t < bound) {
        bound = t;
      }
    }
    return bound;
  }

  /** Step the machines, and run the inputs due, in time order, up to just before h (an input
   * and a step at the same time: the input first). `inputs` is an EventQueue. */
  run(h, inputs) {
    for (;;) {
      let m = null;
      let s = Infinity;
      let other = Infinity;
      for (const x of this.on) {
        if (!x.parked) {
          if (x.nextNs < s) {
            other = s;
            s = x.nextNs;
            m = x;
          } else if (x.nextNs < other) {
            other = x.nextNs;
          }
        }
      }
      const a = inputs.nextT;
      if (a <= s) {
        if (a >= h) {
          return;
        }
        inputs.runNext();
        continue;
      }
      if (s >= h) {
        return;
      }
      // the earliest machine runs on while it stays the earliest
      do {
        this.stepOnce(m, true);
      } while (m.on && !m.parked && m.nextNs < other && m.nextNs < h && m.nextNs < inputs.nextT);
    }
  }

  /** One step of machine m at m.nextNs; `mayPark`: a step in time order (not a replay before a
   * change), which may park the machine or start, end or jump over a stretch. */
  stepOnce(m, mayPark) {
    const { sm, pio } = m;
    const prog = m.prog || this.program(m);
    if (m.coast !== null && m.nextNs >= m.coast.endNs) {
      m.coast = null; // the stretch jumped over is behind it
    }
    if (mayPark) {
      if (m.segStart && !sm.waiting) {
        m.segStart = false;
        if (this.startStretch(m, prog)) {
          return; // it jumped to the stretch's end
        }
      }
      if (sm.pc === sm.wrapBottom && !sm.waiting) {
        if (!m.wrote && m.sigValid && sameState(m.sig, sm)) {
          m.parked = true;
          m.loopNs = m.nextNs - m.lastNs;
          m.loopDist = m.turnDist;
          this.endStretch(m, true);
          return;
        }
        saveState(m.sig, sm);
        m.sigValid = true;
        m.lastNs = m.nextNs;
        m.wrote = false;
        m.turnDist = Infinity;
      }
      if (prog.observable[sm.pc] || sm.waiting) {
        this.endStretch(m, false);
        m.segStart = true; // after this instruction a new stretch begins
      }
    }
    if (prog.writes[sm.pc]) {
      m.wrote = true;
    }
    const d = prog.dist[sm.pc];
    if (d < m.turnDist) {
      m.turnDist = d;
    }
    if (m.rec !== null && d < m.rec.dist) {
      m.rec.dist = d;
    }
    const before = sm.cycles;
    const outer = this.stepNs; // a step can happen inside another's (a DMA write unparks)
    this.stepNs = m.nextNs;
    sm.step();
    this.reportPins(pio, m.nextNs, m);
    this.stepNs = outer;
    const used = sm.cycles - before;
    m.nextNs += (used > 0 ? used : 1) * m.period;
  }

  /** At a stretch's start: jump over it if it is known (returns true), else remember it. */
  startStretch(m, prog) {
    if (m.short[m.sm.pc] || prog.observable[m.sm.pc] || !this.isolated(m)) {
      return false;
    }
    const key = stretchKey(m.sm, prog, this.mcu);
    const known = m.memo.get(key);
    if (known === undefined) {
      m.rec = { key, pc: m.sm.pc, startNs: m.nextNs, dist: Infinity };
      return false;
    }
    const start = new Float64Array(7);
    saveRegs(start, m.sm);
    const endNs = m.nextNs + known.clocks * m.period;
    m.coast = { startNs: m.nextNs, endNs, start, dist: known.dist };
    setRegs(m.sm, known.end);
    m.nextNs = endNs;
    if (known.parks) {
      // it comes back to its wrap target in the state it had a turn before: it parks there
      saveState(m.sig, m.sm);
      m.sigValid = true;
      m.lastNs = endNs - known.loopClocks * m.period;
      m.wrote = false;
      m.turnDist = known.loopDist;
    }
    return true;
  }

  /** The stretch being stepped for the first time ends (at an observable instruction, or by
   * parking): remember where it goes. */
  endStretch(m, parks) {
    const rec = m.rec;
    m.rec = null;
    if (rec === null) {
      return;
    }
    const clocks = Math.round((m.nextNs - rec.startNs) / m.period);
    if (clocks < MIN_STRETCH_CLOCKS) {
      m.short[rec.pc] = 1; // cheaper to step than to look up: not from there again
      return;
    }
    if (m.memo.size >= MEMO_ENTRIES) {
      m.memo.clear();
    }
    const end = new Float64Array(7);
    saveRegs(end, m.sm);
    m.memo.set(rec.key, {
      clocks,
      end,
      dist: rec.dist,
      parks,
      loopClocks: parks ? Math.round(m.loopNs / m.period) : 0,
      loopDist: m.loopDist,
    });
  }

  /** Whether only the board's inputs can change what machine m reads (see the header). */
  isolated(m) {
    if (m.iso === null) {
      m.iso = this.findIsolated(m);
    }
    return m.iso;
  }

  findIsolated(m) {
    const prog = this.program(m);
    if (prog.waitsIrq) {
      return false;
    }
    const pins = prog.readMask;
    const gpio = this.mcu.gpio;
    for (let pin = 0; pin < gpio.length; pin++) {
      const f = gpio[pin].functionSelect;
      if (pins & (1 << pin) && (f === FUNCTION_PIO0 || f === FUNCTION_PIO1)) {
        return false; // a state machine may drive it
      }
    }
    const { dreqTx, dreqRx } = m.sm;
    for (const channel of this.mcu.dma.channels) {
      if (channel.ctrl & DMA_EN) {
        const t = channel.treqValue;
        const other =
          (channel.writeAddr === m.txf && t !== dreqTx) ||
          (channel.readAddr === m.rxf && t !== dreqRx);
        if (other) {
          return false; // its FIFOs move at another's pace
        }
      }
    }
    return true;
  }

  /** PIO outputs changed at t (by machine `by`, or the CPU): the GPIO listeners hear it, and
   * the machines that read those pins see it. */
  reportPins(pio, t, by = null) {
    const changed =
      (pio.pinValues ^ pio.oldPinValues) | (pio.pinDirections ^ pio.oldPinDirections);
    if (changed) {
      this.onPins(t);
      pio.checkChangedPins();
      this.onPins(-1);
      for (const m of this.on) {
        if (m !== by && this.reads(m, changed)) {
          this.catchUp(m, t);
        }
      }
    }
  }

  program(m) {
    if (m.prog === null) {
      m.prog = analyse(m.pio, m.sm);
    }
    return m.prog;
  }
}

/** A change: the turn before, and the stretch under way, prove nothing about after it. */
function forget(m) {
  m.sigValid = false;
  m.rec = null;
  m.segStart = true;
}

/** A stretch's start: its registers, FIFO levels and the levels of the pins it reads. */
function stretchKey(sm, prog, mcu) {
  let pins = 0;
  if (prog.readsInPins) {
    pins = mcu.gpioValues;
  } else {
    if (prog.readsJmpPin && mcu.gpio[sm.jmpPin].inputValue) {
      pins = 1;
    }
    for (let pin = 0, mask = prog.waitGpio; mask; pin++, mask >>>= 1) {
      if (mask & 1 && mcu.gpio[pin].inputValue) {
        pins |= 2 << pin;
      }
    }
  }
  return `${sm.pc},${sm.x},${sm.y},${sm.inputShiftReg},${sm.inputShiftCount},${sm.outputShiftReg},${sm.outputShiftCount},${sm.txFIFO.itemCount},${sm.rxFIFO.itemCount},${pins}`;
}

function saveRegs(regs, sm) {
  regs[0] = sm.pc;
  regs[1] = sm.x;
  regs[2] = sm.y;
  regs[3] = sm.inputShiftReg;
  regs[4] = sm.inputShiftCount;
  regs[5] = sm.outputShiftReg;
  regs[6] = sm.outputShiftCount;
}

function setRegs(sm, regs) {
  sm.pc = regs[0];
  sm.x = regs[1];
  sm.y = regs[2];
  sm.inputShiftReg = regs[3];
  sm.inputShiftCount = regs[4];
  sm.outputShiftReg = regs[5];
  sm.outputShiftCount = regs[6];
}

// A machine's state at its wrap target: what must repeat for it to be in a steady loop.
function saveState(state, sm) {
  saveRegs(state, sm);
  state[7] = sm.txFIFO.itemCount;
  state[8] = sm.rxFIFO.itemCount;
}

function sameState(state, sm) {
  return (
    state[0] === sm.pc &&
    state[1] === sm.x &&
    state[2] === sm.y &&
    state[3] === sm.inputShiftReg &&
    state[4] === sm.inputShiftCount &&
    state[5] === sm.outputShiftReg &&
    state[6] === sm.outputShiftCount &&
    state[7] === sm.txFIFO.itemCount &&
    state[8] === sm.rxFIFO.itemCount
  );
}

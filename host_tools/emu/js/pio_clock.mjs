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
// Parking: a machine that comes back to its wrap target in exactly the state it had on the
// previous turn, with nothing it can see having changed and no pin written on the way, is in a
// steady loop (an idle face polling a dark line). It is not stepped while that lasts; when
// something changes at time t, it resumes at the last whole turn of its loop before t, which is
// exactly where it would have been. This keeps six idle faces per tile cheap to emulate.
//
// Lookahead: `emitBound()` is the earliest time any machine of the board could write a pin,
// from each machine's place in its program (the fewest cycles along any path to an instruction
// that writes pins, side-set included). The fabric lets other boards run ahead up to there.

const CTRL = 0x000;
const INSTR_MEM0 = 0x048;
const SM3_PINCTRL = 0x124;
const EXECCTRL_SIDE_EN = 1 << 30;

export class PioClock {
  /**
   * @param mcu the RP2040
   * @param onPins called as onPins(timeNs) when a step changed PIO outputs, just before the
   *   GPIO listeners run, and onPins(-1) after them, so that they can read when it happened
   */
  constructor(mcu, onPins) {
    this.mcu = mcu;
    this.onPins = onPins;
    mcu.addClockListener(() => {
      for (const m of this.machines) {
        m.period = this.periodNs(m.sm);
      }
    });
    this.machines = [];
    this.on = []; // the enabled machines
    this.stepNs = -1; // the time of the step under way (a DMA transfer inside it uses it)
    for (const pio of mcu.pio) {
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
              m.period = this.periodNs(m.sm);
            }
          }
        }
        this.reportPins(pio, t); // an instruction the CPU made a machine execute
      };
      for (const sm of pio.machines) {
        const writeFIFO = sm.writeFIFO.bind(sm);
        sm.writeFIFO = (value) => {
          this.changing(this.now());
          writeFIFO(value);
        };
        const readFIFO = sm.readFIFO.bind(sm);
        sm.readFIFO = () => {
          this.changing(this.now());
          return readFIFO();
        };
        this.machines.push({
          pio,
          sm,
          on: false,
          nextNs: 0,
          parked: false,
          sig: new Float64Array(9), // its state at the wrap target on the turn before
          sigValid: false,
          lastNs: 0,
          loopNs: 0,
          wrote: false, // a pin was written since the last turn began
          turnDist: Infinity, // the nearest a pin write was, in cycles, during the turn
          loopDist: Infinity, // the same for the loop it is parked in
          prog: null,
          period: 0, // ns a clock of the machine
        });
      }
    }
  }

  /** The time of whatever touches the machines: a step's, else the CPU's (the fabric is
   * brought to the CPU's time before the CPU touches PIO). */
  now() {
    return this.stepNs >= 0 ? this.stepNs : this.mcu.clock.nanos;
  }

  /** Machines just enabled start ticking at t; disabled ones stop. */
  syncEnabled(t) {
    for (const m of this.machines) {
      if (m.sm.enabled && !m.on) {
        m.on = true;
        m.nextNs = t;
        m.parked = false;
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

  /** Something the machines can see changes at time t: parked ones resume where they would
   * be, and every machine is stepped up to just before t. */
  changing(t) {
    for (const m of this.on) {
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

  /** The earliest time a machine could write a pin, given the board's next input at time
   * `input`. A parked machine waits for a change: an input, or something a running machine of
   * the board does (the CPU does nothing while the fabric runs); then it goes on from where it
   * is in its loop, never nearer a pin write than the loop ever came. */
  emitBound(input) {
    const running = this.nextNs();
    const wake = Math.min(running, input);
    let bound = Infinity;
    for (const m of this.on) {
      const t = m.parked
        ? wake + m.loopDist * m.period
        : m.nextNs + this.program(m).dist[m.sm.pc] * m.period;
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

  stepOnce(m, mayPark) {
    const { sm, pio } = m;
    const prog = m.prog || this.program(m);
    if (mayPark && sm.pc === sm.wrapBottom && !sm.waiting) {
      if (!m.wrote && m.sigValid && sameState(m.sig, sm)) {
        m.parked = true;
        m.loopNs = m.nextNs - m.lastNs;
        m.loopDist = m.turnDist;
        return;
      }
      saveState(m.sig, sm);
      m.sigValid = true;
      m.lastNs = m.nextNs;
      m.wrote = false;
      m.turnDist = Infinity;
    }
    if (prog.writes[sm.pc]) {
      m.wrote = true;
    }
    if (prog.dist[sm.pc] < m.turnDist) {
      m.turnDist = prog.dist[sm.pc];
    }
    const before = sm.cycles;
    const outer = this.stepNs; // a step can happen inside another's (a DMA write unparks)
    this.stepNs = m.nextNs;
    sm.step();
    this.reportPins(pio, m.nextNs);
    this.stepNs = outer;
    const used = sm.cycles - before;
    m.nextNs += (used > 0 ? used : 1) * m.period;
  }

  reportPins(pio, t) {
    if (pio.pinValues !== pio.oldPinValues || pio.pinDirections !== pio.oldPinDirections) {
      this.onPins(t);
      pio.checkChangedPins();
      this.onPins(-1);
    }
  }

  program(m) {
    if (m.prog === null) {
      m.prog = analyse(m.pio, m.sm);
    }
    return m.prog;
  }
}

/** A turn of the loop before a change proves nothing about after it. */
function forget(m) {
  m.sigValid = false;
}

// A machine's state at its wrap target: what must repeat for it to be in a steady loop.
function saveState(state, sm) {
  state[0] = sm.pc;
  state[1] = sm.x;
  state[2] = sm.y;
  state[3] = sm.inputShiftReg;
  state[4] = sm.inputShiftCount;
  state[5] = sm.outputShiftReg;
  state[6] = sm.outputShiftCount;
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

/**
 * A machine's program as the lookahead needs it: writes[pc] (the instruction at pc can write
 * pins: SET/OUT/MOV to pins or pindirs, side-set, or a jump anywhere through OUT/MOV to PC or
 * EXEC) and dist[pc] (the fewest cycles from starting pc to starting such an instruction, along
 * any path: both ways of every conditional jump, waits that end at once).
 */
export function analyse(pio, sm) {
  const sideCount = sm.sidesetCount;
  const sideEn = !!(sm.execCtrl & EXECCTRL_SIDE_EN);
  const writes = new Uint8Array(32);
  const cost = new Float64Array(32);
  const next = [];
  for (let pc = 0; pc < 32; pc++) {
    const op = pio.instructions[pc];
    const delaySide = (op >> 8) & 0x1f;
    cost[pc] = 1 + (delaySide & ((1 << (5 - sideCount)) - 1));
    let w = sideCount > 0 && (!sideEn || (delaySide & 0x10) !== 0);
    const dest = (op >> 5) & 7;
    const fall = pc === sm.wrapTop ? sm.wrapBottom : (pc + 1) & 31;
    let succ = [fall];
    switch (op >>> 13) {
      case 0: // JMP
        succ = dest === 0 ? [op & 0x1f] : [op & 0x1f, fall];
        break;
      case 3: // OUT: PINS, PINDIRS, PC, EXEC
        w = w || dest === 0 || dest === 4 || dest === 5 || dest === 7;
        break;
      case 5: // MOV: PINS, EXEC, PC
        w = w || dest === 0 || dest === 4 || dest === 5;
        break;
      case 7: // SET: PINS, PINDIRS
        w = w || dest === 0 || dest === 4;
        break;
    }
    writes[pc] = w ? 1 : 0;
    next.push(succ);
  }
  const dist = new Float64Array(32).fill(Infinity);
  for (let pc = 0; pc < 32; pc++) {
    if (writes[pc]) {
      dist[pc] = 0;
    }
  }
  for (let round = 0; round < 32; round++) {
    let changed = false;
    for (let pc = 0; pc < 32; pc++) {
      for (const s of next[pc]) {
        const d = cost[pc] + dist[s];
        if (d < dist[pc]) {
          dist[pc] = d;
          changed = true;
        }
      }
    }
    if (!changed) {
      break;
    }
  }
  return { writes, dist };
}

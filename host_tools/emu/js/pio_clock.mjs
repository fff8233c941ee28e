// PIO state machines stepped on the board's emulated clock.
//
// rp2040js runs PIO from a setTimeout loop outside emulated time and ignores clock dividers
// and delay cycles. Here each enabled state machine ticks every CLKDIV system clocks (integer
// and fractional parts honoured) on the board's clock, an instruction with a delay holds the
// machine for its delay cycles, and pin changes are reported with the time they happened.
// Before anything a machine can see changes (an input pin, a FIFO written or read by the CPU
// or a DMA channel, a PIO register), the machines are first run up to that moment.
//
// Parking: a machine that comes back to its wrap target in exactly the state it had on the
// previous turn, with nothing it can see having changed, is in a steady loop (an idle face
// polling a dark line). It is not stepped while that lasts; when something changes at time t,
// it resumes at the last whole turn of its loop before t, which is exactly where it would have
// been. This is what keeps six idle faces per tile cheap to emulate.

const CTRL = 0x000;

export class PioClock {
  /**
   * @param mcu the RP2040
   * @param onPins called as onPins(timeNs) when a step changed PIO outputs, just before the
   *   GPIO listeners run, so that they can read when the change happened
   */
  constructor(mcu, onPins) {
    this.mcu = mcu;
    this.onPins = onPins;
    this.machines = [];
    for (const pio of mcu.pio) {
      pio.run = () => {}; // no free-running loop: we step it
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (offset, value) => {
        this.changing(mcu.clock.nanos);
        write(offset, value);
        if (offset === CTRL) {
          this.syncEnabled();
        }
      };
      for (const sm of pio.machines) {
        const writeFIFO = sm.writeFIFO.bind(sm);
        sm.writeFIFO = (value) => {
          this.changing(mcu.clock.nanos);
          writeFIFO(value);
        };
        const readFIFO = sm.readFIFO.bind(sm);
        sm.readFIFO = () => {
          this.changing(mcu.clock.nanos);
          return readFIFO();
        };
        this.machines.push({ pio, sm, on: false, nextNs: 0, parked: false, sig: '', lastNs: 0, loopNs: 0 });
      }
    }
  }

  /** Machines just enabled start ticking now; disabled ones stop. */
  syncEnabled() {
    const now = this.mcu.clock.nanos;
    for (const m of this.machines) {
      if (m.sm.enabled && !m.on) {
        m.on = true;
        m.nextNs = now;
        m.parked = false;
        m.sig = '';
      } else if (!m.sm.enabled) {
        m.on = false;
      }
    }
  }

  periodNs(sm) {
    const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
    return (div * 1e9) / this.mcu.clkSys;
  }

  /** Something the machines can see changes at time t: run them up to just before it. */
  changing(t) {
    for (const m of this.machines) {
      if (!m.on) {
        continue;
      }
      if (m.parked) {
        const turns = Math.floor((t - m.nextNs) / m.loopNs);
        if (turns > 0) {
          m.nextNs += turns * m.loopNs;
        }
        m.parked = false;
      }
      m.sig = ''; // a turn of the loop before this change proves nothing about after it
      if (m.nextNs < t) {
        this.step(m, t, false);
      }
    }
  }

  /** True when no machine needs stepping: each is off or parked in its steady loop. */
  quiet() {
    for (const m of this.machines) {
      if (m.on && !m.parked) {
        return false;
      }
    }
    return true;
  }

  /** Step every enabled machine up to and including time t. */
  runUntil(t) {
    for (const m of this.machines) {
      if (m.on && !m.parked && m.nextNs <= t) {
        this.step(m, t, true);
      }
    }
  }

  step(m, t, inclusive) {
    const { sm, pio } = m;
    const period = this.periodNs(sm);
    const wrapBottom = sm.wrapBottom;
    while (inclusive ? m.nextNs <= t : m.nextNs < t) {
      if (inclusive && sm.pc === wrapBottom && !sm.waiting) {
        const sig = signature(sm);
        if (m.sig === sig) {
          m.parked = true;
          m.loopNs = m.nextNs - m.lastNs;
          return;
        }
        m.sig = sig;
        m.lastNs = m.nextNs;
      }
      const before = sm.cycles;
      sm.step();
      const used = sm.cycles - before;
      if (pio.pinValues !== pio.oldPinValues || pio.pinDirections !== pio.oldPinDirections) {
        this.onPins(m.nextNs);
        pio.checkChangedPins();
      }
      m.nextNs += (used > 0 ? used : 1) * period;
    }
  }
}

function signature(sm) {
  return `${sm.pc}|${sm.x}|${sm.y}|${sm.inputShiftReg}|${sm.inputShiftCount}|${sm.outputShiftReg}|${sm.outputShiftCount}|${sm.txFIFO.itemCount}|${sm.rxFIFO.itemCount}`;
}

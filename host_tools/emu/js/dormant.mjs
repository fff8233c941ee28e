// DORMANT: a board's crystal oscillator stopped, so every clock stops, until a GPIO edge or
// level it enabled for waking (RP2040 datasheet 2.11.5 and 2.19.6.3).
//
// MicroPython's machine.lightsleep() with no argument (ports/rp2/modmachine.c) moves clk_ref
// and clk_sys onto the crystal (XOSC), stops the PLLs, the USB clock and the ring oscillator,
// then writes "coma" to XOSC DORMANT (pico-sdk xosc_dormant()) and spins on XOSC STATUS until
// the crystal is stable again; what wakes it is set beforehand in IO_BANK0's DORMANT_WAKE_INTE
// registers (MicroPython has no call for that; a program writes them). rp2040js stops the
// crystal but nothing ever wakes it, and has no DORMANT_WAKE registers: a lightsleep span for
// ever, at full speed.
//
// Here, on "coma" the board stops: its CPU runs no instruction, its state machines step no
// more, its timer, watchdog, SysTick, PWM and RTC count nothing (they all run from the stopped
// crystal), and it costs no emulation time. An enabled edge or level on a pin (DORMANT_WAKE
// INTE/INTF, seen through the same edge latches as INTR) starts the crystal again; after its
// startup delay (XOSC STARTUP: 256 crystal cycles a unit, x4 if X4) everything goes on from
// where it stopped, the crystal now stable. The board's clock jumps over the time it slept:
// every pending alarm moves by that much, so nothing notices, as nothing on a board would.

const XOSC_DORMANT = 0x08;
const XOSC_STARTUP = 0x0c;
const DORMANT_VALUE = 0x636f6d61; // "coma"
const WAKE_VALUE = 0x77616b65; // "wake"
const STARTUP_X4 = 1 << 20;
const STARTUP_DELAY_BITS = 0x3fff;
const DORMANT_WAKE_INTE0 = 0x160;
const DORMANT_WAKE_INTF0 = 0x170;
const DORMANT_WAKE_INTS0 = 0x180;
const DORMANT_WAKE_INTS3 = 0x18c;

export class Dormancy {
  /**
   * @param onSleep onSleep(t): the board went dormant at time t (its CPU's)
   */
  constructor(mcu, onSleep) {
    this.mcu = mcu;
    this.asleep = false;
    this.sinceNs = 0; // the board's clock when it stopped (it stays there while asleep)
    this.pausedNs = 0; // how long the board's clocks have stood still, in all
    this.enable = new Uint8Array(mcu.gpio.length); // DORMANT_WAKE_INTE, 4 bits a pin
    this.force = new Uint8Array(mcu.gpio.length); // DORMANT_WAKE_INTF
    const xosc = mcu.peripherals[0x40024];
    this.xosc = xosc;
    const writeXosc = xosc.writeUint32.bind(xosc);
    xosc.writeUint32 = (offset, value) => {
      writeXosc(offset, value);
      if (offset === XOSC_DORMANT && value === DORMANT_VALUE && !this.asleep) {
        this.asleep = true;
        this.sinceNs = mcu.clock.nanos;
        onSleep(this.sinceNs);
      }
    };
    this.hookWakeRegisters(mcu.peripherals[0x40014]);
    // the timer counts microseconds of the crystal's time: not while the crystal stood still
    const timer = mcu.peripherals[0x40054];
    const clock = mcu.clock;
    timer.clock = {
      get nanos() {
        return clock.nanos - timer.pausedNs;
      },
      createAlarm: (callback) => clock.createAlarm(callback),
    };
    timer.pausedNs = 0;
    this.timer = timer;
  }

  hookWakeRegisters(io) {
    const read = io.readUint32.bind(io);
    const write = io.writeUint32.bind(io);
    io.readUint32 = (offset) => {
      if (offset < DORMANT_WAKE_INTE0 || offset > DORMANT_WAKE_INTS3) {
        return read(offset);
      }
      const first = (offset & 0xc) * 2; // 8 pins a register
      let value = 0;
      for (let i = 7; i >= 0; i--) {
        const pin = first + i;
        value <<= 4;
        if (pin < this.enable.length) {
          value |= this.pinBits(offset & ~0xf, pin);
        }
      }
      return value >>> 0;
    };
    io.writeUint32 = (offset, value) => {
      if (offset < DORMANT_WAKE_INTE0 || offset >= DORMANT_WAKE_INTS0) {
        write(offset, value);
        return;
      }
      const first = (offset & 0xc) * 2;
      const table = offset < DORMANT_WAKE_INTF0 ? this.enable : this.force;
      for (let i = 0; i < 8 && first + i < table.length; i++) {
        table[first + i] = (value >>> (4 * i)) & 0xf;
      }
    };
  }

  pinBits(register, pin) {
    if (register === DORMANT_WAKE_INTE0) {
      return this.enable[pin];
    }
    if (register === DORMANT_WAKE_INTF0) {
      return this.force[pin];
    }
    return (this.mcu.gpio[pin].irqStatus & this.enable[pin]) | this.force[pin]; // INTS
  }

  /** Whether an enabled edge or level is there now (what wakes the crystal). */
  woken() {
    const gpio = this.mcu.gpio;
    for (let pin = 0; pin < gpio.length; pin++) {
      if ((gpio[pin].irqStatus & this.enable[pin]) | this.force[pin]) {
        return true;
      }
    }
    return false;
  }

  /** The crystal's startup delay (XOSC STARTUP), in ns. */
  startupNs() {
    const startup = this.xosc.startup;
    const cycles = (startup & STARTUP_DELAY_BITS) * 256 * (startup & STARTUP_X4 ? 4 : 1);
    return (cycles * 1e9) / this.mcu.xoscFreq;
  }

  /** The crystal starts again: the board's clocks go on at time t, as they were when they
   * stopped. `machines` are its state machines (pio_clock.mjs), stepped on the same clocks. */
  resume(t, machines) {
    const mcu = this.mcu;
    const delta = t - this.sinceNs;
    const clock = mcu.clock;
    for (let alarm = clock.nextAlarm; alarm; alarm = alarm.next) {
      alarm.nanos += delta;
    }
    clock.nanosCounter += delta;
    this.pausedNs += delta;
    this.timer.pausedNs += delta;
    const counters = [mcu.peripherals[0x40058].timer, mcu.ppb.systickTimer];
    for (const channel of mcu.pwm.channels) {
      counters.push(channel.timer);
    }
    for (const counter of counters) {
      counter.baseNanos += delta; // a Timer32 counts from baseNanos
    }
    mcu.peripherals[0x4005c].baselineNanos += delta; // the RTC
    for (const m of machines) {
      m.nextNs += delta;
      m.lastNs += delta;
      if (m.coast !== null) {
        m.coast.startNs += delta;
        m.coast.endNs += delta;
      }
      if (m.rec !== null) {
        m.rec.startNs += delta;
      }
    }
    this.xosc.isDormant = false;
    this.xosc.dormant = WAKE_VALUE;
    this.xosc.stable = this.xosc.enabled;
    this.asleep = false;
  }
}

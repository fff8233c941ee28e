// One emulated tile: an RP2040 (rp2040js) running the official MicroPython UF2, with what the
// npm package lacks added around it, not inside it (docs/emulated-tiles.md):
//
// - flash writes (rom_flash.mjs), written through to the tile's flash image file, so stopping
//   the emulator at any moment and starting it again from the image is a power cut;
// - a USB host at the other end of the serial port (usb_host.mjs): it connects (DTR) while a
//   host process has the port open, stops taking packets while that process does not read,
//   and holds the device's read requests until it has bytes for it;
// - UART transmit interrupts raised only when a byte is written (the package keeps it raised);
// - PIO on emulated time (pio_clock.mjs), DMA at the moment of its DREQ (dma_now.mjs);
// - machine.reset() and the watchdog: the board is rebuilt from its flash, keeping the
//   watchdog's scratch registers as a watchdog reset does;
// - a unique flash ID (machine.unique_id()) and ring-oscillator random bits per tile, from
//   the tile's serial number and seed, so tiles differ but runs repeat;
// - the pins of a tile: six IR faces (each detector a model of the transceiver's receiver,
//   detector.mjs), the button, the WS2812 chain (decoded to colours);
// - DORMANT (dormant.mjs): machine.lightsleep() stops the board until a pin it enabled wakes it.
//
// A tile has two times (fabric.mjs): its CPU's (runCpu: the core, timers, USB, flash, the
// button) and its fabric's (fabricRun: state machines, DMA, the light on its detectors), which
// runs behind the CPU and is brought up to it whenever the CPU touches the fabric.

import fs from 'node:fs';
import { BasePeripheral, RP2040 } from 'rp2040js';
import { wireCpuBus } from './cpu_bus.mjs';
import { Detector } from './detector.mjs';
import { immediateDma } from './dma_now.mjs';
import { Dormancy } from './dormant.mjs';
import { EventQueue } from './events.mjs';
import { PioClock } from './pio_clock.mjs';
import { XorShift32, seedFor } from './random.mjs';
import { flashBreakpoint, patchBootrom } from './rom_flash.mjs';
import { fastThumb } from './thumb_fast.mjs';
import { forgetBlocks, runBlocks, wireBlocks } from './thumb_blocks.mjs';
import { answerUniqueId } from './unique_id.mjs';
import { UsbHost } from './usb_host.mjs';
import { Ws2812Decoder } from './ws2812.mjs';

export const FLASH_BYTES = 2 * 1024 * 1024; // a Raspberry Pi Pico's flash
const NS_PER_CYCLE = 8; // 125 MHz
const HIGH = 1; // GPIOPinState.High
const UARTDR = 0x000;
const UART_TX_INTR = 1 << 5;
const ROSC_STATUS = 0x18;
const ROSC_RANDOMBIT = 0x1c;
const DETECTOR_STREAM = 2; // seedFor's stream for the detectors (wire.mjs's loss uses another)
// interrupts the fabric can raise: PIO0 and PIO1 (two each), DMA (two), IO_BANK0
const FABRIC_IRQS = (0xf << 7) | (0x3 << 11) | (1 << 13);

/** Write a UF2 file's payload into a blank flash image. */
export function flashFromUf2(uf2) {
  const flash = new Uint8Array(FLASH_BYTES).fill(0xff);
  for (let off = 0; off + 512 <= uf2.length; off += 512) {
    const block = new DataView(uf2.buffer, uf2.byteOffset + off, 512);
    if (block.getUint32(0, true) !== 0x0a324655 || block.getUint32(4, true) !== 0x9e5d5157) {
      throw new Error('not a UF2 file');
    }
    const address = block.getUint32(12, true);
    const size = block.getUint32(16, true);
    flash.set(uf2.subarray(off + 32, off + 32 + size), address - 0x10000000);
  }
  return flash;
}

class RingOscillator extends BasePeripheral {
  // The ROSC's RANDOMBIT, from a per-tile xorshift (rp2040js leaves the ROSC unimplemented).
  constructor(mcu, seed) {
    super(mcu, 'ROSC');
    this.rng = new XorShift32(seed);
  }

  readUint32(offset) {
    if (offset === ROSC_RANDOMBIT) {
      return this.rng.bits() & 1;
    }
    if (offset === ROSC_STATUS) {
      return 0x80001000; // stable, enabled
    }
    return 0;
  }

  writeUint32() {}
}

export class EmuTile {
  /**
   * @param opts.index tile number; opts.bootrom (Uint32Array); opts.flash (Uint8Array image);
   *   opts.flashPath (image file, written through; may be null); opts.serial (8 bytes);
   *   opts.seed (the tile's); opts.clusterSeed; opts.transceiver (transceiver.py's figures);
   *   opts.ptyFd (the serial port's pseudo-terminal, or -1); opts.pins {tx: [6], rx: [6],
   *   button, pixel, pixels}
   * @param events callbacks: serial(tile, bytes), up(tile), leds(tile, rgb, ns),
   *   light(tile, face, on, ns), reset(tile, cause), sync(tile, ns) (bring the fabric and the
   *   other CPUs up to ns: this CPU is about to touch the fabric), dormant(tile, asleep, ns),
   *   stopFabric(ns) (the fabric must go no further than ns for now: a board woke up)
   */
  constructor(opts, events) {
    this.index = opts.index;
    this.bootrom = patchBootrom(opts.bootrom);
    this.flash = opts.flash;
    this.flashPath = opts.flashPath;
    this.serial = opts.serial;
    this.seed = opts.seed;
    this.pins = opts.pins;
    this.events = events;
    this.host = new UsbHost(opts.ptyFd ?? -1, (bytes) => this.events.serial(this, bytes));
    this.cpuInputs = new EventQueue(); // the button, on the CPU's time
    this.rxInputs = new EventQueue(); // the detectors' output edges, on the fabric's time
    this.rxPending = this.pins.rx.map(() => []); // each face's edges to come, in time order
    this.faceOfPin = [];
    this.pins.rx.forEach((pin, face) => (this.faceOfPin[pin] = face));
    this.inputOn = (mask) => this.nextInputOn(mask);
    this.lit = new Array(6).fill(false); // each face's emitter
    this.detectors = this.pins.rx.map(
      (_, face) =>
        new Detector(
          opts.transceiver,
          new XorShift32(seedFor(opts.clusterSeed, DETECTOR_STREAM, this.index * 8 + face)),
          (t, fn) => this.scheduleRx(face, t, fn),
          (low, t) => this.rxChanged(face, low, t),
        ),
    );
    this.buttonDown = false;
    this.scratch = new Uint32Array(8);
    this.off = false;
    this.nowNs = 0; // the CPU's time while it is off
    this.fabNs = 0; // every fabric event before this time has happened
    this.rxNowNs = -1; // the time of the input being applied
    this.running = false; // runCpu is on the stack
    this.boots = 0;
    this.busyNs = 0; // emulated time its CPU spent running (not waiting, not stalled)
    this.late = 0; // light that reached a detector in this board's past (must stay 0)
    this.lateIrqs = 0; // interrupts the fabric raised in this CPU's past
    this.lateIrqNs = 0; // the most any of them was late by
    this.shone = 0; // rising edges of light from no tile (shine)
    this.build();
  }

  /** A fresh board from the flash image: power-up, or a reset. */
  build() {
    const before = this.mcu; // the board this reset or power cut ends (undefined at first)
    const mcu = new RP2040();
    mcu.logger.currentLogLevel = 4; // errors only
    mcu.loadBootrom(this.bootrom);
    mcu.flash.set(this.flash);
    mcu.clock.tick(this.nowNs); // boards keep the cluster's time across resets
    this.mcu = mcu;
    this.stallUntil = 0;
    this.pendingReset = null;
    this.interrupted = false; // a breakpoint or the watchdog needs the CPU loop to stop
    this.boots++;
    const wd = mcu.peripherals[0x40058];
    wd.scratchData.set(this.scratch);
    wd.onWatchdogTrigger = () => {
      this.pendingReset = 'watchdog';
      this.interrupted = true;
      // the board is being reset: its watchdog counts no more (rp2040js re-arms an expired
      // watchdog's alarm at zero delay, which would fire it again at once, for ever)
      wd.alarm.enable = false;
      wd.timer.enable = false;
    };
    mcu.onBreak = (code) => {
      const ns = flashBreakpoint(mcu, code, (offset, length) => this.flashWritten(offset, length));
      if (ns < 0) {
        throw new Error(`tile ${this.index}: breakpoint ${code} at ${mcu.core.PC.toString(16)}`);
      }
      this.stallUntil = mcu.clock.nanos + ns;
      this.interrupted = true; // the CPU loop stops: the flash operation holds the CPU
    };
    for (const uart of mcu.uart) {
      uart.checkInterrupts = function () {
        this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
      };
      const write = uart.writeUint32.bind(uart);
      uart.writeUint32 = (offset, value) => {
        write(offset, value);
        if (offset === UARTDR) {
          uart.interruptStatus |= UART_TX_INTR;
          uart.checkInterrupts();
        }
      };
    }
    this.dormancy = new Dormancy(mcu, (t) => this.fallAsleep(t));
    this.resumeNs = 0; // when the board last woke from DORMANT, its crystal stable again
    answerUniqueId(mcu, this.serial);
    mcu.peripherals[0x40060] = new RingOscillator(mcu, this.seed ^ (this.boots * 0x9e3779b9));
    this.host.attach(mcu, () => this.events.up(this));
    immediateDma(mcu);
    if (process.env.BLINKS_EMU_PLAIN_CORE !== '1') {
      fastThumb(mcu.core);
      if (process.env.BLINKS_EMU_NO_BLOCKS !== '1') {
        wireBlocks(mcu.core, before?.core);
      }
    }
    wireCpuBus(mcu, (write) => {
      this.events.sync(this, mcu.clock.nanos);
      if (write) {
        this.pio.configChanged(); // a pin's function, a DMA channel: what machines depend on
      }
    });
    this.watchLateIrqs(mcu);
    this.pinTimeNs = -1;
    this.pio = new PioClock(mcu, (ns) => {
      this.pinTimeNs = ns;
    });
    const { tx, rx, button, pixel, pixels } = this.pins;
    tx.forEach((pin, face) => {
      this.lit[face] = false;
      mcu.gpio[pin].addListener((state) => {
        const on = state === HIGH; // an emitter is lit only while driven high
        if (on !== this.lit[face]) {
          this.lit[face] = on;
          const ns = this.pinTimeNs >= 0 ? this.pinTimeNs : mcu.clock.nanos;
          this.events.light(this, face, on, ns);
        }
      });
    });
    rx.forEach((pin, face) => mcu.gpio[pin].setInputValue(!this.detectors[face].low));
    mcu.gpio[button].setInputValue(!this.buttonDown);
    if (this.pins.vbus !== undefined) {
      mcu.gpio[this.pins.vbus].setInputValue(this.vbusHigh === true); // on battery: low
    }
    this.leds = new Ws2812Decoder(pixels, (rgb) => this.events.leds(this, rgb, mcu.clock.nanos));
    mcu.gpio[pixel].addListener((state) => this.leds.level(state === HIGH, mcu.clock.nanos));
    mcu.core.PC = 0x10000000; // boot2 at the start of flash, as the rp2040js demo boots
  }

  /** Count interrupts the fabric raises for a CPU already past that moment: the CPU takes
   * them late (by less than a slice). The firmware's faces raise none. */
  watchLateIrqs(mcu) {
    const core = mcu.core;
    const setInterrupt = mcu.setInterrupt.bind(mcu);
    mcu.setInterrupt = (irq, value) => {
      const bit = 1 << irq;
      if (value && bit & FABRIC_IRQS && core.enabledInterrupts & bit) {
        const t = this.pio.stepNs >= 0 ? this.pio.stepNs : this.rxNowNs;
        if (t >= 0 && !(core.pendingInterrupts & bit) && mcu.clock.nanos > t) {
          this.lateIrqs++;
          this.lateIrqNs = Math.max(this.lateIrqNs, mcu.clock.nanos - t);
        }
      }
      setInterrupt(irq, value);
    };
  }

  /** Bytes from the host (the serial port's other end). */
  hostWrite(bytes) {
    if (!this.off) {
      this.host.write(bytes);
    }
  }

  flashWritten(offset, length) {
    forgetBlocks(this.mcu.core, offset, length);
    const end = Math.min(offset + length, FLASH_BYTES);
    if (offset >= end) {
      return;
    }
    this.flash.set(this.mcu.flash.subarray(offset, end), offset);
    if (this.flashPath) {
      const fd = fs.openSync(this.flashPath, 'r+');
      fs.writeSync(fd, this.flash, offset, end - offset, offset);
      fs.closeSync(fd);
    }
  }

  // ---- the fabric's side ------------------------------------------------------------------

  /** Face `face`'s detector does something at time t (on the fabric's time). */
  scheduleRx(face, t, fn) {
    if (t < this.fabNs) {
      this.late++; // the fabric's lookahead was wrong: see fabric.mjs
      t = this.fabNs;
    }
    const pending = this.rxPending[face];
    let i = pending.length;
    while (i > 0 && pending[i - 1] > t) {
      i--;
    }
    pending.splice(i, 0, t);
    this.rxInputs.add(t, () => {
      pending.shift(); // this face's earliest, as inputs run in time order
      this.rxNowNs = t;
      fn();
      this.rxNowNs = -1;
    });
  }

  /** The board's next input on the pins of `mask` (-1: any pin). */
  nextInputOn(mask) {
    if (mask === -1) {
      return this.rxInputs.nextT;
    }
    // the fabric asks this for every parked machine of every round (a forEach with its
    // closure took a tenth of a six-tile game's wall time); a face's receiver reads one pin
    if ((mask & (mask - 1)) === 0) {
      const pending = this.rxPending[this.faceOfPin[31 - Math.clz32(mask)]]; // none: no face's pin
      return pending !== undefined && pending.length !== 0 ? pending[0] : Infinity;
    }
    const rx = this.pins.rx;
    let next = Infinity;
    for (let face = 0; face < rx.length; face++) {
      const pending = this.rxPending[face];
      if (mask & (1 << rx[face]) && pending.length !== 0 && pending[0] < next) {
        next = pending[0];
      }
    }
    return next;
  }

  /** Face `face`'s detector output goes low (a pulse) or back high at time t. */
  rxChanged(face, low, t) {
    if (this.off) {
      return;
    }
    const pin = this.mcu.gpio[this.pins.rx[face]];
    if (pin.rawInputValue !== !low) {
      this.pio.changing(t, this.pins.rx[face]);
      pin.setInputValue(!low);
      this.checkWake(t, true);
    }
  }

  // ---- DORMANT ----------------------------------------------------------------------------

  /** The CPU wrote "coma" to XOSC DORMANT at t (the fabric has reached t): everything stops. */
  fallAsleep(t) {
    this.interrupted = true; // no further instruction
    this.nowNs = t;
    this.pio.frozen = true; // a face's light while it sleeps steps no state machine
    this.events.dormant(this, true, t);
    // a level, or an edge latched before, wakes it at once: runCpu checks, once the CPU loop
    // has stopped (a wake from in here would move the clock under the instruction that wrote
    // "coma", and the loop would write its own time back over the jump)
  }

  /** A pin changed at t: if it is one that wakes the board, the crystal starts again. */
  checkWake(t, inFabric) {
    const dormancy = this.dormancy;
    if (!dormancy.asleep || !dormancy.woken()) {
      return;
    }
    const resume = t + dormancy.startupNs();
    this.pio.frozen = false;
    dormancy.resume(resume, this.pio.on);
    this.resumeNs = resume;
    this.events.dormant(this, false, t);
    if (inFabric) {
      this.events.stopFabric(resume); // this CPU goes on from there: nothing may pass it
    }
  }

  /** The earliest fabric event of this board. */
  fabricNext() {
    const a = this.rxInputs.nextT;
    if (this.off || this.dormancy.asleep) {
      return a;
    }
    const s = this.pio.nextNs();
    return s < a ? s : a;
  }

  /** The earliest time this board's fabric could change its light. */
  fabricBound() {
    if (this.off) {
      return Infinity;
    }
    if (this.dormancy.asleep) {
      return this.rxInputs.nextT + this.dormancy.startupNs(); // light could wake it
    }
    return this.pio.emitBound(this.inputOn);
  }

  /** Run this board's fabric events before time h. */
  fabricRun(h) {
    if (h <= this.fabNs) {
      return;
    }
    if (this.off) {
      while (this.rxInputs.nextT < h) {
        this.rxInputs.runNext(); // the detectors still see light; the board is not there
      }
      this.fabNs = h;
      return;
    }
    if (this.dormancy.asleep) {
      while (this.dormancy.asleep && this.rxInputs.nextT < h) {
        this.rxInputs.runNext(); // the pins still change; the state machines stand still
      }
      if (this.dormancy.asleep) {
        this.fabNs = h;
        return;
      }
      h = Math.min(h, this.resumeNs); // woken: its CPU goes on from there first
    }
    this.pio.run(h, this.rxInputs);
    this.fabNs = h;
  }

  // ---- the CPU's side ---------------------------------------------------------------------

  get cpuNs() {
    return this.off || this.dormancy.asleep ? this.nowNs : this.mcu.clock.nanos;
  }

  scheduleButton(down, t) {
    this.cpuInputs.add(t, () => {
      this.buttonDown = down;
      if (!this.off) {
        this.mcu.gpio[this.pins.button].setInputValue(!down);
        this.checkWake(t, false);
      }
    });
  }

  /** USB power plugged in (high) or out at t: the VBUS sense pin follows (a wake source). */
  scheduleVbus(high, t) {
    this.vbusHigh = high;
    this.cpuInputs.add(t, () => {
      if (!this.off) {
        this.mcu.gpio[this.pins.vbus].setInputValue(high);
        this.checkWake(t, false);
      }
    });
  }

  /** Whether the fabric could interrupt this CPU (an interrupt it raises is enabled). */
  fabricCanInterrupt() {
    const mcu = this.mcu;
    const enabled = mcu.core.enabledInterrupts & FABRIC_IRQS;
    if (!enabled) {
      return false;
    }
    const [pio0, pio1] = mcu.pio;
    const dma = mcu.dma;
    return (
      (enabled & (3 << 7) && (pio0.irq0IntEnable | pio0.irq1IntEnable) !== 0) ||
      (enabled & (3 << 9) && (pio1.irq0IntEnable | pio1.irq1IntEnable) !== 0) ||
      (enabled & (3 << 11) && (dma.intEnable0 | dma.intEnable1) !== 0) ||
      (enabled & (1 << 13) && this.pins.rx.some((pin) => mcu.gpio[pin].irqEnableMask !== 0))
    );
  }

  /** The earliest time this CPU can do anything: now while it runs; else its next alarm, the
   * end of a flash operation, or its next input (Infinity when powered off). */
  cpuWakeNs() {
    if (this.off) {
      return Infinity;
    }
    if (this.dormancy.asleep) {
      return this.cpuInputs.nextT; // only a pin wakes it (the fabric's, in the fabric)
    }
    const clock = this.mcu.clock;
    const now = clock.nanos;
    const stalled = this.stallUntil > now; // in a flash operation: the CPU does nothing
    if ((!this.mcu.core.waiting && !stalled) || this.pendingReset) {
      return now;
    }
    let t = stalled ? this.stallUntil : Infinity;
    if (clock.nextAlarm && clock.nextAlarm.nanos < t) {
      t = clock.nextAlarm.nanos;
    }
    if (this.cpuInputs.nextT < t) {
      t = this.cpuInputs.nextT;
    }
    return t;
  }

  /** Run this board's CPU up to time `end` (ns). */
  runCpu(end) {
    if (this.off) {
      while (this.cpuInputs.nextT < end) {
        this.cpuInputs.runNext(); // a button held while the power is off
      }
      this.nowNs = Math.max(this.nowNs, end);
      return;
    }
    if (this.running) {
      throw new Error(`tile ${this.index}: runCpu re-entered`);
    }
    for (;;) {
      if (this.dormancy.asleep) {
        this.checkWake(this.nowNs, false); // what was there when it fell asleep (fallAsleep)
        while (this.dormancy.asleep && this.cpuInputs.nextT < end) {
          this.cpuInputs.runNext(); // the button may wake it
        }
        if (this.dormancy.asleep) {
          this.nowNs = Math.max(this.nowNs, end);
          return;
        }
      }
      this.running = true;
      try {
        this.runCore(end);
      } finally {
        this.running = false;
      }
      if (this.pendingReset) {
        const cause = this.pendingReset;
        this.events.sync(this, this.mcu.clock.nanos); // the old board's fabric runs up to here
        this.nowNs = this.mcu.clock.nanos;
        this.scratch.set(this.mcu.peripherals[0x40058].scratchData);
        this.darken();
        this.build();
        this.events.reset(this, cause);
      } else if (!this.dormancy.asleep) {
        return;
      }
    }
  }

  runCore(end) {
    const mcu = this.mcu;
    const clock = mcu.clock;
    const core = mcu.core;
    const inputs = this.cpuInputs;
    const blocks = core.blocks !== undefined;
    const registers = core.registers;
    while (clock.nanos < end && !this.pendingReset && !this.dormancy.asleep) {
      this.interrupted = false;
      while (inputs.nextT <= clock.nanos) {
        inputs.runNext();
      }
      // (an input due while the CPU was busy applies right after that instruction: at most a
      // few cycles late)
      const limit = inputs.nextT < end ? inputs.nextT : end;
      if (core.waiting || this.stallUntil > clock.nanos) {
        let target = limit;
        if (this.stallUntil > clock.nanos && this.stallUntil < target) {
          target = this.stallUntil;
        }
        const alarm = clock.nextAlarm;
        if (alarm && alarm.nanos < target) {
          target = alarm.nanos > clock.nanos ? alarm.nanos : clock.nanos;
        }
        clock.tick(target - clock.nanos);
      } else {
        // the CPU runs: an instruction at a time, firing each alarm at its time
        let ns = clock.nanosCounter;
        const started = ns;
        while (ns < limit && !core.waiting && !this.interrupted) {
          const alarm = clock.nextAlarm;
          if (alarm !== null && alarm.nanos <= ns) {
            clock.tick(0);
            continue;
          }
          const stop = alarm !== null && alarm.nanos < limit ? alarm.nanos : limit;
          // compiled code (thumb_blocks.mjs) is looked for where a branch lands and right after
          // a block stopped (or the instruction a block stops before ran); not before every
          // instruction of code that has none
          let lookForBlock = blocks;
          do {
            let ran = 0;
            if (lookForBlock) {
              ran = runBlocks(core, Math.ceil((stop - ns) / NS_PER_CYCLE));
              if (ran > 0) {
                ns += ran * NS_PER_CYCLE;
                clock.nanosCounter = ns;
                if (ns >= stop) {
                  break; // where this loop would have stopped
                }
              }
            }
            const pc = registers[15];
            ns += core.executeInstruction() * NS_PER_CYCLE;
            clock.nanosCounter = ns;
            lookForBlock = blocks && (ran > 0 || core.blockStopped || registers[15] !== pc + 2);
          } while (ns < stop && !core.waiting && !this.interrupted && clock.nextAlarm === alarm);
        }
        this.busyNs += ns - started;
      }
    }
  }

  /** Every emitter goes dark (the board stops or restarts). */
  darken() {
    for (let face = 0; face < 6; face++) {
      if (this.lit[face]) {
        this.lit[face] = false;
        this.events.light(this, face, false, this.nowNs);
      }
    }
  }

  /** Power cut (the board stops, its light goes out) or power back on (a fresh boot), at the
   * CPU's present, which the fabric has reached (the cluster does this between slices). */
  power(on) {
    if (!on && !this.off) {
      this.nowNs = this.mcu.clock.nanos;
      this.off = true;
      this.host.unplug();
      this.scratch.fill(0); // a power cut clears everything but the flash
      this.darken();
    } else if (on && this.off) {
      this.off = false;
      this.build();
      this.events.reset(this, 'power');
    }
  }
}

// One emulated tile: an RP2040 (rp2040js) running the official MicroPython UF2, with what the
// npm package lacks added around it, not inside it (see ../README in docs/emulated-tiles.md):
//
// - flash writes (rom_flash.mjs), written through to the tile's flash image file, so stopping
//   the emulator at any moment and starting it again from the image is a power cut;
// - a USB host that holds the device's read requests until the host has bytes for it (the
//   package answers each one at once with an empty packet: an interrupt storm);
// - UART transmit interrupts raised only when a byte is written (the package keeps it raised);
// - PIO on the emulated clock (pio_clock.mjs);
// - machine.reset() and the watchdog: the board is rebuilt from its flash, keeping the
//   watchdog's scratch registers as a watchdog reset does;
// - a unique flash ID (machine.unique_id()) and ring-oscillator random bits per tile, from
//   the tile's serial number and seed, so tiles differ but runs repeat;
// - the pins of a tile: six IR faces, the button, the WS2812 chain (decoded to colours).

import fs from 'node:fs';
import { BasePeripheral, RP2040, USBCDC } from 'rp2040js';
import { PioClock } from './pio_clock.mjs';
import { flashBreakpoint, patchBootrom } from './rom_flash.mjs';
import { Ws2812Decoder } from './ws2812.mjs';

export const FLASH_BYTES = 2 * 1024 * 1024; // a Raspberry Pi Pico's flash
const NS_PER_CYCLE = 8; // 125 MHz
const HIGH = 1; // GPIOPinState.High
const UARTDR = 0x000;
const UART_TX_INTR = 1 << 5;
const SSI_DR0 = 0x60;
const FLASH_READ_UNIQUE_ID = 0x4b;
const ROSC_STATUS = 0x18;
const ROSC_RANDOMBIT = 0x1c;

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
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  readUint32(offset) {
    if (offset === ROSC_RANDOMBIT) {
      let x = this.state;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.state = x >>> 0;
      return x & 1;
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
   *   opts.seed; opts.pins {tx: [6], rx: [6], button, pixel, pixels}
   * @param events callbacks: serial(tile, bytes), up(tile), leds(tile, rgb, ns),
   *   light(tile, face, on, ns), reset(tile, cause)
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
    this.hostBytes = []; // host -> device serial bytes not yet read by the device
    this.inputs = []; // scheduled input changes {t, pin, high}, in time order
    this.rxLight = new Array(6).fill(0); // light sources shining on each face's detector
    this.lit = new Array(6).fill(false); // each face's emitter
    this.buttonDown = false;
    this.scratch = new Uint32Array(8);
    this.off = false;
    this.nowNs = 0;
    this.boots = 0;
    this.busyNs = 0; // emulated time its CPU spent running (not waiting, not stalled)
    this.build();
  }

  /** A fresh board from the flash image: power-up, or a reset. */
  build() {
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
    this.hookUniqueId(mcu);
    mcu.peripherals[0x40060] = new RingOscillator(mcu, this.seed ^ (this.boots * 0x9e3779b9));
    this.hookUsb(mcu);
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
    rx.forEach((pin, face) => mcu.gpio[pin].setInputValue(this.rxLight[face] === 0));
    mcu.gpio[button].setInputValue(!this.buttonDown);
    this.leds = new Ws2812Decoder(pixels, (rgb) => this.events.leds(this, rgb, mcu.clock.nanos));
    mcu.gpio[pixel].addListener((state) => this.leds.level(state === HIGH, mcu.clock.nanos));
    mcu.core.PC = 0x10000000; // boot2 at the start of flash, as the rp2040js demo boots
  }

  hookUniqueId(mcu) {
    // The flash's Read Unique ID command (0x4B, 4 dummy bytes, 8 ID bytes), which the SDK
    // sends through the SSI at boot: answer with this tile's serial number.
    const ssi = mcu.peripherals[0x18000];
    const read = ssi.readUint32.bind(ssi);
    const write = ssi.writeUint32.bind(ssi);
    let sent = -1;
    const answers = [];
    ssi.writeUint32 = (offset, value) => {
      if (offset === SSI_DR0) {
        if (sent < 0 && value === FLASH_READ_UNIQUE_ID) {
          sent = 0;
        }
        if (sent >= 0) {
          answers.push(sent >= 5 ? this.serial[sent - 5] : 0);
          sent = sent === 12 ? -1 : sent + 1;
          return;
        }
      }
      write(offset, value);
    };
    ssi.readUint32 = (offset) => {
      if (offset === SSI_DR0 && answers.length) {
        return answers.shift();
      }
      return read(offset);
    };
  }

  hookUsb(mcu) {
    const cdc = new USBCDC(mcu.usbCtrl);
    this.cdc = cdc;
    this.heldRead = 0; // size of a device read request waiting for host bytes
    cdc.onDeviceConnected = () => this.events.up(this);
    cdc.onSerialData = (buffer) => this.events.serial(this, buffer);
    mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) {
        return;
      }
      if (this.hostBytes.length === 0) {
        this.heldRead = size; // answer when the host has something to say
        return;
      }
      this.answerRead(size);
    };
  }

  answerRead(size) {
    const n = Math.min(size, this.hostBytes.length);
    const buffer = Uint8Array.from(this.hostBytes.splice(0, n));
    this.mcu.usbCtrl.endpointReadDone(this.cdc.outEndpoint, buffer);
  }

  /** Bytes from the host (the serial port's other end). */
  hostWrite(bytes) {
    if (this.off) {
      return;
    }
    for (const b of bytes) {
      this.hostBytes.push(b);
    }
    if (this.heldRead && this.cdc.outEndpoint >= 0) {
      const size = this.heldRead;
      this.heldRead = 0;
      this.answerRead(size);
    }
  }

  flashWritten(offset, length) {
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

  /** Light on face `face`'s detector from one source turns on or off at time t. */
  scheduleLight(face, on, t) {
    this.schedule(t, () => {
      this.rxLight[face] += on ? 1 : -1;
      const dark = this.rxLight[face] === 0;
      const pin = this.mcu.gpio[this.pins.rx[face]];
      if (pin.rawInputValue !== dark) {
        this.pio.changing(t);
        pin.setInputValue(dark);
      }
    });
  }

  scheduleButton(down, t) {
    this.schedule(t, () => {
      this.buttonDown = down;
      this.mcu.gpio[this.pins.button].setInputValue(!down);
    });
  }

  schedule(t, apply) {
    const list = this.inputs;
    let i = list.length;
    while (i > 0 && list[i - 1].t > t) {
      i--;
    }
    list.splice(i, 0, { t, apply });
  }

  /** The earliest time anything can happen on this board: now while its CPU runs or a PIO
   * machine is active; else its next alarm or scheduled input (Infinity when powered off). */
  quietUntil() {
    if (this.off) {
      return Infinity;
    }
    const clock = this.mcu.clock;
    const now = clock.nanos;
    const stalled = this.stallUntil > now; // in a flash operation: the CPU does nothing
    if ((!this.mcu.core.waiting && !stalled) || this.pendingReset || !this.pio.quiet()) {
      return now;
    }
    let t = stalled ? this.stallUntil : Infinity;
    if (clock.nextAlarm) {
      t = clock.nextAlarm.nanos;
    }
    if (this.inputs.length && this.inputs[0].t < t) {
      t = this.inputs[0].t;
    }
    return t;
  }

  /** Run this board up to time `end` (ns). */
  runUntil(end) {
    if (this.off) {
      this.nowNs = end;
      return;
    }
    const mcu = this.mcu;
    const clock = mcu.clock;
    const core = mcu.core;
    const inputs = this.inputs;
    while (clock.nanos < end && !this.pendingReset) {
      this.interrupted = false;
      while (inputs.length && inputs[0].t <= clock.nanos) {
        inputs.shift().apply();
      }
      // (an input due while the CPU was busy applies right after that instruction: at most a
      // few cycles late for the CPU; the PIO machines see it at its exact time)
      const limit = inputs.length && inputs[0].t < end ? inputs[0].t : end;
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
          do {
            ns += core.executeInstruction() * NS_PER_CYCLE;
            clock.nanosCounter = ns;
          } while (ns < stop && !core.waiting && !this.interrupted && clock.nextAlarm === alarm);
        }
        this.busyNs += ns - started;
      }
    }
    this.pio.runUntil(clock.nanos);
    this.nowNs = clock.nanos;
    if (this.pendingReset) {
      const cause = this.pendingReset;
      this.scratch.set(mcu.peripherals[0x40058].scratchData);
      this.darken();
      this.build();
      this.events.reset(this, cause);
      this.runUntil(end);
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

  /** Power cut (the board stops, its light goes out) or power back on (a fresh boot). */
  power(on) {
    if (!on && !this.off) {
      this.off = true;
      this.hostBytes = [];
      this.heldRead = 0;
      this.scratch.fill(0); // a power cut clears everything but the flash
      this.darken();
    } else if (on && this.off) {
      this.off = false;
      this.build();
      this.events.reset(this, 'power');
    }
  }
}

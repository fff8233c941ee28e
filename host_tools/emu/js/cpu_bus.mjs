// The CPU's side of the bus: what the core reads and writes.
//
// Two things are added around rp2040js's memory map, which stays the one that answers:
// - before the CPU touches anything the fabric drives (PIO, DMA, the GPIO inputs and their
//   interrupts, pads, clocks and resets), `onTouch(write)` runs, which brings the fabric up to the
//   CPU's time (docs/emulated-tiles.md: the fabric runs behind the CPUs, and catches up when a
//   CPU looks at it); the DMA's own reads and writes go straight to the memory map;
// - SRAM and flash, most of what the core reads, are read here directly, with the same bounds
//   the memory map checks first (a few per cent of the emulator's time went to those checks).

import { storedOutsideSram } from './thumb_blocks.mjs';

const FLASH = 0x10000000;
const RAM = 0x20000000;

/** Whether the CPU reading (write false) or writing `address` must see the fabric's present. */
export function touchesFabric(address, write) {
  if (address < 0x40000000) {
    return false;
  }
  if (address < 0x50000000) {
    // IO_BANK0 (pins, their interrupts); on a write also CLOCKS and RESETS (the state
    // machines' clock, or blocks held in reset), the pads (input enable) and the crystal
    // (DORMANT stops the state machines)
    const block = address >>> 14;
    return (
      block === 0x10005 ||
      (write &&
        (block === 0x10002 || block === 0x10003 || block === 0x10007 || block === 0x10009))
    );
  }
  if (address < 0xd0000000) {
    const block = address >>> 14;
    return block === 0x14000 || block === 0x14080 || block === 0x140c0; // DMA, PIO0, PIO1
  }
  return !write && (address === 0xd0000004 || address === 0xd0000008); // SIO GPIO_IN, GPIO_HI_IN
}

// The six functions below are each one function object shared by every core (they find the
// core's memory through `this`): a closure per core makes each call site in the CPU's loop see
// as many functions as the cluster has tiles (the same made thumb_fast.mjs's decoder, as a
// closure per core, slower than rp2040js's once a cluster had two tiles).

function read32(address) {
  address >>>= 0;
  const bus = this.bus;
  if (address >= RAM && address + 3 < bus.ramEnd) {
    return bus.sramView.getUint32(address - RAM, true);
  }
  if (address >= 0x40000000 && touchesFabric(address, false)) {
    bus.onTouch(false);
  }
  return bus.mcu.readUint32(address);
}

function read16(address) {
  const bus = this.bus;
  if (address >= FLASH && address + 1 < bus.flashEnd) {
    return bus.flashView.getUint16(address - FLASH, true);
  }
  if (address >= RAM && address + 1 < bus.ramEnd) {
    return bus.sramView.getUint16(address - RAM, true);
  }
  if (touchesFabric((address & 0xfffffffc) >>> 0, false)) {
    bus.onTouch(false);
  }
  return bus.mcu.readUint16(address);
}

function read8(address) {
  const bus = this.bus;
  if (address >= FLASH && address < bus.flashEnd) {
    return bus.flash[address - FLASH];
  }
  if (address >= RAM && address < bus.ramEnd) {
    return bus.sram[address - RAM];
  }
  if (touchesFabric((address & 0xfffffffc) >>> 0, false)) {
    bus.onTouch(false);
  }
  return bus.mcu.readUint8(address);
}

function write32(address, value) {
  address >>>= 0;
  const bus = this.bus;
  if (address >= RAM && address + 3 < bus.ramEnd) {
    bus.sramView.setUint32(address - RAM, value, true);
    return;
  }
  storedOutsideSram(this, address, 4); // the bootrom or flash: compiled code may be there
  if (touchesFabric(address, true)) {
    bus.onTouch(true);
  }
  bus.mcu.writeUint32(address, value);
}

function write16(address, value) {
  const bus = this.bus;
  if (address >= RAM && address + 1 < bus.ramEnd) {
    bus.sramView.setUint16(address - RAM, value, true);
    return;
  }
  storedOutsideSram(this, address, 2); // the bootrom or flash: compiled code may be there
  if (touchesFabric((address & 0xfffffffc) >>> 0, true)) {
    bus.onTouch(true);
  }
  bus.mcu.writeUint16(address, value);
}

function write8(address, value) {
  const bus = this.bus;
  if (address >= RAM && address < bus.ramEnd) {
    bus.sram[address - RAM] = value;
    return;
  }
  storedOutsideSram(this, address, 1); // the bootrom or flash: compiled code may be there
  if (touchesFabric((address & 0xfffffffc) >>> 0, true)) {
    bus.onTouch(true);
  }
  bus.mcu.writeUint8(address, value);
}

export function wireCpuBus(mcu, onTouch) {
  const core = mcu.core;
  const { sram, sramView, flash, flashView } = mcu;
  core.bus = {
    mcu,
    onTouch,
    sram,
    sramView,
    flash,
    flashView,
    ramEnd: RAM + sram.length,
    flashEnd: FLASH + flash.length,
  };
  core.readUint32 = read32;
  core.readUint16 = read16;
  core.readUint8 = read8;
  core.writeUint32 = write32;
  core.writeUint16 = write16;
  core.writeUint8 = write8;
}

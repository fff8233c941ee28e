// Flash writes for an emulated RP2040: rp2040js models no flash programming, so MicroPython's
// littlefs could never write. The firmware erases and programs flash only through two bootrom
// routines (flash_range_erase, 'RE'; flash_range_program, 'RP'), found by the bootrom's own
// function table. We put a BKPT at each entry of our copy of the bootrom; on the breakpoint
// the harness does the operation on the flash array and returns to the caller, as the routine
// would. NOR flash semantics: an erase sets a range to 0xFF, programming can only clear bits.

const BKPT = 0xbe00;
export const BKPT_ERASE = 0x51;
export const BKPT_PROGRAM = 0x52;

function romCode(a, b) {
  return a.charCodeAt(0) | (b.charCodeAt(0) << 8);
}

function rom16(rom, address) {
  const word = rom[address >>> 2];
  return address & 2 ? word >>> 16 : word & 0xffff;
}

function setRom16(rom, address, value) {
  const i = address >>> 2;
  rom[i] = address & 2 ? (rom[i] & 0xffff) | (value << 16) : (rom[i] & 0xffff0000) | value;
}

/** The address of a bootrom function by its two-letter code (bootrom table at 0x14). */
export function romFunction(rom, code) {
  let entry = rom16(rom, 0x14);
  for (;;) {
    const c = rom16(rom, entry);
    if (c === 0) {
      throw new Error(`bootrom has no function ${code}`);
    }
    if (c === romCode(code[0], code[1])) {
      return rom16(rom, entry + 2) & ~1;
    }
    entry += 4;
  }
}

/** A copy of the bootrom words with breakpoints on the two flash-writing routines. */
export function patchBootrom(bootrom) {
  const rom = new Uint32Array(bootrom);
  setRom16(rom, romFunction(rom, 'RE'), BKPT | BKPT_ERASE);
  setRom16(rom, romFunction(rom, 'RP'), BKPT | BKPT_PROGRAM);
  return rom;
}

// How long the CPU is held by each operation, from a typical 2 MB QSPI NOR flash's datasheet
// (W25Q16JV: sector erase 45 ms, page program 0.7 ms typical), so flashing takes board time.
const ERASE_NS_PER_SECTOR = 45e6;
const PROGRAM_NS_PER_PAGE = 0.7e6;

/**
 * Handle a breakpoint: returns the nanoseconds the operation keeps the CPU busy, or -1 when the
 * breakpoint is not ours. `flash` is the board's flash array; `onWrite(offset, length)` is told
 * about every change so the image on disk can follow.
 */
export function flashBreakpoint(mcu, code, onWrite) {
  const core = mcu.core;
  const r = core.registers;
  if (code === BKPT_ERASE) {
    const offset = r[0] >>> 0;
    const count = r[1] >>> 0;
    mcu.flash.fill(0xff, offset, offset + count);
    onWrite(offset, count);
    core.PC = core.LR & ~1;
    return Math.ceil(count / 4096) * ERASE_NS_PER_SECTOR;
  }
  if (code === BKPT_PROGRAM) {
    const offset = r[0] >>> 0;
    const data = r[1] >>> 0;
    const count = r[2] >>> 0;
    for (let i = 0; i < count; i++) {
      mcu.flash[offset + i] &= mcu.readUint8(data + i);
    }
    onWrite(offset, count);
    core.PC = core.LR & ~1;
    return Math.ceil(count / 256) * PROGRAM_NS_PER_PAGE;
  }
  return -1;
}

// Straight runs of the firmware's code compiled to JavaScript, for a busy emulated CPU.
//
// thumb_fast.mjs still decodes every instruction it runs: a fetch, a table look-up and a switch
// each time. A run of code entered again and again (the MicroPython VM's loop, memcpy, the
// garbage collector, the SDK's divider) is here turned, once hot, into one JavaScript function
// with the registers, immediates and addresses of its instructions written in, which V8
// compiles to machine code. A block runs from where the CPU is to the first branch that leaves
// (a conditional branch not taken runs on), 48 instructions at most; runBlocks goes on from
// block to block.
//
// Nothing a block does may look different from outside. It holds only the kinds thumb_fast
// runs, and touches nothing but the registers, SRAM, flash, the bootrom and the SIO's divider
// and spinlocks (which neither the fabric nor the clock can see). It checks each address before
// a load or a store: anywhere else (a peripheral, the GPIO, an unaligned word outside SRAM) it
// stops before that instruction, which the CPU loop then runs the ordinary way, at its own
// time. It stops where its cycles run out, as the loop would to fire a timer or an input, and
// is not entered while an interrupt is pending. Registers, flags, cycles and memory come out
// exactly as thumb_fast's: tests/emu/thumb_blocks_check.mjs runs random programs both ways.
//
// Code changes under a block three ways, each seen: the bootrom's flash routines
// (rom_flash.mjs, the tile calls forgetBlocks), a CPU store to the bootrom or flash (rp2040js
// lets one through; cpu_bus calls storedOutsideSram), and anything written to SRAM (a block
// made from SRAM compares its code at every entry, and never stores over itself).

import { KIND as K, fastKindOf } from './thumb_fast.mjs';

const FLASH = 0x10000000;
const ROM_END = 0x4000;
const CODE_BYTES = 0x100000; // the flash where code is compiled: MicroPython's image is ~0.65 MB
const ROM_SLOTS = ROM_END >>> 1; // a slot per halfword: the bootrom's, then the flash's
const RAM = 0x20000000;
const RAM_BYTES = 0x42000;
const FLASH_SLOTS = ROM_SLOTS + (CODE_BYTES >>> 1); // then the SRAM's
const SLOTS = FLASH_SLOTS + (RAM_BYTES >>> 1);
const MAX_INSTRUCTIONS = 48;
const MAX_BYTES = 2 * MAX_INSTRUCTIONS + 2;
// Entries before a block is compiled. V8 runs a new function slowly until it has run it many
// times itself, so only code entered thousands of times gains: the six-tile deal test took
// 51.6 s compiling at 16 entries, 43.6 s at 2,000 and 45.6 s with no blocks (38.2 s since the
// tile's loop looks for blocks only where one could start).
let hot = 2000;

// Every core shares one function per block text (the same firmware runs in each tile, and
// again after every reset): compiling is far dearer than making the text.
const compiled = new Map();

/** Make `core` able to run blocks. After a reset or a power cut, `before` (the same tile's
 * previous core) hands its blocks on: the flash and the bootrom hold the code they were made
 * from (the ROM's flash writes forget them; a CPU store over code, which only rp2040js allows
 * and a reset undoes, keeps them from being handed on), and a block made from SRAM checks its
 * code at every entry. So a tile that restarts runs its boot compiled, and its 5 MB of tables
 * are not made again. */
export function wireBlocks(core, before) {
  if (before !== undefined && before.blocks !== undefined && !before.storedOverCode) {
    core.blocks = before.blocks;
    core.heat = before.heat;
    before.blocks = undefined; // the old board runs no more
  } else {
    core.blocks = new Array(SLOTS).fill(0); // a slot's block; 0: none yet; null: none can be
    core.heat = new Uint16Array(SLOTS); // entries so far, until hot
  }
  core.blockStopped = false; // runBlocks stopped at a block whose first instruction it left
  core.storedOverCode = false; // a CPU store changed this board's bootrom or flash code
}

/** Entries before a block is compiled (tests set 1, to compile at once). */
export function setHotness(entries) {
  hot = entries;
}

/**
 * Run blocks from the core's PC while the next one is compiled, fewer than `budget` cycles
 * have run, and no interrupt is pending; returns the cycles run (0: the next instruction is the
 * ordinary loop's). Every instruction starts with fewer than `budget` cycles spent before it,
 * as in the ordinary loop. The loop calls this where a branch lands or a block just stopped.
 */
export function runBlocks(core, budget) {
  core.blockStopped = false;
  if (core.interruptsUpdated) {
    return 0;
  }
  const r = core.registers;
  const blocks = core.blocks;
  let used = 0;
  for (;;) {
    const pc = r[15];
    if (pc & 1) {
      break; // rp2040js can leave the PC odd (and runs on from pc - 1, keeping the odd bit)
    }
    let slot;
    if (pc >= FLASH && pc < FLASH + CODE_BYTES) {
      slot = ROM_SLOTS + ((pc - FLASH) >>> 1);
    } else if (pc < ROM_END) {
      slot = pc >>> 1;
    } else if (pc >= RAM && pc < RAM + RAM_BYTES) {
      slot = FLASH_SLOTS + ((pc - RAM) >>> 1);
    } else {
      break;
    }
    let block = blocks[slot];
    if (block === 0) {
      block = warm(core, pc, slot);
    }
    if (block === null) {
      break;
    }
    const cycles = block(core, r, core.bus, budget - used);
    if (cycles <= 0) {
      if (cycles < 0) {
        blocks[slot] = 0; // the SRAM under it was rewritten: made again once hot again
        core.heat[slot] = 0;
      } else {
        core.blockStopped = true; // its first instruction is the ordinary loop's (a peripheral)
      }
      break;
    }
    used += cycles;
    if (used >= budget || core.interruptsUpdated) {
      break;
    }
  }
  core.cycles += used;
  return used;
}

/** Count an entry at `pc`; its block once hot (null: none to make; 0: not hot yet). */
function warm(core, pc, slot) {
  if ((pc >= FLASH && pc < RAM && pc + 1 >= core.bus.flashEnd) || pc + 1 >= core.bus.ramEnd) {
    core.blocks[slot] = null;
    return null;
  }
  if (++core.heat[slot] < hot) {
    return null;
  }
  const text = blockText(core, pc);
  let block = null;
  if (text !== null) {
    block = compiled.get(text);
    if (block === undefined) {
      block = new Function('core', 'r', 'bus', 'room', text);
      compiled.set(text, block);
    }
  }
  core.blocks[slot] = block;
  return block;
}

/** Flash from `offset` (bytes into flash) for `length` bytes changed: forget what ran there. */
export function forgetBlocks(core, offset, length) {
  if (core.blocks === undefined || offset >= CODE_BYTES) {
    return; // littlefs's blocks, above the firmware's code: the usual case
  }
  forgetSlots(core, ROM_SLOTS + (Math.max(0, offset - MAX_BYTES) >>> 1), ROM_SLOTS + (Math.min(CODE_BYTES, offset + length + 1) >>> 1));
}

/** The CPU stored `size` bytes at `address` outside SRAM: rp2040js lets a store change the
 * bootrom and the flash (a real chip does not), so blocks made from what changed are forgotten.
 * (A store's last byte can wrap around to address 0.) */
export function storedOutsideSram(core, address, size) {
  if (core.blocks !== undefined) {
    forgetCodeAt(core, address >>> 0);
    forgetCodeAt(core, (address + size - 1) >>> 0);
  }
}

function forgetCodeAt(core, at) {
  if (at < ROM_END) {
    forgetSlots(core, Math.max(0, at - MAX_BYTES) >>> 1, (at + 5) >>> 1);
  } else if (at >= FLASH && at < FLASH + CODE_BYTES) {
    forgetBlocks(core, at - FLASH - 4, 8);
  } else {
    return;
  }
  // the next board reloads the bootrom and the flash image, without this store: blocks made
  // since from the stored code must not be handed on to it
  core.storedOverCode = true;
}

function forgetSlots(core, first, end) {
  core.blocks.fill(0, first, end);
  core.heat.fill(0, first, end);
}

// ---- the text of a block --------------------------------------------------------------------

/** The body of the block at `pc` (null if its first instruction cannot be in one). */
function blockText(core, pc) {
  const bus = core.bus;
  const sram = pc >= RAM;
  const end = pc < ROM_END ? ROM_END : sram ? bus.ramEnd : bus.flashEnd;
  const at = { core, start: pc, end, sram };
  const body = [];
  let spent = 0; // cycles before this instruction: static here but for the SIO's (d, below)
  let n = 0;
  let ended = false; // by a branch, which sets the PC and returns
  for (; n < MAX_INSTRUCTIONS && pc + 1 < end; n++) {
    const op = core.readUint16(pc);
    const emitted = instruction(at, op, pc, spent);
    if (emitted === null) {
      break;
    }
    if (n > 0) {
      body.push(`if (room <= ${spent} + d) { r[15] = ${pc}; return ${spent} + d; }`);
    }
    body.push(emitted.text);
    pc += emitted.bytes;
    if (emitted.ends) {
      ended = true;
      break;
    }
    spent += emitted.cycles;
  }
  if (body.length === 0) {
    return null; // its first instruction is rp2040js's to run
  }
  if (!ended) {
    body.push(`r[15] = ${pc}; return ${spent} + d;`);
  }
  const head = [
    'const sv = bus.sramView, RE = bus.ramEnd, fv = bus.flashView, FE = bus.flashEnd;',
    'let d = 0; // cycles the SIO took less than SRAM would have',
  ];
  if (sram) {
    // code in SRAM is checked at every entry: any store or DMA may have rewritten it
    for (let a = at.start; a < pc; a += 2) {
      head.push(`if (sv.getUint16(${a - RAM}, true) !== ${core.readUint16(a)}) return -1;`);
    }
  }
  return head.concat(body).join('\n');
}

/** How a register is read by an instruction at `pc` (thumb_fast reads PC as pc + 2 there). */
function reg(n, pc) {
  return n === 15 ? String(pc + 2) : `r[${n}]`;
}

function nz(result) {
  return `core.N = !!(${result} & 0x80000000); core.Z = ${result} === 0;`;
}

function addFlags(a, b, to) {
  return (
    `{ const x = ${a}, y = ${b}, s = x + y; core.N = !!(s & 0x80000000); ` +
    `core.Z = (s & 0xffffffff) === 0; core.C = s !== s >>> 0; ` +
    `core.V = (s | 0) !== (x | 0) + (y | 0); ${to ? `${to} = s & 0xffffffff;` : ''} }`
  );
}

function subFlags(a, b, to) {
  return (
    `{ const x = ${a}, y = ${b}, t = x - y, n = !!(t & 0x80000000); core.N = n; ` +
    `core.Z = (t & 0xffffffff) === 0; core.C = x >= y; ` +
    `core.V = (n && !(x & 0x80000000) && !!(y & 0x80000000)) || ` +
    `(!n && !!(x & 0x80000000) && !(y & 0x80000000)); ${to ? `${to} = t;` : ''} }`
  );
}

const CONDITIONS = [
  'core.Z',
  '!core.Z',
  'core.C',
  '!core.C',
  'core.N',
  '!core.N',
  'core.V',
  '!core.V',
  '(core.C && !core.Z)',
  '!(core.C && !core.Z)',
  '(core.N === core.V)',
  '!(core.N === core.V)',
  '(core.N === core.V && !core.Z)',
  '!(core.N === core.V && !core.Z)',
  'true',
];

/** Stop before this instruction: the ordinary loop runs it. */
function bail(pc, spent) {
  return `{ r[15] = ${pc}; return ${spent} + d; }`;
}

// SIO registers whose reading and writing neither the fabric nor the time can see: the
// hardware divider (the SDK divides with it, many times a millisecond) and the spinlocks.
// thumb_fast counts no bus cycle for the SIO (rp2040js does not), one less than for SRAM.
const SIO_PURE = '((a >= 0xd0000060 && a < 0xd0000080) || (a >= 0xd0000100 && a < 0xd0000180))';

/** `to = ` a load of `size` bytes at `a` (a JS variable already set). */
function load(size, to, pc, spent) {
  const sram = { 4: 'sv.getUint32(a - 0x20000000, true)', 2: 'sv.getUint16(a - 0x20000000, true)', 1: 'bus.sram[a - 0x20000000]' }[size];
  const flash = { 4: 'fv.getUint32(a - 0x10000000, true)', 2: 'fv.getUint16(a - 0x10000000, true)', 1: 'bus.flash[a - 0x10000000]' }[size];
  const rom = { 4: 'core.readUint32(a)', 2: 'core.readUint16(a)', 1: 'core.readUint8(a)' }[size];
  const aligned = size === 1 ? '' : `(a & ${size - 1}) === 0 && `;
  return (
    `if (a >= 0x20000000 && a + ${size - 1} < RE) ${to} = ${sram};\n` +
    `else if (${aligned}a >= 0x10000000 && a + ${size - 1} < FE) ${to} = ${flash};\n` +
    `else if (${aligned}a < ${ROM_END}) ${to} = ${rom};\n` +
    (size === 4 ? `else if ((a & 3) === 0 && ${SIO_PURE}) { ${to} = core.readUint32(a); d--; }\n` : '') +
    `else ${bail(pc, spent)}`
  );
}

/** A store of `size` bytes of `value` at `a`: SRAM (but not over a block being run from it)
 * and the pure SIO registers. */
function store(at, size, value, pc, spent) {
  const sram = {
    4: `sv.setUint32(a - 0x20000000, ${value}, true)`,
    2: `sv.setUint16(a - 0x20000000, ${value}, true)`,
    1: `bus.sram[a - 0x20000000] = ${value}`,
  }[size];
  return (
    `if (${inSram(at, size, true)}) ${sram};\n` +
    (size === 4 ? `else if ((a & 3) === 0 && ${SIO_PURE}) { core.writeUint32(a, ${value}); d--; }\n` : '') +
    `else ${bail(pc, spent)}`
  );
}

/** Whether `bytes` bytes from `a` are SRAM, and if `writes`, clear of a block run from it. */
function inSram(at, bytes, writes) {
  const clear = writes && at.sram ? ` && (a + ${bytes} <= ${at.start} || a >= ${at.start + MAX_BYTES})` : '';
  return `(a >= 0x20000000 && a + ${bytes - 1} < RE${clear})`;
}

/** The registers of a list (bits 0-7 of `op`). */
function listed(op) {
  const regs = [];
  for (let i = 0; i < 8; i++) {
    if (op & (1 << i)) regs.push(i);
  }
  return regs;
}

/** `{text, cycles, bytes, ends}` for opcode `op` at `pc`, as thumb_fast runs it; null if it
 * cannot be in a block. `spent`: cycles of the block before it. */
function instruction(at, op, pc, spent) {
  const { core, end } = at;
  const step = (text, cycles = 1) => ({ text, cycles, bytes: 2, ends: false });
  const last = (text) => ({ text, cycles: 0, bytes: 2, ends: true });
  const rd = op & 7;
  const rn = (op >> 3) & 7;
  const rm = (op >> 6) & 7;
  const imm5 = (op >> 6) & 0x1f;
  const r8 = (op >> 8) & 7;
  const imm8 = op & 0xff;
  const ld = (size, addr, to, extend = (v) => v) =>
    step(`{ let a = ${addr}, v = 0;\n${load(size, 'v', pc, spent)}\n${to} = ${extend('v')}; }`, 2);
  const st = (size, addr, value) => step(`{ const a = ${addr};\n${store(at, size, value, pc, spent)} }`, 2);
  switch (fastKindOf(op)) {
    case K.FALLBACK:
      return rare(op, ld, st, step);
    case K.LDR_IMM:
      return ld(4, `r[${rn}] + ${imm5 << 2}`, `r[${rd}]`);
    case K.STR_IMM:
      return st(4, `r[${rn}] + ${imm5 << 2}`, `r[${rd}]`);
    case K.LDR_SP:
      return ld(4, `r[13] + ${imm8 << 2}`, `r[${r8}]`);
    case K.STR_SP:
      return st(4, `r[13] + ${imm8 << 2}`, `r[${r8}]`);
    case K.LDR_LIT: {
      const a = (((pc + 4) & 0xfffffffc) >>> 0) + (imm8 << 2);
      if (a >= FLASH && a + 3 < core.bus.flashEnd) {
        return step(`r[${r8}] = fv.getUint32(${a - FLASH}, true);`, 2);
      }
      return a + 3 < ROM_END ? step(`r[${r8}] = core.readUint32(${a});`, 2) : null;
    }
    case K.LDR_REG:
      return ld(4, `r[${rm}] + r[${rn}]`, `r[${rd}]`);
    case K.STR_REG:
      return st(4, `r[${rm}] + r[${rn}]`, `r[${rd}]`);
    case K.LDRB_IMM:
      return ld(1, `r[${rn}] + ${imm5}`, `r[${rd}]`);
    case K.STRB_IMM:
      return st(1, `r[${rn}] + ${imm5}`, `r[${rd}]`);
    case K.LDRB_REG:
      return ld(1, `r[${rm}] + r[${rn}]`, `r[${rd}]`);
    case K.STRB_REG:
      return st(1, `r[${rm}] + r[${rn}]`, `r[${rd}]`);
    case K.LDRH_IMM:
      return ld(2, `r[${rn}] + ${imm5 << 1}`, `r[${rd}]`);
    case K.STRH_IMM:
      return st(2, `r[${rn}] + ${imm5 << 1}`, `r[${rd}]`);
    case K.MOVS_IMM:
      return step(`r[${r8}] = ${imm8}; core.N = false; core.Z = ${imm8 === 0};`);
    case K.CMP_IMM:
      return step(subFlags(`r[${r8}]`, imm8, null));
    case K.ADDS_IMM8:
      return step(addFlags(`r[${r8}]`, imm8, `r[${r8}]`));
    case K.SUBS_IMM8:
      return step(subFlags(`r[${r8}]`, imm8, `r[${r8}]`));
    case K.ADDS_IMM3:
      return step(addFlags(`r[${rn}]`, rm, `r[${rd}]`));
    case K.SUBS_IMM3:
      return step(subFlags(`r[${rn}]`, rm, `r[${rd}]`));
    case K.ADDS_REG:
      return step(addFlags(`r[${rn}]`, `r[${rm}]`, `r[${rd}]`));
    case K.SUBS_REG:
      return step(subFlags(`r[${rn}]`, `r[${rm}]`, `r[${rd}]`));
    case K.LSLS_IMM: {
      const carry = imm5 ? ` core.C = !!(x & ${(1 << (32 - imm5)) | 0});` : '';
      return step(`{ const x = r[${rn}], v = x << ${imm5}; r[${rd}] = v; ${nz('v')}${carry} }`);
    }
    case K.LSRS_IMM: {
      const result = imm5 ? `x >>> ${imm5}` : '0';
      return step(
        `{ const x = r[${rn}], v = ${result}; r[${rd}] = v; ${nz('v')} core.C = !!((x >>> ${imm5 ? imm5 - 1 : 31}) & 1); }`
      );
    }
    case K.B_COND: {
      const target = pc + 2 + (((imm8 << 24) >> 23) + 2);
      return step(`if (${CONDITIONS[(op >> 8) & 0xf]}) { r[15] = ${target >>> 0}; return ${spent + 2} + d; }`);
    }
    case K.B:
      return last(`r[15] = ${(pc + (((op & 0x7ff) << 21) >> 20) + 4) >>> 0}; return ${spent + 2} + d;`);
    case K.BL: {
      if (pc + 3 >= end) return null;
      const op2 = core.readUint16(pc + 2);
      if (op2 >> 14 !== 0b11 || !((op2 >> 12) & 1)) return null;
      const s = (op >> 10) & 1;
      const i1 = 1 - (s ^ ((op2 >> 13) & 1));
      const i2 = 1 - (s ^ ((op2 >> 11) & 1));
      const offset =
        ((s ? 0xff : 0) << 24) | (i1 << 23) | (i2 << 22) | ((op & 0x3ff) << 12) | ((op2 & 0x7ff) << 1);
      return {
        ...last(
          `r[14] = ${((pc + 4) | 1) >>> 0}; r[15] = ${(pc + 4 + offset) >>> 0}; ` +
            `core.blTaken(core, false); return ${spent + 3} + d;`
        ),
        bytes: 4,
      };
    }
    case K.BX:
      return last(`r[15] = ${pc + 2}; core.BXWritePC(r[${(op >> 3) & 0xf}]); return ${spent + 2} + d;`);
    case K.BLX:
      return last(
        `r[15] = ${pc + 2}; r[14] = ${(pc + 2) | 1}; r[15] = r[${(op >> 3) & 0xf}] & ~1; ` +
          `core.blTaken(core, true); return ${spent + 2} + d;`
      );
    case K.PUSH: {
      const regs = listed(op);
      const count = regs.length + ((op >> 8) & 1);
      const writes = regs.map((i, k) => `sv.setUint32(a - 0x20000000 + ${4 * k}, r[${i}], true);`);
      if (op & 0x100) writes.push(`sv.setUint32(a - 0x20000000 + ${4 * regs.length}, r[14], true);`);
      return step(
        `{ const a = r[13] - ${4 * count};\n` +
          `if (!${inSram(at, 4 * count, true)}) ${bail(pc, spent)}\n` +
          `${writes.join(' ')} r[13] = (r[13] - ${4 * count}) & ~3; }`,
        1 + regs.length
      );
    }
    case K.POP: {
      const regs = listed(op);
      const count = regs.length + ((op >> 8) & 1);
      const reads = regs.map((i, k) => `r[${i}] = sv.getUint32(a - 0x20000000 + ${4 * k}, true);`);
      const check = `if (!${inSram(at, 4 * count, false)}) ${bail(pc, spent)}\n`;
      if (op & 0x100) {
        return last(
          `{ const a = r[13];\n${check}${reads.join(' ')} r[13] = (a + ${4 * regs.length + 4}) & ~3; ` +
            `r[15] = ${pc + 2}; core.BXWritePC(sv.getUint32(a - 0x20000000 + ${4 * regs.length}, true)); }\n` +
            `return ${spent + 3 + regs.length} + d;`
        );
      }
      if (count === 0) {
        return step(`r[13] = r[13] & ~3;`, 1);
      }
      return step(`{ const a = r[13];\n${check}${reads.join(' ')} r[13] = (a + ${4 * count}) & ~3; }`, 1 + count);
    }
    case K.MOV_HI: {
      const m = (op >> 3) & 0xf;
      const dst = ((op >> 4) & 8) | (op & 7); // not `d`: the block's own d is the SIO's cycles
      const value = m === 15 ? String(pc + 4) : `r[${m}]`;
      if (dst === 15) return last(`r[15] = ${value} & ~1; return ${spent + 2} + d;`);
      return step(dst === 13 ? `r[13] = ${value} & ~3;` : `r[${dst}] = ${value};`);
    }
    case K.ADD_HI: {
      const m = (op >> 3) & 0xf;
      const dn = ((op & 0x80) >> 4) | (op & 7);
      const sum = `${dn === 15 ? pc + 4 : `r[${dn}]`} + ${m === 15 ? pc + 4 : `r[${m}]`}`;
      if (dn === 15) return last(`r[15] = (${sum}) & ~1; return ${spent + 2} + d;`);
      return step(dn === 13 ? `r[13] = (${sum}) & ~3;` : `r[${dn}] = ${sum};`);
    }
    case K.CMP_REG:
      return step(subFlags(`r[${rd}]`, `r[${rn}]`, null));
    case K.CMP_HI: {
      const m = (op >> 3) & 0xf;
      const n = ((op >> 4) & 8) | (op & 7);
      return step(subFlags(reg(n, pc), reg(m, pc), null));
    }
    case K.ANDS:
      return step(`{ const v = r[${rd}] & r[${rn}]; r[${rd}] = v; ${nz('v')} }`);
    case K.ORRS:
      return step(`{ const v = r[${rd}] | r[${rn}]; r[${rd}] = v; ${nz('v')} }`);
    case K.EORS:
      return step(`{ const v = r[${rd}] ^ r[${rn}]; r[${rd}] = v; ${nz('v')} }`);
    case K.TST:
      return step(`{ const v = r[${rd}] & r[${rn}]; ${nz('v')} }`);
    case K.BICS:
      return step(`{ r[${rd}] &= ~r[${rn}]; const v = r[${rd}]; ${nz('v')} }`);
    case K.MVNS:
      return step(`{ const v = ~r[${rn}]; r[${rd}] = v; ${nz('v')} }`);
    case K.MULS:
      return step(`{ const v = Math.imul(r[${rn}], r[${rd}]); r[${rd}] = v; ${nz('v')} }`);
    case K.ADD_RD_SP:
      return step(`r[${r8}] = r[13] + ${imm8 << 2};`);
    case K.ADD_SP:
      return step(`r[13] = (r[13] + ${(op & 0x7f) << 2}) & ~3;`);
    case K.SUB_SP:
      return step(`r[13] = (r[13] - ${(op & 0x7f) << 2}) & ~3;`);
    case K.UXTB:
      return step(`r[${rd}] = r[${rn}] & 0xff;`);
    case K.UXTH:
      return step(`r[${rd}] = r[${rn}] & 0xffff;`);
    case K.LDMIA:
    case K.STMIA: {
      const base = (op >> 8) & 7;
      const regs = listed(op);
      const loads = fastKindOf(op) === K.LDMIA;
      const moves = regs.map((i, k) =>
        loads
          ? `r[${i}] = sv.getUint32(a - 0x20000000 + ${4 * k}, true);`
          : `sv.setUint32(a - 0x20000000 + ${4 * k}, r[${i}], true);`
      );
      const back = op & (1 << base) ? '' : `r[${base}] = a + ${4 * regs.length};`;
      if (regs.length === 0) {
        return step(`{ const a = r[${base}]; ${back} }`, 1);
      }
      const bytes = 4 * regs.length;
      const fromFlash = loads
        ? `else if ((a & 3) === 0 && a >= 0x10000000 && a + ${bytes - 1} < FE) { ` +
          regs.map((i, k) => `r[${i}] = fv.getUint32(a - 0x10000000 + ${4 * k}, true);`).join(' ') +
          ' }\n' // the ROM's memcpy reads flash this way (littlefs, .mpy files)
        : '';
      return step(
        `{ const a = r[${base}];\nif (${inSram(at, bytes, !loads)}) { ${moves.join(' ')} }\n` +
          `${fromFlash}else ${bail(pc, spent)}\n${back} }`,
        1 + regs.length
      );
    }
    case K.ADR:
      return step(`r[${r8}] = ${((pc & 0xfffffffc) >>> 0) + 4 + (imm8 << 2)};`);
    default:
      return null;
  }
}

/** Whether a block can hold `op` though thumb_fast leaves it to rp2040js (for the check). */
export function holdsRare(op) {
  const some = () => ({});
  return fastKindOf(op) === K.FALLBACK && rare(op, some, some, some) !== null;
}

/** Instructions thumb_fast leaves to rp2040js but a block can hold: shifts by a register,
 * arithmetic with the carry, sign extension, byte reversal. Each is written as rp2040js runs it,
 * its quirks included (RORS sets C from the result even for a shift of 0; LSRS by 0 sets C
 * from bit 31): what a block computes must be what the instruction loop would. Null for the
 * rest, rp2040js's own: exceptions, system registers, breakpoints, waits. */
function rare(op, ld, st, step) {
  const rd = op & 7;
  const rn = (op >> 3) & 7;
  const rm = (op >> 6) & 7;
  const x = `r[${rd}]`;
  const y = `r[${rn}]`;
  // x: the register shifted, s: the shift (the low byte of the other), v: the result
  const set = (value, carry) =>
    step(`{ const x = ${x}, s = ${y} & 0xff, v = ${value}; ${x} = v; ${nz('v')} core.C = ${carry}; }`);
  if (op >> 11 === 0b00010) {
    // ASRS (immediate)
    const n = (op >> 6) & 0x1f || 32;
    const value = n < 32 ? `x >> ${n}` : '(x & 0x80000000) >> 31';
    return step(
      `{ const x = ${y}, v = ${value}; ${x} = v; ${nz('v')} core.C = (x & ${(1 << (n - 1)) | 0}) ? true : false; }`
    );
  }
  switch (op >> 6) {
    case 0b0100000010: // LSLS (register)
      return set('s >= 32 ? 0 : x << s', 's ? !!(x & (1 << (32 - s))) : core.C');
    case 0b0100000011: // LSRS (register)
      return set('s < 32 ? x >>> s : 0', 's <= 32 ? !!((x >>> (s - 1)) & 1) : false');
    case 0b0100000100: // ASRS (register)
      return set('s < 32 ? x >> s : (x & 0x80000000) >> 31', '(x & (1 << ((s < 32 ? s : 32) - 1))) ? true : false');
    case 0b0100000111: // RORS
      return set('(x >>> (s % 32)) | (x << (32 - (s % 32)))', '!!(v & 0x80000000)');
    case 0b0100000101: // ADCS
      return step(addFlags(y, `${x} + (core.C ? 1 : 0)`, x));
    case 0b0100000110: // SBCS
      return step(subFlags(x, `${y} + (1 - (core.C ? 1 : 0))`, x));
    case 0b0100001001: // RSBS
      return step(subFlags('0', y, x));
    case 0b0100001011: // CMN
      return step(addFlags(x, y, null));
    case 0b1011001001: // SXTB
      return step(`${x} = (${y} << 24) >> 24;`);
    case 0b1011001000: // SXTH
      return step(`${x} = (${y} << 16) >> 16;`);
    case 0b1011101000: // REV
      return step(`{ const v = ${y}; ${x} = ((v & 0xff) << 24) | (((v >> 8) & 0xff) << 16) | (((v >> 16) & 0xff) << 8) | ((v >> 24) & 0xff); }`);
    case 0b1011101001: // REV16
      return step(`{ const v = ${y}; ${x} = (((v >> 16) & 0xff) << 24) | (((v >> 24) & 0xff) << 16) | ((v & 0xff) << 8) | ((v >> 8) & 0xff); }`);
    case 0b1011101011: // REVSH
      return step(`{ const v = ${y}; ${x} = ((((v & 0xff) << 8) | ((v >> 8) & 0xff)) << 16) >> 16; }`);
  }
  const address = `r[${rm}] + ${y}`;
  switch (op >> 9) {
    case 0b0101001: // STRH (register)
      return st(2, address, x);
    case 0b0101101: // LDRH (register)
      return ld(2, address, x);
    case 0b0101011: // LDRSB
      return ld(1, address, x, (v) => `(${v} << 24) >> 24`);
    case 0b0101111: // LDRSH
      return ld(2, address, x, (v) => `(${v} << 16) >> 16`);
  }
  return op === 0xbf00 ? step('') : null; // NOP
}

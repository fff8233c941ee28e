// Random programs run two ways from the same states: one core through compiled blocks
// (host_tools/emu/js/thumb_blocks.mjs, every block compiled on its first entry) with the
// ordinary instruction after each stop, as tile.mjs runs a CPU; the other an instruction at a
// time through thumb_fast.mjs, up to the same cycle count. After every step the registers,
// flags, mode and cycles must be the same; after every trial the SRAM and the number of times
// each touched the fabric.
//
// The programs are in flash and in SRAM, mostly instructions blocks can hold (some of them
// ones thumb_fast leaves to rp2040js, which is then the reference), with registers
// pointing into SRAM, flash, the bootrom, the SIO (its divider, its GPIO), the peripherals, or
// anywhere; budgets are random (a block must stop where the instruction loop would). Between
// trials the code is rewritten in SRAM (a block must notice) and in flash (the tile tells
// forgetBlocks, as rom_flash.mjs's writes do).
//
// node thumb_blocks_check.mjs HARNESS_DIR [TRIALS] [SEED]: prints one JSON line and exits 1 on
// any difference.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fillBytes, xorshift32 } from './check_random.mjs';

const [harness, trialsArg, seedArg] = process.argv.slice(2);
const load = (rel) => import(pathToFileURL(path.join(harness, rel)).href);
const { RP2040 } = await load('node_modules/rp2040js/dist/esm/index.js');
const { fastThumb, fastKindOf } = await load('thumb_fast.mjs');
const { wireCpuBus } = await load('cpu_bus.mjs');
const blocks = await load('thumb_blocks.mjs');

const TRIALS = Number(trialsArg || 3000);
const rand32 = xorshift32(Number(seedArg || 7));

const FLASH_CODE = 0x10000400;
const SRAM_CODE = 0x20000400;
const CODE_HALVES = 512;

function makeSide(compiled) {
  const mcu = new RP2040();
  mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
  let touches = 0;
  wireCpuBus(mcu, () => touches++);
  fastThumb(mcu.core);
  if (compiled) {
    blocks.wireBlocks(mcu.core);
  }
  const calls = [];
  mcu.core.blTaken = (_core, blx) => calls.push(blx);
  mcu.onBreak = (code) => calls.push(`break ${code}`);
  return { mcu, core: mcu.core, touches: () => touches, calls };
}

/** An opcode: mostly one a block can hold (a quarter of them one thumb_fast leaves to
 * rp2040js), sometimes any. */
function opcode() {
  const rare = rand32() % 4 === 0;
  for (;;) {
    const op = rand32() & 0xffff;
    if (rare ? blocks.holdsRare(op) : fastKindOf(op) !== 0 || rand32() % 8 === 0) {
      return op;
    }
  }
}

/** A register value worth having: an address somewhere interesting, a small number, any. */
function value() {
  switch (rand32() % 9) {
    case 0:
    case 1:
      return 0x20000000 + (rand32() % 0x42000);
    case 2:
      return FLASH_CODE + (rand32() % 0x1000) - 0x800;
    case 3:
      return rand32() % 0x4000; // the bootrom
    case 4:
      return 0xd0000000 + ((rand32() % 0x60) << 2); // the SIO: divider, spinlocks, GPIO
    case 5:
      return 0x40000000 + (rand32() % 0x100000);
    case 6:
      return rand32() % 256;
    case 7:
      return [0x20041ff0, 0x20000400, 0xfffffff9, 0xffffffff][rand32() % 4];
    default:
      return rand32();
  }
}

const FIELDS = ['N', 'Z', 'C', 'V', 'cycles', 'waiting', 'currentMode', 'IPSR', 'PM', 'interruptsUpdated'];

function state(side) {
  return JSON.stringify([Array.from(side.core.registers), FIELDS.map((f) => side.core[f]), side.calls]);
}

function sramEqual(a, b) {
  return Buffer.compare(Buffer.from(a.mcu.sram), Buffer.from(b.mcu.sram)) === 0;
}

function writeCode(sides, where) {
  const halves = Array.from({ length: CODE_HALVES }, opcode);
  for (const side of sides) {
    const bytes = where === 'flash' ? side.mcu.flash : side.mcu.sram;
    const at = (where === 'flash' ? FLASH_CODE - 0x10000000 : SRAM_CODE - 0x20000000);
    halves.forEach((h, i) => {
      bytes[at + 2 * i] = h & 0xff;
      bytes[at + 2 * i + 1] = h >> 8;
    });
  }
  if (where === 'flash') {
    blocks.forgetBlocks(sides[0].core, FLASH_CODE - 0x10000000, 2 * CODE_HALVES);
  }
}

blocks.setHotness(1);
const A = makeSide(true);
const B = makeSide(false);
for (const side of [A, B]) {
  fillBytes(side.mcu.sram, 99);
}
writeCode([A, B], 'flash');
writeCode([A, B], 'sram');

const differences = [];
let steps = 0;
let blockCycles = 0;
let trials = 0;
for (; trials < TRIALS && differences.length === 0; trials++) {
  if (trials % 50 === 49) {
    writeCode([A, B], trials % 100 === 99 ? 'flash' : 'sram');
  }
  // a fresh state, the same on both: registers, flags, a PC in one of the programs
  const regs = Array.from({ length: 13 }, value);
  const sp = 0x20040000 + ((rand32() % 0x400) << 2);
  const lr = value();
  const pc = (rand32() % 2 ? FLASH_CODE : SRAM_CODE) + 2 * (rand32() % CODE_HALVES);
  const flags = rand32();
  for (const side of [A, B]) {
    const c = side.core;
    regs.forEach((v, i) => (c.registers[i] = v));
    c.registers[13] = sp;
    c.registers[14] = lr;
    c.registers[15] = pc;
    c.N = !!(flags & 1);
    c.Z = !!(flags & 2);
    c.C = !!(flags & 4);
    c.V = !!(flags & 8);
    c.waiting = false;
    c.cycles = 0;
    side.calls.length = 0;
  }
  for (let step = 0; step < 40 && differences.length === 0; step++) {
    const before = state(A);
    const budget = 1 + (rand32() % 60);
    // A as tile.mjs runs a CPU: blocks, and the ordinary instruction wherever they stop
    let usedA = 0;
    while (usedA < budget && !A.core.waiting) {
      const ran = blocks.runBlocks(A.core, budget - usedA);
      blockCycles += ran;
      usedA += ran;
      if (usedA < budget) {
        usedA += A.core.executeInstruction();
      }
    }
    // B an instruction at a time, to the same budget
    let usedB = 0;
    while (usedB < budget && !B.core.waiting) {
      usedB += B.core.executeInstruction();
    }
    steps++;
    const a = state(A);
    const b = state(B);
    if (a !== b || usedA !== usedB) {
      const pc0 = JSON.parse(before)[0][15];
      const code = Array.from({ length: 12 }, (_, i) => B.core.readUint16(pc0 + 2 * i).toString(16));
      differences.push({ trial: trials, step, budget, usedA, usedB, before, blocks: a, stepped: b, code });
    }
    if (A.core.waiting) {
      break;
    }
  }
  if (differences.length === 0 && (!sramEqual(A, B) || A.touches() !== B.touches())) {
    differences.push({ trial: trials, sram: sramEqual(A, B), touches: [A.touches(), B.touches()] });
  }
}
console.log(JSON.stringify({ trials, steps, blockCycles, differences: differences.slice(0, 3) }));
process.exit(differences.length ? 1 : 0);

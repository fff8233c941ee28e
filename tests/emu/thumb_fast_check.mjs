// Every 16-bit opcode, run from the same random states on two Cortex-M0+ cores: one through
// host_tools/emu/js/thumb_fast.mjs, one through rp2040js alone. Whatever an instruction can
// change must come out the same: the sixteen registers, the flags, the cycles counted and
// returned, the core's mode and stack state, and every memory access, in order, with its
// address and value. Memory is a log in front of a made-up store, so no peripheral is touched.
//
// With MODE `bus`, both cores instead have the emulator's own bus (cpu_bus.mjs) in front of
// real SRAM and flash, which the fast path reads and writes directly for its commonest
// instructions: the registers and flags are compared after each instruction, the SRAM after
// every 1,024 (and at the end), and the number of times each touched the fabric.
//
// node thumb_fast_check.mjs HARNESS_DIR [TRIALS] [SEED] [MODE]: prints one JSON line (opcodes
// run, how many the fast path took, the first differences) and exits 1 on any difference.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fillBytes, xorshift32 } from './check_random.mjs';

const [harness, trialsArg, seedArg, mode = 'log'] = process.argv.slice(2);
const load = (rel) => import(pathToFileURL(path.join(harness, rel)).href);
const { RP2040 } = await load('node_modules/rp2040js/dist/esm/index.js');
const { fastThumb, fastKindOf } = await load('thumb_fast.mjs');
const { wireCpuBus } = await load('cpu_bus.mjs');
const BUS = mode === 'bus';

const TRIALS = Number(trialsArg || 6);
const SEED = Number(seedArg || 12345) >>> 0 || 1;
const rand32 = xorshift32(SEED);

const PC = 0x20000100;
const FLASH_PC = 0x10000100; // bus mode: every other instruction runs from flash
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Log the core's calls out (a BL taken, a breakpoint); then the fast path in front, or not. */
function logCallsAndPick(mcu, log, fast) {
  mcu.core.blTaken = (_core, blx) => log.push(['bl', blx]);
  mcu.onBreak = (code) => log.push(['break', code]);
  if (fast) {
    fastThumb(mcu.core);
  }
}

/** A core whose memory is a log in front of a store every read of which is a hash of its
 * address, except the instruction's own two halfwords. */
function makeCore(fast) {
  const mcu = new RP2040();
  mcu.logger = quiet;
  const core = mcu.core;
  const log = [];
  if (BUS) {
    return makeBusCore(mcu, fast, log);
  }
  let halves = [0, 0];
  const word = (a) => {
    a >>>= 0;
    if (a === PC) return (halves[1] << 16) | halves[0];
    let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
    h ^= h >>> 13;
    return Math.imul(h, 0xc2b2ae35) >>> 0;
  };
  core.readUint32 = (a) => {
    const v = word(a & ~3) >>> 0;
    log.push(['r32', a, v]);
    return v;
  };
  core.readUint16 = (a) => {
    const aa = a >>> 0;
    const v = aa === PC ? halves[0] : aa === PC + 2 ? halves[1] : (word(aa & ~3) >>> ((aa & 2) * 8)) & 0xffff;
    log.push(['r16', a, v]);
    return v;
  };
  core.readUint8 = (a) => {
    const v = (word(a & ~3) >>> ((a & 3) * 8)) & 0xff;
    log.push(['r8', a, v]);
    return v;
  };
  core.writeUint32 = (a, v) => log.push(['w32', a, v]);
  core.writeUint16 = (a, v) => log.push(['w16', a, v]);
  core.writeUint8 = (a, v) => log.push(['w8', a, v]);
  logCallsAndPick(mcu, log, fast);
  return {
    core,
    log,
    setHalves(h) {
      halves = h;
    },
  };
}

/** A core with the emulator's bus in front of its real memory (SRAM and the first 64 kB of
 * flash filled from the seed, the same on both cores). */
function makeBusCore(mcu, fast, log) {
  const core = mcu.core;
  fillBytes(mcu.sram, SEED);
  fillBytes(mcu.flash.subarray(0, 0x10000), SEED);
  let touches = 0;
  wireCpuBus(mcu, () => touches++);
  logCallsAndPick(mcu, log, fast);
  return {
    core,
    log,
    mcu,
    touches: () => touches,
    setHalves(h, pc) {
      const where = pc === PC ? mcu.sram : mcu.flash;
      const at = pc === PC ? PC - 0x20000000 : FLASH_PC - 0x10000000;
      where[at] = h[0] & 0xff;
      where[at + 1] = h[0] >> 8;
      where[at + 2] = h[1] & 0xff;
      where[at + 3] = h[1] >> 8;
    },
  };
}

function sramSum(side) {
  let h = 0;
  const words = new Uint32Array(side.mcu.sram.buffer, side.mcu.sram.byteOffset, side.mcu.sram.length >> 2);
  for (let i = 0; i < words.length; i++) {
    h = (Math.imul(h, 31) + words[i]) | 0;
  }
  return h;
}

const FIELDS = ['N', 'Z', 'C', 'V', 'cycles', 'waiting', 'eventRegistered', 'PM', 'SPSEL', 'bankedSP',
  'nPRIV', 'currentMode', 'IPSR', 'pendingSVCall', 'pendingPendSV', 'interruptsUpdated', 'breakRewind'];

/** What the instruction did. An opcode left to rp2040js is fetched twice (with a second
 * halfword looked at, both are), which the log shows once: instructions come from flash, SRAM or the ROM, whose reads change nothing (the fast
 * path sends any other PC straight to rp2040js). */
function snapshot(side, returned) {
  const log = side.log.slice();
  let fetches = 0; // the instruction's halfwords read first: the opcode, and a BL's second
  while (fetches < 2 && log[fetches] && log[fetches][0] === 'r16' && log[fetches][1] === PC + 2 * fetches) {
    fetches++;
  }
  const again = log.slice(fetches, 2 * fetches);
  if (fetches && JSON.stringify(again) === JSON.stringify(log.slice(0, fetches))) {
    log.splice(0, fetches);
  }
  const s = { returned, registers: Array.from(side.core.registers), log };
  if (BUS) {
    s.touches = side.touches();
  }
  for (const f of FIELDS) s[f] = side.core[f];
  return JSON.stringify(s);
}

/** A register value: an address in SRAM, a small number, a stack or EXC_RETURN value, or any. */
function value() {
  if (BUS) { // memory, small numbers and EXC_RETURN values: no peripheral is written
    switch (rand32() % 4) {
      case 0:
        return 0x20000000 + (rand32() % 0x40000);
      case 1:
        return 0x10000000 + (rand32() % 0x10000);
      case 2:
        return rand32() % 256;
      default:
        return [0xfffffff9, 0xfffffffd, 0x20041ffc, 0x10000000][rand32() % 4];
    }
  }
  switch (rand32() % 6) {
    case 0:
      return 0x20000000 + (rand32() % 0x40000);
    case 1:
      return rand32() % 256;
    case 2:
      return [0xfffffff9, 0xfffffffd, 0xfffffff1, 0x80000000, 0x7fffffff, 0xffffffff][rand32() % 6];
    case 3:
      return 0x40000000 + (rand32() % 0x100000); // APB: three or four cycles
    case 4:
      return 0xd0000000 + (rand32() % 0x100); // SIO: none
    default:
      return rand32();
  }
}

function setState(side, regs, flags, handler, interrupts) {
  const core = side.core;
  core.registers.set(regs);
  [core.N, core.Z, core.C, core.V] = flags;
  core.cycles = 1000;
  core.waiting = false;
  core.eventRegistered = flags[0];
  core.currentMode = handler ? 1 : 0;
  core.IPSR = handler ? 15 : 0;
  core.interruptsUpdated = interrupts;
  core.breakRewind = 0;
  side.log.length = 0;
}

const plain = makeCore(false);
const fast = makeCore(true);
let runs = 0;
let fastRuns = 0;
const differences = [];
for (let op = 0; op < 0x10000; op++) {
  const kind = fastKindOf(op);
  for (let t = 0; t < TRIALS; t++) {
    const regs = new Uint32Array(16);
    for (let i = 0; i < 15; i++) regs[i] = value();
    regs[13] = (0x20001000 + (rand32() % 0x3e000)) & ~3;
    const pc = BUS && t % 2 ? FLASH_PC : PC;
    regs[15] = pc;
    const flags = [rand32() & 1, rand32() & 2, rand32() & 4, rand32() & 8].map(Boolean);
    // the second halfword: half the time one that makes a BL of a 0b11110 first halfword
    const second = t % 2 ? (rand32() & 0xffff) : (0xf800 | (rand32() & 0x27ff)) & 0xffff;
    const handler = t % 3 === 2;
    for (const side of [plain, fast]) {
      setState(side, regs, flags, handler, t % 5 === 4);
      side.setHalves([op, second], pc);
    }
    let a, b;
    try {
      a = snapshot(plain, plain.core.executeInstruction());
    } catch (e) {
      a = 'threw ' + e.message;
    }
    try {
      b = snapshot(fast, fast.core.executeInstruction());
    } catch (e) {
      b = 'threw ' + e.message;
    }
    if (BUS && (runs % 1024 === 0 || op === 0xffff) && a === b) {
      [a, b] = [a + ' sram ' + sramSum(plain), b + ' sram ' + sramSum(fast)];
    }
    runs++;
    if (kind) fastRuns++;
    if (a !== b && differences.length < 10) {
      differences.push({ opcode: op.toString(16), second: second.toString(16), kind, rp2040js: a, fast: b });
    }
  }
}
console.log(JSON.stringify({ runs, fast_runs: fastRuns, differences }));
process.exit(differences.length ? 1 : 0);

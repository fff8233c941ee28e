// A faster way into rp2040js's Cortex-M0+ core for the instructions MicroPython runs most.
//
// rp2040js decodes each instruction by walking one long chain of pattern tests, in the order
// of the instructions' names; a load or a store is tested against some forty patterns before
// it matches. Interpreting instructions was 60 % of a busy
// cluster's time (a CPU profile of a share between two tiles). Here a table made once maps
// each 16-bit opcode to its kind, and a switch runs the common kinds; any other opcode, and any
// instruction with an interrupt to look at first, goes to rp2040js's own executeInstruction
// (which fetches the opcode again: a read of ROM, flash or SRAM, which changes nothing).
//
// Each kind does exactly what rp2040js does for it (registers, flags, the memory accesses and
// their order, the cycles counted): tests/emu/test_emu_thumb_fast.py runs every one of the
// 65,536 opcodes on two cores from the same random states, one through here and one through
// rp2040js alone, and compares everything the instruction can change.

const FLASH = 0x10000000;
const RAM = 0x20000000;

const FALLBACK = 0;
const LDR_IMM = 1;
const STR_IMM = 2;
const LDR_SP = 3;
const STR_SP = 4;
const LDR_LIT = 5;
const LDR_REG = 6;
const STR_REG = 7;
const LDRB_IMM = 8;
const STRB_IMM = 9;
const LDRB_REG = 10;
const STRB_REG = 11;
const LDRH_IMM = 12;
const STRH_IMM = 13;
const MOVS_IMM = 14;
const CMP_IMM = 15;
const ADDS_IMM8 = 16;
const SUBS_IMM8 = 17;
const ADDS_IMM3 = 18;
const SUBS_IMM3 = 19;
const ADDS_REG = 20;
const SUBS_REG = 21;
const LSLS_IMM = 22;
const LSRS_IMM = 23;
const B_COND = 24;
const B = 25;
const BL = 26;
const BX = 27;
const BLX = 28;
const PUSH = 29;
const POP = 30;
const MOV_HI = 31;
const ADD_HI = 32;
const CMP_REG = 33;
const CMP_HI = 34;
const ANDS = 35;
const ORRS = 36;
const EORS = 37;
const TST = 38;
const BICS = 39;
const MVNS = 40;
const MULS = 41;
const ADD_RD_SP = 42;
const ADD_SP = 43;
const SUB_SP = 44;
const UXTB = 45;
const UXTH = 46;
const LDMIA = 47;
const STMIA = 48;
const ADR = 49;

/** The kinds by name, for thumb_blocks.mjs. The switch below keeps to the plain constants: with
 * the constants themselves exported, V8 ran it a third slower (a share hop: 113 s, not 75). */
export const KIND = Object.freeze({
  FALLBACK,
  LDR_IMM,
  STR_IMM,
  LDR_SP,
  STR_SP,
  LDR_LIT,
  LDR_REG,
  STR_REG,
  LDRB_IMM,
  STRB_IMM,
  LDRB_REG,
  STRB_REG,
  LDRH_IMM,
  STRH_IMM,
  MOVS_IMM,
  CMP_IMM,
  ADDS_IMM8,
  SUBS_IMM8,
  ADDS_IMM3,
  SUBS_IMM3,
  ADDS_REG,
  SUBS_REG,
  LSLS_IMM,
  LSRS_IMM,
  B_COND,
  B,
  BL,
  BX,
  BLX,
  PUSH,
  POP,
  MOV_HI,
  ADD_HI,
  CMP_REG,
  CMP_HI,
  ANDS,
  ORRS,
  EORS,
  TST,
  BICS,
  MVNS,
  MULS,
  ADD_RD_SP,
  ADD_SP,
  SUB_SP,
  UXTB,
  UXTH,
  LDMIA,
  STMIA,
  ADR,
});

/** The kind of a first halfword, as rp2040js's chain would first match it (FALLBACK where
 * this file leaves the instruction to rp2040js). */
function kindOf(op) {
  const top5 = op >> 11;
  switch (top5) {
    case 0b00000:
      return LSLS_IMM;
    case 0b00001:
      return LSRS_IMM;
    case 0b00011: {
      const top7 = op >> 9;
      if (top7 === 0b0001100) return ADDS_REG;
      if (top7 === 0b0001101) return SUBS_REG;
      if (top7 === 0b0001110) return ADDS_IMM3;
      return SUBS_IMM3;
    }
    case 0b00100:
      return MOVS_IMM;
    case 0b00101:
      return CMP_IMM;
    case 0b00110:
      return ADDS_IMM8;
    case 0b00111:
      return SUBS_IMM8;
    case 0b01000: {
      const top10 = op >> 6;
      if (top10 === 0b0100000000) return ANDS;
      if (top10 === 0b0100000001) return EORS;
      if (top10 === 0b0100001000) return TST;
      if (top10 === 0b0100001010) return CMP_REG;
      if (top10 === 0b0100001100) return ORRS;
      if (top10 === 0b0100001101) return MULS;
      if (top10 === 0b0100001110) return BICS;
      if (top10 === 0b0100001111) return MVNS;
      const top8 = op >> 8;
      if (top8 === 0b01000100) return ADD_HI;
      if (top8 === 0b01000101) return CMP_HI;
      if (top8 === 0b01000110) return MOV_HI;
      if ((op & 0x7) === 0) {
        if (op >> 7 === 0b010001110) return BX;
        if (op >> 7 === 0b010001111) return BLX;
      }
      return FALLBACK;
    }
    case 0b01001:
      return LDR_LIT;
    case 0b01010:
    case 0b01011: {
      const top7 = op >> 9;
      if (top7 === 0b0101000) return STR_REG;
      if (top7 === 0b0101010) return STRB_REG;
      if (top7 === 0b0101100) return LDR_REG;
      if (top7 === 0b0101110) return LDRB_REG;
      return FALLBACK;
    }
    case 0b01100:
      return STR_IMM;
    case 0b01101:
      return LDR_IMM;
    case 0b01110:
      return STRB_IMM;
    case 0b01111:
      return LDRB_IMM;
    case 0b10000:
      return STRH_IMM;
    case 0b10001:
      return LDRH_IMM;
    case 0b10010:
      return STR_SP;
    case 0b10011:
      return LDR_SP;
    case 0b10100:
      return ADR;
    case 0b10101:
      return ADD_RD_SP;
    case 0b10110:
    case 0b10111: {
      if (op >> 7 === 0b101100000) return ADD_SP;
      if (op >> 7 === 0b101100001) return SUB_SP;
      if (op >> 6 === 0b1011001010) return UXTH;
      if (op >> 6 === 0b1011001011) return UXTB;
      if (op >> 9 === 0b1011010) return PUSH;
      if (op >> 9 === 0b1011110) return POP;
      return FALLBACK;
    }
    case 0b11000:
      return STMIA;
    case 0b11001:
      return LDMIA;
    case 0b11010:
    case 0b11011:
      return ((op >> 9) & 0x7) === 0b111 ? FALLBACK : B_COND; // not UDF, SVC
    case 0b11100:
      return B;
    case 0b11110:
      return BL; // if the second halfword is a BL's; else rp2040js (MSR, MRS, barriers)
    default:
      return FALLBACK;
  }
}

const KINDS = new Uint8Array(0x10000);
for (let op = 0; op < 0x10000; op++) {
  KINDS[op] = kindOf(op);
}

/** The cycles rp2040js adds for a bus access at `addr` (its cyclesIO): none for SIO, 3 (read)
 * or 4 (write) for the APB peripherals, 1 for anything else. */
function busCycles(addr, write) {
  addr = addr >>> 0;
  if (addr >= 0xd0000000 && addr < 0xe0000000) {
    return 0;
  }
  if (addr >= 0x40000000 && addr < 0x50000000) {
    return write ? 4 : 3;
  }
  return 1;
}

/** A word load as core.readUint32 does it (cpu_bus.mjs), SRAM read here without that call:
 * word loads and stores are among the commonest instructions, and going through the call for
 * them made the determinism test's six-tile deals take 53 s of wall time, not 46. */
function loadWord(core, bus, addr) {
  return bus !== undefined && addr >= RAM && addr + 3 < bus.ramEnd
    ? bus.sramView.getUint32(addr - RAM, true)
    : core.readUint32(addr);
}

/** A word store as core.writeUint32 does it, SRAM written here (see loadWord). */
function storeWord(core, bus, addr, value) {
  if (bus !== undefined && addr >= RAM && addr + 3 < bus.ramEnd) {
    bus.sramView.setUint32(addr - RAM, value, true);
  } else {
    core.writeUint32(addr, value);
  }
}

/** Whether condition `cond` (0-14) holds for the core's flags. */
function holds(core, cond) {
  let result;
  switch (cond >> 1) {
    case 0:
      result = core.Z;
      break;
    case 1:
      result = core.C;
      break;
    case 2:
      result = core.N;
      break;
    case 3:
      result = core.V;
      break;
    case 4:
      result = core.C && !core.Z;
      break;
    case 5:
      result = core.N === core.V;
      break;
    case 6:
      result = core.N === core.V && !core.Z;
      break;
    default:
      result = true;
  }
  return cond & 1 && cond !== 15 ? !result : result;
}

/** Sets N, Z, C and V as rp2040js does for `a + b` (both unsigned 32-bit); returns the sum. */
function addFlags(core, a, b) {
  const sum = a + b;
  core.N = !!(sum & 0x80000000);
  core.Z = (sum & 0xffffffff) === 0;
  core.C = sum !== sum >>> 0;
  core.V = (sum | 0) !== (a | 0) + (b | 0);
  return sum & 0xffffffff;
}

/** Sets N, Z, C and V as rp2040js does for `a - b`; returns the difference. */
function subFlags(core, a, b) {
  const diff = a - b;
  const neg = !!(diff & 0x80000000);
  core.N = neg;
  core.Z = (diff & 0xffffffff) === 0;
  core.C = a >= b;
  core.V = (neg && !(a & 0x80000000) && !!(b & 0x80000000)) || (!neg && !!(a & 0x80000000) && !(b & 0x80000000));
  return diff;
}

let plainExecute = null; // rp2040js's own executeInstruction

/** One instruction of `this` core: a common kind here, anything else by rp2040js. One
 * function object for every core (a closure per core made V8's code for it slower than the
 * chain it replaces, once a cluster had two tiles). */
function fastExecute() {
  const core = this;
  const r = core.registers;
  const pc = r[15] & ~1;
  if (core.interruptsUpdated || r[15] >= 0x40000000) {
    return plainExecute.call(core); // an interrupt to take first; or code outside ROM, flash, SRAM
  }
  const bus = core.bus; // SRAM and flash read and written directly (cpu_bus.mjs), if wired
  const op =
    bus !== undefined && pc >= FLASH && pc + 1 < bus.flashEnd
      ? bus.flashView.getUint16(pc - FLASH, true)
      : core.readUint16(pc);
  let cycles = 1;
  switch (KINDS[op]) {
    case FALLBACK:
      return plainExecute.call(core);
    case LDR_IMM: {
      const addr = r[(op >> 3) & 7] + (((op >> 6) & 0x1f) << 2);
      r[15] += 2;
      cycles += busCycles(addr, false);
      r[op & 7] = loadWord(core, bus, addr);
      break;
    }
    case STR_IMM: {
      const addr = r[(op >> 3) & 7] + (((op >> 6) & 0x1f) << 2);
      r[15] += 2;
      cycles += busCycles(addr, true);
      storeWord(core, bus, addr, r[op & 7]);
      break;
    }
    case LDR_SP: {
      const addr = r[13] + ((op & 0xff) << 2);
      r[15] += 2;
      cycles += busCycles(addr, false);
      r[(op >> 8) & 7] = loadWord(core, bus, addr);
      break;
    }
    case STR_SP: {
      const addr = r[13] + ((op & 0xff) << 2);
      r[15] += 2;
      cycles += busCycles(addr, true);
      storeWord(core, bus, addr, r[(op >> 8) & 7]);
      break;
    }
    case LDR_LIT: {
      r[15] += 2;
      const addr = ((r[15] + 2) & 0xfffffffc) + ((op & 0xff) << 2);
      cycles += busCycles(addr, false);
      r[(op >> 8) & 7] = core.readUint32(addr);
      break;
    }
    case LDR_REG: {
      const addr = r[(op >> 6) & 7] + r[(op >> 3) & 7];
      r[15] += 2;
      cycles += busCycles(addr, false);
      r[op & 7] = core.readUint32(addr);
      break;
    }
    case STR_REG: {
      const addr = r[(op >> 6) & 7] + r[(op >> 3) & 7];
      r[15] += 2;
      cycles += busCycles(addr, true);
      core.writeUint32(addr, r[op & 7]);
      break;
    }
    case LDRB_IMM: {
      const addr = r[(op >> 3) & 7] + ((op >> 6) & 0x1f);
      r[15] += 2;
      cycles += busCycles(addr, false);
      r[op & 7] = core.readUint8(addr);
      break;
    }
    case STRB_IMM: {
      const addr = r[(op >> 3) & 7] + ((op >> 6) & 0x1f);
      r[15] += 2;
      cycles += busCycles(addr, true);
      core.writeUint8(addr, r[op & 7]);
      break;
    }
    case LDRB_REG: {
      const addr = r[(op >> 6) & 7] + r[(op >> 3) & 7];
      r[15] += 2;
      cycles += busCycles(addr, false);
      r[op & 7] = core.readUint8(addr);
      break;
    }
    case STRB_REG: {
      const addr = r[(op >> 6) & 7] + r[(op >> 3) & 7];
      r[15] += 2;
      cycles += busCycles(addr, true);
      core.writeUint8(addr, r[op & 7]);
      break;
    }
    case LDRH_IMM: {
      const addr = r[(op >> 3) & 7] + (((op >> 6) & 0x1f) << 1);
      r[15] += 2;
      cycles += busCycles(addr, false);
      r[op & 7] = core.readUint16(addr);
      break;
    }
    case STRH_IMM: {
      const addr = r[(op >> 3) & 7] + (((op >> 6) & 0x1f) << 1);
      r[15] += 2;
      cycles += busCycles(addr, true);
      core.writeUint16(addr, r[op & 7]);
      break;
    }
    case MOVS_IMM: {
      const value = op & 0xff;
      r[15] += 2;
      r[(op >> 8) & 7] = value;
      core.N = false;
      core.Z = value === 0;
      break;
    }
    case CMP_IMM:
      r[15] += 2;
      subFlags(core, r[(op >> 8) & 7], op & 0xff);
      break;
    case ADDS_IMM8: {
      const rdn = (op >> 8) & 7;
      r[15] += 2;
      r[rdn] = addFlags(core, r[rdn], op & 0xff);
      break;
    }
    case SUBS_IMM8: {
      const rdn = (op >> 8) & 7;
      r[15] += 2;
      r[rdn] = subFlags(core, r[rdn], op & 0xff);
      break;
    }
    case ADDS_IMM3:
      r[15] += 2;
      r[op & 7] = addFlags(core, r[(op >> 3) & 7], (op >> 6) & 7);
      break;
    case SUBS_IMM3:
      r[15] += 2;
      r[op & 7] = subFlags(core, r[(op >> 3) & 7], (op >> 6) & 7);
      break;
    case ADDS_REG:
      r[15] += 2;
      r[op & 7] = addFlags(core, r[(op >> 3) & 7], r[(op >> 6) & 7]);
      break;
    case SUBS_REG:
      r[15] += 2;
      r[op & 7] = subFlags(core, r[(op >> 3) & 7], r[(op >> 6) & 7]);
      break;
    case LSLS_IMM: {
      const shift = (op >> 6) & 0x1f;
      const input = r[(op >> 3) & 7];
      const result = input << shift;
      r[15] += 2;
      r[op & 7] = result;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      if (shift) {
        core.C = !!(input & (1 << (32 - shift)));
      }
      break;
    }
    case LSRS_IMM: {
      const shift = (op >> 6) & 0x1f;
      const input = r[(op >> 3) & 7];
      const result = shift ? input >>> shift : 0;
      r[15] += 2;
      r[op & 7] = result;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      core.C = !!((input >>> (shift ? shift - 1 : 31)) & 1);
      break;
    }
    case B_COND:
      r[15] += 2;
      if (holds(core, (op >> 8) & 0xf)) {
        r[15] += (((op & 0xff) << 24) >> 23) + 2; // imm8 sign-extended, times two
        cycles++;
      }
      break;
    case B:
      r[15] += (((op & 0x7ff) << 21) >> 20) + 4; // imm11 sign-extended, times two
      cycles++;
      break;
    case BL: {
      const op2 = core.readUint16(pc + 2);
      if (op2 >> 14 !== 0b11 || !((op2 >> 12) & 1)) {
        return plainExecute.call(core);
      }
      const s = (op >> 10) & 1;
      const i1 = 1 - (s ^ ((op2 >> 13) & 1));
      const i2 = 1 - (s ^ ((op2 >> 11) & 1));
      const offset =
        ((s ? 0xff : 0) << 24) | (i1 << 23) | (i2 << 22) | ((op & 0x3ff) << 12) | ((op2 & 0x7ff) << 1);
      r[15] += 2;
      r[14] = (r[15] + 2) | 1;
      r[15] += 2 + offset;
      cycles += 2;
      core.blTaken(core, false);
      break;
    }
    case BX:
      r[15] += 2;
      core.BXWritePC(r[(op >> 3) & 0xf]);
      cycles++;
      break;
    case BLX:
      r[15] += 2;
      r[14] = r[15] | 1;
      r[15] = r[(op >> 3) & 0xf] & ~1;
      cycles++;
      core.blTaken(core, true);
      break;
    case PUSH: {
      let count = 0;
      for (let i = 0; i <= 8; i++) {
        if (op & (1 << i)) count++;
      }
      r[15] += 2;
      let addr = r[13] - 4 * count;
      for (let i = 0; i <= 7; i++) {
        if (op & (1 << i)) {
          core.writeUint32(addr, r[i]);
          cycles++;
          addr += 4;
        }
      }
      if (op & 0x100) {
        core.writeUint32(addr, r[14]);
      }
      r[13] = (r[13] - 4 * count) & ~3;
      break;
    }
    case POP: {
      r[15] += 2;
      let addr = r[13];
      for (let i = 0; i <= 7; i++) {
        if (op & (1 << i)) {
          r[i] = core.readUint32(addr);
          addr += 4;
          cycles++;
        }
      }
      if (op & 0x100) {
        r[13] = (addr + 4) & ~3;
        core.BXWritePC(core.readUint32(addr));
        cycles += 2;
      } else {
        r[13] = addr & ~3;
      }
      break;
    }
    case MOV_HI: {
      const rm = (op >> 3) & 0xf;
      const rd = ((op >> 4) & 8) | (op & 7);
      r[15] += 2;
      let value = rm === 15 ? r[15] + 2 : r[rm];
      if (rd === 15) {
        cycles++;
        value &= ~1;
      } else if (rd === 13) {
        value &= ~3;
      }
      r[rd] = value;
      break;
    }
    case ADD_HI: {
      const rm = (op >> 3) & 0xf;
      const rdn = ((op & 0x80) >> 4) | (op & 7);
      r[15] += 2;
      const sum = (rdn === 15 ? r[15] + 2 : r[rdn]) + (rm === 15 ? r[15] + 2 : r[rm]);
      if (rdn === 15) {
        r[15] = sum & ~1;
        cycles++;
      } else if (rdn === 13) {
        r[13] = sum & ~3;
      } else {
        r[rdn] = sum;
      }
      break;
    }
    case CMP_REG:
      r[15] += 2;
      subFlags(core, r[op & 7], r[(op >> 3) & 7]);
      break;
    case CMP_HI: {
      const rm = (op >> 3) & 0xf;
      const rn = ((op >> 4) & 8) | (op & 7);
      r[15] += 2;
      subFlags(core, r[rn], r[rm]);
      break;
    }
    case ANDS: {
      const rdn = op & 7;
      const result = r[rdn] & r[(op >> 3) & 7];
      r[15] += 2;
      r[rdn] = result;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      break;
    }
    case ORRS: {
      const rdn = op & 7;
      const result = r[rdn] | r[(op >> 3) & 7];
      r[15] += 2;
      r[rdn] = result;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      break;
    }
    case EORS: {
      const rdn = op & 7;
      const result = r[rdn] ^ r[(op >> 3) & 7];
      r[15] += 2;
      r[rdn] = result;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      break;
    }
    case TST: {
      const result = r[op & 7] & r[(op >> 3) & 7];
      r[15] += 2;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      break;
    }
    case BICS: {
      const rdn = op & 7;
      r[15] += 2;
      r[rdn] &= ~r[(op >> 3) & 7];
      const result = r[rdn];
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      break;
    }
    case MVNS: {
      const result = ~r[(op >> 3) & 7];
      r[15] += 2;
      r[op & 7] = result;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      break;
    }
    case MULS: {
      const rdm = op & 7;
      const result = Math.imul(r[(op >> 3) & 7], r[rdm]);
      r[15] += 2;
      r[rdm] = result;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      break;
    }
    case ADD_RD_SP:
      r[15] += 2;
      r[(op >> 8) & 7] = r[13] + ((op & 0xff) << 2);
      break;
    case ADD_SP:
      r[15] += 2;
      r[13] = (r[13] + ((op & 0x7f) << 2)) & ~3;
      break;
    case SUB_SP:
      r[15] += 2;
      r[13] = (r[13] - ((op & 0x7f) << 2)) & ~3;
      break;
    case UXTB:
      r[15] += 2;
      r[op & 7] = r[(op >> 3) & 7] & 0xff;
      break;
    case UXTH:
      r[15] += 2;
      r[op & 7] = r[(op >> 3) & 7] & 0xffff;
      break;
    case LDMIA: {
      const rn = (op >> 8) & 7;
      r[15] += 2;
      let addr = r[rn];
      for (let i = 0; i < 8; i++) {
        if (op & (1 << i)) {
          r[i] = core.readUint32(addr);
          addr += 4;
          cycles++;
        }
      }
      if (!(op & (1 << rn))) {
        r[rn] = addr;
      }
      break;
    }
    case STMIA: {
      const rn = (op >> 8) & 7;
      r[15] += 2;
      let addr = r[rn];
      for (let i = 0; i < 8; i++) {
        if (op & (1 << i)) {
          core.writeUint32(addr, r[i]);
          addr += 4;
          cycles++;
        }
      }
      if (!(op & (1 << rn))) {
        r[rn] = addr; // as rp2040js: no write-back when the base is in the list
      }
      break;
    }
    case ADR:
      r[15] += 2;
      r[(op >> 8) & 7] = (pc & 0xfffffffc) + 4 + ((op & 0xff) << 2);
      break;
  }
  core.cycles += cycles;
  return cycles;
}

/** Put the table's way in front of `core`'s own executeInstruction. */
export function fastThumb(core) {
  plainExecute = Object.getPrototypeOf(core).executeInstruction;
  core.executeInstruction = fastExecute;
}

/** The kind this file gives opcode `op` (0: left to rp2040js), for tests. */
export function fastKindOf(op) {
  return KINDS[op];
}

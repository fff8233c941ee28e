// What a state machine's program can do, read from its instructions once (until the CPU
// changes the program or the machine's configuration): the fabric's lookahead and the
// machines' coasting (pio_clock.mjs) rest on it.

const EXECCTRL_SIDE_EN = 1 << 30;
const SHIFTCTRL_AUTOPUSH = 1 << 16;
const SHIFTCTRL_AUTOPULL = 1 << 17;

/**
 * - writes[pc]: the instruction at pc can write pins (SET/OUT/MOV to pins or pindirs, side-set)
 *   or go anywhere (OUT/MOV to PC or EXEC);
 * - dist[pc]: the fewest cycles from starting pc to starting such an instruction, along any
 *   path (both ways of every conditional jump, waits that end at once);
 * - observable[pc]: the instruction does something another part of the board sees or that
 *   another part decides: writes pins, pushes or pulls (a FIFO, a DMA transfer), sets or waits
 *   for an IRQ flag, goes anywhere;
 * - what it reads of the pins: readsJmpPin (JMP PIN), readsInPins (IN/MOV PINS, WAIT PIN),
 *   waitGpio (a mask of the pins WAIT GPIO names), readMask (all of them: -1 for any pin);
 *   waitsIrq (WAIT IRQ).
 */
export function analyse(pio, sm) {
  const sideCount = sm.sidesetCount;
  const sideEn = !!(sm.execCtrl & EXECCTRL_SIDE_EN);
  const autopush = !!(sm.shiftCtrl & SHIFTCTRL_AUTOPUSH);
  const autopull = !!(sm.shiftCtrl & SHIFTCTRL_AUTOPULL);
  const writes = new Uint8Array(32);
  const observable = new Uint8Array(32);
  const cost = new Float64Array(32);
  const next = [];
  const reads = { readsJmpPin: false, readsInPins: false, waitGpio: 0, waitsIrq: false };
  for (let pc = 0; pc < 32; pc++) {
    const op = pio.instructions[pc];
    const delaySide = (op >> 8) & 0x1f;
    cost[pc] = 1 + (delaySide & ((1 << (5 - sideCount)) - 1));
    let w = sideCount > 0 && (!sideEn || (delaySide & 0x10) !== 0);
    let o = false;
    const dest = (op >> 5) & 7;
    const fall = pc === sm.wrapTop ? sm.wrapBottom : (pc + 1) & 31;
    let succ = [fall];
    switch (op >>> 13) {
      case 0: // JMP
        succ = dest === 0 ? [op & 0x1f] : [op & 0x1f, fall];
        reads.readsJmpPin = reads.readsJmpPin || dest === 6;
        break;
      case 1: {
        // WAIT: GPIO, PIN, IRQ
        const source = (op >> 5) & 3;
        if (source === 0) {
          reads.waitGpio |= 1 << (op & 0x1f);
        } else if (source === 1) {
          reads.readsInPins = true;
        } else if (source === 2) {
          reads.waitsIrq = true;
          o = true;
        }
        break;
      }
      case 2: // IN
        reads.readsInPins = reads.readsInPins || dest === 0;
        o = autopush;
        break;
      case 3: // OUT: PINS, PINDIRS, PC, EXEC
        w = w || dest === 0 || dest === 4 || dest === 5 || dest === 7;
        o = autopull;
        break;
      case 4: // PUSH, PULL
        o = true;
        break;
      case 5: // MOV: PINS, EXEC, PC
        w = w || dest === 0 || dest === 4 || dest === 5;
        reads.readsInPins = reads.readsInPins || (op & 7) === 0;
        break;
      case 6: // IRQ
        o = true;
        break;
      case 7: // SET: PINS, PINDIRS
        w = w || dest === 0 || dest === 4;
        break;
    }
    writes[pc] = w ? 1 : 0;
    observable[pc] = w || o ? 1 : 0;
    next.push(succ);
  }
  const dist = new Float64Array(32).fill(Infinity);
  for (let pc = 0; pc < 32; pc++) {
    if (writes[pc]) {
      dist[pc] = 0;
    }
  }
  for (let round = 0; round < 32; round++) {
    let changed = false;
    for (let pc = 0; pc < 32; pc++) {
      for (const s of next[pc]) {
        const d = cost[pc] + dist[s];
        if (d < dist[pc]) {
          dist[pc] = d;
          changed = true;
        }
      }
    }
    if (!changed) {
      break;
    }
  }
  let readMask = reads.waitGpio;
  if (reads.readsJmpPin) {
    readMask |= 1 << sm.jmpPin;
  }
  if (reads.readsInPins) {
    readMask = -1;
  }
  return { writes, dist, observable, readMask, ...reads };
}

// A cluster of emulated tiles wired face to face, driven over stdin/stdout by host_tools/emu.
//
// Usage: node cluster.mjs CONFIG.json   (written by host_tools/emu/cluster.py)
//
// Time: every tile runs in slices of SLICE_NS of emulated time, in a fixed order. Light sent by
// a face reaches the facing face LATENCY_NS later (>= SLICE_NS), always in the receiver's future,
// so the run is the same every time for the same inputs. Modes: "realtime" keeps emulated time
// from running ahead of the wall clock (what a person at a serial port expects), "fast" runs
// flat out, "driven" runs only up to the time the host last asked for (tests).
//
// The wire between two faces models an IrDA SIR transceiver pair: the emitter (TXD high = light)
// reaches the neighbour's detector, whose output (RXD) goes low while it sees light; each
// detector also sees its own emitter (the echo), which a half-duplex face must ignore; and a
// whole frame of light (a burst with no 50 us gap) is lost with probability `loss`.
//
// Protocol: one JSON object a line each way. In: {"cmd": "serial"|"button"|"power"|"part"|"join"|
// "run_until"|"mode"|"loss"|"stats"|"quit", ...}. Out: {"ev": "serial"|"up"|"leds"|"reset"|"at"|"stats"|
// "ready", ...}; times in ms of emulated time.

import fs from 'node:fs';
import readline from 'node:readline';
import { EmuTile, FLASH_BYTES, flashFromUf2 } from './tile.mjs';

const SLICE_NS = 8000;
const LATENCY_NS = 8000;
const ECHO_NS = 500;
const BURST_GAP_NS = 50000;
const BATCH_WALL_MS = 20;
const MAX_JUMP_NS = 10e6; // an idle cluster still moves in steps, for the host's input

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

// The emulator's own warnings (rp2040js prints some with console.warn, e.g. reads of the
// inter-core FIFO that only core 1 would answer) go to a log file, not the user's terminal.
if (config.log) {
  const logFd = fs.openSync(config.log, 'a');
  const toLog = (...parts) => fs.writeSync(logFd, parts.join(' ') + '\n');
  console.log = console.warn = console.info = console.debug = console.error = toLog;
}
const send = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const b64 = (bytes) => Buffer.from(bytes).toString('base64');

let seedState = (config.seed >>> 0) || 1;
function random() {
  // xorshift32: the wires' loss draws, in the cluster's fixed order
  let x = seedState;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  seedState = x >>> 0;
  return seedState / 4294967296;
}

const romBytes = fs.readFileSync(config.bootrom);
const bootrom = new Uint32Array(romBytes.buffer, romBytes.byteOffset, romBytes.length / 4);
const uf2 = config.firmware ? fs.readFileSync(config.firmware) : null;

function flashImage(path) {
  if (path && fs.existsSync(path) && fs.statSync(path).size === FLASH_BYTES) {
    return new Uint8Array(fs.readFileSync(path));
  }
  if (!uf2) {
    throw new Error(`no flash image at ${path} and no firmware to write`);
  }
  const flash = flashFromUf2(uf2);
  if (path) {
    fs.writeFileSync(path, flash);
  }
  return flash;
}

// peers[tile][face] = {tile, face, lost, lastOffNs}: where the light leaving that face goes,
// whether the frame under way is being lost, and when the light last went off
const peers = config.tiles.map(() => new Array(6).fill(null));
let loss = config.loss || 0;

const events = {
  serial: (tile, bytes) => send({ ev: 'serial', tile: tile.index, data: b64(bytes) }),
  up: (tile) => send({ ev: 'up', tile: tile.index, t: tile.nowNs / 1e6 }),
  leds: (tile, rgb, ns) => send({ ev: 'leds', tile: tile.index, t: ns / 1e6, rgb }),
  reset: (tile, cause) => send({ ev: 'reset', tile: tile.index, cause, t: tile.nowNs / 1e6 }),
  light: (tile, face, on, ns) => {
    if (config.echo !== false) {
      tile.scheduleLight(face, on, ns + ECHO_NS);
    }
    const peer = peers[tile.index][face];
    if (!peer) {
      return;
    }
    if (on && ns - peer.lastOffNs > BURST_GAP_NS) {
      peer.lost = loss > 0 && random() < loss; // a new frame: does it get through?
    }
    if (!on) {
      peer.lastOffNs = ns;
    }
    if (!peer.lost) {
      tiles[peer.tile].scheduleLight(peer.face, on, ns + LATENCY_NS);
    }
  },
};

const tiles = config.tiles.map(
  (t) =>
    new EmuTile(
      {
        index: t.index,
        bootrom,
        flash: flashImage(t.flash),
        flashPath: t.flash || null,
        serial: Buffer.from(t.serial, 'hex'),
        seed: t.seed,
        pins: config.pins,
      },
      events,
    ),
);

/** Two faces come to face each other: light that is on crosses at once. */
function join(a, fa, b, fb) {
  part(a, fa);
  part(b, fb);
  peers[a][fa] = { tile: b, face: fb, lost: false, lastOffNs: -Infinity };
  peers[b][fb] = { tile: a, face: fa, lost: false, lastOffNs: -Infinity };
  for (const [x, fx, y, fy] of [[a, fa, b, fb], [b, fb, a, fa]]) {
    if (tiles[x].lit[fx]) {
      tiles[y].scheduleLight(fy, true, nowNs + LATENCY_NS);
    }
  }
}

/** A face no longer faces anyone: light it was receiving from there goes out. */
function part(a, fa) {
  const peer = peers[a][fa];
  if (!peer) {
    return;
  }
  const { tile: b, face: fb } = peer;
  peers[a][fa] = null;
  peers[b][fb] = null;
  if (tiles[a].lit[fa] && !peer.lost) {
    tiles[b].scheduleLight(fb, false, nowNs + LATENCY_NS);
  }
  if (tiles[b].lit[fb]) {
    tiles[a].scheduleLight(fa, false, nowNs + LATENCY_NS);
  }
}

for (const [a, fa, b, fb] of config.wires) {
  join(a, fa, b, fb);
}

let nowNs = 0;
let mode = config.mode || 'realtime';
let targetNs = 0; // driven mode: run up to here
let waiting = false; // driven mode: an "at" reply is owed when the target is reached
let quitting = false;
const wallStart = Date.now();
const emuStart = 0;
let cpuMs = 0;

function step(limitNs) {
  // While every tile is idle (CPU asleep in WFE, PIO machines parked), nothing can happen on
  // any of them before the earliest alarm or input: jump there at once, a whole slice at a time.
  // With nothing scheduled at all, time waits for the host (returns false), unless driven.
  let end = nowNs + SLICE_NS;
  let quiet = Infinity;
  for (const tile of tiles) {
    const t = tile.quietUntil();
    if (t < quiet) {
      quiet = t;
    }
  }
  if (quiet > end) {
    if (quiet === Infinity && limitNs === Infinity) {
      return false;
    }
    end = Math.min(Math.floor(quiet / SLICE_NS) * SLICE_NS, limitNs, nowNs + MAX_JUMP_NS);
    end = Math.max(end, nowNs + SLICE_NS);
  }
  for (const tile of tiles) {
    tile.runUntil(end);
  }
  nowNs = end;
  return true;
}

function loop() {
  if (quitting) {
    return;
  }
  const started = Date.now();
  for (let n = 0; ; n++) {
    if (mode === 'driven' && nowNs >= targetNs) {
      if (waiting) {
        waiting = false;
        send({ ev: 'at', t: nowNs / 1e6 });
      }
      break;
    }
    let limit = Infinity;
    if (mode === 'driven') {
      limit = targetNs;
    } else if (mode === 'realtime') {
      limit = emuStart + (Date.now() - wallStart) * 1e6;
      if (nowNs > limit) {
        break;
      }
    }
    if (!step(limit)) {
      break; // nothing to do until the host says something
    }
    if ((n & 63) === 63 && Date.now() - started >= BATCH_WALL_MS) {
      break;
    }
  }
  cpuMs += Date.now() - started;
  const idle = mode === 'driven' ? nowNs >= targetNs : mode === 'realtime' && nowNs > (Date.now() - wallStart) * 1e6;
  setTimeout(loop, idle ? 2 : 0);
}

const input = readline.createInterface({ input: process.stdin });
input.on('line', (line) => {
  const msg = JSON.parse(line);
  const tile = msg.tile !== undefined ? tiles[msg.tile] : null;
  switch (msg.cmd) {
    case 'serial':
      tile.hostWrite(Buffer.from(msg.data, 'base64'));
      break;
    case 'button':
      tile.scheduleButton(msg.down, Math.max(nowNs, (msg.at ?? 0) * 1e6));
      break;
    case 'power':
      tile.power(msg.on);
      break;
    case 'part':
      for (let face = 0; face < 6; face++) {
        part(msg.tile, face);
      }
      break;
    case 'join':
      join(msg.a, msg.fa, msg.b, msg.fb);
      break;
    case 'run_until':
      mode = 'driven';
      targetNs = Math.max(targetNs, Math.round((msg.t * 1e6) / SLICE_NS) * SLICE_NS);
      waiting = true;
      break;
    case 'mode':
      mode = msg.mode;
      break;
    case 'loss':
      loss = msg.loss;
      break;
    case 'stats':
      send({ ev: 'stats', t: nowNs / 1e6, cpu_ms: cpuMs, wall_ms: Date.now() - wallStart, boots: tiles.map((x) => x.boots), busy_ms: tiles.map((x) => x.busyNs / 1e6) });
      break;
    case 'quit':
      quitting = true;
      input.close();
      process.exit(0);
  }
});
input.on('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));

send({ ev: 'ready', tiles: tiles.length });
loop();

// A cluster of emulated tiles wired face to face, driven over stdin/stdout by host_tools/emu.
//
// Usage: node cluster.mjs CONFIG.json   (written by host_tools/emu/cluster.py)
//
// Time: the CPUs run in slices of SLICE_NS, in a fixed order; the fabric (every board's state
// machines and the light between faces, fabric.mjs) runs behind them, in time order across the
// cluster, and is brought up to a CPU's time whenever that CPU touches it. Light leaving a face
// at t reaches the facing detector at t plus the transceiver's delay (detector.mjs), and the
// same inputs give the same run. Modes: "realtime" keeps emulated time from running ahead of
// the wall clock (what a person at a serial port expects), "fast" runs flat out, "driven" runs
// only up to the time the host last asked for (tests).
//
// Protocol: one JSON object a line each way. In: {"cmd": "serial"|"host"|"button"|"power"|
// "vbus"|"shine"|"part"|"join"|"run_until"|"mode"|"loss"|"transceiver"|"stats"|"quit", ...}.
// Out: {"ev": "serial"|"up"|"leds"|"reset"|"at"|"stats"|"ready", ...}; times in ms of emulated
// time.

import fs from 'node:fs';
import readline from 'node:readline';
import { Detector } from './detector.mjs';
import { Fabric } from './fabric.mjs';
import { shine } from './room_light.mjs';
import { EmuTile, FLASH_BYTES, flashFromUf2 } from './tile.mjs';
import { Wire } from './wire.mjs';

const BATCH_WALL_MS = 20;
const MAX_JUMP_NS = 10e6; // an idle cluster still moves in steps, for the host's input
const IDLE_WAIT_MS = 100; // realtime, nothing to do: the longest sleep before looking again
const HOST_RETRY_MS = 5; // a host whose terminal is full tries again this often

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// how far a CPU runs ahead of the fabric at most: a speed knob only (the same run whatever it is)
const SLICE_NS = (config.slice_us ?? 50) * 1000;

// The emulator's own warnings (rp2040js prints some with console.warn, e.g. reads of the
// inter-core FIFO that only core 1 would answer) go to a log file, not the user's terminal.
if (config.log) {
  const logFd = fs.openSync(config.log, 'a');
  const toLog = (...parts) => fs.writeSync(logFd, parts.join(' ') + '\n');
  console.log = console.warn = console.info = console.debug = console.error = toLog;
}
const send = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const b64 = (bytes) => Buffer.from(bytes).toString('base64');

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

let nowNs = 0; // every CPU and the fabric have reached this time
const events = {
  serial: (tile, bytes) => send({ ev: 'serial', tile: tile.index, data: b64(bytes) }),
  up: (tile) => send({ ev: 'up', tile: tile.index, t: tile.cpuNs / 1e6 }),
  leds: (tile, rgb, ns) => send({ ev: 'leds', tile: tile.index, t: ns / 1e6, rgb }),
  reset: (tile, cause) => send({ ev: 'reset', tile: tile.index, cause, t: tile.cpuNs / 1e6 }),
  light: (tile, face, on, ns) => wire.emit(tile.index, face, on, ns),
  dormant: (tile, asleep, ns) => send({ ev: 'dormant', tile: tile.index, asleep, t: ns / 1e6 }),
  stopFabric: (ns) => fabric.stop(ns),
  sync,
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
        clusterSeed: config.seed,
        transceiver: config.transceiver,
        ptyFd: t.pty_fd ?? -1,
        pins: config.pins,
      },
      events,
    ),
);
const wire = new Wire(tiles, config.seed, config.loss || 0);
const fabric = new Fabric(tiles, Detector.minDelayNs(config.transceiver));
for (const [a, fa, b, fb] of config.wires) {
  wire.join(a, fa, b, fb, 0);
}

/** A CPU is about to touch the fabric at time t: every other CPU runs up to t first (a CPU
 * behind could still change the fabric before t), then the fabric catches up to t. */
function sync(caller, t) {
  while (fabric.atNs < t) {
    for (const tile of tiles) {
      if (tile !== caller && tile.cpuNs < t) {
        tile.runCpu(t);
      }
    }
    fabric.advance(t); // stops short when a board wakes on the way: it runs, and again
  }
}

let mode = config.mode || 'realtime';
let targetNs = 0; // driven mode: run up to here
let waiting = false; // driven mode: an "at" reply is owed when the target is reached
let quitting = false;
const wallStart = Date.now();
// realtime mode: the wall clock's ms at emulated time 0. A switch into realtime from the other
// modes moves it, so emulated time goes on from where it is (not frozen until the wall clock
// catches up with a run that went flat out, nor racing to make up for a slow one).
let wallAtZero = wallStart;
let cpuMs = 0;

/** The next time anything can happen: a CPU's wake-up, or the fabric's next event when a
 * sleeping CPU would be woken by it. */
function nextWake() {
  let wake = Infinity;
  let fabricWakes = false;
  for (const tile of tiles) {
    const t = tile.cpuWakeNs();
    if (t < wake) {
      wake = t;
    }
    fabricWakes = fabricWakes || (t > nowNs && !tile.off && tile.fabricCanInterrupt());
  }
  return fabricWakes ? Math.min(wake, fabric.nextEvent()) : wake;
}

function step(limitNs) {
  // While every CPU sleeps (in WFE, waiting for an alarm or the host), nothing can happen on
  // any of them before the earliest wake-up: jump there at once, the fabric following. With
  // nothing scheduled at all, time waits for the host (returns false), unless driven.
  let end = nowNs + SLICE_NS;
  const wake = nextWake();
  if (wake > end) {
    if (wake === Infinity && limitNs === Infinity && fabric.nextEvent() === Infinity) {
      return false;
    }
    end = Math.max(Math.min(wake, nowNs + MAX_JUMP_NS), end);
  }
  end = Math.min(end, limitNs);
  if (end <= nowNs) {
    return false;
  }
  for (const tile of tiles) {
    tile.runCpu(end);
  }
  fabric.advance(end);
  nowNs = fabric.atNs; // short of end when a board woke from DORMANT on the way
  return true;
}

/** Hosts that took bytes their terminal had no room for try again; true if any still waits. */
function flushHosts() {
  let full = false;
  for (const tile of tiles) {
    if (tile.host.waiting !== null) {
      tile.host.flush();
      full = full || tile.host.waiting !== null;
    }
  }
  return full;
}

function loop() {
  if (quitting) {
    return;
  }
  const started = Date.now();
  let idleMs = 0;
  for (let n = 0; ; n++) {
    if ((n & 15) === 0) {
      flushHosts();
    }
    if (mode === 'driven' && nowNs >= targetNs) {
      if (waiting) {
        waiting = false;
        send({ ev: 'at', t: nowNs / 1e6 });
      }
      idleMs = IDLE_WAIT_MS; // until the host asks for more (stdin wakes us)
      break;
    }
    let limit = Infinity;
    if (mode === 'driven') {
      limit = targetNs;
    } else if (mode === 'realtime') {
      limit = (Date.now() - wallAtZero) * 1e6;
      if (nowNs >= limit) {
        // sleep until the next wake-up is due on the wall clock (input from the host, on
        // stdin, wakes us sooner)
        idleMs = Math.min(IDLE_WAIT_MS, Math.max(1, (nextWake() - limit) / 1e6));
        break;
      }
    }
    if (!step(limit)) {
      idleMs = IDLE_WAIT_MS; // nothing to do until the host says something
      break;
    }
    if ((n & 15) === 15 && Date.now() - started >= BATCH_WALL_MS) {
      break; // let the host's commands in
    }
  }
  if (flushHosts()) {
    idleMs = Math.min(idleMs, HOST_RETRY_MS); // a host's terminal is full: look again soon
  }
  cpuMs += Date.now() - started;
  schedule(idleMs);
}

let timer = null;
/** Run loop() again: at once (setImmediate: a zero setTimeout waits a millisecond, 5 % of a
 * busy cluster's time) when there is work, else after `idleMs`. */
function schedule(idleMs) {
  if (idleMs > 0) {
    timer = setTimeout(() => {
      timer = null;
      loop();
    }, idleMs);
  } else {
    setImmediate(loop);
  }
}

function wakeLoop() {
  // a command from the host: look again at once rather than at the end of an idle sleep
  if (timer !== null) {
    clearTimeout(timer);
    timer = null;
    schedule(0);
  }
}

function stats() {
  return {
    ev: 'stats',
    t: nowNs / 1e6,
    cpu_ms: cpuMs,
    cpu_used_ms: (process.cpuUsage().user + process.cpuUsage().system) / 1e3,
    wall_ms: Date.now() - wallStart,
    boots: tiles.map((x) => x.boots),
    busy_ms: tiles.map((x) => x.busyNs / 1e6),
    late_light: tiles.map((x) => x.late),
    shone: tiles.map((x) => x.shone), // edges of room light put on its detectors
    usb_nak: tiles.map((x) => x.host.nakked),
    late_irqs: tiles.map((x) => x.lateIrqs),
    late_irq_us: Math.max(...tiles.map((x) => x.lateIrqNs)) / 1e3,
    fabric_rounds: fabric.rounds,
  };
}

const input = readline.createInterface({ input: process.stdin });
input.on('line', (line) => {
  const msg = JSON.parse(line);
  const tile = msg.tile !== undefined ? tiles[msg.tile] : null;
  switch (msg.cmd) {
    case 'serial':
      tile.hostWrite(Buffer.from(msg.data, 'base64'));
      break;
    case 'host':
      tile.host.setOpen(msg.open);
      break;
    case 'button':
      tile.scheduleButton(msg.down, Math.max(nowNs, Math.round((msg.at ?? 0) * 1e6)));
      break;
    case 'power':
      tile.power(msg.on);
      break;
    case 'vbus':
      tile.scheduleVbus(msg.high, Math.max(nowNs, Math.round((msg.at ?? 0) * 1e6)));
      break;
    case 'shine':
      for (const face of msg.faces) {
        shine(tile, face, msg.pulses, nowNs, (msg.every ?? 0) * 1e6, (msg.until ?? Infinity) * 1e6);
      }
      break;
    case 'part':
      for (let face = 0; face < 6; face++) {
        wire.part(msg.tile, face, nowNs);
      }
      break;
    case 'join':
      wire.join(msg.a, msg.fa, msg.b, msg.fb, nowNs);
      break;
    case 'run_until':
      mode = 'driven';
      targetNs = Math.max(targetNs, Math.round(msg.t * 1e6));
      waiting = true;
      break;
    case 'mode':
      if (msg.mode === 'realtime' && mode !== 'realtime') {
        wallAtZero = Date.now() - nowNs / 1e6;
      }
      mode = msg.mode;
      break;
    case 'loss':
      wire.loss = msg.loss;
      break;
    case 'transceiver':
      for (const t of tiles) {
        t.detectors.forEach((detector) => detector.configure(msg.model));
      }
      fabric.minDelayNs = Detector.minDelayNs(msg.model);
      break;
    case 'stats':
      send(stats());
      break;
    case 'quit':
      quitting = true;
      input.close();
      process.exit(0);
  }
  wakeLoop();
});
input.on('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));

send({ ev: 'ready', tiles: tiles.length });
loop();

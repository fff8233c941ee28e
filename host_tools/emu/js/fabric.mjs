// The fabric: every board's state machines and pin inputs (the light on its detectors), stepped
// in time order across the whole cluster, so that light leaving a face at t reaches the facing
// detector at t plus the transceiver's delay, exactly, and the run repeats exactly.
//
// The fabric runs behind the CPUs: a CPU runs ahead on its own (its timers, USB, flash), and
// the fabric is brought up to its time whenever it touches the fabric (cpu_bus.mjs) and at the
// end of every slice; see docs/emulated-tiles.md for why this is exact.
//
// Within the fabric, boards are stepped in rounds. Light can change no earlier than B, the
// earliest time any board's state machines could write a pin (each board's emitBound: its
// machines' places in their programs, its next input); a detector answers light no sooner than
// the transceiver's delay D after it. So nothing anyone does from now on can reach a board
// before B + D: every board runs its own events up to there, in any order, and the next round
// starts. Idle faces make B far away (a whole slice in one round); a face sending makes rounds
// as short as its pin writes are apart.
//
// Light that would reach a detector in its board's past breaks that reasoning; it cannot happen
// unless the lookahead is wrong, and each board counts it (`late`) if it does.

export class Fabric {
  /**
   * @param tiles boards with fabricNext(), fabricBound(), fabricRun(h)
   * @param minDelayNs the transceiver's delay: light is never seen sooner after it leaves
   */
  constructor(tiles, minDelayNs) {
    this.tiles = tiles;
    this.minDelayNs = minDelayNs;
    this.atNs = 0; // every fabric event before this time has happened
    this.stopAt = Infinity; // a board woke from DORMANT: go no further than its CPU for now
    this.rounds = 0;
  }

  /** A board woken at t goes on from there: the fabric must not pass it until it has run. */
  stop(t) {
    if (t < this.stopAt) {
      this.stopAt = t;
    }
  }

  /** The earliest fabric event anywhere (Infinity when all is quiet). */
  nextEvent() {
    let next = Infinity;
    for (const tile of this.tiles) {
      const t = tile.fabricNext();
      if (t < next) {
        next = t;
      }
    }
    return next;
  }

  /** Run every event before time t, or before a board woken on the way can run (stop()). */
  advance(t) {
    if (t <= this.atNs) {
      return;
    }
    const tiles = this.tiles;
    for (;;) {
      if (this.stopAt < t) {
        t = Math.max(this.stopAt, this.atNs);
      }
      let next = Infinity;
      let bound = Infinity;
      for (const tile of tiles) {
        const e = tile.fabricNext();
        if (e < next) {
          next = e;
        }
        const b = tile.fabricBound();
        if (b < bound) {
          bound = b;
        }
      }
      if (next >= t) {
        break;
      }
      const h = Math.min(t, bound + this.minDelayNs);
      for (const tile of tiles) {
        tile.fabricRun(h);
      }
      this.rounds++;
    }
    for (const tile of tiles) {
      tile.fabricRun(t);
    }
    this.atNs = t;
    this.stopAt = Infinity;
  }
}

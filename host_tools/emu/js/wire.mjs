// The light between faces: where each emitter's light goes, and which bursts are lost.
//
// A face's emitter lights its own detector (the echo, which the detector model decides about)
// and the detector of the face it touches, if any. A burst of light (no gap of BURST_GAP_NS) is
// a frame on the air; with probability `loss` a whole burst never reaches the other face, drawn
// per burst from the sending face's own generator. BURST_GAP_NS lies between the longest dark
// stretch inside a frame (a 0xFF byte is its start pulse alone: 87 us to the next byte's at
// 115.2 kbit/s) and the dark bytes that end every frame (7 byte times, 608 us). It was 50 us,
// which cut a bulk frame into a burst at every such byte: "30 % loss" then damaged almost every
// 268-byte frame, not 30 % of them. Faces are joined and parted while lit: light
// that is on crosses (or stops crossing) at that moment, as when two tiles slide together.
//
// Light between a tile's own faces (the transceiver's `crosstalk`, 0-1: light leaking inside a
// shell): each pulse of a face's emitter reaches each other face of its tile with that
// probability, drawn per pulse and face from the sending face's own generator.

import { XorShift32, seedFor } from './random.mjs';

const BURST_GAP_NS = 300000;
const LOSS_STREAM = 1; // seedFor's stream for the loss draws (the detectors use another)
const CROSSTALK_STREAM = 3;

export class Wire {
  /**
   * @param tiles the cluster's tiles: tiles[i].detectors[face], tiles[i].lit[face]
   * @param seed the cluster's seed
   * @param loss the probability that a burst is lost, 0-1
   */
  constructor(tiles, seed, loss) {
    this.tiles = tiles;
    this.loss = loss;
    // out[tile][face]: the light leaving that face: where it goes, and the burst under way
    this.out = tiles.map((tile) =>
      Array.from({ length: 6 }, (_, face) => ({
        to: null, // {tile, face} it faces, or null
        lost: false, // the burst under way is lost
        offNs: -Infinity, // when its light last went out
        crossing: false, // its light is on at the other face's detector now
        rng: new XorShift32(seedFor(seed, LOSS_STREAM, tile.index * 8 + face)),
        leaking: 0, // bit g: this pulse's light reaches the tile's own face g
        leakRng: new XorShift32(seedFor(seed, CROSSTALK_STREAM, tile.index * 8 + face)),
      })),
    );
  }

  /** Tile `a`'s face `fa` emitter goes on or off at t. */
  emit(a, fa, on, t) {
    this.tiles[a].detectors[fa].own(on, t);
    const out = this.out[a][fa];
    this.leak(a, fa, out, on, t);
    if (on && t - out.offNs > BURST_GAP_NS) {
      out.lost = this.loss > 0 && out.rng.next() < this.loss; // a new burst: does it cross?
    }
    if (!on) {
      out.offNs = t;
    }
    if (out.to) {
      this.cross(out, on && !out.lost, t);
    }
  }

  /** Face fa's light reaching the other faces of its own tile (crosstalk). */
  leak(a, fa, out, on, t) {
    const detectors = this.tiles[a].detectors;
    if (on) {
      const level = detectors[fa].crosstalk;
      for (let g = 0; level > 0 && g < 6; g++) {
        if (g !== fa && out.leakRng.next() < level) {
          out.leaking |= 1 << g;
          detectors[g].light(true, t);
        }
      }
    } else if (out.leaking) {
      for (let g = 0; g < 6; g++) {
        if ((out.leaking >> g) & 1) {
          detectors[g].light(false, t);
        }
      }
      out.leaking = 0;
    }
  }

  cross(out, on, t) {
    if (on !== out.crossing) {
      out.crossing = on;
      this.tiles[out.to.tile].detectors[out.to.face].light(on, t);
    }
  }

  /** Two faces come to face each other at t: light that is on crosses at once. */
  join(a, fa, b, fb, t) {
    this.part(a, fa, t);
    this.part(b, fb, t);
    this.out[a][fa].to = { tile: b, face: fb };
    this.out[b][fb].to = { tile: a, face: fa };
    for (const [x, fx] of [
      [a, fa],
      [b, fb],
    ]) {
      const out = this.out[x][fx];
      this.cross(out, this.tiles[x].lit[fx] && !out.lost, t);
    }
  }

  /** Face `fa` of tile `a` no longer faces anyone at t: light between the two stops. */
  part(a, fa, t) {
    const out = this.out[a][fa];
    if (!out.to) {
      return;
    }
    const back = this.out[out.to.tile][out.to.face];
    this.cross(out, false, t);
    this.cross(back, false, t);
    out.to = null;
    back.to = null;
  }
}

// Seeded randomness for the harness: each user (a face's detector, a face's frame loss, a
// tile's ring oscillator) draws from its own generator, so what one draws never depends on the
// order in which the others draw, and a run repeats exactly from the cluster's seed.

/** A 32-bit seed for one user, from the cluster's seed and up to two small numbers. */
export function seedFor(seed, a = 0, b = 0) {
  let h = (seed >>> 0) ^ 0x9e3779b9;
  for (const v of [a, b]) {
    h = Math.imul(h ^ (v + 0x7f4a7c15), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h ^= h >>> 16;
  }
  return h >>> 0 || 1;
}

export class XorShift32 {
  constructor(seed) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** The next 32 random bits, as an unsigned integer. */
  bits() {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state;
  }

  /** A number in [0, 1). */
  next() {
    return this.bits() / 4294967296;
  }
}

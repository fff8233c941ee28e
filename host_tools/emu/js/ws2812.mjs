// The WS2812 chain's data pin, decoded back into colours, as the pixels themselves would.
//
// A WS2812 bit is a high pulse: about 0.4 us for a 0, 0.8 us for a 1; 24 bits a pixel in
// green, red, blue order, most significant bit first; a low line for more than 50 us latches
// the colours. `onFrame(rgbList)` gets the colours of all pixels at each latch that changed
// them.

const ONE_MIN_NS = 625; // between a 0's 0.4 us and a 1's 0.8 us
const RESET_NS = 50000;

export class Ws2812Decoder {
  constructor(pixelCount, onFrame) {
    this.pixelCount = pixelCount;
    this.onFrame = onFrame;
    this.bits = [];
    this.riseNs = -1;
    this.fallNs = -Infinity;
    this.last = '';
  }

  /** The pin went high (true) or low (false) at time `ns`. */
  level(high, ns) {
    if (high) {
      if (ns - this.fallNs > RESET_NS) {
        this.bits = [];
      }
      this.riseNs = ns;
    } else if (this.riseNs >= 0) {
      this.bits.push(ns - this.riseNs > ONE_MIN_NS ? 1 : 0);
      this.riseNs = -1;
      this.fallNs = ns;
      if (this.bits.length === 24 * this.pixelCount) {
        this.latch();
        this.bits = [];
      }
    }
  }

  latch() {
    const rgb = [];
    for (let p = 0; p < this.pixelCount; p++) {
      const byte = (i) => {
        let v = 0;
        for (let b = 0; b < 8; b++) {
          v = (v << 1) | this.bits[24 * p + 8 * i + b];
        }
        return v;
      };
      rgb.push([byte(1), byte(0), byte(2)]);
    }
    const key = JSON.stringify(rgb);
    if (key !== this.last) {
      this.last = key;
      this.onFrame(rgb);
    }
  }
}

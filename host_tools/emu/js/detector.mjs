// One face's infrared detector: its output (RXD, low during a pulse) drawn from the light that
// reaches it, with the figures of host_tools/emu/transceiver.py (read its docstring).
//
// - A rising edge of light (from dark to any light from another face) starts a pulse of the
//   detector's own width, drawn per pulse in [pulse_min, pulse_max], delay_us + U(0, jitter_us)
//   after the light: never a copy of the sender's pulse.
// - The face's own light reaches its own detector (echo): each of its rising edges gives a
//   pulse like any other, also while the detector recovers (the worst case for a face that must
//   ignore its own light).
// - While its own light is on, and for recovery_us after it goes out, light from other faces
//   gives nothing: the detector is saturated, then recovers. In "ring" mode it makes pulses of
//   its own meanwhile, the usual width, 2-20 us apart (end to start), until recovery ends.
//
// - With probability `pulse_loss` a rising edge of light from another face gives no pulse: a
//   single pulse lost inside a frame (one bit, or one byte's start), unlike `--loss`, which
//   loses whole bursts.
//
// Pulses that overlap keep the output low until the last one ends. Every draw comes from the
// detector's own generator, in the order its light changes, so a run repeats exactly.

const RING_GAP_MIN_NS = 2000;
const RING_GAP_MAX_NS = 20000;
const MIN_DELAY_NS = 1; // light is never seen at the instant it leaves (the fabric's lookahead)

export class Detector {
  /**
   * @param model the transceiver's figures (transceiver.py as_config())
   * @param rng an XorShift32 of its own
   * @param schedule schedule(t, fn): call fn at emulated time t (ns), in time order
   * @param setLow setLow(low, t): the output changes (low while a pulse is on)
   */
  constructor(model, rng, schedule, setLow) {
    this.configure(model);
    this.rng = rng;
    this.schedule = schedule;
    this.setLow = setLow;
    this.external = 0; // light sources from other faces that are on
    this.ownOn = false;
    this.deafUntil = -Infinity; // end of the recovery after its own light went out
    this.pulses = 0; // output pulses under way
    this.ringGen = 0; // a new recovery (or its own light) cancels the ring not yet started
  }

  /** Take the transceiver's figures (from the next light on). */
  configure(model) {
    this.minNs = model.pulse_min_us * 1000;
    this.spanNs = (model.pulse_max_us - model.pulse_min_us) * 1000;
    this.delayNs = Math.max(MIN_DELAY_NS, model.delay_us * 1000);
    this.jitterNs = model.jitter_us * 1000;
    this.recoveryNs = model.recovery_us * 1000;
    this.ring = model.recovery_mode === 'ring';
    this.echo = model.echo !== false;
    this.pulseLoss = model.pulse_loss ?? 0;
    this.crosstalk = model.crosstalk ?? 0; // wire.mjs reads it: light to the tile's other faces
  }

  /** The earliest an output change can follow light seen at t: the fabric's lookahead. */
  static minDelayNs(model) {
    return Math.max(MIN_DELAY_NS, model.delay_us * 1000);
  }

  /** Light from another face goes on or off at t. */
  light(on, t) {
    if (on) {
      this.external++;
      if (this.external === 1 && !this.ownOn && t >= this.deafUntil) {
        if (this.pulseLoss > 0 && this.rng.next() < this.pulseLoss) {
          return; // (drawn only when set: a run without it repeats as before)
        }
        this.pulse(t + this.delayNs + this.rng.next() * this.jitterNs);
      }
    } else {
      this.external--;
    }
  }

  /** The face's own emitter goes on or off at t. */
  own(on, t) {
    this.ownOn = on;
    this.ringGen++;
    if (on) {
      if (this.echo) {
        this.pulse(t + this.delayNs + this.rng.next() * this.jitterNs);
      }
    } else {
      this.deafUntil = t + this.recoveryNs;
      if (this.ring) {
        this.ringAfter(t, this.ringGen);
      }
    }
  }

  width() {
    return this.minNs + this.rng.next() * this.spanNs;
  }

  pulse(start) {
    const end = start + this.width();
    this.schedule(start, () => this.edge(1, start));
    this.schedule(end, () => this.edge(-1, end));
  }

  ringAfter(t, gen) {
    const start = t + RING_GAP_MIN_NS + this.rng.next() * (RING_GAP_MAX_NS - RING_GAP_MIN_NS);
    if (start >= this.deafUntil) {
      return;
    }
    const end = start + this.width();
    let started = false;
    this.schedule(start, () => {
      if (gen === this.ringGen) {
        started = true;
        this.edge(1, start);
      }
    });
    this.schedule(end, () => {
      if (started) {
        this.edge(-1, end);
      }
      if (gen === this.ringGen) {
        this.ringAfter(end, gen);
      }
    });
  }

  edge(delta, t) {
    const wasLow = this.pulses > 0;
    this.pulses += delta;
    const low = this.pulses > 0;
    if (low !== wasLow) {
      this.setLow(low, t);
    }
  }

  /** The output now: low (true) while a pulse is on. */
  get low() {
    return this.pulses > 0;
  }
}

// Light from no tile (host_tools/emu/ambient.py's shapes: a remote's bursts, a lamp's flicker)
// on a face's detector, which answers it as any light from another face.

/**
 * Put `pulses` [[on_ms, off_ms], ...] on `tile`'s face `face`, none before `fromNs`; again every
 * `everyNs` (0: once) until `untilNs`. Each change is an input of the face's (scheduleRx), so the
 * fabric's lookahead sees it as one. A repeat is scheduled when the one before begins: a period
 * ahead of its light. `tile.shone` counts the rising edges put on the tile.
 */
export function shine(tile, face, pulses, fromNs, everyNs = 0, untilNs = Infinity) {
  const detector = tile.detectors[face];
  const schedule = (shiftNs) => {
    pulses.forEach(([onMs, offMs], k) => {
      const on = Math.max(fromNs, Math.round(onMs * 1e6) + shiftNs);
      if (on >= untilNs) {
        return;
      }
      const off = Math.max(on + 1, Math.round(offMs * 1e6) + shiftNs);
      const again = k === 0 && everyNs > 0;
      tile.scheduleRx(face, on, () => {
        detector.light(true, on);
        tile.shone++;
        if (again) {
          schedule(shiftNs + everyNs);
        }
      });
      tile.scheduleRx(face, off, () => detector.light(false, off));
    });
  };
  schedule(0);
}

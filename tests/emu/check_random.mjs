// The checks' random numbers: xorshift32 from a seed, so a failing run can be run again.

/** A function returning the next 32-bit number from `seed` (0 is taken as 1). */
export function xorshift32(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

/** Fill `bytes` from `seed` (the low byte of each number), the same for every array so filled. */
export function fillBytes(bytes, seed) {
  const next = xorshift32(seed);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = next() & 0xff;
  }
}

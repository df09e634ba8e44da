// Seeded randomness for the input generator. Every byte of every input comes from here, so the
// same seed always yields byte-identical files and timings from different runs stay comparable.

/** mulberry32: tiny, fast, and good enough to make test data (not for anything secret). */
function mulberry32(seed) {
  let state = seed >>> 0;
  return function nextUint32() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** FNV-1a, used to turn a label such as a file name into a sub-seed. */
function hashLabel(label) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A random source with the few helpers the generators need.
 * `fork(label)` gives an independent stream per file, so adding or resizing one file never changes
 * the bytes of another.
 */
export function createRandom(seed) {
  const nextUint32 = mulberry32(seed);
  const random = {
    seed: seed >>> 0,
    uint32: nextUint32,
    /** A float in [0, 1). */
    float: () => nextUint32() / 4294967296,
    /** An integer in [0, n). */
    int: (n) => Math.floor((nextUint32() / 4294967296) * n),
    /** An integer in [min, max]. */
    between: (min, max) => min + Math.floor((nextUint32() / 4294967296) * (max - min + 1)),
    chance: (p) => nextUint32() / 4294967296 < p,
    pick: (items) => items[Math.floor((nextUint32() / 4294967296) * items.length)],
    /** Picks with a bias towards the start of the list, like word frequencies in real code. */
    pickSkewed: (items) => items[Math.floor(Math.pow(nextUint32() / 4294967296, 2.2) * items.length)],
    fillBytes(buffer) {
      let i = 0;
      for (; i + 4 <= buffer.length; i += 4) buffer.writeUInt32LE(nextUint32(), i);
      for (; i < buffer.length; i++) buffer[i] = nextUint32() & 0xff;
      return buffer;
    },
    fork: (label) => createRandom((seed ^ hashLabel(label)) >>> 0),
  };
  return random;
}

/**
 * Incompressible but reproducible bytes (xorshift32): deflate cannot shrink them, so a "photo" of
 * them keeps its size in a zip. The same length and seed always give the same bytes.
 */
export function noise(length: number, seed = 0x2545f491): Buffer {
  const out = Buffer.allocUnsafe(length);
  let x = seed >>> 0 || 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

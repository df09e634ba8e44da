/** The base64 digits of source map mappings. */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One base64 VLQ number, for tests that write mappings by hand (out of order, malformed). */
export function vlq(n: number): string {
  let value = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = value & 31;
    value >>>= 5;
    if (value > 0) digit |= 32;
    out += DIGITS[digit];
  } while (value > 0);
  return out;
}

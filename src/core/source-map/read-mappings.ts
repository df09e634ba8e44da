/*
 * A source map's `mappings` read in place, in slices with a turn of the event loop between them, so
 * that a large map's decoding neither allocates what its reader does not need nor keeps Ctrl-C
 * waiting: an abort signal is looked at between slices.
 */

/** One segment: the built column, and for a segment of 4 or 5 numbers the source, its line and column, and the name. */
export type SegmentVisitor = (line: number, count: 1 | 4 | 5, column: number, source: number, sourceLine: number, sourceColumn: number, name: number) => void;

/** Each base64 digit's value, by character code below 128; -1 for any other character. */
export const BASE64 = new Int8Array(128).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].forEach((digit, value) => (BASE64[digit.charCodeAt(0)] = value));

/** Characters read between two turns of the event loop. */
const SLICE = 1 << 20;

/**
 * Reads `mappings` segment by segment, the numbers decoded exactly as trace-mapping's decoder
 * (@jridgewell/sourcemap-codec) decodes them, each value carried from the segment before as the
 * format says. Returns false, part way through, for mappings that decoder would read otherwise
 * than as written (a character that is not a base64 digit, a number cut short, an empty segment,
 * a segment of other than 1, 4 or 5 numbers), for the caller to hand to that decoder; else the
 * number of lines, one more than there are semicolons. Rejects with the signal's reason once it is
 * aborted.
 */
export async function readMappings(mappings: string, visit: SegmentVisitor, signal?: AbortSignal): Promise<number | false> {
  const values = [0, 0, 0, 0, 0];
  let line = 0;
  let count = 0;
  let value = 0;
  let shift = 0;
  let pause = SLICE;
  signal?.throwIfAborted();
  for (let i = 0; i <= mappings.length; i++) {
    if (i === pause) {
      pause += SLICE;
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
    const c = i === mappings.length ? 0x3b : mappings.charCodeAt(i);
    if (c === 0x2c || c === 0x3b) {
      if (shift !== 0) return false;
      if (count === 1 || count === 4 || count === 5) visit(line, count, values[0]!, values[1]!, values[2]!, values[3]!, values[4]!);
      // Nothing before a comma is an empty segment; nothing before a semicolon, the end of a line (a comma may end it).
      else if (count !== 0 || c === 0x2c) return false;
      count = 0;
      if (c === 0x3b) {
        line++;
        values[0] = 0;
      }
      continue;
    }
    const digit = c < 128 ? BASE64[c]! : -1;
    if (digit < 0) return false;
    value |= (digit & 31) << shift;
    shift += 5;
    if (digit & 32) continue;
    if (count === 5) return false;
    // A number ends: its sign is in its lowest bit.
    values[count] = values[count]! + (value & 1 ? -2147483648 | -(value >>> 1) : value >>> 1);
    count++;
    value = 0;
    shift = 0;
  }
  return line;
}

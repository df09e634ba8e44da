/*
 * A source map's `mappings` read in place, in slices with a turn of the event loop between them, so
 * that a large map's decoding neither allocates what its reader does not need nor keeps Ctrl-C
 * waiting: an abort signal is looked at between slices.
 */

/**
 * A segment that starts a run of one source: the first on its line, or the first after a segment of
 * another source; `source` is -1 for a segment that names none (one of a single number).
 */
export type RunVisitor = (line: number, column: number, source: number) => void;

/** Each base64 digit's value, by character code below 128; -1 for any other character. */
export const BASE64 = new Int8Array(128).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].forEach((digit, value) => (BASE64[digit.charCodeAt(0)] = value));

/** Characters read between two turns of the event loop. */
const SLICE = 1 << 20;

const COMMA = 0x2c;
const SEMICOLON = 0x3b;

/**
 * Reads `mappings` segment by segment, each number decoded exactly as trace-mapping's decoder
 * (@jridgewell/sourcemap-codec) decodes it and carried from the segment before as the format says,
 * and tells `visit` where each run of one source starts: what sharing a file out among its sources
 * needs, where a call for each of a large map's segments cost most of the reading before V8 had
 * compiled it. A segment's source line, column and name are checked, not kept. Returns false, part
 * way through, for mappings that decoder would read otherwise than as written (a character that is
 * not a base64 digit, a number cut short, an empty segment, a segment of other than 1, 4 or 5
 * numbers) or whose segments on a line are out of column order (which it sorts), for the caller to
 * hand to it; else the number of lines, one more than there are semicolons. Rejects with the
 * signal's reason once it is aborted.
 */
export async function readSourceRuns(mappings: string, visit: RunVisitor, signal?: AbortSignal): Promise<number | false> {
  let line = 0;
  let count = 0;
  let value = 0;
  let shift = 0;
  // The running column and source, and the run being read (its line, and its source: -2 before any).
  let column = 0;
  let source = 0;
  let runLine = -1;
  let runSource = -2;
  let lastColumn = 0;
  let pause = SLICE;
  signal?.throwIfAborted();
  for (let i = 0; i <= mappings.length; i++) {
    if (i === pause) {
      pause += SLICE;
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
    const c = i === mappings.length ? SEMICOLON : mappings.charCodeAt(i);
    if (c === COMMA || c === SEMICOLON) {
      if (shift !== 0) return false;
      if (count === 1 || count === 4 || count === 5) {
        if (line === runLine && column < lastColumn) return false;
        lastColumn = column;
        const of = count === 1 ? -1 : source;
        if (line !== runLine || of !== runSource) {
          visit(line, column, of);
          runLine = line;
          runSource = of;
        }
      }
      // Nothing before a comma is an empty segment; nothing before a semicolon, the end of a line (a comma may end it).
      else if (count !== 0 || c === COMMA) return false;
      count = 0;
      if (c === SEMICOLON) {
        line++;
        column = 0;
      }
      continue;
    }
    const digit = c < 128 ? BASE64[c]! : -1;
    if (digit < 0) return false;
    value |= (digit & 31) << shift;
    shift += 5;
    if (digit & 32) continue;
    if (count === 5) return false;
    // A number ends: its sign is in its lowest bit. Only the column and the source are kept.
    if (count === 0) column += value & 1 ? -2147483648 | -(value >>> 1) : value >>> 1;
    else if (count === 1) source += value & 1 ? -2147483648 | -(value >>> 1) : value >>> 1;
    count++;
    value = 0;
    shift = 0;
  }
  return line;
}

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

/** What each character below 128 is in `mappings`: a digit's value, COMMA, SEMICOLON, or -1 for anything else. */
const COMMA = -2;
const SEMICOLON = -3;
const KINDS = Int8Array.from(BASE64);
KINDS[0x2c] = COMMA;
KINDS[0x3b] = SEMICOLON;

/** Characters read between two turns of the event loop. */
const SLICE = 1 << 20;

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
 *
 * The loop runs mostly before V8 has compiled it, where each operation counts: a character is
 * looked up once (KINDS), and the end of the text and the turns of the event loop are dealt with
 * outside it. On the React template's map, in a new process: 10 to 12 ms against 16.
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
  signal?.throwIfAborted();
  for (let from = 0; from < mappings.length; from += SLICE) {
    if (from > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
    const to = Math.min(mappings.length, from + SLICE);
    for (let i = from; i < to; i++) {
      const c = mappings.charCodeAt(i);
      const kind = c < 128 ? KINDS[c]! : -1;
      if (kind >= 0) {
        value |= (kind & 31) << shift;
        if (kind & 32) {
          shift += 5;
          continue;
        }
        if (count === 5) return false;
        // A number ends: its sign is in its lowest bit. Only the column and the source are kept.
        if (count === 0) column += value & 1 ? -2147483648 | -(value >>> 1) : value >>> 1;
        else if (count === 1) source += value & 1 ? -2147483648 | -(value >>> 1) : value >>> 1;
        count++;
        value = 0;
        shift = 0;
        continue;
      }
      if (kind === -1 || shift !== 0) return false;
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
      else if (count !== 0 || kind === COMMA) return false;
      count = 0;
      if (kind === SEMICOLON) {
        line++;
        column = 0;
      }
    }
  }
  // The text ends a line, as a semicolon would: the segment in the loop above, written once more
  // here rather than looked for at every character.
  if (shift !== 0) return false;
  if (count === 1 || count === 4 || count === 5) {
    if (line === runLine && column < lastColumn) return false;
    const of = count === 1 ? -1 : source;
    if (line !== runLine || of !== runSource) visit(line, column, of);
  } else if (count !== 0) return false;
  return line + 1;
}

import { BASE64 } from './read-mappings.js';

/**
 * A source map's `mappings`, looked up without decoding it all. A decoder (trace-mapping's) turns
 * every segment into an array of its own: for a large app's map, millions of arrays and hundreds
 * of megabytes, when a handful of findings each needs one segment. Here one pass over the text
 * notes where each line starts, the running values carried into it (a segment's source, line and
 * column are counted from the previous segment's, across lines), and every CHECKPOINT segments
 * where the text is and what the values are there. A position is then found from the last
 * checkpoint before it, reading at most that many segments: a minified bundle is one line, whose
 * map is most of the text. A line whose segments are out of column order (rare; trace-mapping
 * sorts them) is decoded whole, into one typed array, and sorted.
 *
 * The text must be well formed (mappingsFault in source-placer.ts says so first): base64 VLQ
 * numbers, segments of 1, 4 or 5 of them split by `,`, lines by `;`.
 */
export interface MappingLines {
  readonly mappings: string;
  /** Where each line starts in `mappings`; one more entry than there are lines, for the end. */
  readonly starts: Int32Array;
  /** The source, source line and source column carried into each line, 3 per line. */
  readonly carried: Float64Array;
  /** Whether each line's segments are in column order (1) or not (0). */
  readonly sorted: Uint8Array;
  /** Where each line's checkpoints start in `checkpoints` (in checkpoints); one more entry, for the end. */
  readonly checkpointStarts: Int32Array;
  /** CHECKPOINT_NUMBERS per checkpoint, of the lines in column order; see {@link indexMappings}. */
  readonly checkpoints: Float64Array;
  /** The lines out of column order decoded so far: SEGMENT numbers per segment, sorted by column. */
  readonly decoded: Map<number, Float64Array>;
}

/** Where a built position comes from: indexes into the map's sources, and 0-based line and column there. */
export interface MappedSegment {
  source: number;
  line: number;
  column: number;
}

/** Numbers kept per decoded segment: its column, source (NaN for a segment that names none), line, column. */
const SEGMENT = 4;

/** Each base64 digit's value; 0 for any other character (the text is checked before). */
const DIGITS = Uint8Array.from(BASE64, (value) => Math.max(value, 0));

const COMMA = 0x2c;
const SEMICOLON = 0x3b;

/** Where the next number is read from, in the text being read (one text at a time: nothing here waits). */
let cursor = 0;

/** The VLQ number at `cursor`, which moves past it: its lowest bit is the sign (as decoders read it, -0 included). */
function number(text: string): number {
  let value = 0;
  let shift = 0;
  let digit: number;
  do {
    digit = DIGITS[text.charCodeAt(cursor++)] ?? 0;
    value |= (digit & 31) << shift;
    shift += 5;
  } while (digit & 32);
  return value & 1 ? -0x80000000 | -(value >>> 1) : value >>> 1;
}

/** Whether another number of the same segment follows at `cursor`, before `end`. */
function more(text: string, end: number): boolean {
  if (cursor >= end) return false;
  const c = text.charCodeAt(cursor);
  return c !== COMMA && c !== SEMICOLON;
}

/** Segments between checkpoints: a lookup reads at most this many. */
const CHECKPOINT = 64;

/**
 * Numbers kept per checkpoint, as they are just after a segment is read: where the text goes on,
 * the segment's column, the running source, source line and source column, and whether the
 * segment itself names a source (1) or not (0).
 */
const CHECKPOINT_NUMBERS = 6;

/** One pass over `mappings`: where each line starts, what it carries in, and its checkpoints. Nothing is kept per segment. */
export function indexMappings(mappings: string): MappingLines {
  const steps = indexSteps(mappings);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Characters indexed between two turns of the event loop in {@link indexMappingsInSlices}. */
const SLICE = 1 << 20;

/**
 * {@link indexMappings} with a turn of the event loop every SLICE characters, where an abort is
 * heard: a large map's pass neither holds the event loop nor keeps Ctrl-C waiting. Rejects with
 * the signal's reason once it is aborted.
 */
export async function indexMappingsInSlices(mappings: string, signal?: AbortSignal): Promise<MappingLines> {
  signal?.throwIfAborted();
  const steps = indexSteps(mappings);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
  }
}

/** The pass itself, pausing (a `yield`) every SLICE characters; the shared cursor is its own again after each pause. */
function* indexSteps(mappings: string): Generator<void, MappingLines> {
  let lines = 1;
  for (let i = mappings.indexOf(';'); i >= 0; i = mappings.indexOf(';', i + 1)) lines++;
  const starts = new Int32Array(lines + 1);
  const carried = new Float64Array(lines * 3);
  const sorted = new Uint8Array(lines).fill(1);
  const checkpointStarts = new Int32Array(lines + 1);
  const checkpoints: number[] = [];
  // Source, source line and source column run on over the whole text; a segment's column starts
  // afresh on each line, and its name is never needed.
  let source = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  let line = 0;
  let column = 0;
  let segments = 0;
  const end = mappings.length;
  cursor = 0;
  let pause = SLICE;
  while (cursor < end) {
    if (cursor >= pause) {
      pause += SLICE;
      const at = cursor;
      yield;
      cursor = at;
    }
    const c = mappings.charCodeAt(cursor);
    if (c === SEMICOLON) {
      starts[++line] = ++cursor;
      carried[line * 3] = source;
      carried[line * 3 + 1] = sourceLine;
      carried[line * 3 + 2] = sourceColumn;
      checkpointStarts[line] = checkpoints.length / CHECKPOINT_NUMBERS;
      column = 0;
      segments = 0;
      continue;
    }
    if (c === COMMA) {
      cursor++;
      continue;
    }
    const previous = column;
    column += number(mappings);
    if (segments > 0 && column < previous) sorted[line] = 0;
    let named = 0;
    if (more(mappings, end)) {
      source += number(mappings);
      sourceLine += number(mappings);
      sourceColumn += number(mappings);
      if (more(mappings, end)) number(mappings);
      named = 1;
    }
    if (++segments % CHECKPOINT === 0) checkpoints.push(cursor, column, source, sourceLine, sourceColumn, named);
  }
  starts[lines] = end + 1;
  checkpointStarts[lines] = checkpoints.length / CHECKPOINT_NUMBERS;
  return { mappings, starts, carried, sorted, checkpointStarts, checkpoints: Float64Array.from(checkpoints), decoded: new Map() };
}

/**
 * The segment at `line`:`column` (0-based; the column in UTF-16 units, as maps count): the last
 * one on that line that starts at or before the column, or the first of several that start at
 * exactly the column, as trace-mapping finds it. Null when there is none, or it names no source.
 */
export function segmentAt(lines: MappingLines, line: number, column: number): MappedSegment | null {
  if (line < 0 || line >= lines.starts.length - 1) return null;
  return lines.sorted[line] === 1 ? segmentInOrder(lines, line, column) : segmentOutOfOrder(lines, line, column);
}

/** {@link segmentAt} on a line in column order: from the last checkpoint before the column, reading on. */
function segmentInOrder(lines: MappingLines, line: number, column: number): MappedSegment | null {
  const { mappings, checkpoints } = lines;
  // The last checkpoint at a column before the one asked about: every segment at that very column
  // comes after it, and the first of them is the one.
  let low = lines.checkpointStarts[line]!;
  let high = lines.checkpointStarts[line + 1]! - 1;
  let from = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (checkpoints[middle * CHECKPOINT_NUMBERS + 1]! < column) {
      from = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  let at: number;
  let segmentColumn = 0;
  let source: number;
  let sourceLine: number;
  let sourceColumn: number;
  // The last segment so far before the column: whether it names a source, and where.
  let best: MappedSegment | null | undefined;
  if (from < 0) {
    at = lines.starts[line]!;
    source = lines.carried[line * 3]!;
    sourceLine = lines.carried[line * 3 + 1]!;
    sourceColumn = lines.carried[line * 3 + 2]!;
  } else {
    const checkpoint = from * CHECKPOINT_NUMBERS;
    at = checkpoints[checkpoint]!;
    segmentColumn = checkpoints[checkpoint + 1]!;
    source = checkpoints[checkpoint + 2]!;
    sourceLine = checkpoints[checkpoint + 3]!;
    sourceColumn = checkpoints[checkpoint + 4]!;
    best = checkpoints[checkpoint + 5] === 1 ? { source, line: sourceLine, column: sourceColumn } : null;
  }
  const end = lines.starts[line + 1]! - 1;
  cursor = at;
  while (cursor < end) {
    if (mappings.charCodeAt(cursor) === COMMA) {
      cursor++;
      continue;
    }
    segmentColumn += number(mappings);
    if (segmentColumn > column) break;
    let named = false;
    if (more(mappings, end)) {
      source += number(mappings);
      sourceLine += number(mappings);
      sourceColumn += number(mappings);
      if (more(mappings, end)) number(mappings);
      named = true;
    }
    const segment = named ? { source, line: sourceLine, column: sourceColumn } : null;
    if (segmentColumn === column) return segment;
    best = segment;
  }
  return best ?? null;
}

/** {@link segmentAt} on a line out of column order: the line decoded whole and sorted, once. */
function segmentOutOfOrder(lines: MappingLines, line: number, column: number): MappedSegment | null {
  const segments = decodedLine(lines, line);
  // The last segment whose column is at most `column`.
  let low = 0;
  let high = segments.length / SEGMENT - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (segments[middle * SEGMENT]! <= column) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (found < 0) return null;
  // Of several at exactly the column asked about, the first (of several before it, the last).
  if (segments[found * SEGMENT] === column) while (found > 0 && segments[(found - 1) * SEGMENT] === column) found--;
  const at = found * SEGMENT;
  if (Number.isNaN(segments[at + 1])) return null;
  return { source: segments[at + 1]!, line: segments[at + 2]!, column: segments[at + 3]! };
}

/** One line's segments, decoded once and kept: SEGMENT numbers each, sorted by column (stably). */
function decodedLine(lines: MappingLines, line: number): Float64Array {
  const kept = lines.decoded.get(line);
  if (kept) return kept;
  const { mappings, carried } = lines;
  const from = lines.starts[line]!;
  const end = lines.starts[line + 1]! - 1;
  let count = from < end ? 1 : 0;
  for (let i = mappings.indexOf(',', from); i >= 0 && i < end; i = mappings.indexOf(',', i + 1)) count++;
  let segments: Float64Array = new Float64Array(count * SEGMENT);
  let source = carried[line * 3]!;
  let sourceLine = carried[line * 3 + 1]!;
  let sourceColumn = carried[line * 3 + 2]!;
  let column = 0;
  let n = 0;
  let sorted = true;
  cursor = from;
  while (cursor < end) {
    if (mappings.charCodeAt(cursor) === COMMA) {
      cursor++;
      continue;
    }
    column += number(mappings);
    const at = n * SEGMENT;
    segments[at] = column;
    segments[at + 1] = NaN;
    if (more(mappings, end)) {
      source += number(mappings);
      sourceLine += number(mappings);
      sourceColumn += number(mappings);
      // The name, if any, is not needed.
      if (more(mappings, end)) number(mappings);
      segments[at + 1] = source;
    }
    segments[at + 2] = sourceLine;
    segments[at + 3] = sourceColumn;
    if (n > 0 && column < segments[at - SEGMENT]!) sorted = false;
    n++;
  }
  segments = segments.subarray(0, n * SEGMENT);
  if (!sorted) segments = sortedByColumn(segments, n);
  lines.decoded.set(line, segments);
  return segments;
}

/** Segments reordered by column, keeping the order of those at the same column. */
function sortedByColumn(segments: Float64Array, n: number): Float64Array {
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => segments[a * SEGMENT]! - segments[b * SEGMENT]!);
  const sorted = new Float64Array(n * SEGMENT);
  order.forEach((from, to) => sorted.set(segments.subarray(from * SEGMENT, from * SEGMENT + SEGMENT), to * SEGMENT));
  return sorted;
}

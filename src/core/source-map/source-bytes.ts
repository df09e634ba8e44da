import type { FoundMap } from './source-placer.js';
import { lineStartsOf } from './source-placer.js';
import { readMappings } from './read-mappings.js';

/** The bytes of a built file that one source gave it, through the file's map. */
export interface SourcePart {
  /** The source as the map resolves it (a `file:` URL for a source on disk); null for bytes no mapping covers. */
  source: string | null;
  /** UTF-8 bytes of the built file. */
  bytes: number;
  /** Those bytes' text, in the order they appear, for measuring how well they compress. */
  text: string;
}

/**
 * Each line's mappings as the sharing needs them: `lineStart[i]` to `lineStart[i + 1]` index the
 * line's segments in `column` (the built column, 0-based) and `source` (the source's index, -1 for
 * a segment that names none).
 */
interface Segments {
  lineStart: number[];
  column: ArrayLike<number>;
  source: ArrayLike<number>;
}

/**
 * Shares every byte of a built file out among the sources its map names, as source-map-explorer
 * does: a mapping covers the built text from its column to the next mapping's on the same line (the
 * last one to the end of the line, its line break included). Text no mapping covers (before a
 * line's first mapping, lines without any, mappings that name no source) is `source: null`. The
 * parts' bytes add up to the file's.
 */
export async function bytesBySource(text: string, found: FoundMap, signal?: AbortSignal): Promise<SourcePart[]> {
  const { AnyMap, decodedMappings } = await import('@jridgewell/trace-mapping');
  const trace = new AnyMap(found.map as ConstructorParameters<typeof AnyMap>[0], found.url);
  const sources = trace.resolvedSources;
  // A plain map's mappings are read in place; an index map's, or mappings out of the usual form,
  // are decoded by trace-mapping into an array per segment, which costs several times as much.
  const { mappings, sections } = found.map as { mappings?: unknown; sections?: unknown };
  const segments = (sections === undefined && typeof mappings === 'string' ? await scanMappings(mappings, signal) : undefined) ?? segmentsOf(decodedMappings(trace));
  // Each source's stretches of the built text, as [from, to) pairs. A bundle holds each module in
  // one stretch, so a mapping that starts where the same source's last stretch ended extends it.
  const ranges = new Map<string | null, number[]>();
  const add = (source: string | null, from: number, to: number) => {
    if (to <= from) return;
    let list = ranges.get(source);
    if (!list) ranges.set(source, (list = []));
    if (list.length > 0 && list[list.length - 1] === from) list[list.length - 1] = to;
    else list.push(from, to);
  };
  const starts = lineStartsOf(text);
  const mappedLines = segments.lineStart.length - 1;
  for (let line = 0; line < starts.length; line++) {
    const start = starts[line]!;
    const end = starts[line + 1] ?? text.length;
    // Columns count UTF-16 units up to the line's end, its break (LF, CRLF or CR) excluded.
    let lineEnd = end;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 0x0a) lineEnd--;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 0x0d) lineEnd--;
    const lineLength = lineEnd - start;
    let at = start;
    let current: string | null = null;
    if (line < mappedLines) {
      for (let i = segments.lineStart[line]!; i < segments.lineStart[line + 1]!; i++) {
        const column = Math.min(Math.max(segments.column[i]!, 0), lineLength);
        add(current, at, start + column);
        at = Math.max(at, start + column);
        const index = segments.source[i]!;
        const resolved = index >= 0 ? sources[index] : undefined;
        current = typeof resolved === 'string' ? resolved : null;
      }
    }
    add(current, at, end);
  }
  return [...ranges].map(([source, list]) => {
    const parts: string[] = [];
    for (let i = 0; i < list.length; i += 2) parts.push(text.slice(list[i], list[i + 1]));
    const joined = parts.join('');
    return { source, bytes: Buffer.byteLength(joined, 'utf8'), text: joined };
  });
}

/** trace-mapping's decoded lines as {@link Segments}. */
function segmentsOf(lines: readonly (readonly (readonly number[])[])[]): Segments {
  const lineStart = [0];
  const column: number[] = [];
  const source: number[] = [];
  for (const line of lines) {
    for (const segment of line) {
      column.push(segment[0]!);
      source.push(segment.length >= 4 ? segment[1]! : -1);
    }
    lineStart.push(column.length);
  }
  return { lineStart, column, source };
}

/**
 * The columns and sources of a plain map's `mappings`, read in place (no array per segment, no
 * source line, column or name kept); undefined where trace-mapping would read them otherwise than
 * as written, or a line's segments are out of column order (which it sorts).
 */
async function scanMappings(mappings: string, signal?: AbortSignal): Promise<Segments | undefined> {
  // Typed arrays, grown by doubling: several times cheaper than a plain array per figure.
  let column = new Float64Array(1024);
  let source = new Float64Array(1024);
  const lineStart = [0];
  let count = 0;
  let inOrder = true;
  let previousLine = 0;
  let previousColumn = 0;
  const lines = await readMappings(
    mappings,
    (line, numbers, segmentColumn, segmentSource) => {
      while (lineStart.length <= line) lineStart.push(count);
      if (line === previousLine && segmentColumn < previousColumn) inOrder = false;
      previousLine = line;
      previousColumn = segmentColumn;
      if (count === column.length) {
        column = grown(column);
        source = grown(source);
      }
      column[count] = segmentColumn;
      source[count] = numbers === 1 ? -1 : segmentSource;
      count++;
    },
    signal,
  );
  if (lines === false || !inOrder) return undefined;
  while (lineStart.length <= lines) lineStart.push(count);
  return { lineStart, column, source };
}

function grown(array: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const larger = new Float64Array(array.length * 2);
  larger.set(array);
  return larger;
}

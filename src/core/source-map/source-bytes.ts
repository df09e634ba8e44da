import type { FoundMap } from './source-placer.js';
import { lineStartsOf } from './source-placer.js';
import { readSourceRuns } from './read-mappings.js';

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
 * Shares every byte of a built file out among the sources its map names, as source-map-explorer
 * does: a mapping covers the built text from its column to the next mapping's on the same line (the
 * last one to the end of the line, its line break included). Text no mapping covers (before a
 * line's first mapping, lines without any, mappings that name no source) is `source: null`. The
 * parts' bytes add up to the file's.
 */
export async function bytesBySource(text: string, found: FoundMap, signal?: AbortSignal): Promise<SourcePart[]> {
  const { AnyMap, decodedMappings } = await import('@jridgewell/trace-mapping');
  const trace = new AnyMap(found.map as ConstructorParameters<typeof AnyMap>[0], found.url);
  const starts = lineStartsOf(text);
  // A plain map's mappings are shared out as they are read, segment by segment; an index map's, or
  // mappings out of the usual form, are decoded by trace-mapping into an array per segment, which
  // costs several times as much.
  const { mappings, sections } = found.map as { mappings?: unknown; sections?: unknown };
  let shared = sections === undefined && typeof mappings === 'string' ? await shareAsRead(text, starts, trace.resolvedSources, mappings, signal) : undefined;
  if (!shared) {
    const sharing = new Sharing(text, starts, trace.resolvedSources);
    decodedMappings(trace).forEach((line, index) => {
      for (const segment of line) sharing.segment(index, segment[0]!, segment.length >= 4 ? segment[1]! : -1);
    });
    shared = sharing.finish();
  }
  return [...shared].map(([source, list]) => {
    const parts: string[] = [];
    for (let i = 0; i < list.length; i += 2) parts.push(text.slice(list[i], list[i + 1]));
    const joined = parts.join('');
    return { source, bytes: Buffer.byteLength(joined, 'utf8'), text: joined };
  });
}

/**
 * A plain map's `mappings` shared out as they are read in place, run by run (no array per segment,
 * no source line, column or name kept); undefined where trace-mapping would read them otherwise
 * than as written, or a line's segments are out of column order (which it sorts).
 */
async function shareAsRead(text: string, starts: readonly number[], sources: readonly (string | null)[], mappings: string, signal?: AbortSignal): Promise<Map<string | null, number[]> | undefined> {
  const sharing = new Sharing(text, starts, sources);
  // Within a run the stretch only grows: a segment of the source already being shared adds nothing
  // the next run's start (or the line's end) does not cover.
  const lines = await readSourceRuns(mappings, (line, column, source) => sharing.segment(line, column, source), signal);
  return lines === false ? undefined : sharing.finish();
}

/**
 * Each source's stretches of a built text, as [from, to) pairs, taken from its mappings line by
 * line, each line's segments in column order. A bundle holds each module in one stretch, so a
 * mapping that starts where the same source's last stretch ended extends it.
 */
class Sharing {
  readonly ranges = new Map<string | null, number[]>();
  /** The line being shared out, -1 before the first. */
  private line = -1;
  /** Where the line starts, where its text ends (its break excluded) and where the next starts. */
  private start = 0;
  private lineEnd = 0;
  private end = 0;
  /** Where the text not yet given to a source starts, and whose it is. */
  private at = 0;
  private current: string | null = null;

  constructor(
    private readonly text: string,
    private readonly starts: readonly number[],
    private readonly sources: readonly (string | null)[],
  ) {}

  /** A mapping at `column` (UTF-16 units) of `line` (0-based, lines in order), of source `index` (-1 for none). */
  segment(line: number, column: number, index: number): void {
    if (line !== this.line) this.closeTo(line);
    // A mapping past the text's last line covers nothing.
    if (line >= this.starts.length) return;
    const to = this.start + Math.min(Math.max(column, 0), this.lineEnd - this.start);
    this.add(this.current, this.at, to);
    if (to > this.at) this.at = to;
    const resolved = index >= 0 ? this.sources[index] : undefined;
    this.current = typeof resolved === 'string' ? resolved : null;
  }

  /** Every line shared out, those without mappings to no source. */
  finish(): Map<string | null, number[]> {
    this.closeTo(this.starts.length);
    return this.ranges;
  }

  /** Ends the lines before `line`, the last mapping of each covering it to its end, and starts `line`. */
  private closeTo(line: number): void {
    const last = Math.min(line, this.starts.length);
    for (let next = this.line; next < last; next++) {
      if (next >= 0) this.add(this.current, this.at, this.end);
      if (next + 1 < this.starts.length) this.open(next + 1);
    }
    this.line = line;
  }

  private open(line: number): void {
    const { text, starts } = this;
    const start = starts[line]!;
    const end = starts[line + 1] ?? text.length;
    // Columns count UTF-16 units up to the line's end, its break (LF, CRLF or CR) excluded.
    let lineEnd = end;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 0x0a) lineEnd--;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 0x0d) lineEnd--;
    this.start = this.at = start;
    this.lineEnd = lineEnd;
    this.end = end;
    this.current = null;
  }

  private add(source: string | null, from: number, to: number): void {
    if (to <= from) return;
    let list = this.ranges.get(source);
    if (!list) this.ranges.set(source, (list = []));
    if (list.length > 0 && list[list.length - 1] === from) list[list.length - 1] = to;
    else list.push(from, to);
  }
}

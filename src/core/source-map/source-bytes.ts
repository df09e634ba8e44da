import type { FoundMap } from './source-placer.js';
import { lineStartsOf } from './source-placer.js';

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
export async function bytesBySource(text: string, found: FoundMap): Promise<SourcePart[]> {
  const { AnyMap, decodedMappings } = await import('@jridgewell/trace-mapping');
  const trace = new AnyMap(found.map as ConstructorParameters<typeof AnyMap>[0], found.url);
  const sources = trace.resolvedSources;
  const lines = decodedMappings(trace);
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
  for (let line = 0; line < starts.length; line++) {
    const start = starts[line]!;
    const end = starts[line + 1] ?? text.length;
    // Columns count UTF-16 units up to the line's end, its break (LF, CRLF or CR) excluded.
    let lineEnd = end;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 0x0a) lineEnd--;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 0x0d) lineEnd--;
    const lineLength = lineEnd - start;
    const segments = lines[line] ?? [];
    let at = start;
    let current: string | null = null;
    for (const segment of segments) {
      const column = Math.min(Math.max(segment[0], 0), lineLength);
      add(current, at, start + column);
      at = Math.max(at, start + column);
      const index = segment.length >= 4 ? segment[1]! : -1;
      const resolved = index >= 0 ? sources[index] : undefined;
      current = typeof resolved === 'string' ? resolved : null;
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

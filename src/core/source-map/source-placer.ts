import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { decodedMappings, TraceMap } from '@jridgewell/trace-mapping';
import { formatBytes, groupDigits } from '../format-bytes.js';
import { mapReferenceOf } from './map-reference.js';
import { mapTextOf, parseMapText, type MapText } from './map-json.js';
import { indexMappingsInSlices, segmentAt, type MappingLines } from './mapping-lines.js';
import { BASE64 } from './read-mappings.js';
import { isFileInside, pathInside, readInside, readRegularUpTo } from './read-inside.js';

/** A place in the author's own files: `file` relative to the placer's root, with `/`. */
export interface SourcePosition {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in characters (Unicode code points), as every position in a report is counted. */
  column: number;
}

/**
 * How a column is counted: in characters (Unicode code points), as validate counts, or in UTF-16
 * code units, as browsers count in their error reports.
 */
export type ColumnUnit = 'characters' | 'utf16';

/** A map file's text, or its bytes, by its path in the folder (see SourcePlacerOptions.readMap). */
export type MapReader = (file: string, named: boolean) => Promise<string | Buffer | undefined>;

export interface SourcePlacerOptions {
  /**
   * The built folder on disk. A built file's path is taken inside it, which is what a map's relative
   * sources are resolved from; map files are read from inside it only, never through a link out of
   * it (unless `readMap` reads them).
   */
  folder: string;
  /**
   * What source paths are made relative to: the project's folder. A map's source that lies outside
   * it, or is not a file there, is not used, and neither is one whose name has another scheme.
   */
  root: string;
  /** The text of a built file, by its slash-separated path in the folder; undefined when it cannot be had. */
  readBuilt: (file: string) => Promise<string | undefined>;
  /**
   * The text of a map file (or its bytes, which are UTF-8), by its slash-separated path in the
   * folder: `named` when a built file's comment names it, else the `<file>.map` looked for beside a
   * built file that has no comment. Undefined when it cannot be had. Default: read from the folder
   * on disk (up to {@link MAX_MAP_BYTES}, never through a link out of it).
   */
  readMap?: MapReader;
  /** Abort to stop: the next map is neither read nor decoded, and `place` rejects with the reason. */
  signal?: AbortSignal;
  /** Tighter budgets than {@link MAP_BUDGETS}, for tests. */
  budgets?: Partial<MapBudgets>;
}

export interface SourcePlacer {
  /**
   * Where the author wrote what sits at `line`:`column` of a built file (1-based; columns in
   * characters), through the file's source map; undefined when there is no usable map, or it says
   * nothing usable about that place.
   */
  place(file: string, line: number, column: number, unit?: ColumnUnit): Promise<SourcePosition | undefined>;
  /**
   * The places of a built file whose map lands, in a source the map names as `wanted` accepts, on
   * a place of the source's text that `at` gives data for (its text on disk, and the 0-based offset
   * there): each with that place and the data, one per place of the source. Empty when there is no
   * usable map.
   */
  sitesOf<D>(file: string, wanted: (source: string) => boolean, at: (text: string, offset: number) => D | undefined): Promise<MappedSite<D>[]>;
  /** The text of a source file that a position was placed in, as it is on disk (never as its map holds it). */
  sourceText(file: string): string | undefined;
  /** What was found wrong with the maps looked at so far: each map that was not used, and why. */
  notes(): MapNote[];
  /** Lets go of a built file's map once its findings are placed; the source texts are kept. */
  release(file: string): void;
}

/** A place of a built file (1-based, columns in characters) and the author's place it was built from. */
export interface MappedSite<D> {
  line: number;
  column: number;
  at: SourcePosition;
  data: D;
}

/** A map larger than this is not read: no bundle the marketplace accepts needs one so large. */
export const MAX_MAP_BYTES = 50_000_000;

/**
 * What one map may hold, and what one run may decode: a hostile map of valid JSON can otherwise
 * cost minutes and gigabytes (a million sources, 200,000 sections, five million levels of
 * nesting, two maps of 45 MB each). Each budget spent leaves the map unused, with a note. A real
 * map is far inside them: even a large app's names a few thousand sources, and nests 2 levels.
 */
export const MAP_BUDGETS: Readonly<MapBudgets> = {
  sources: 10_000,
  sections: 1_000,
  nesting: 32,
  decodedPerRun: 100_000_000,
};

export interface MapBudgets {
  /** Sources of one map, all its sections together. */
  sources: number;
  /** Sections of one index map (which may not nest further). */
  sections: number;
  /** Objects and arrays one inside another; a map needs 2, an index map 5. */
  nesting: number;
  /** Characters of `mappings` decoded in one run, all maps together. */
  decodedPerRun: number;
}
/** A source file larger than this is not read, and a position in it is not used. */
const MAX_SOURCE_BYTES = 10_000_000;

interface LoadedMap {
  /** The map's sources, resolved; its mappings are looked up in `lines`. */
  trace: TraceMap;
  /** The mappings, decoded a line at a time as positions on it are asked for. */
  lines: MappingLines;
  /** trace-mapping's whole decoding, only for a search over every segment ({@link SourcePlacer.sitesOf}). */
  decodedMappings: typeof decodedMappings;
  /** Start offset of each line of the built text. */
  lineStarts: number[];
  text: string;
  /** Each source as the map names it, with its map's (or section's) `sourceRoot`, by index. */
  named: NamedSource[];
  /** Each source, once looked at: its path relative to the root, or null when it is not usable. */
  sources: Map<number, Promise<string | null>>;
}

/** A source as its map writes it, before any resolving (which would drop a `..` at the start of a URL's path). */
interface NamedSource {
  name: unknown;
  sourceRoot: unknown;
}

/**
 * Places positions of built files at the author's source through their source maps, found as
 * browsers find them: a `sourceMappingURL` comment with an inline `data:` URL, or naming a file
 * beside the built one; else `<file>.map` beside it, as bundlers write "hidden" maps. Everything a
 * map says is untrusted: a map that is missing, unreadable, invalid, or that points outside the
 * folder (for maps) or the root (for sources), places nothing and never throws.
 */
export function createSourcePlacer(options: SourcePlacerOptions): SourcePlacer {
  const folder = path.resolve(options.folder);
  const root = path.resolve(options.root);
  const maps = new Map<string, Promise<LoadedMap | null>>();
  const texts = new Map<string, string>();
  const sourceLineStarts = new Map<string, number[]>();
  let realRootOnce: Promise<string> | undefined;
  const readMap = options.readMap ?? readMapInside(folder);
  const { signal } = options;
  const budgets = { ...MAP_BUDGETS, ...options.budgets };
  let decodeLeft = budgets.decodedPerRun;

  const notes: MapNote[] = [];
  const load = (file: string) => {
    let loaded = maps.get(file);
    if (!loaded) {
      loaded = loadMap(file).catch((error: unknown) => {
        // An abort stops the run; anything else a map does only leaves it unused.
        if (signal?.aborted) throw signal.reason;
        if (error instanceof MapRefused) notes.push({ file, reason: error.reason, message: error.message });
        return null;
      });
      maps.set(file, loaded);
    }
    return loaded;
  };

  async function loadMap(file: string): Promise<LoadedMap | null> {
    const text = await options.readBuilt(file);
    if (text === undefined) return null;
    const found = await findMapText(file, text, folder, readMap);
    if (!found) return null;
    const { text: mapText, url: mapUrl } = found;
    signal?.throwIfAborted();
    const depth = nestingOf(mapText.json);
    if (depth > budgets.nesting) throw new MapRefused('nesting', `its source map is not used: it nests objects and arrays ${depth} levels deep; a map needs a few, and at most ${budgets.nesting} are read`);
    const parsed = parseMapText(mapText);
    if (!looksLikeMap(parsed)) return null;
    const map = parsed as RawMap;
    if (map.sections !== undefined && map.sections.length > budgets.sections) {
      throw new MapRefused('sections', `its source map is not used: it has ${groupDigits(map.sections.length)} sections, more than the ${groupDigits(budgets.sections)} read`);
    }
    const sources = (map.sections ?? [{ map }]).reduce((sum, section) => sum + (section.map.sources?.length ?? 0), 0);
    if (sources > budgets.sources) throw new MapRefused('sources', `its source map is not used: it names ${groupDigits(sources)} sources, more than the ${groupDigits(budgets.sources)} read`);
    const lineStarts = lineStartsOf(text);
    const fault = mappingsFaultOf(map, lineStarts.length, text.length);
    if (fault !== undefined) throw new MapRefused('mappings', `its source map is not used: ${fault}`);
    const size = (map.sections ?? [{ map }]).reduce((sum, section) => sum + (section.map.mappings?.length ?? 0), 0);
    if (size > decodeLeft) {
      throw new MapRefused('decoded', `its source map is not used: this run has decoded ${groupDigits(budgets.decodedPerRun - decodeLeft)} characters of mappings, and this map's ${groupDigits(size)} would pass the ${groupDigits(budgets.decodedPerRun)} one run decodes`);
    }
    decodeLeft -= size;
    signal?.throwIfAborted();
    // Loaded only now: most folders have no maps, and start-up should not pay for it.
    const { AnyMap, encodedMappings, decodedMappings } = await import('@jridgewell/trace-mapping');
    const trace = new AnyMap(parsed as ConstructorParameters<typeof AnyMap>[0], mapUrl);
    // Sources in the order trace-mapping flattens them: section by section.
    const named = (map.sections ?? [{ map }]).flatMap((section) => (section.map.sources ?? []).map((name) => ({ name, sourceRoot: section.map.sourceRoot })));
    // A plain map's mappings are kept as written, not decoded (an index map's come joined): only
    // the lines that findings sit on are decoded, when they are asked for. The one pass that
    // indexes them takes turns with the event loop, so that an abort is heard during a large map.
    const lines = await indexMappingsInSlices(encodedMappings(trace), signal);
    return { trace, lines, decodedMappings, text, lineStarts, named, sources: new Map() };
  }

  /** A source of a map as a path relative to the root, once checked on disk; null when it is not usable. */
  function sourceOf(map: LoadedMap, index: number): Promise<string | null> {
    let found = map.sources.get(index);
    if (!found) {
      found = resolveSource(map, index).catch(() => null);
      map.sources.set(index, found);
    }
    return found;
  }

  async function resolveSource(map: LoadedMap, index: number): Promise<string | null> {
    for (const written of candidatePaths(map.named[index], map.trace.resolvedSources[index], root)) {
      const relative = await usableSource(written);
      if (relative !== null) return relative;
    }
    return null;
  }

  /** A path a map names, as a path relative to the root, once checked on disk and its text read; null when it is not usable. */
  async function usableSource(written: string): Promise<string | null> {
    // Nothing outside the project is even looked up: the path must lie inside it as written
    // (against the root as given, or its real path, since the folder may have been reached
    // through a link, as macOS's /tmp is). Then it is compared as a real path, links resolved,
    // since a link inside the project may lead out of it.
    const realRoot = await (realRootOnce ??= realpath(root));
    if (pathInside(root, written) === undefined && pathInside(realRoot, written) === undefined) return null;
    const real = await realpath(written).catch(() => undefined);
    const absolute = real === undefined ? undefined : pathInside(realRoot, real);
    if (absolute === undefined || !(await isFileInside(realRoot, absolute))) return null;
    const relative = path.relative(realRoot, absolute).split(path.sep).join('/');
    // The file itself, never the map's `sourcesContent`: a map could add a disable comment the
    // file does not have, or lines it does not have. A source whose text cannot be read is not used.
    if (!texts.has(relative)) {
      const text = (await readRegularUpTo(absolute, MAX_SOURCE_BYTES))?.toString('utf8');
      if (text === undefined) return null;
      texts.set(relative, text);
    }
    return relative;
  }

  /** A 0-based place of a usable source as a position, with the source's text and the place's offset in it. */
  function sourcePlace(source: string, line: number, column: number): { position: SourcePosition; text: string; offset: number } | undefined {
    const text = texts.get(source)!;
    let starts = sourceLineStarts.get(source);
    if (!starts) sourceLineStarts.set(source, (starts = lineStartsOf(text)));
    // A map that points past the end of its source, or of one of its lines, is not describing
    // this file. (The end of a line itself is a place: a missing semicolon is found there.)
    const sourceLineText = lineOf(text, starts, line);
    if (sourceLineText === undefined || column > sourceLineText.length) return undefined;
    return { position: { file: source, line: line + 1, column: codePointColumn(sourceLineText, column) }, text, offset: starts[line]! + column };
  }

  return {
    async place(file, line, column, unit = 'characters') {
      signal?.throwIfAborted();
      const map = await load(file);
      if (!map || !isPosition(line) || !isPosition(column)) return undefined;
      const lineText = lineOf(map.text, map.lineStarts, line - 1);
      // A place past the end of its line (code points are never more than UTF-16 units) is not in the file.
      if (lineText === undefined || column - 1 > lineText.length) return undefined;
      const segment = segmentAt(map.lines, line - 1, unit === 'utf16' ? column - 1 : utf16Offset(lineText, column));
      if (!segment) return undefined;
      const { source: sourceIndex, line: sourceLine, column: sourceColumn } = segment;
      if (![sourceIndex, sourceLine, sourceColumn].every((n) => Number.isSafeInteger(n) && n! >= 0)) return undefined;
      const source = await sourceOf(map, sourceIndex!);
      if (source === null) return undefined;
      return sourcePlace(source, sourceLine!, sourceColumn!)?.position;
    },
    async sitesOf<D>(file: string, wanted: (source: string) => boolean, at: (text: string, offset: number) => D | undefined) {
      signal?.throwIfAborted();
      const map = await load(file);
      if (!map) return [];
      const indices = new Set(map.trace.sources.flatMap((source, index) => (typeof source === 'string' && wanted(source) ? [index] : [])));
      if (indices.size === 0) return [];
      const sites: MappedSite<D>[] = [];
      const seen = new Set<string>();
      const decoded = map.decodedMappings(map.trace);
      for (let line = 0; line < decoded.length; line++) {
        for (const segment of decoded[line]!) {
          if (segment.length < 4) continue;
          const [column, sourceIndex, sourceLine, sourceColumn] = segment as [number, number, number, number];
          if (!indices.has(sourceIndex)) continue;
          const source = await sourceOf(map, sourceIndex);
          const place = source === null ? undefined : sourcePlace(source, sourceLine, sourceColumn);
          const key = `${source}\n${sourceLine}\n${sourceColumn}`;
          if (!place || seen.has(key)) continue;
          const data = at(place.text, place.offset);
          if (data === undefined) continue;
          seen.add(key);
          const lineText = lineOf(map.text, map.lineStarts, line) ?? '';
          sites.push({ line: line + 1, column: codePointColumn(lineText, column), at: place.position, data });
        }
      }
      return sites;
    },
    sourceText: (file) => texts.get(file),
    notes: () => [...notes],
    release: (file) => void maps.delete(file),
  };
}

/** A built file's source map, parsed and checked for shape, with the address its sources are resolved against. */
export interface FoundMap {
  map: object;
  url: string;
}

/**
 * The text of the source map of the built file `file` (its slash-separated path in `folder`, whose
 * text is `text`), found as browsers find it (see createSourcePlacer), with the address its sources
 * are resolved against; null when there is none.
 */
async function findMapText(file: string, text: string, folder: string, readMap: MapReader): Promise<{ text: MapText; url: string } | null> {
  const reference = mapReferenceOf(text, file);
  if (reference.kind === 'unusable') return null;
  if (reference.kind === 'inline') return { text: { json: reference.json }, url: pathToFileURL(path.join(folder, ...file.split('/'))).href };
  const mapFile = reference.kind === 'file' ? reference.path : `${file}.map`;
  const mapPath = path.join(folder, ...mapFile.split('/'));
  if (pathInside(folder, mapPath) === undefined) return null;
  const read = await readMap(mapFile, reference.kind === 'file');
  if (read === undefined) return null;
  return { text: typeof read === 'string' ? { json: read } : mapTextOf(read), url: pathToFileURL(mapPath).href };
}

/**
 * The source map of the built file `file`, parsed; null when there is none, or what is there is
 * not a usable map (one refused by its size or its nesting included).
 */
export async function findSourceMap(file: string, text: string, folder: string, readMap: MapReader): Promise<FoundMap | null> {
  const found = await findMapText(file, text, folder, readMap).catch((error: unknown) => {
    if (error instanceof MapRefused) return null;
    throw error;
  });
  if (!found || nestingOf(found.text.json) > MAP_BUDGETS.nesting) return null;
  let parsed: unknown;
  try {
    parsed = parseMapText(found.text);
  } catch {
    return null;
  }
  return looksLikeMap(parsed) ? { map: parsed as object, url: found.url } : null;
}

/** Reads map files from inside `folder` on disk (never through a link out of it); one over MAX_MAP_BYTES is refused with a note. */
export function readMapInside(folder: string): (file: string) => Promise<Buffer | undefined> {
  return (file) => readMapFile(folder, file);
}

/** A map file's bytes, or undefined; one over MAX_MAP_BYTES is refused with a note. */
async function readMapFile(folder: string, file: string): Promise<Buffer | undefined> {
  const absolute = path.join(folder, ...file.split('/'));
  const bytes = await readInside(folder, absolute, MAX_MAP_BYTES);
  if (bytes !== undefined) return bytes;
  const size = await lstat(absolute).then((info) => (info.isFile() ? info.size : 0), () => 0);
  if (size > MAX_MAP_BYTES) throw new MapRefused('size', `its source map is not used: ${file} is ${formatBytes(size)}, more than the ${formatBytes(MAX_MAP_BYTES)} read`);
  return undefined;
}

/**
 * How deeply a JSON text nests objects and arrays, in one pass over its characters (skipping
 * strings), before JSON.parse builds what may be millions of levels.
 */
export function nestingOf(json: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: the first one after an even number of backslashes. Found with
      // indexOf, since a map's text is mostly strings (sourcesContent).
      for (;;) {
        i = json.indexOf('"', i + 1);
        if (i < 0) return deepest;
        let slashes = 0;
        while (json.charCodeAt(i - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

function isPosition(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1;
}

/**
 * A map that was looked at and not used, and why; or (`no-maps`, without a file) a zip whose
 * findings could not be placed, since no maps were found for its bytes.
 */
export interface MapNote {
  /** The built file whose map it is, slash-separated in the folder; absent for a note about the whole bundle. */
  file?: string;
  reason: 'mappings' | 'size' | 'nesting' | 'sections' | 'sources' | 'decoded' | 'no-maps';
  /** Says what is wrong, after the built file's name (or the bundle's): "its source map is not used: …". */
  message: string;
}

class MapRefused extends Error {
  constructor(
    readonly reason: MapNote['reason'],
    message: string,
  ) {
    super(message);
  }
}

type RawMap = { mappings?: string; sources?: unknown[]; sourceRoot?: unknown; sections?: { offset?: { line?: unknown }; map: RawMap }[] };

/**
 * The paths on disk a map's source may stand for, in the order they are tried (each still to be
 * checked: inside the root, a regular file):
 * - `webpack://<namespace>/<path>[?query]`, as webpack and Rspack name sources by default: `<path>`
 *   from the root, the project's folder (webpack's `context`), query and fragment left out;
 * - a `file:` URL or a path, resolved against the map (and its `sourceRoot`) as browsers do;
 * - a relative path in a map without `sourceRoot`, also from the root, as Parcel writes them
 *   (`src/index.ts` in `dist/index.js.map`), when it is not found beside the map.
 * Any other scheme names no file.
 */
function candidatePaths(named: NamedSource | undefined, resolved: string | null | undefined, root: string): string[] {
  const name = typeof named?.name === 'string' ? named.name : undefined;
  // The name as written: resolving `webpack://app/../lib/x.js` would drop its `..`.
  const webpack = WEBPACK_SOURCE.exec(name ?? '') ?? WEBPACK_SOURCE.exec(resolved ?? '');
  if (webpack) return [path.resolve(root, webpack[1]!)];
  if (typeof resolved !== 'string' || !resolved.startsWith('file:')) return [];
  const paths = [fileURLToPath(resolved)];
  const sourceRoot = named?.sourceRoot;
  if (name !== undefined && (sourceRoot === undefined || sourceRoot === null || sourceRoot === '') && isRelativePath(name)) paths.push(path.resolve(root, name));
  return paths;
}

/** `webpack://`, a namespace (the package's name, or nothing), then the path, up to a query or a fragment. */
const WEBPACK_SOURCE = /^webpack:\/\/[^/?#]*\/([^?#]+)/i;

/** A path with no scheme that does not start at a root: `src/index.ts`, `./a.js`, `../lib/b.js`. */
function isRelativePath(name: string): boolean {
  return name !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(name) && !name.startsWith('/') && !name.startsWith('\\');
}

/** What is wrong with the `mappings` of a map or of each of its sections, for a built file of `lines` lines and `characters` characters. */
function mappingsFaultOf(map: RawMap, lines: number, characters: number): string | undefined {
  if (map.sections === undefined) return mappingsFault(map.mappings ?? '', lines, characters + lines);
  for (const section of map.sections) {
    const line = section.offset?.line;
    const fault = mappingsFault(section.map.mappings ?? '', Number.isSafeInteger(line) && (line as number) >= 0 ? lines - (line as number) : 0, characters + lines);
    if (fault !== undefined) return fault;
  }
  return undefined;
}

/**
 * Digits one number may take: 6 carry 29 bits and a sign, more than any line or column. The
 * decoder shifts a longer number past 32 bits, where it wraps round to another value.
 */
const MAX_NUMBER_DIGITS = 6;

/**
 * What is wrong with a `mappings` string, in words, or undefined when it is well formed: base64
 * VLQ numbers, each ended by a digit without the continuation bit, grouped in segments of 1, 4 or
 * 5 numbers, segments split by `,` and lines by `;`, no more lines than the built file has and no
 * more segments than it has `characters` (and line ends). This
 * only checks the text, in one pass and without decoding it (trace-mapping decodes): the decoder
 * reads a character it does not know, or a number cut short, as a zero, which would place
 * findings at made-up positions (`src/App.ts:1:1`).
 */
export function mappingsFault(mappings: string, lines: number, characters = Infinity): string | undefined {
  let line = 1;
  let numbers = 0;
  let digits = 0;
  let segments = 0;
  for (let i = 0; i <= mappings.length; i++) {
    const c = i === mappings.length ? 0x3b : mappings.charCodeAt(i);
    if (c === 0x2c || c === 0x3b) {
      if (digits > 0) return `its mappings cut a number short at character ${i + 1}`;
      if ((numbers > 1 && numbers < 4) || numbers > 5) return `its mappings have a segment of ${numbers} numbers before character ${i + 1}; a segment has 1, 4 or 5`;
      // Each segment starts at a place of the built file: there cannot be more than it has places.
      if (numbers > 0 && ++segments > characters) return `its mappings have more segments than the ${groupDigits(characters)} places of the file`;
      numbers = 0;
      if (c === 0x3b && i < mappings.length && ++line > lines) return `its mappings describe more lines than the ${lines} the file has`;
      continue;
    }
    const value = c < 128 ? BASE64[c]! : -1;
    if (value < 0) return `its mappings hold ${JSON.stringify(mappings[i])} at character ${i + 1}, which is not a base64 digit`;
    if (++digits > MAX_NUMBER_DIGITS) return `its mappings hold a number of more than ${MAX_NUMBER_DIGITS} digits at character ${i + 1}, too large for a position`;
    if (value < 32) {
      numbers++;
      digits = 0;
    }
  }
  return undefined;
}

/** The shape trace-mapping needs; anything else is not a source map and is left alone. */
function looksLikeMap(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 1) return false;
  const map = value as Record<string, unknown>;
  if (map['version'] !== 3) return false;
  if (Array.isArray(map['sections'])) {
    return map['sections'].every((section: unknown) => typeof section === 'object' && section !== null && looksLikeMap((section as Record<string, unknown>)['map'], depth + 1));
  }
  return typeof map['mappings'] === 'string' && Array.isArray(map['sources']);
}

/**
 * Offsets where each line starts; lines end at LF, CRLF or a lone CR, as bundlers count them. The
 * breaks are found with indexOf: a minified bundle is a few lines of hundreds of kilobytes, which a
 * loop over its characters would read one by one before V8 has compiled it.
 */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  while (lf >= 0 || cr >= 0) {
    const next = cr >= 0 && (lf < 0 || cr < lf) ? (text.charCodeAt(cr + 1) === 0x0a ? cr + 2 : cr + 1) : lf + 1;
    starts.push(next);
    if (lf >= 0 && lf < next) lf = text.indexOf('\n', next);
    if (cr >= 0 && cr < next) cr = text.indexOf('\r', next);
  }
  return starts;
}

export function lineOf(text: string, starts: readonly number[], index: number): string | undefined {
  const start = starts[index];
  if (start === undefined) return undefined;
  const next = starts[index + 1];
  return text.slice(start, next === undefined ? text.length : next).replace(/\r?\n$|\r$/, '');
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** The 0-based UTF-16 offset (what source maps count) of a 1-based column in code points. */
export function utf16Offset(line: string, column: number): number {
  if (!SURROGATE.test(line)) return Math.min(column - 1, line.length);
  let offset = 0;
  for (let point = 1; point < column && offset < line.length; point++) offset += isPair(line, offset) ? 2 : 1;
  return offset;
}

/** The 1-based column in code points of a 0-based UTF-16 offset. */
export function codePointColumn(line: string, offset: number): number {
  if (!SURROGATE.test(line)) return offset + 1;
  let column = 1;
  for (let i = 0; i < offset && i < line.length; i += isPair(line, i) ? 2 : 1) column++;
  return column + Math.max(0, offset - line.length);
}

function isPair(text: string, at: number): boolean {
  const high = text.charCodeAt(at);
  const low = text.charCodeAt(at + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

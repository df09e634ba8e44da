import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BundleSource } from '../shipment/source.js';
import { COMPRESSION_LEVEL } from '../shipment/shipment.js';
import { storedSizeOf } from '../shipment/zip-size.js';
import { extensionOf } from '../paths.js';
import type { Problem } from '../problem.js';
import { bytesBySource } from '../source-map/source-bytes.js';
import { builtTextOf } from '../source-map/built-text.js';
import { findSourceMap, readMapInside } from '../source-map/source-placer.js';
import { limitsOf, type BundleLimits } from './limits.js';

/** Bytes as they unpack (`raw`) and as the zip holds them (`zipped`). */
export interface Sized {
  raw: number;
  zipped: number;
}

/** A file of the bundle. */
export interface ReportFile extends Sized {
  /** Its path in the bundle, with `/`. */
  path: string;
  /** True when a source map shared its bytes out among the sources it was built from. */
  mapped: boolean;
}

/** An npm package or one of the author's source files, and the bytes it put into the bundle. */
export interface ReportOrigin extends Sized {
  /** A package's name (`react-dom`, `@vue/runtime-core`), or a source's path from the project's folder. */
  name: string;
}

/** A problem as the report lists it: where it is, and what. */
export type ReportFinding = Pick<Problem, 'ruleId' | 'severity' | 'message' | 'file' | 'line' | 'column' | 'built'>;

/**
 * What a bundle is made of: its files, and through their source maps the npm packages and the
 * author's own sources they were built from, each with its raw and zipped bytes; the three
 * marketplace limits; the findings. Every number is a whole count of bytes.
 */
export interface BundleReport {
  /** The bundle as given. */
  bundle: string;
  kind: 'zip' | 'folder';
  /** The folder that sources' names are relative to, absolute; null when no map was read. */
  sourceRoot: string | null;
  limits: BundleLimits;
  /** The zip's own structure (headers, the central directory): its size less its files' zipped bytes; null when the zip was not measured. */
  zipOverhead: number | null;
  /** In bundle order. `zipped` is the bytes the file takes in the zip (0 when not measured). */
  files: ReportFile[];
  /** Through source maps: bytes from `node_modules/<package>`, largest first. */
  packages: ReportOrigin[];
  /** Through source maps: bytes from the author's own sources, largest first. */
  sources: ReportOrigin[];
  /** Bytes of mapped files that no mapping covers (a bundler's own glue, line breaks between modules). */
  unmapped: Sized;
  findings: ReportFinding[];
}

export interface ReportOptions {
  /**
   * Where the maps are and what sources are named from, as validate takes them. The maps of a
   * folder are read beside its files; a zip's only when `folder` names the folder it was packed
   * from, and for the entries that folder holds byte for byte. False: no maps, files only.
   */
  sourceMaps?: { root?: string; folder?: string } | false;
  /** The bundle's problems, as validate reported them, to list with their places. */
  problems?: readonly Problem[];
  /** Abort to stop (Ctrl-C): the report rejects with the signal's reason, between files or while a map is decoded. */
  signal?: AbortSignal;
}

/** Types whose built files carry source maps (as place-findings.ts reads them). */
const MAPPED_TYPES = new Set(['.js', '.css']);

/**
 * Measures what a bundle is made of. The bundle's sizes are the ones the source holds: a zip's
 * own, or for a folder the zip pack would write, as measured when the folder was opened
 * (openBundle), or while it is read (openBundleToCheck: the maps are read and the files shared
 * out meanwhile, and the zipped shares wait for the sizes), so the figures are pack's. Never
 * prints; reads nothing outside the bundle but its source maps.
 */
export async function reportBundle(source: BundleSource, options: ReportOptions = {}): Promise<BundleReport> {
  const entries = source.entries.filter((entry) => entry.kind === 'file');
  const maps = options.sourceMaps === false ? undefined : options.sourceMaps ?? {};
  const folder = maps ? (maps.folder ?? (source.kind === 'folder' ? source.location : undefined)) : undefined;
  const root = path.resolve(maps?.root ?? process.cwd());
  // Each mapped file's parts (their bytes by source) and what each part's text deflates to alone.
  const mapped: { index: number; parts: { source: string | null; bytes: number }[]; weights: number[] }[] = [];
  if (folder !== undefined) {
    const readMap = readMapInside(path.resolve(folder));
    for (const [index, entry] of entries.entries()) {
      options.signal?.throwIfAborted();
      if (!MAPPED_TYPES.has(extensionOf(entry.path))) continue;
      const built = await builtTextOf(source, entry, path.resolve(folder));
      if (!built || !('text' in built)) continue;
      const { text } = built;
      const found = await findSourceMap(entry.path, text, path.resolve(folder), readMap);
      if (!found) continue;
      const parts = await bytesBySource(text, found, options.signal);
      // Text that does not decode as UTF-8 counts other bytes than the file holds: the parts are
      // made to add up to the file, the difference going to what no mapping covers.
      const counted = parts.reduce((sum, part) => sum + part.bytes, 0);
      if (counted !== entry.declaredSize) parts.push({ source: null, bytes: entry.declaredSize - counted, text: '' });
      mapped.push({ index, parts: parts.map(({ source: from, bytes }) => ({ source: from, bytes })), weights: weightsOf(parts) });
    }
  }

  const limits = await limitsOf(source);
  const files: ReportFile[] = entries.map((entry) => ({ path: entry.path, raw: entry.declaredSize, zipped: entry.compressedSize ?? 0, mapped: false }));
  const zippedFiles = files.reduce((sum, file) => sum + file.zipped, 0);
  const packages = new Map<string, Sized>();
  const sources = new Map<string, Sized>();
  const unmapped: Sized = { raw: 0, zipped: 0 };
  for (const { index, parts, weights } of mapped) {
    const file = files[index]!;
    file.mapped = true;
    const zipped = apportion(weights, file.zipped);
    parts.forEach((part, i) => {
      const origin = originOf(part.source, root);
      const into = origin === null ? unmapped : tally(origin.kind === 'package' ? packages : sources, origin.name);
      into.raw += part.bytes;
      into.zipped += zipped[i]!;
    });
  }
  return {
    bundle: source.location,
    kind: source.kind,
    sourceRoot: mapped.length > 0 ? root : null,
    limits,
    zipOverhead: source.archiveSize === undefined ? null : source.archiveSize - zippedFiles,
    files,
    packages: largestFirst(packages),
    sources: largestFirst(sources),
    unmapped,
    findings: (options.problems ?? []).map(({ ruleId, severity, message, file, line, column, built }) => ({
      ruleId,
      severity,
      message,
      ...(file !== undefined ? { file } : {}),
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
      ...(built !== undefined ? { built } : {}),
    })),
  };
}

/**
 * A package (the folder after the last `node_modules/`, with its scope) or an author's source
 * (its path from the project's folder, `../` and all when it lies outside); null for bytes of no
 * source.
 */
export function originOf(source: string | null, root: string): { kind: 'package' | 'source'; name: string } | null {
  if (source === null) return null;
  let name = source;
  if (source.startsWith('file:')) {
    try {
      name = path.relative(root, fileURLToPath(source)).split(path.sep).join('/');
    } catch {
      // A file URL that names no path on this system is shown as it is.
    }
  }
  const at = name.lastIndexOf('node_modules/');
  if (at >= 0 && (at === 0 || name[at - 1] === '/')) {
    const [first, second] = name.slice(at + 'node_modules/'.length).split('/');
    if (first) return { kind: 'package', name: first.startsWith('@') && second ? `${first}/${second}` : first };
  }
  return { kind: 'source', name };
}

/**
 * What a file's zipped bytes are shared out by among its parts: what each part's text deflates to
 * on its own (so minified library code and repetitive markup each carry their own weight).
 */
function weightsOf(parts: readonly { text: string; bytes: number }[]): number[] {
  return parts.map((part) => (part.text === '' ? part.bytes : storedSizeOf(Buffer.from(part.text, 'utf8'), COMPRESSION_LEVEL)));
}

/** `total` in whole shares proportional to `weights`, by largest remainder: they add up to `total`. */
export function apportion(weights: readonly number[], total: number): number[] {
  const sum = weights.reduce((a, b) => a + Math.max(0, b), 0);
  if (sum === 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (Math.max(0, weight) * total) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((value, i) => ({ i, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

function tally(map: Map<string, Sized>, name: string): Sized {
  let sized = map.get(name);
  if (!sized) map.set(name, (sized = { raw: 0, zipped: 0 }));
  return sized;
}

function largestFirst(map: Map<string, Sized>): ReportOrigin[] {
  return [...map].map(([name, sized]) => ({ name, ...sized })).sort((a, b) => b.raw - a.raw || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

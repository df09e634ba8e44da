import path from 'node:path';
import type { ExcludedEntry } from './left-out.js';
import { readEntryBytes, type BundleEntry, type BundleSource, type ReadResult } from './source.js';
import { UsageError } from '../errors.js';
import { MANIFEST_MAX_BYTES, manifestString, parseManifest } from '../manifest/read-manifest.js';
import { shippedManifest } from '../manifest/shipped-manifest.js';
import { MANIFEST_PATH } from '../paths.js';
import { MAX_ARCHIVE_BYTES } from '../rules/bundle-size.js';
import { MAX_UNPACKED_BYTES } from '../rules/unpacked-size.js';
import { defaultZipName } from './zip-name.js';
import { excludeOutput, selectFiles, type SelectOptions, type Selection } from './select-files.js';
import { compressContent, zipSizeOf } from './zip-size.js';

/**
 * Deflate level 6, zlib's default and what zip uses. Level 9 saved under 1% on the benchmark folder,
 * but its cost depends on the content: on repetitive text it is 30 to 40 times slower than level 6
 * (docs/pack.md). Fixed, because the level changes the bytes of the zip.
 */
export const COMPRESSION_LEVEL = 6;

/** One file as it goes into the zip. */
export interface ShippedFile {
  /** The name in the zip: the folder's path in Unicode NFC. */
  name: string;
  /** The folder's entry, read through the selection's source. */
  entry: BundleEntry;
  /** The bytes that ship, where they are not the file's own (the manifest without `$schema`). */
  content?: Buffer;
  /** Bytes that ship. */
  size: number;
}

/**
 * What `pack` puts in the zip, decided once for pack, validate and the dev server alike: which
 * files (the selection), under which names, in which order, with which bytes.
 */
export interface Shipment {
  /** The folder's selection, with the zip being written left out when it lies inside the folder. */
  selection: Selection;
  /** The files in zip order: names sorted by their UTF-8 bytes. */
  files: ShippedFile[];
  /** From the manifest, for the zip's default name. */
  names: { shortName?: string; version?: string };
  /** Where the zip goes (absolute). */
  output: string;
}

export interface ShipmentOptions extends SelectOptions {
  /**
   * Where the zip goes (absolute), given the manifest's names; left out when it lies inside the
   * folder. Default: the name pack gives it, in the folder itself (pack run from inside the folder).
   */
  output?: (names: Shipment['names']) => string | Promise<string>;
}

export async function planShipment(root: string, options: ShipmentOptions = {}): Promise<Shipment> {
  let selection = await selectFiles(root, options);
  const manifestEntry = selection.included.find((entry) => entry.path === MANIFEST_PATH);
  const original = manifestEntry ? await readEntryBytes(selection.source, manifestEntry, MANIFEST_MAX_BYTES + 1) : undefined;
  // A manifest over the size limit is read only in part: it ships as it is, and fails its rule.
  const manifest = original ? shippedManifest(original) : undefined;
  const state = manifest ? parseManifest(manifest) : undefined;
  const names = state ? { shortName: manifestString(state, 'shortName')?.trim(), version: manifestString(state, 'version')?.trim() } : {};
  const output = options.output ? await options.output(names) : path.join(root, defaultZipName(names.shortName, names.version, path.basename(root)));
  const inside = path.relative(root, output);
  if (inside && !inside.startsWith('..') && !path.isAbsolute(inside)) selection = excludeOutput(selection, inside.split(path.sep).join('/'));

  const files = selection.included.map((entry): ShippedFile => {
    const content = entry === manifestEntry && manifest !== original ? manifest : undefined;
    return { name: entry.path.normalize('NFC'), entry, size: content?.length ?? entry.declaredSize, ...(content ? { content } : {}) };
  });
  const keys = new Map(files.map((file) => [file, Buffer.from(file.name, 'utf8')]));
  files.sort((a, b) => Buffer.compare(keys.get(a)!, keys.get(b)!));
  return { selection, files, names, output };
}

/**
 * Streams the bytes of a file that ship, as BundleSource.read does. A file gone or unreadable since
 * the walk is a UsageError that names it (explainFileSystemError).
 */
export function readShipped(shipment: Shipment, file: ShippedFile, limit: number, sink: (chunk: Buffer) => void): Promise<ReadResult> {
  if (!file.content) return shipment.selection.source.read(file.entry, limit, sink).catch(explainFileSystemError);
  const part = file.content.subarray(0, Math.max(0, limit));
  if (part.length > 0) sink(part);
  return Promise.resolve({ bytes: part.length, stoppedAtLimit: part.length < file.content.length });
}

/** A file's bytes that ship, insisting it still has the size it had when the folder was walked. */
export async function readShippedWhole(shipment: Shipment, file: ShippedFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await readShipped(shipment, file, file.size + 1, (chunk) => chunks.push(chunk));
  const content = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  if (content.length !== file.size) {
    throw new UsageError(`${file.entry.path} changed while it was being read. Wait for the build to finish, then try again.`);
  }
  return content;
}

export function explainFileSystemError(error: NodeJS.ErrnoException): never {
  if (error.code && error.path !== undefined) throw new UsageError(`cannot read ${String(error.path)}: ${error.message}`);
  throw error;
}

/** How many files are read and deflated at once when measuring: zlib runs on Node's thread pool. */
const MEASURE_WINDOW = 4;

/**
 * The zip's size without writing it: every file deflated exactly as writeZip does, keeping only
 * the count. Undefined past the unpacked limit (the bundle fails on that, and deflating gigabytes
 * would only make the verdict slow) or when no zip could hold the files.
 */
export async function measureShipment(shipment: Shipment, signal?: AbortSignal): Promise<Map<ShippedFile, number> | undefined> {
  const { files } = shipment;
  const unpacked = files.reduce((sum, file) => sum + file.size, 0);
  if (unpacked > MAX_UNPACKED_BYTES || files.length > 0xffff) return undefined;
  const stored = new Map<ShippedFile, number>();
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      signal?.throwIfAborted();
      const file = files[next++]!;
      const { data } = await compressContent(await readShippedWhole(shipment, file), COMPRESSION_LEVEL);
      stored.set(file, data.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MEASURE_WINDOW, files.length) }, worker));
  return stored;
}

/** A BundleSource that also says what the folder leaves out. */
export interface ShippedSource extends BundleSource {
  readonly excluded: readonly ExcludedEntry[];
}

/**
 * The shipment as a bundle for the rules: the zip's names, order and bytes, and (when measured)
 * each file's stored size and the zip's exact size, so `bundle-size` judges a folder as it will
 * judge the zip. Findings from the folder walk count only where they concern a shipped file or a
 * folder that a shipped file is in. With `measuring` instead of sizes, the sizes are filled in
 * when it gives them, and the source's `sized` settles then.
 */
export function shipmentSource(shipment: Shipment, stored?: ReadonlyMap<ShippedFile, number>, measuring?: Measuring): ShippedSource {
  const { selection, files } = shipment;
  const byEntry = new Map<BundleEntry, ShippedFile>();
  const entries = files.map((file) => {
    const storedSize = stored?.get(file);
    const entry: SizedEntry = { path: file.name, kind: 'file', declaredSize: file.size, readable: true, ...(storedSize !== undefined ? { compressedSize: storedSize } : {}) };
    byEntry.set(entry, file);
    return entry;
  });
  // A finding about a folder (its name is not UTF-8) concerns every file shipped from inside it.
  const shipped = new Set(selection.included.flatMap((entry) => withFolders(entry.path)));
  const source: ShippedSource & { archiveSize?: number } = {
    kind: 'folder',
    location: selection.source.location,
    ...(stored ? { archiveSize: zipSize(shipment, (file) => stored.get(file)!) } : {}),
    entries,
    findings: selection.source.findings
      .filter((finding) => finding.file === undefined || shipped.has(finding.file))
      .map((finding) => (finding.file === undefined ? finding : { ...finding, file: finding.file.normalize('NFC') })),
    excluded: selection.excluded,
    read: (entry, limit, sink) => {
      const file = byEntry.get(entry);
      if (!file) throw new Error(`not an entry of this bundle: ${entry.path}`);
      return readShipped(shipment, file, limit, sink);
    },
    close: async () => {
      measuring?.abort.abort();
      await selection.source.close();
    },
  };
  if (measuring) {
    const sized = measuring.sizes.then((sizes) => {
      if (!sizes) return;
      entries.forEach((entry, index) => (entry.compressedSize = sizes.get(files[index]!)));
      source.archiveSize = zipSize(shipment, (file) => sizes.get(file)!);
    });
    // Whoever checks the bundle awaits this; a run given up before then (closed, or failed on
    // something else) must not leave a rejection nobody handles.
    sized.catch(() => {});
    Object.assign(source, { sized });
  }
  return source;
}

/**
 * The shipment as a bundle whose zip is measured while its files are read: deflating runs on the
 * thread pool while the checks run on the main thread. Its `sized` settles when the size is known;
 * closing it, or `signal`, gives the measurement up.
 */
export function measuringSource(shipment: Shipment, signal?: AbortSignal): ShippedSource {
  const abort = new AbortController();
  if (signal?.aborted) abort.abort(signal.reason);
  else signal?.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
  return shipmentSource(shipment, undefined, { sizes: measureShipment(shipment, abort.signal), abort });
}

/** An entry whose stored size may be filled in after the source is made. */
type SizedEntry = { -readonly [K in keyof BundleEntry]: BundleEntry[K] };

/** A measurement under way, and how to give it up. */
interface Measuring {
  sizes: Promise<Map<ShippedFile, number> | undefined>;
  abort: AbortController;
}

/** The size of the shipment's zip, each file taking `storedSize(file)` bytes in it. */
function zipSize(shipment: Shipment, storedSize: (file: ShippedFile) => number): number {
  return zipSizeOf(shipment.files.map((file) => ({ name: file.name, storedSize: storedSize(file) })));
}

/**
 * Opens a tool folder as the bundle pack would make of it: what validate and the dev server check.
 * The zip's size is measured unless `measure` is false. With `measure: 'alongside'` the source
 * comes back at once and the size is measured while its files are read (deflating on the thread
 * pool while the checks run on the main thread); its `sized` settles when the size is known. With
 * `'for-verdict'`, for a caller that wants the rules' verdict and no figures, it is measured so
 * only when the zip could pass the marketplace's limit: below that, `bundle-size` has nothing to
 * say whatever the exact size, which is left unknown (no `archiveSize`, no `compressedSize`).
 */
export async function openShippedFolder(root: string, options: ShipmentOptions & { measure?: boolean | 'alongside' | 'for-verdict' } = {}): Promise<ShippedSource> {
  const shipment = await planShipment(root, options).catch(explainFileSystemError);
  // The largest the zip can be: every file stored as it is (pack stores what deflate would not shrink).
  if (options.measure === 'for-verdict' && zipSize(shipment, (file) => file.size) <= MAX_ARCHIVE_BYTES) return shipmentSource(shipment);
  if (options.measure === 'alongside' || options.measure === 'for-verdict') return measuringSource(shipment);
  const stored = options.measure === false ? undefined : await measureShipment(shipment);
  return shipmentSource(shipment, stored);
}

/** A path and the folders above it, as a folder walk names them: `a/b/c.js`, `a/b`, `a`. */
function withFolders(file: string): string[] {
  const paths = [file];
  for (let end = file.lastIndexOf('/'); end > 0; end = file.lastIndexOf('/', end - 1)) paths.push(file.slice(0, end));
  return paths;
}

import { rmSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { asDiskWriteError } from '../disk-errors.js';
import { UsageError } from '../errors.js';
import type { Report } from '../problem.js';
import { MAX_FILES } from '../rules/file-count.js';
import { MAX_UNPACKED_BYTES } from '../rules/unpacked-size.js';
import type { RuleOverride } from '../config/settings.js';
import { checkOverrides, checkRuleSettings, validateBundle, type RuleSetting } from '../validate.js';
import { quoteArgument, requireManifestHere } from './manifest-elsewhere.js';
import { commitTempFile, createTempFile, DestinationExistsError, pathExists, resolveDestination } from './destination.js';
import { defaultZipName } from '../shipment/zip-name.js';
import type { ExcludedEntry } from '../shipment/select-files.js';
import { COMPRESSION_LEVEL, explainFileSystemError, measuringSource, planShipment, readShippedWhole, shipmentSource } from '../shipment/shipment.js';
import { COLLECT_EVERY, writeZip } from './write-zip.js';


export { COMPRESSION_LEVEL };

/** 1980-01-01 00:00:00 UTC, the zip format's epoch: the time on every entry by default. */
export const DEFAULT_TIMESTAMP = new Date(Date.UTC(1980, 0, 1));

export interface PackOptions {
  /**
   * Where to write: a file, or a folder (one that exists, or a path ending in "/") to hold the
   * default `<shortName>-<version>.zip`. Default: that name in `cwd`.
   */
  out?: string;
  /** Resolves a relative folder and `out`, and is where the zip goes by default. Default: process.cwd(). */
  cwd?: string;
  /** Replace an existing file at the destination. */
  force?: boolean;
  /** Turn validate rules off or change their severity, by id, as `validateBundle` takes them. */
  rules?: Readonly<Record<string, RuleSetting>>;
  /** Settings for some files only, as `validateBundle` takes them. */
  overrides?: readonly RuleOverride[];
  /**
   * The folder that findings placed at the author's source through source maps are relative to
   * (the project's folder). Default: `cwd`. The maps are those beside the folder's files.
   */
  sourceRoot?: string;
  /** Select and check the files, but compress and write nothing. */
  dryRun?: boolean;
  /** The time recorded on every entry (SOURCE_DATE_EPOCH on the command line). Default: DEFAULT_TIMESTAMP. */
  timestamp?: Date;
  /** Abort to stop: the temporary file is removed and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  onProgress?: (progress: PackProgress) => void;
  /**
   * Collects the process's garbage (V8's `gc`, which only the caller can expose). Given, it is
   * called as the zip is written, before the zip is checked and as it is checked, which keeps the
   * peak memory to what the files being compressed, then checked, need (see `collect` in
   * write-zip.ts and `collectGarbage` in validate.ts).
   */
  collectGarbage?: () => void;
}

export type PackProgress =
  | { step: 'select' }
  | { step: 'check-files'; files: number }
  | { step: 'compress'; done: number; total: number }
  | { step: 'check-zip' };

export interface IncludedFile {
  path: string;
  size: number;
  /** Bytes the file takes in the zip, and how it is stored there; absent in a dry run. */
  compressedSize?: number;
  method?: 'deflate' | 'store';
}

export interface PackResult {
  /** True when the bundle passes every rule (warnings allowed); in a dry run, when the files do. */
  ok: boolean;
  dryRun: boolean;
  /** True only when the zip is in place at `outputPath`. */
  written: boolean;
  /** The packed folder, absolute. */
  folder: string;
  /** Where the zip is (or would be) written, absolute. */
  outputPath: string;
  /** True when a file was already at `outputPath` when packing began (so a written zip replaced it). */
  existed: boolean;
  /** SHA-256 of the zip, hex; absent when nothing was written. */
  sha256?: string;
  /** Number of files in the bundle (folders do not count). */
  files: number;
  /** Size of the zip in bytes: as written, or in a dry run as measured; absent when neither (past the unpacked limit). */
  zipSize?: number;
  /** Sum of the files' sizes: what the zip unpacks to. */
  unpackedSize: number;
  included: IncludedFile[];
  excluded: ExcludedEntry[];
  /**
   * The rules' verdict, with problems located at the folder's files. `stage` says what was checked:
   * normally the finished zip; the selected files in a dry run, and when the files already show
   * a problem the zip could not (too many, too large, a name that is not UTF-8).
   */
  report: Report;
  stage: 'files' | 'zip';
}


/**
 * Turns a tool folder into the bundle the marketplace accepts. Selects the files, writes the zip to
 * a temporary file beside the destination, checks that zip with the validate rules (the very bytes
 * that will ship), and only then moves it into place. Nothing is written when the check finds an
 * error. Never prints; throws UsageError for what the caller must fix.
 */
export async function packFolder(folder: string, options: PackOptions = {}): Promise<PackResult> {
  const cwd = options.cwd ?? process.cwd();
  const root = path.resolve(cwd, folder);
  const { signal, onProgress } = options;
  if (options.timestamp && !Number.isFinite(options.timestamp.getTime())) throw new UsageError('the timestamp for the entries is not a valid date.');
  const rules = checkRuleSettings(options.rules ?? {});
  const overrides = checkOverrides(options.overrides ?? []);
  await requireFolder(root, folder);
  await requireManifestHere(root, folder);
  // The zip is checked too, but its findings are about the folder's files, mapped by their maps.
  const sourceMaps = { root: path.resolve(cwd, options.sourceRoot ?? '.'), folder: root, ...(options.signal ? { signal: options.signal } : {}) };

  onProgress?.({ step: 'select' });
  const shipment = await planShipment(root, {
    output: (names) => resolveDestination(options.out, defaultZipName(names.shortName, names.version, path.basename(root)), cwd),
  }).catch(explainFileSystemError);
  const { selection } = shipment;
  const destination = shipment.output;
  const existed = await pathExists(destination);
  const base = {
    dryRun: options.dryRun ?? false,
    folder: root,
    outputPath: destination,
    existed,
    files: shipment.files.length,
    unpackedSize: shipment.files.reduce((sum, file) => sum + file.size, 0),
    excluded: selection.excluded,
  };

  // The rules run on the zip, the bytes that ship. They run on the shipment first (exactly what
  // validate checks on a folder) where the zip could not show a problem (a name that is not UTF-8
  // would arrive already mangled), where compressing would be wasted (past the limits, possibly
  // gigabytes), and for a dry run, which measures the zip instead of writing it.
  const files = shipmentSource(shipment);
  if (options.dryRun || files.findings.length > 0 || base.files > MAX_FILES || base.unpackedSize > MAX_UNPACKED_BYTES) {
    signal?.throwIfAborted();
    onProgress?.({ step: 'check-files', files: base.files });
    const measured = measuringSource(shipment, signal);
    let filesReport: Report;
    try {
      filesReport = asFolderReport(await validateBundle(measured, { rules, overrides, sourceMaps }), folder);
    } catch (error) {
      // The measurement may still be under way.
      await measured.close();
      throw error;
    }
    if (!filesReport.ok || options.dryRun) {
      const listed = shipment.files.map((file) => ({ path: file.name, size: file.size }));
      return {
        ...base,
        ...(measured.archiveSize !== undefined ? { zipSize: measured.archiveSize } : {}),
        ok: filesReport.ok,
        written: false,
        included: listed,
        report: filesReport,
        stage: 'files',
      };
    }
  }
  if (existed && !options.force) throw new DestinationExistsError(destination);

  signal?.throwIfAborted();
  const { temp, handle } = await createTempFile(destination);
  // Removing the file at once on abort means an impatient second Ctrl-C cannot leave it behind.
  const removeNow = () => {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Windows cannot delete an open file; the cleanup below does it once the file is closed.
    }
  };
  signal?.addEventListener('abort', removeNow, { once: true });
  let committed = false;
  try {
    const inputs = shipment.files.map((file) => ({ name: file.name, read: () => readShippedWhole(shipment, file) }));
    onProgress?.({ step: 'compress', done: 0, total: inputs.length });
    let zip;
    try {
      try {
        zip = await writeZip(inputs, handle, {
          level: COMPRESSION_LEVEL,
          timestamp: options.timestamp ?? DEFAULT_TIMESTAMP,
          ...(signal ? { signal } : {}),
          onEntry: (done, total) => onProgress?.({ step: 'compress', done, total }),
          ...(options.collectGarbage ? { collect: options.collectGarbage } : {}),
        });
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      // Reading the folder's files explains its own failures; what is left is the zip's writing.
      throw asDiskWriteError(error, destination);
    }

    signal?.throwIfAborted();
    onProgress?.({ step: 'check-zip' });
    // What writing left (the last files, zlib's buffers) would otherwise stay beside the check's own;
    // files smaller than one collection's worth (as writeZip counts them) leave too little to be worth one.
    if (zip.entries.reduce((sum, entry) => sum + entry.size, 0) >= COLLECT_EVERY) options.collectGarbage?.();
    const zipReport = asFolderReport(await validateBundle(temp, { rules, overrides, excluded: selection.excluded, sourceMaps, ...(options.collectGarbage ? { collectGarbage: options.collectGarbage } : {}) }), folder);
    const included = zip.entries.map((entry) => ({ path: entry.name, size: entry.size, compressedSize: entry.compressedSize, method: entry.method }));
    const result = { ...base, included, zipSize: zip.size, report: zipReport, stage: 'zip' as const };
    if (!zipReport.ok) return { ...result, ok: false, written: false };

    signal?.throwIfAborted();
    await commitTempFile(temp, destination, options.force ?? false);
    committed = true;
    return { ...result, ok: true, written: true, sha256: zip.sha256 };
  } finally {
    signal?.removeEventListener('abort', removeNow);
    if (!committed) await rm(temp, { force: true });
  }
}

async function requireFolder(root: string, given: string): Promise<void> {
  const info = await stat(root).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(error.code === 'ENOENT' ? `${given} does not exist. Give the path of a tool folder.` : `cannot read ${given}: ${error.message}`);
  });
  if (!info.isDirectory()) {
    throw new UsageError(
      given.toLowerCase().endsWith('.zip')
        ? `${given} is a file; pack takes a tool folder. To check a zip, run: pipeline-tool validate ${quoteArgument(given)}`
        : `${given} is not a folder. Give the path of a tool folder.`,
    );
  }
}

/** Problems are about the folder's files, whichever stage found them, so point reports there. */
function asFolderReport(report: Report, folder: string): Report {
  return { ...report, bundle: folder, kind: 'folder' };
}


export { ManifestElsewhereError, ProjectsHereError } from './manifest-elsewhere.js';

import { rmSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { readEntryBytes, type BundleEntry } from '../bundle/source.js';
import { UsageError } from '../errors.js';
import { MANIFEST_MAX_BYTES, manifestString, parseManifest } from '../manifest/read-manifest.js';
import { MANIFEST_PATH } from '../paths.js';
import type { Report } from '../problem.js';
import { MAX_FILES } from '../rules/file-count.js';
import { MAX_UNPACKED_BYTES } from '../rules/unpacked-size.js';
import type { RuleOverride } from '../config/settings.js';
import { checkOverrides, checkRuleSettings, validateBundle, type RuleSetting } from '../validate.js';
import { quoteArgument, requireManifestHere } from './manifest-elsewhere.js';
import { commitTempFile, createTempFile, defaultZipName, DestinationExistsError, pathExists, resolveDestination } from './destination.js';
import { excludeOutput, selectFiles, selectionSource, type ExcludedEntry, type Selection } from './select-files.js';
import { writeZip, type ZipInput } from './write-zip.js';

/**
 * Deflate level 6, zlib's default and what zip uses. Level 9 saved under 1% on the benchmark folder,
 * but its cost depends on the content: on repetitive text it is 30 to 40 times slower than level 6
 * (docs/pack.md). Fixed, because the level changes the bytes of the zip.
 */
export const COMPRESSION_LEVEL = 6;

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
  /** Select and check the files, but compress and write nothing. */
  dryRun?: boolean;
  /** The time recorded on every entry (SOURCE_DATE_EPOCH on the command line). Default: DEFAULT_TIMESTAMP. */
  timestamp?: Date;
  /** Abort to stop: the temporary file is removed and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  onProgress?: (progress: PackProgress) => void;
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
  /** Size of the zip in bytes; absent when none was made. */
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

  onProgress?.({ step: 'select' });
  let selection = await selectFiles(root).catch(explainFileSystemError);
  const names = await readNames(selection);
  const destination = await resolveDestination(options.out, defaultZipName(names.shortName, names.version, path.basename(root)), cwd);
  const inside = path.relative(root, destination);
  if (inside && !inside.startsWith('..') && !path.isAbsolute(inside)) selection = excludeOutput(selection, inside.split(path.sep).join('/'));
  const existed = await pathExists(destination);
  const base = {
    dryRun: options.dryRun ?? false,
    folder: root,
    outputPath: destination,
    existed,
    files: selection.included.length,
    unpackedSize: selection.included.reduce((sum, entry) => sum + entry.declaredSize, 0),
    excluded: selection.excluded,
  };

  // The rules run on the zip, the bytes that ship. They run on the selected files first only where
  // the zip could not show a problem (a name that is not UTF-8 would arrive already mangled), where
  // compressing would be wasted (past the limits, possibly gigabytes), and for a dry run.
  const files = selectionSource(selection);
  if (options.dryRun || files.findings.length > 0 || base.files > MAX_FILES || base.unpackedSize > MAX_UNPACKED_BYTES) {
    signal?.throwIfAborted();
    onProgress?.({ step: 'check-files', files: base.files });
    const filesReport = asFolderReport(await validateBundle(files, { rules, overrides }), folder);
    if (!filesReport.ok || options.dryRun) {
      const listed = selection.included.map((entry) => ({ path: entry.path, size: entry.declaredSize }));
      return { ...base, ok: filesReport.ok, written: false, included: listed, report: filesReport, stage: 'files' };
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
    const inputs = zipInputs(selection);
    onProgress?.({ step: 'compress', done: 0, total: inputs.length });
    let zip;
    try {
      zip = await writeZip(inputs, handle, {
        level: COMPRESSION_LEVEL,
        timestamp: options.timestamp ?? DEFAULT_TIMESTAMP,
        ...(signal ? { signal } : {}),
        onEntry: (done, total) => onProgress?.({ step: 'compress', done, total }),
      });
      await handle.sync();
    } finally {
      await handle.close();
    }

    signal?.throwIfAborted();
    onProgress?.({ step: 'check-zip' });
    const zipReport = asFolderReport(await validateBundle(temp, { rules, overrides }), folder);
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

/** The short name and version for the file name, read the way validate reads the manifest. */
async function readNames(selection: Selection): Promise<{ shortName?: string; version?: string }> {
  const entry = selection.included.find((e) => e.path === MANIFEST_PATH);
  if (!entry) return {};
  const state = parseManifest(await readEntryBytes(selection.source, entry, MANIFEST_MAX_BYTES + 1).catch(explainFileSystemError));
  return { shortName: manifestString(state, 'shortName')?.trim(), version: manifestString(state, 'version')?.trim() };
}

/**
 * The zip's entries: names in Unicode NFC (macOS may hand out decomposed names; the same folder
 * must give the same zip everywhere, and web servers compare names as written), sorted bytewise.
 */
function zipInputs(selection: Selection): ZipInput[] {
  const inputs = selection.included.map((entry) => ({
    name: entry.path.normalize('NFC'),
    read: () => readWhole(selection, entry),
  }));
  const key = new Map(inputs.map((input) => [input, Buffer.from(input.name, 'utf8')]));
  return inputs.sort((a, b) => Buffer.compare(key.get(a)!, key.get(b)!));
}

/** A file's content, insisting it still has the size it had when the folder was walked. */
async function readWhole(selection: Selection, entry: BundleEntry): Promise<Buffer> {
  const content = await readEntryBytes(selection.source, entry, entry.declaredSize + 1).catch(explainFileSystemError);
  if (content.length !== entry.declaredSize) {
    throw new UsageError(`${entry.path} changed while it was being packed. Wait for the build to finish, then pack again.`);
  }
  return content;
}

/** Problems are about the folder's files, whichever stage found them, so point reports there. */
function asFolderReport(report: Report, folder: string): Report {
  return { ...report, bundle: folder, kind: 'folder' };
}

function explainFileSystemError(error: NodeJS.ErrnoException): never {
  if (error.code && error.path !== undefined) throw new UsageError(`cannot read ${String(error.path)}: ${error.message}`);
  throw error;
}

export { ManifestElsewhereError } from './manifest-elsewhere.js';

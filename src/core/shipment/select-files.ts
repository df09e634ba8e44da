import path from 'node:path';
import type ignore from 'ignore';
import { CONFIG_FILE } from '../config/file-name.js';
import { ignorePackage } from '../config/ignore-package.js';
import { UsageError } from '../errors.js';
import { formatBytes } from '../format-bytes.js';
import { NotRegularFileError, openRegularFile } from '../regular-file.js';
import { openFolderSource } from './folder-source.js';
import type { ExcludedEntry, ExclusionReason } from './left-out.js';
import { readEntryBytes, type BundleEntry, type BundleSource, type EntryKind } from './source.js';
import { ALLOWED_EXTENSIONS, baseName, extensionOf, junkReason, MANIFEST_PATH } from '../paths.js';

export type { ExcludedEntry, ExclusionReason } from './left-out.js';

export interface Selection {
  /** The folder opened without following links; read included files through it. */
  source: BundleSource;
  /** Regular files that go into the bundle, in the walk's order. */
  included: BundleEntry[];
  /** Everything left out, in the walk's order. Folders left out are not walked into. */
  excluded: ExcludedEntry[];
}

export const IGNORE_FILE = '.pipelineignore';

/**
 * Files a tool author keeps beside the tool that never belong in a bundle. Several are .json, an
 * allowed type, so without this list a package.json would ship to the marketplace.
 */
const PROJECT_FILES = new Set([
  IGNORE_FILE,
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'bun.lock',
  'bun.lockb',
  'deno.json',
  'deno.jsonc',
  'deno.lock',
  'jsconfig.json',
  CONFIG_FILE,
]);
const TSCONFIG = /^tsconfig(\..+)?\.json$/i;
const IGNORE_FILE_LIMIT = 1_000_000;

type Matcher = ReturnType<typeof ignore>;

export interface SelectOptions {
  /** Entries to pass over entirely, neither listed nor walked (the dev server's state folder). */
  omit?: (entryPath: string) => boolean;
  /** Paths inside the folder known to be fixture files (the dev server's --fixtures), besides those recognised. */
  fixtures?: readonly string[];
}

/**
 * Walks a folder and decides, entry by entry, what goes into the bundle and why the rest stays
 * out. Folders that are left out (node_modules, dot-folders, ignored ones) are never walked into:
 * gitignore cannot re-include a file whose folder is excluded, so nothing inside could come back.
 */
export async function selectFiles(root: string, options: SelectOptions = {}): Promise<Selection> {
  const matcher = ignorePackage()({ ignorecase: false }).add((await readIgnoreFile(root)) ?? '');
  const excludedFolders = new Map<string, ExcludedEntry>();
  const source = await openFolderSource(root, {
    descend: (directoryPath) => {
      const exclusion = classify(directoryPath, 'directory', matcher);
      if (exclusion) excludedFolders.set(directoryPath, exclusion);
      return exclusion === undefined;
    },
    ...(options.omit ? { omit: options.omit } : {}),
  });
  const knownFixtures = new Set(options.fixtures ?? []);
  const included: BundleEntry[] = [];
  const excluded: ExcludedEntry[] = [];
  for (const entry of source.entries) {
    if (entry.kind === 'directory') {
      const folder = excludedFolders.get(entry.path);
      if (folder) excluded.push(folder);
      continue;
    }
    const exclusion = classify(entry.path, entry.kind, matcher);
    if (exclusion) excluded.push(exclusion);
    else if (knownFixtures.has(entry.path) || (await isFixtureFile(source, entry))) excluded.push({ path: entry.path, kind: entry.kind, reason: 'fixtures' });
    else included.push(entry);
  }
  return { source, included, excluded };
}

/** The name every fixtures file's `$schema` ends with (schemas/fixtures.schema.json). */
const FIXTURES_SCHEMA = 'fixtures.schema.json';
const FIXTURES_SCHEMA_BYTES = Buffer.from(FIXTURES_SCHEMA);

/**
 * A fixture file for `pipeline-tool dev` is data for the emulated host, never part of the tool. It
 * is recognised by what the docs tell authors to write in it: a top-level `$schema` naming
 * fixtures.schema.json (by any path or URL). Only a file whose first 64 KB mention that name (where
 * editors and people put `$schema`: first) is parsed, so other JSON costs one small read; the test
 * on the parsed value is exact, so a tool's own data that merely looks similar still ships.
 */
async function isFixtureFile(source: BundleSource, entry: BundleEntry): Promise<boolean> {
  if (extensionOf(entry.path) !== '.json' || entry.path === MANIFEST_PATH || entry.declaredSize > FIXTURES_FILE_LIMIT) return false;
  if (!(await readEntryBytes(source, entry, FIXTURES_PREFIX)).includes(FIXTURES_SCHEMA_BYTES)) return false;
  try {
    const bytes = await readEntryBytes(source, entry, FIXTURES_FILE_LIMIT);
    const value: unknown = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const schema = (value as Record<string, unknown>)['$schema'];
    return typeof schema === 'string' && (schema === FIXTURES_SCHEMA || /[/\\]fixtures\.schema\.json$/.test(schema));
  } catch {
    return false;
  }
}

/** How much of a .json file is searched for the fixtures schema's name. */
const FIXTURES_PREFIX = 64_000;
/** Larger JSON files are not looked into: no fixture file comes near this size. */
const FIXTURES_FILE_LIMIT = 20_000_000;

/**
 * The first reason that applies, most fundamental first: what a name says about any entry, then
 * what the entry is, then the author's own patterns, then the marketplace's type list. Only the
 * last segment of the path is looked at for names, because excluded folders are never entered.
 */
function classify(entryPath: string, kind: EntryKind, matcher: Matcher): ExcludedEntry | undefined {
  const name = baseName(entryPath);
  const out = (reason: ExclusionReason, detail?: string): ExcludedEntry => ({
    path: entryPath,
    kind,
    reason,
    ...(detail !== undefined ? { detail } : {}),
  });
  const isFile = kind === 'file';
  if (isFile && isProjectFile(name)) return out('project-file');
  const junk = junkReason(name);
  if (junk) return out(name.startsWith('.') ? 'dot-file' : 'junk', junk);
  if (name === 'node_modules') return out('node_modules');
  if (kind === 'symlink') return out('symlink');
  if (kind === 'other') return out('not-regular');
  const ignored = matcher.test(entryPath);
  if (ignored.ignored) return out('ignored', ignored.rule?.pattern);
  if (!isFile) return undefined;
  const extension = extensionOf(name);
  if (extension === '.map') return out('source-map');
  if (!ALLOWED_EXTENSIONS.includes(extension)) return out('file-type', extension);
  return undefined;
}

function isProjectFile(name: string): boolean {
  return PROJECT_FILES.has(name) || TSCONFIG.test(name);
}

/** Reads .pipelineignore at the folder's root, refusing to follow a link to somewhere else. */
async function readIgnoreFile(root: string): Promise<string | undefined> {
  const file = path.join(root, IGNORE_FILE);
  let handle, info;
  try {
    ({ handle, info } = await openRegularFile(file, { followLinks: false }));
  } catch (error) {
    if (error instanceof NotRegularFileError) {
      if (error.type === 'symlink') throw new UsageError(`${file} is a symbolic link; pack never follows links. Make it a regular file.`);
      throw new UsageError(`${error.message}; ${IGNORE_FILE} must be a text file of patterns. Replace it with one, or remove it.`);
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    if (info.size > IGNORE_FILE_LIMIT) throw new UsageError(`${file} is larger than ${formatBytes(IGNORE_FILE_LIMIT)}; is it really an ignore file?`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Moves the zip being written (when it lies inside the folder) from the files to the left-out. */
export function excludeOutput(selection: Selection, relativePath: string): Selection {
  const index = selection.included.findIndex((entry) => entry.path === relativePath);
  if (index < 0) {
    // A previous output that failed the type check is still the output: say so rather than "file-type".
    const excluded = selection.excluded.map((entry) =>
      entry.path === relativePath && entry.kind === 'file' && entry.reason === 'file-type' ? { path: entry.path, kind: entry.kind, reason: 'output-zip' as const } : entry,
    );
    return { ...selection, excluded };
  }
  const entry = selection.included[index]!;
  const included = selection.included.filter((_, i) => i !== index);
  const output: ExcludedEntry = { path: entry.path, kind: entry.kind, reason: 'output-zip' };
  const excluded = sortByPath([...selection.excluded, output]);
  return { ...selection, included, excluded };
}

function sortByPath<T extends { path: string }>(list: T[]): T[] {
  return list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

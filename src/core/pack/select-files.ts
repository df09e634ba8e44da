import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';
import { CONFIG_FILE } from '../config/file-name.js';
import { UsageError } from '../errors.js';
import { openFolderSource } from '../bundle/folder-source.js';
import type { BundleEntry, BundleSource, EntryKind } from '../bundle/source.js';
import { ALLOWED_EXTENSIONS, baseName, extensionOf, junkReason } from '../paths.js';

/** Why a file or folder stays out of the bundle. Codes are public API: never rename one. */
export type ExclusionReason =
  | 'dot-file'
  | 'junk'
  | 'node_modules'
  | 'symlink'
  | 'not-regular'
  | 'output-zip'
  | 'project-file'
  | 'source-map'
  | 'ignored'
  | 'file-type';

export interface ExcludedEntry {
  /** Slash-separated path inside the folder; a folder left out ends with "/" and is listed once. */
  path: string;
  kind: EntryKind;
  reason: ExclusionReason;
  /** What exactly matched: the extension, the .pipelineignore pattern, or what the junk is. */
  detail?: string;
}

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

/**
 * Walks a folder and decides, entry by entry, what goes into the bundle and why the rest stays
 * out. Folders that are left out (node_modules, dot-folders, ignored ones) are never walked into:
 * gitignore cannot re-include a file whose folder is excluded, so nothing inside could come back.
 */
export async function selectFiles(root: string): Promise<Selection> {
  const matcher = ignore({ ignorecase: false }).add((await readIgnoreFile(root)) ?? '');
  const excludedFolders = new Map<string, ExcludedEntry>();
  const source = await openFolderSource(root, {
    descend: (directoryPath) => {
      const exclusion = classify(directoryPath, 'directory', matcher);
      if (exclusion) excludedFolders.set(directoryPath, exclusion);
      return exclusion === undefined;
    },
  });
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
    else included.push(entry);
  }
  return { source, included, excluded };
}

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
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new UsageError(`${file} is a symbolic link; pack never follows links. Make it a regular file.`);
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UsageError(`${file} is not a regular file.`);
    if (info.size > IGNORE_FILE_LIMIT) throw new UsageError(`${file} is larger than ${IGNORE_FILE_LIMIT.toLocaleString('en-US')} bytes; is it really an ignore file?`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A view of the folder holding only the selected files, for the check that runs before anything
 * is compressed. Findings from the walk count only where they concern a selected file.
 */
export function selectionSource(selection: Selection): BundleSource {
  const { source, included } = selection;
  const paths = new Set(included.map((entry) => entry.path));
  return {
    kind: source.kind,
    location: source.location,
    entries: included,
    findings: source.findings.filter((finding) => finding.file === undefined || paths.has(finding.file)),
    read: (entry, limit, sink) => source.read(entry, limit, sink),
    close: () => source.close(),
  };
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

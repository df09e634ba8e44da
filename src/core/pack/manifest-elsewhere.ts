import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { CONFIG_FILE } from '../config/file-name.js';
import { UsageError } from '../errors.js';
import { MANIFEST_PATH } from '../paths.js';

/** Folders where build tools usually write their output, asked about first. */
const BUILD_FOLDERS = ['dist', 'build', 'out', 'public', 'www'];

/** The folder given has no manifest.json, but a folder inside it does: probably the build output. */
export class ManifestElsewhereError extends UsageError {
  constructor(
    readonly folder: string,
    /** Folders inside `folder` that hold a manifest.json, as given plus the subfolder. */
    readonly candidates: string[],
    /** The command to suggest running on that folder. */
    readonly command: 'pack' | 'validate' | 'dev' = 'pack',
  ) {
    super(
      `${folder} has no manifest.json, but ${candidates[0]} has one. ${VERBS[command]} that folder: pipeline-tool ${command} ${quoteArgument(candidates[0]!)}` +
        (candidates.length > 1 ? ` (also found in ${candidates.slice(1).join(', ')})` : '') +
        `, or name it in ${CONFIG_FILE} ("source": "${candidates[0]!.split(path.sep).join('/').replace(/^\.\//, '')}") to have every command find it.`,
    );
  }
}

const VERBS = { pack: 'Pack', validate: 'Check', dev: 'Run' } as const;

/**
 * The folder given has no tool of its own, but holds projects (folders with a project file), as a
 * folder of several tools does: each is a project to name on its own, never all walked at once.
 */
export class ProjectsHereError extends UsageError {
  constructor(
    readonly folder: string,
    /** The project folders inside `folder`, as given plus the subfolder, sorted by name. */
    readonly projects: string[],
    readonly command: 'pack' | 'validate' | 'dev' = 'pack',
  ) {
    const first = quoteArgument(projects[0]!);
    super(
      projects.length === 1
        ? `${folder} has no manifest.json, but ${projects[0]} is a project (it holds ${CONFIG_FILE}). ${VERBS[command]} it: pipeline-tool ${command} ${first}`
        : `${folder} holds ${projects.length} projects and no tool of its own: ${listNames(projects)}. Name the one to ${command === 'dev' ? 'run' : command === 'validate' ? 'check' : 'pack'}, such as: pipeline-tool ${command} ${first}`,
    );
  }
}

function listNames(names: readonly string[]): string {
  const shown = names.length > 8 ? [...names.slice(0, 8), `${names.length - 8} more`] : names;
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/**
 * Running pack in the project folder when the build writes the tool to dist/ is the likely mistake
 * here. It is the wrong folder, not a broken tool, so it is a usage error naming the right one;
 * a folder with no manifest anywhere is left to the rules (manifest-missing).
 */
export async function requireManifestHere(root: string, given: string, command: ManifestElsewhereError['command'] = 'pack'): Promise<void> {
  if (await isRegularFile(path.join(root, MANIFEST_PATH))) return;
  const folders = await childFolders(root);
  await requireNoProjectsInside(root, given, command, folders);
  const candidates: string[] = [];
  for (const name of folders.sort((a, b) => rank(a) - rank(b) || compareNames(a, b))) {
    if (await isRegularFile(path.join(root, name, MANIFEST_PATH))) candidates.push(path.join(given, name));
  }
  if (candidates.length > 0) throw new ManifestElsewhereError(given, candidates, command);
}

/**
 * A folder without a tool of its own whose subfolders are projects (a folder of several tools):
 * a usage error naming them, so that no command walks them all as one tool.
 */
export async function requireNoProjectsInside(
  root: string,
  given: string,
  command: ProjectsHereError['command'] = 'pack',
  folders?: string[],
): Promise<void> {
  const projects: string[] = [];
  for (const name of (folders ?? (await childFolders(root))).sort(compareNames)) {
    if (await isRegularFile(path.join(root, name, CONFIG_FILE))) projects.push(path.join(given, name));
  }
  if (projects.length > 0) throw new ProjectsHereError(given, projects, command);
}

async function childFolders(root: string): Promise<string[]> {
  const children = await readdir(root, { withFileTypes: true }).catch(() => []);
  return children.filter((child) => child.isDirectory() && !child.name.startsWith('.') && child.name !== 'node_modules').map((child) => child.name);
}

const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function rank(name: string): number {
  const index = BUILD_FOLDERS.indexOf(name);
  return index < 0 ? BUILD_FOLDERS.length : index;
}

async function isRegularFile(file: string): Promise<boolean> {
  return lstat(file).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** Quotes a path for a shell command line when it needs it. */
export function quoteArgument(value: string): string {
  return /^[\w./@:+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

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
 * Running pack in the project folder when the build writes the tool to dist/ is the likely mistake
 * here. It is the wrong folder, not a broken tool, so it is a usage error naming the right one;
 * a folder with no manifest anywhere is left to the rules (manifest-missing).
 */
export async function requireManifestHere(root: string, given: string, command: ManifestElsewhereError['command'] = 'pack'): Promise<void> {
  if (await isRegularFile(path.join(root, MANIFEST_PATH))) return;
  const children = await readdir(root, { withFileTypes: true }).catch(() => []);
  const folders = children
    .filter((child) => child.isDirectory() && !child.name.startsWith('.') && child.name !== 'node_modules')
    .map((child) => child.name)
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const candidates: string[] = [];
  for (const name of folders) {
    if (await isRegularFile(path.join(root, name, MANIFEST_PATH))) candidates.push(path.join(given, name));
  }
  if (candidates.length > 0) throw new ManifestElsewhereError(given, candidates, command);
}

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

import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { Chalk } from 'chalk';
import { TOOL_FOLDER } from '../../../core/init/plan.js';

/** Where a project made by `init` keeps manifest.json: its tool folder, or Vite's public/ for a framework template. */
const MANIFEST_FOLDERS = [TOOL_FOLDER, 'public'];
import { MANIFEST_PATH } from '../../../core/paths.js';
import { bumpVersion, type BumpResult } from '../../../core/release/bump-version.js';
import { EXIT } from '../../exit-codes.js';
import { useColour, type CliIo } from '../../io.js';
import type { VersionFlags } from './command.js';

export async function runVersion(release: string, dir: string | undefined, flags: VersionFlags, io: CliIo): Promise<number> {
  const folder = dir ?? (await defaultFolder(io.cwd));
  const result = await bumpVersion(folder, release.trim(), { force: flags.force, cwd: io.cwd });
  io.stdout(summary(result, io));
  return EXIT.ok;
}

/** The current folder when it is a tool folder, else the src/ or public/ of a project made by `init`. */
async function defaultFolder(cwd: string): Promise<string> {
  const here = await lstat(path.join(cwd, MANIFEST_PATH)).catch(() => undefined);
  if (here) return '.';
  for (const folder of MANIFEST_FOLDERS) {
    const inside = await lstat(path.join(cwd, folder, MANIFEST_PATH)).catch(() => undefined);
    if (inside?.isFile()) return folder;
  }
  return '.';
}

function summary(result: BumpResult, io: CliIo): string {
  const colour = new Chalk({ level: useColour(io, io.stdoutIsTTY) ? 1 : 0 });
  const show = (file: string) => {
    const relative = path.relative(io.cwd, file);
    return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
  };
  const changes = [result.manifest, ...(result.packageJson ? [result.packageJson] : [])];
  const width = Math.max(...changes.map((change) => show(change.file).length));
  const lines = changes.map((change) => `${colour.green('✔')} ${show(change.file).padEnd(width)}  ${change.from} → ${colour.bold(change.to)}`);
  const folder = show(result.folder);
  const pack = result.scripts['pack'] !== undefined ? 'npm run pack' : `npx pipeline-tool pack ${folder === '' ? '.' : folder}`;
  lines.push('', `Next: ${colour.cyan(pack)}   ${colour.dim(`builds ${result.zipName}`)}`, '');
  return lines.join('\n');
}

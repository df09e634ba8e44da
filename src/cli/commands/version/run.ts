import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { Chalk } from 'chalk';
import { CONFIG_FILE } from '../../../core/config/file-name.js';
import { loadProjectConfig, type LoadedConfig } from '../../../core/config/load-config.js';
import { TOOL_FOLDER } from '../../../core/init/plan.js';
import { shownPath } from '../../../core/shown-path.js';
import { MANIFEST_PATH } from '../../../core/paths.js';
import { bumpVersion, type BumpResult } from '../../../core/release/bump-version.js';
import { EXIT } from '../../exit-codes.js';
import { useColour, type CliIo } from '../../io.js';
import type { VersionFlags } from './command.js';

/** Where a framework project made by `init` keeps manifest.json: Vite copies it from there into the build. */
const PUBLIC_FOLDER = 'public';

export async function runVersion(release: string, dir: string | undefined, flags: VersionFlags, io: CliIo): Promise<number> {
  const { folder, project } = await toolFolder(dir, io.cwd);
  const result = await bumpVersion(folder, release.trim(), { force: flags.force, cwd: io.cwd });
  // With a project file, pack writes into its "out": name the zip there.
  const out = project?.config.out === undefined ? undefined : path.resolve(project.root, project.config.out);
  io.stdout(summary(result, io, out));
  return EXIT.ok;
}

/**
 * The tool folder, found as dev, pack and validate find it: a project folder given is its
 * `source`; with no folder, the project file's `source` from anywhere in the project; else the
 * current folder when it holds a manifest, or its src/ (the layout `init` creates). A framework
 * project's `source` is its build output, whose manifest.json Vite copies from public/: there the
 * version is raised in public/manifest.json, the file the author keeps.
 */
async function toolFolder(dir: string | undefined, cwd: string): Promise<{ folder: string; project?: LoadedConfig }> {
  const show = (file: string) => shownPath(file, cwd);
  const sourceOf = async (project: LoadedConfig) => {
    const kept = path.join(project.root, PUBLIC_FOLDER);
    const folder = (await isFile(path.join(kept, MANIFEST_PATH))) ? kept : path.resolve(project.root, project.config.source ?? '.');
    return { folder: show(folder), project };
  };
  if (dir !== undefined) {
    const own = path.join(path.resolve(cwd, dir), CONFIG_FILE);
    const project = (await isFile(own)) ? await loadProjectConfig(cwd, show(own), show) : undefined;
    return project ? sourceOf(project) : { folder: dir };
  }
  const project = await loadProjectConfig(cwd, undefined, show);
  if (project) return sourceOf(project);
  const here = await lstat(path.join(cwd, MANIFEST_PATH)).catch(() => undefined);
  if (here) return { folder: '.' };
  return { folder: (await isFile(path.join(cwd, TOOL_FOLDER, MANIFEST_PATH))) ? TOOL_FOLDER : '.' };
}

async function isFile(file: string): Promise<boolean> {
  return (await lstat(file).catch(() => undefined))?.isFile() ?? false;
}

function summary(result: BumpResult, io: CliIo, out: string | undefined): string {
  const colour = new Chalk({ level: useColour(io, io.stdoutIsTTY) ? 1 : 0 });
  const show = (file: string) => shownPath(file, io.cwd);
  const changes = [result.manifest, ...(result.packageJson ? [result.packageJson] : [])];
  const width = Math.max(...changes.map((change) => show(change.file).length));
  const lines = changes.map((change) => `${colour.green('✔')} ${show(change.file).padEnd(width)}  ${change.from} → ${colour.bold(change.to)}`);
  const folder = show(result.folder);
  const pack = result.scripts['pack'] !== undefined ? 'npm run pack' : `npx pipeline-tool pack ${folder}`;
  const zip = out === undefined ? result.zipName : show(path.join(out, result.zipName));
  lines.push('', `Next: ${colour.cyan(pack)}   ${colour.dim(`builds ${zip}`)}`, '');
  return lines.join('\n');
}

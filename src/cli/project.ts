import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { CONFIG_FILE } from '../core/config/file-name.js';
import { requireManifestHere, requireNoProjectsInside } from '../core/pack/manifest-elsewhere.js';
import { findConfigFile, loadProjectConfig, type LoadedConfig } from '../core/config/load-config.js';
import { withRuleFlags, type RuleOverride } from '../core/config/settings.js';
import { MANIFEST_PATH } from '../core/paths.js';
import type { RuleSetting } from '../core/validate.js';
import { UsageError } from './errors.js';
import type { CliIo } from './io.js';
import { parseRuleFlags } from './rule-flags.js';
import { shownPath } from '../core/shown-path.js';

export { shownPath };

/** What a command acts on, and the rule settings it applies there. */
export interface Target {
  /** Absolute path of the tool folder or bundle. */
  path: string;
  /** As messages and reports show it: relative to the working folder (see {@link shownPath}). */
  shown: string;
  /** The project file in force, if any. */
  project?: LoadedConfig;
  rules: Record<string, RuleSetting>;
  overrides: RuleOverride[];
}

type Command = 'validate' | 'pack' | 'dev';

interface TargetFlags {
  config?: string;
  rule?: string[];
}

/**
 * Decides what a command acts on, and which project file applies there.
 *
 * - No path: the project file found from the working folder upward, and its `source`; without
 *   one, the working folder itself (a usage error when it plainly is not the tool folder: its
 *   tool is one level down, or it holds several projects).
 * - A folder that holds a project file: that project, exactly as when the command runs inside
 *   it (its `source`, its `out`, its rules).
 * - Any other path: that path, with the project file found from it upward, so a project's rules
 *   follow its folders and zips wherever the command is run from.
 *
 * `--config` names the project file instead, for every path. With `buildOutput`, the tool folder
 * is one a build writes (`dev --url`), which may not exist yet.
 */
export async function resolveTarget(
  given: string | undefined,
  flags: TargetFlags,
  io: CliIo,
  command: Command,
  options: { buildOutput?: boolean; projects?: ProjectFiles } = {},
): Promise<Target> {
  const ruleFlags = parseRuleFlags(flags.rule ?? []);
  const show = (file: string) => shownPath(file, io.cwd);
  const projects = options.projects ?? new Map();
  const load = (file: string | undefined) => {
    const key = file ?? '';
    let loaded = projects.get(key);
    if (loaded === undefined) projects.set(key, (loaded = loadProjectConfig(io.cwd, file, show)));
    return loaded;
  };
  const explicit = flags.config === undefined ? undefined : await load(flags.config);
  const target = await locate(given, explicit, io.cwd, command, options.buildOutput ?? false, load);
  const project = target.project;
  const settings = withRuleFlags(project?.config.rules ?? {}, project?.config.overrides ?? [], ruleFlags);
  return { path: target.path, shown: show(target.path), ...(project ? { project } : {}), ...settings };
}

/**
 * The targets of a command that takes several paths (`validate a.zip b.zip dist/`): each path as
 * {@link resolveTarget} decides it, except that a folder with neither a project file nor a
 * manifest.json but with .zip files at its top stands for those zips (a release folder). All
 * are resolved before any is checked, so a mistyped path stops the run at once. The same target
 * named twice, by any path or link, is checked once.
 */
export async function resolveTargets(given: readonly string[], flags: TargetFlags, io: CliIo, command: Command): Promise<Targets> {
  if (given.length === 0) return { targets: [await resolveTarget(undefined, flags, io, command)], several: false };
  const paths: string[] = [];
  let expanded = false;
  for (const each of given) {
    const absolute = path.resolve(io.cwd, each);
    if (!(await exists(absolute))) throw new UsageError(`${each} does not exist. Give the path of a tool folder, a project folder or a .zip bundle.`);
    const zips = await zipsInReleaseFolder(absolute);
    expanded ||= zips.length > 0;
    paths.push(...(zips.length > 0 ? zips : [absolute]));
  }
  const targets: Target[] = [];
  // The zips of a release folder share their project file: it is read once for all of them.
  const projects: ProjectFiles = new Map();
  // The same bundle under two names (`t`, `./t/`, a link to it) is one bundle.
  const seen = new Set<string>();
  for (const each of paths) {
    const target = await resolveTarget(each, flags, io, command, { projects });
    const real = await realpath(target.path).catch(() => target.path);
    if (!seen.has(real)) targets.push(target);
    seen.add(real);
  }
  return { targets, several: given.length > 1 || expanded };
}

export interface Targets {
  targets: Target[];
  /**
   * True when the command line asked for a set (several paths, or a folder of zips), however many
   * targets that came to: the output's shape follows what was asked, never what was found.
   */
  several: boolean;
}

interface Located {
  path: string;
  project?: LoadedConfig;
}

/** Project files read in one resolution, by the name they were asked for ('' for the search from the working folder). */
type ProjectFiles = Map<string, Promise<LoadedConfig | undefined>>;

async function locate(
  given: string | undefined,
  explicit: LoadedConfig | undefined,
  cwd: string,
  command: Command,
  buildOutput: boolean,
  load: (file: string | undefined) => Promise<LoadedConfig | undefined>,
): Promise<Located> {
  const show = (file: string) => shownPath(file, cwd);
  if (given === undefined) {
    const project = explicit ?? (await load(undefined));
    if (project) return { path: await sourceOf(project, cwd, command, buildOutput), project };
    await requireManifestHere(cwd, '.', command);
    return { path: cwd };
  }
  const absolute = path.resolve(cwd, given);
  if (explicit) return { path: absolute, project: explicit };
  const folder = await isFolder(absolute);
  const own = folder ? path.join(absolute, CONFIG_FILE) : undefined;
  if (own !== undefined && (await exists(own))) {
    const project = (await load(show(own)))!;
    return { path: await sourceOf(project, cwd, command, buildOutput), project };
  }
  if (folder && !(await isFile(path.join(absolute, MANIFEST_PATH)))) {
    // validate reports a tool one level down as a problem of the folder (manifest-missing says
    // where it is); pack and dev cannot act on such a folder at all.
    if (command === 'validate') await requireNoProjectsInside(absolute, show(absolute), command);
    else await requireManifestHere(absolute, show(absolute), command);
  }
  const found = await findConfigFile(folder ? absolute : path.dirname(absolute));
  const project = found === undefined ? undefined : await load(show(found));
  return { path: absolute, ...(project ? { project } : {}) };
}

/** The project's tool folder, as it names it: its `source`, or the project file's own folder. */
export function toolFolderOf(project: LoadedConfig): string {
  return path.resolve(project.root, project.config.source ?? '.');
}

/** The project's tool folder ({@link toolFolderOf}), which must be there unless a build is to write it. */
async function sourceOf(project: LoadedConfig, cwd: string, command: Command, buildOutput: boolean): Promise<string> {
  const source = toolFolderOf(project);
  if (project.config.source === undefined || buildOutput || (await isFolder(source))) return source;
  const named = `${shownPath(project.file, cwd)} names "${project.config.source}" as "source"`;
  const present = await exists(source);
  const build = present ? undefined : await buildCommandOf(project.root);
  if (build === undefined) {
    throw new UsageError(`${named}, but ${shownPath(source, cwd)} ${present ? 'is not a folder' : 'does not exist'}. Correct "source", or give the tool folder on the command line.`);
  }
  // A build's output folder before the first build: the answer is to build, not to change "source".
  const missing = `${shownPath(source, cwd)} is not built yet (${named}, the folder the build writes).`;
  if (command === 'dev') {
    throw new UsageError(`${missing} To work on the tool, run \`${build.dev}\`: Vite serves it inside the emulated host and reloads as you save. To serve a build instead, run \`${build.build}\` first.`);
  }
  throw new UsageError(`${missing} Build first with \`${build.build}\`, then run pipeline-tool ${command} again.`);
}

/**
 * How a project builds its tool folder and serves it while working, as its author would type
 * it: the package.json scripts, else Vite's own command where a Vite config is there.
 */
async function buildCommandOf(root: string): Promise<{ build: string; dev: string } | undefined> {
  let scripts: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts?: unknown };
    if (typeof parsed.scripts === 'object' && parsed.scripts !== null) scripts = parsed.scripts as Record<string, unknown>;
  } catch {
    // No package.json, or one that cannot be read: look for a Vite config alone.
  }
  const vite = (await readdir(root).catch(() => [] as string[])).some((name) => /^vite\.config\.[cm]?[jt]s$/.test(name));
  const hasBuild = typeof scripts['build'] === 'string';
  if (!hasBuild && !vite) return undefined;
  return { build: hasBuild ? 'npm run build' : 'npx vite build', dev: typeof scripts['dev'] === 'string' ? 'npm run dev' : 'npx vite' };
}

/** The .zip files at the top of a folder that is neither a project nor a tool folder, sorted. */
async function zipsInReleaseFolder(folder: string): Promise<string[]> {
  if (!(await isFolder(folder))) return [];
  if ((await exists(path.join(folder, CONFIG_FILE))) || (await exists(path.join(folder, MANIFEST_PATH)))) return [];
  const children = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return children
    .filter((child) => child.isFile() && child.name.toLowerCase().endsWith('.zip') && !child.name.startsWith('.'))
    .map((child) => path.join(folder, child.name))
    .sort();
}

export async function isFolder(folder: string): Promise<boolean> {
  return stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

async function isFile(file: string): Promise<boolean> {
  return lstat(file).then(
    (info) => info.isFile(),
    () => false,
  );
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

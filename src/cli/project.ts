import { stat } from 'node:fs/promises';
import path from 'node:path';
import { requireManifestHere } from '../core/pack/manifest-elsewhere.js';
import { loadProjectConfig, type LoadedConfig } from '../core/config/load-config.js';
import { withRuleFlags, type RuleOverride } from '../core/config/settings.js';
import type { RuleSetting } from '../core/validate.js';
import { UsageError } from './errors.js';
import type { CliIo } from './io.js';
import { parseRuleFlags } from './rule-flags.js';

/** What a command acts on, and the rule settings it applies there. */
export interface Target {
  /** Absolute path of the tool folder or bundle. */
  path: string;
  /** As messages and reports show it: as typed, or relative to the working folder. */
  shown: string;
  /** The project file in force, if any. */
  project?: LoadedConfig;
  rules: Record<string, RuleSetting>;
  overrides: RuleOverride[];
}

/**
 * Finds the project file and decides the target: the path given on the command line; else the
 * project file's `source` (or, without one, the file's own folder); else the working folder.
 * With no path and no project file, a working folder without manifest.json whose subfolder has one
 * is a usage error naming that folder, for every command alike. With `buildOutput`, the target is
 * a folder a build writes (`dev --url`), which may not exist yet.
 */
export async function resolveTarget(
  given: string | undefined,
  flags: { config?: string; rule?: string[] },
  io: CliIo,
  command: 'validate' | 'pack' | 'dev',
  options: { buildOutput?: boolean } = {},
): Promise<Target> {
  const ruleFlags = parseRuleFlags(flags.rule ?? []);
  const project = await loadProjectConfig(io.cwd, flags.config, (file) => shownPath(file, io.cwd));
  const settings = withRuleFlags(project?.config.rules ?? {}, project?.config.overrides ?? [], ruleFlags);
  let target: string;
  if (given !== undefined) target = path.resolve(io.cwd, given);
  else if (project) {
    target = path.resolve(project.root, project.config.source ?? '.');
    if (project.config.source !== undefined && !options.buildOutput && !(await isFolder(target))) {
      throw new UsageError(`${shownPath(project.file, io.cwd)} names "${project.config.source}" as "source", but ${shownPath(target, io.cwd)} is not a folder. Correct "source", or give the tool folder on the command line.`);
    }
  } else {
    target = io.cwd;
    await requireManifestHere(target, '.', command);
  }
  return { path: target, shown: given ?? shownPath(target, io.cwd), ...(project ? { project } : {}), ...settings };
}

/** A path relative to the working folder ("." for the folder itself), or absolute when that reads better. */
export function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  if (relative === '') return '.';
  return path.isAbsolute(relative) || relative.split(path.sep).filter((part) => part === '..').length > 2 ? file : relative;
}

async function isFolder(folder: string): Promise<boolean> {
  return stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DevEnvironment, Logger } from 'vite';
import { libraryLines } from '../core/library-summary.js';
import type { checkServedModule, ServedProblem } from '../core/served/check-module.js';
import type { ProjectSettings } from './project.js';
import { placeText } from '../core/place-text.js';

/*
 * Every module Vite serves to the tool, checked by validate's code rules as Vite served it and
 * placed through its map at the author's line (core/served/check-module.ts), so that mistakes show
 * while the author works, without a build. As vite-plugin-checker does, nothing waits for a check:
 * the transform hook only notes which module was served, and the checks run once the server is
 * idle, one module at a time, each served version of a module once.
 */

/** What the checks found in every module served so far, in file order. */
export interface ServedCheckResult {
  problems: ServedProblem[];
  /** How many modules have been checked. */
  modules: number;
}

export interface ServedChecksOptions {
  environment: () => DevEnvironment | undefined;
  /** Vite's root: the folder it serves. */
  folder: string;
  project: Promise<ProjectSettings>;
  /** The tool's manifest.json, read again at each round of checks. */
  manifestFile: string;
  logger: Logger;
  /** Told after each round of checks that changed what was found. */
  onResult: (result: ServedCheckResult) => void;
  /** Told of each new error, with its file's absolute path, for Vite's error overlay. */
  onError?: (problem: ServedProblem, file: string | undefined) => void;
}

export interface ServedChecks {
  /** The module with this id (resolved id, as the transform hook has it) was served again. */
  served(id: string): void;
  /** Settles once every module noted so far has been checked. */
  idle(): Promise<void>;
}

const PREFIX = '[pipeline-tool]';

interface Checked {
  path: string;
  code: string;
  problems: ServedProblem[];
}

export function createServedChecks(options: ServedChecksOptions): ServedChecks {
  const pending = new Set<string>();
  const checked = new Map<string, Checked>();
  // The round of checks to come, once Vite has answered; the rounds run one after another.
  let next: Promise<void> | undefined;
  let running: Promise<void> = Promise.resolve();
  // The library lines the terminal was told, by package: each is said again only when it changes.
  const told = new Map<string, string>();
  // Loaded with the first check: the rules are not needed to start the server.
  let check: Promise<{ checkServedModule: typeof checkServedModule }> | undefined;

  const round = async () => {
    const ids = [...pending];
    pending.clear();
    const environment = options.environment();
    if (environment === undefined) return;
    const [project, manifest, { checkServedModule }] = await Promise.all([
      options.project,
      readFile(options.manifestFile).catch(() => undefined),
      (check ??= import('../core/served/check-module.js')),
    ]);
    const changed: Checked[] = [];
    const before = new Map<string, ServedProblem[]>();
    for (const id of ids) {
      const module = environment.moduleGraph.getModuleById(id);
      const shown = module === undefined || module.type !== 'js' ? undefined : servedPath(module.url);
      if (module === undefined || shown === undefined) continue;
      // The request that served the module, or its result: nothing is transformed twice.
      const result = await environment.transformRequest(module.url).catch(() => null);
      if (result === null) continue;
      const previous = checked.get(module.url);
      if (previous?.code === result.code) continue;
      // Requests that came meanwhile go first.
      if (changed.length > 0) await new Promise((resolve) => setImmediate(resolve));
      const problems = await checkServedModule(
        { path: shown, code: result.code, ...(result.map === null ? {} : { map: result.map }) },
        { folder: options.folder, root: project.root, rules: project.rules, overrides: project.overrides, ...(manifest === undefined ? {} : { manifest }) },
      ).catch((error: unknown) => {
        options.logger.error(`${PREFIX} could not check ${shown}: ${error instanceof Error ? error.message : String(error)}`);
        return previous?.problems ?? [];
      });
      const entry = { path: shown, code: result.code, problems };
      before.set(module.url, previous?.problems ?? []);
      checked.set(module.url, entry);
      changed.push(entry);
    }
    // A module Vite no longer has (its file deleted, its importer gone) no longer runs.
    let pruned = false;
    for (const url of checked.keys()) {
      if (environment.moduleGraph.urlToModuleMap.has(url)) continue;
      checked.delete(url);
      pruned = true;
    }
    if (changed.length === 0 && !pruned) return;
    // Placed problems are named from the project's folder, as validate names them; others from Vite's root.
    const absolute = (problem: ServedProblem) => (problem.file === undefined ? undefined : path.resolve(problem.served ? project.root : options.folder, problem.file));
    for (const [url, problems] of before) tellOfChanges(problems, checked.get(url)?.problems ?? [], options, absolute);
    const problems = [...checked.values()].flatMap((entry) => entry.problems).sort(byPlace);
    tellOfLibraries(problems, told, options);
    options.onResult({ problems, modules: checked.size });
  };

  return {
    served(id) {
      pending.add(id);
      // After the hook has returned: the check reads what Vite sends, once it is made.
      next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        next = undefined;
        running = running.then(round).catch((error: unknown) => options.logger.error(`${PREFIX} checking served modules failed: ${error instanceof Error ? error.message : String(error)}`));
        return running;
      });
    },
    async idle() {
      while (next !== undefined || pending.size > 0) await (next ?? running);
      await running;
    },
  };
}

/**
 * A module's path as served, relative to Vite's root (`src/App.tsx`), without its query;
 * undefined for a module outside the root (`/@fs/…`) or of no file (`/@id/…`, `/@vite/client`).
 */
export function servedPath(url: string): string | undefined {
  if (!url.startsWith('/') || url.startsWith('/@')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.slice(1).replace(/[?#].*$/s, ''));
  } catch {
    return undefined;
  }
  // An empty path normalizes to ".".
  const normal = path.posix.normalize(decoded);
  return normal === '.' || normal === '..' || normal.startsWith('../') ? undefined : normal;
}

const keyOf = (problem: ServedProblem) => JSON.stringify([problem.ruleId, problem.file, problem.line, problem.column, problem.message]);

/**
 * Tells the terminal what a module's new check found that the last did not, and that a module's
 * findings went away. Library code's warnings are summed up per package instead (tellOfLibraries).
 */
export function tellOfChanges(
  before: readonly ServedProblem[],
  after: readonly ServedProblem[],
  options: Pick<ServedChecksOptions, 'logger' | 'onError'>,
  absolute: (problem: ServedProblem) => string | undefined,
): void {
  const known = new Set(before.map(keyOf));
  for (const problem of after) {
    if (known.has(keyOf(problem)) || problem.library) continue;
    const line = `${PREFIX} ${describeServedProblem(problem)}`;
    if (problem.severity === 'error') {
      options.logger.error(line);
      options.onError?.(problem, absolute(problem));
    } else options.logger.warn(line);
  }
  const left = new Set(after.map(keyOf));
  const gone = before.filter((problem) => !left.has(keyOf(problem)) && !problem.library);
  if (gone.length > 0) options.logger.info(`${PREFIX} ${[...new Set(gone.map(placeOf))].join(', ')}: ${gone.length === 1 ? `${gone[0]!.ruleId} is gone` : `${gone.length} findings are gone`}.`);
}

/**
 * Library warnings, one line per package as validate, pack and the Vite build print them, said once:
 * again only when what a package's line says changes. The host page's panel lists them.
 */
export function tellOfLibraries(problems: readonly ServedProblem[], told: Map<string, string>, options: Pick<ServedChecksOptions, 'logger'>): void {
  const now = new Set<string>();
  for (const line of libraryLines(problems, "the host page's findings panel lists them")) {
    now.add(line.name);
    if (told.get(line.name) === line.summary) continue;
    told.set(line.name, line.summary);
    options.logger.warn(`${PREFIX} ${line.name}: ${line.summary}`);
  }
  for (const name of told.keys()) if (!now.has(name)) told.delete(name);
}

const placeOf = (problem: ServedProblem) => placeText(problem.file ?? '', problem.line, problem.column);

/** One line: `src/App.tsx:26:5: <message> (browser-storage, served: src/App.tsx:30:7)`. */
export function describeServedProblem(problem: ServedProblem): string {
  const served = problem.served === undefined ? '' : `, served: ${placeText(problem.served.file, problem.served.line, problem.served.column)}`;
  return `${placeOf(problem)}: ${problem.message} (${problem.ruleId}${served})`;
}

/** By file (those without one first), then line, then column. */
export function byPlace(a: ServedProblem, b: ServedProblem): number {
  const fa = a.file ?? '';
  const fb = b.file ?? '';
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}

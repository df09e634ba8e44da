import path from 'node:path';
import type { Plugin, ResolvedConfig, UserConfig } from 'vite';
import type { Problem, Report } from '../core/problem.js';
import { openBundleToCheck } from '../core/bundle/open-bundle.js';
import { limitsOf, sizeLine } from '../core/report/limits.js';
import { validateBundle } from '../core/validate.js';
import { libraryLines, splitLibraryWarnings } from '../core/library-summary.js';
import { toClassicScripts } from './classic-scripts.js';
import { BuildFailure, failBuild, type Failure } from './failure.js';
import { readProjectSettings, type ProjectSettings } from './project.js';
import { placeText } from '../core/place-text.js';

/*
 * `vite build`: output the marketplace accepts, then the built folder checked with the same rules
 * `pipeline-tool validate` applies, its findings shown as Vite shows warnings and errors. A build
 * with errors fails.
 */

const PREFIX = '[pipeline-tool]';

export function buildPlugin(validate: boolean, verbose: boolean, failure: Failure): Plugin {
  let config: ResolvedConfig;
  let project: ProjectSettings;
  return {
    name: 'pipeline-tool:build',
    apply: 'build',
    config: (user) => buildDefaults(user),
    async configResolved(resolved) {
      config = resolved;
      project = await readProjectSettings(resolved.root);
      checkBase(resolved);
      warnOfOtherSource(resolved, project);
    },
    transformIndexHtml: { order: 'post', handler: toClassicScripts },
    async writeBundle(output) {
      // A build that already failed (a refused asset) wrote nothing to check.
      if (failure.failure) return;
      const folder = output.dir ?? path.resolve(config.root, config.build.outDir);
      const shown: Shown = { root: config.root, folder: fromRoot(config.root, folder), sourceRoot: project.root };
      // The folder as pack would zip it, its zip measured while the rules read it.
      const source = await openBundleToCheck(folder);
      let report: Report | undefined;
      try {
        // Placed through the maps written beside the bundle, and named from the project's folder, as validate names them.
        if (validate) report = await validateBundle(source, { rules: project.rules, overrides: project.overrides, sourceMaps: { root: project.root } });
        config.logger.info(`${PREFIX} ${shown.folder}/: ${sizeLine(await limitsOf(source))}`);
      } finally {
        await source.close();
      }
      if (!report) return;
      // Library code's warnings are summed up per package, as validate's text output sums them.
      const warnings = report.problems.filter((p) => p.severity === 'warning');
      const { listed } = splitLibraryWarnings(warnings, verbose);
      for (const problem of listed) this.warn(`${PREFIX} ${describeProblem(problem, shown)}`);
      if (!verbose) for (const line of libraryLines(warnings, 'the verbose option of pipeline-tool/vite lists them')) this.warn(`${PREFIX} ${line.name}: ${line.summary}`);
      if (report.errorCount > 0) {
        failBuild(failure, this, describeErrors(report, shown));
        return;
      }
      config.logger.info(`${PREFIX} ${shown.folder}/ passes pipeline-tool validate${report.warningCount === 0 ? '' : ` with ${plural(report.warningCount, 'warning')}`}.`);
    },
  };
}

/** What `import.meta.url` reads in the classic script: the script's own address, taken as it starts. */
const SCRIPT_URL = '__pipelineToolScriptUrl';
const SCRIPT_URL_INTRO = `var ${SCRIPT_URL} = document.currentScript && document.currentScript.src || document.baseURI;`;

/**
 * What the marketplace needs of a build, unless the author chose otherwise where that is safe:
 * a relative base (the bundle is served from an address nobody knows in advance), source maps
 * beside the bundle for placing findings but named nowhere in it (they never ship), and one
 * classic script (see classic-scripts.ts) with its stylesheet in a file of its own. A classic
 * script has no `import.meta`, so `import.meta.url` becomes the script's address, as Rollup's
 * own polyfill makes it, and `import.meta.resolve` is undefined; Vite's code for dynamic imports reads both.
 */
function buildDefaults(user: UserConfig): UserConfig {
  const sourcemap = user.build?.sourcemap;
  const output = user.build?.rolldownOptions?.output;
  const intro = output !== undefined && !Array.isArray(output) && typeof output.intro === 'string' ? `${SCRIPT_URL_INTRO}\n${output.intro}` : SCRIPT_URL_INTRO;
  return {
    ...(user.base === undefined ? { base: './' } : {}),
    build: {
      // Vite's advice past 500 kB is to split with import(), which a one-script build cannot take;
      // the size that means something here is the marketplace's 10,000,000-byte zip, which validate checks.
      ...(user.build?.chunkSizeWarningLimit === undefined ? { chunkSizeWarningLimit: 10_000 } : {}),
      sourcemap: sourcemap === false ? false : 'hidden',
      cssCodeSplit: false,
      modulePreload: false,
      rolldownOptions: {
        transform: { define: { 'import.meta.url': SCRIPT_URL, 'import.meta.resolve': 'undefined' } },
        output: { format: 'iife', codeSplitting: false, intro },
      },
    },
  };
}

/** Vite resolves an empty base to "./" as well. */
function checkBase(config: ResolvedConfig): void {
  if (config.base === './') return;
  throw new BuildFailure(
    `${PREFIX} base is "${config.base}", but a tool's files are served from an address nobody knows in advance, so every path must be relative. Remove base from the Vite config, or set it to "./".`,
  );
}

/** validate and pack act on the project file's `source`: a build elsewhere would never reach them. */
function warnOfOtherSource(config: ResolvedConfig, project: ProjectSettings): void {
  const outDir = path.resolve(config.root, config.build.outDir);
  if (project.source === null || project.file === null || project.source === outDir) return;
  const relative = (to: string) => fromRoot(project.root, to);
  config.logger.warn(
    `${PREFIX} ${path.basename(project.file)} names "${relative(project.source)}" as the tool folder, but Vite builds into ${relative(outDir)}, so pipeline-tool validate and pack would not see this build. Set "source": "${relative(outDir)}".`,
  );
}

/** How paths are shown: from Vite's root, as Vite shows its own. */
interface Shown {
  root: string;
  /** The built folder, from Vite's root. */
  folder: string;
  /** What placed findings' paths are relative to: the project's folder. */
  sourceRoot: string;
}

const fromRoot = (root: string, file: string) => path.relative(root, file).split(path.sep).join('/') || '.';

/**
 * One finding on one line, its file shown from Vite's root: a file of the built folder as
 * `dist/assets/…`; a finding placed at the author's source at its source, `src/App.tsx`, with its
 * place in the build after the rule.
 */
function describeProblem(problem: Problem, shown: Shown): string {
  const file =
    problem.file === undefined ? shown.folder : problem.built !== undefined ? fromRoot(shown.root, path.resolve(shown.sourceRoot, problem.file)) : `${shown.folder}/${problem.file}`;
  const built = problem.built === undefined ? '' : `, built: ${placeText(`${shown.folder}/${problem.built.file}`, problem.built.line, problem.built.column)}`;
  return `${placeText(file, problem.line, problem.column)}: ${problem.message} (${problem.ruleId}${built})`;
}

function describeErrors(report: Report, shown: Shown): string {
  const errors = report.problems.filter((problem) => problem.severity === 'error');
  return `${PREFIX} ${shown.folder}/ would be refused: ${plural(errors.length, 'error')} from pipeline-tool validate.\n${errors.map((problem) => `  ${describeProblem(problem, shown)}`).join('\n')}\nRun pipeline-tool rules <id> to learn about a rule.`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

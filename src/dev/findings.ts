import { realpathSync } from 'node:fs';
import path from 'node:path';
import { openShippedFolder, type ShippedSource } from '../core/shipment/shipment.js';
import { SERVED_RULE_IDS } from '../core/code/rule-ids.js';
import { libraryLines, type LibraryLine } from '../core/library-summary.js';
import { summarise, type Report } from '../core/problem.js';
import { limitsOf, sizeLine, type BundleLimits } from '../core/report/limits.js';
import type { ServedProblem } from '../core/served/check-module.js';
import { validateBundle, type ValidateOptions } from '../core/validate.js';
import { leavesFolder } from '../core/relative-path.js';

/**
 * The validation report of the tool folder, with what its zip would use of each marketplace limit
 * (and that as the one line builds print), or why it could not be made; with `served`, what the
 * code rules find in the modules another dev server serves (the Vite plugin checks each as it is
 * served), and the report then holds only what waits for a build.
 */
export type Findings = ({ ok: true; report: Report; limits: BundleLimits; sizeLine: string; library?: LibraryLine[] } | { ok: false; message: string }) & { served?: ServedFindings };

type FindingSettings = Pick<ValidateOptions, 'rules' | 'overrides' | 'sourceMaps'>;

/** What the code rules found in the modules served so far (src/core/served/check-module.ts). */
export interface ServedFindings {
  problems: ServedProblem[];
  /** How many modules were checked. */
  modules: number;
  /** The rules checked as served; their findings in the build's report are left out, as the served code is newer. */
  ruleIds: readonly string[];
  /** The library warnings among the problems, summed up per package as validate sums them. */
  library?: LibraryLine<ServedProblem>[];
}

/** Where the panel lists the warnings that a library line sums up. */
const PANEL_LISTS = 'the line opens to list them';

/**
 * The build's findings with the served modules' beside them, as the panel shows them. The served
 * code is what runs now, so the build's findings of the rules checked as served are left out: a
 * mistake fixed since the build goes away at once, and one made since shows without a build.
 * Library warnings are summed up per package (`library`), as validate, pack and the Vite build say
 * them; the panel lists them when the line is opened.
 */
export function withServedFindings(findings: Findings, served: Omit<ServedFindings, 'ruleIds'> | null): Findings {
  const full: ServedFindings | undefined = served === null ? undefined : { ...served, ruleIds: SERVED_RULE_IDS, library: libraryLines(served.problems, PANEL_LISTS) };
  const withServed = full === undefined ? {} : { served: full };
  if (!findings.ok) return { ...findings, ...withServed };
  const { report } = findings;
  const current = full === undefined ? report : { ...report, ...summarise(report.bundle, report.kind, report.problems.filter((problem) => !SERVED_RULE_IDS.includes(problem.ruleId))) };
  return { ...findings, report: current, library: libraryLines(current.problems, PANEL_LISTS), ...withServed };
}

/**
 * Validates the tool folder exactly as `pipeline-tool validate` does (the files pack would ship,
 * with the zip's size), except that the dev server's own state folder is passed over, wherever it
 * is, and the --fixtures file is left out as fixtures even without its `$schema`. Rule settings are
 * the project file's, as validate applies them, and findings in built files are placed at the
 * author's source through their source maps, as validate places them.
 */
export async function collectFindings(
  root: string,
  stateFolder: string | null,
  fixturesFile: string | null = null,
  settings: FindingSettings = {},
): Promise<Findings> {
  try {
    const source = await openTool(root, stateFolder, fixturesFile);
    try {
      const report = await validateBundle(source, settings);
      const limits = await limitsOf(source);
      return { ok: true, report, limits, sizeLine: sizeLine(limits) };
    } finally {
      await source.close();
    }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The bundle report page (as `pack --report` writes it) of the tool folder as collectFindings
 * checks it; made when asked for, since reading every source map is more than a rebuild needs.
 * Throws what opening the folder throws.
 */
export async function renderToolReport(root: string, stateFolder: string | null, fixturesFile: string | null, settings: FindingSettings = {}): Promise<string> {
  const source = await openTool(root, stateFolder, fixturesFile);
  try {
    const report = await validateBundle(source, settings);
    const { reportBundle } = await import('../core/report/bundle-report.js');
    const { renderReportPage } = await import('../report-page/render.js');
    const sourceMaps = settings.sourceMaps === false ? false : { ...settings.sourceMaps };
    return renderReportPage(await reportBundle(source, { sourceMaps, problems: report.problems }), { title: path.basename(root) });
  } finally {
    await source.close();
  }
}

/**
 * The folder as pack would ship it, its zip measured while it is read, with the dev server's own
 * state folder passed over, wherever it is, and the --fixtures file left out as fixtures even
 * without its `$schema`: both are left out as the folder is walked, neither listed nor read.
 */
function openTool(root: string, stateFolder: string | null, fixturesFile: string | null): Promise<ShippedSource> {
  const relative = inside(root, stateFolder);
  const hidden = relative === null ? null : `${relative}/`;
  const fixtures = inside(root, fixturesFile);
  return openShippedFolder(root, {
    ...(hidden === null ? {} : { omit: (entryPath: string) => entryPath === hidden }),
    ...(fixtures === null ? {} : { fixtures: [fixtures] }),
    measure: 'alongside',
  });
}

/**
 * `target` as a slash-separated path inside `root`, or null when it is not inside. The root is the
 * real path; the target is made real too where it exists, so a link on the way (macOS's /tmp)
 * does not hide that it is inside.
 */
function inside(root: string, target: string | null): string | null {
  if (target === null) return null;
  let real = path.resolve(target);
  try {
    real = realpathSync(real);
  } catch {
    // Not there (yet): compare the path as given.
  }
  const relative = path.relative(path.resolve(root), real).split(path.sep).join('/');
  return relative !== '' && !leavesFolder(relative) ? relative : null;
}

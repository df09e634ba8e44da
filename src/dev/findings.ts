import { realpathSync } from 'node:fs';
import path from 'node:path';
import { openShippedFolder } from '../core/pack/shipment.js';
import { SERVED_RULE_IDS } from '../core/code/rule-ids.js';
import { summarise, type Report } from '../core/problem.js';
import type { ServedProblem } from '../core/served/check-module.js';
import { validateBundle, type ValidateOptions } from '../core/validate.js';

/**
 * The validation report of the tool folder, or why it could not be made; with `served`, what the
 * code rules find in the modules another dev server serves (the Vite plugin checks each as it is
 * served), and the report then holds only what waits for a build.
 */
export type Findings = ({ ok: true; report: Report } | { ok: false; message: string }) & { served?: ServedFindings };

/** What the code rules found in the modules served so far (src/core/served/check-module.ts). */
export interface ServedFindings {
  problems: ServedProblem[];
  /** How many modules were checked. */
  modules: number;
  /** The rules checked as served; their findings in the build's report are left out, as the served code is newer. */
  ruleIds: readonly string[];
}

/**
 * The build's findings with the served modules' beside them. The served code is what runs now, so
 * the build's findings of the rules checked as served are left out: a mistake fixed since the build
 * goes away at once, and one made since shows without a build.
 */
export function withServedFindings(findings: Findings, served: Omit<ServedFindings, 'ruleIds'> | null): Findings {
  if (served === null) return findings;
  const full: ServedFindings = { ...served, ruleIds: SERVED_RULE_IDS };
  if (!findings.ok) return { ...findings, served: full };
  const { report } = findings;
  const kept = summarise(report.bundle, report.kind, report.problems.filter((problem) => !SERVED_RULE_IDS.includes(problem.ruleId)));
  return { ...findings, report: { ...report, ...kept }, served: full };
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
  settings: Pick<ValidateOptions, 'rules' | 'overrides' | 'sourceMaps'> = {},
): Promise<Findings> {
  try {
    const relative = inside(root, stateFolder);
    const hidden = relative === null ? null : `${relative}/`;
    const fixtures = inside(root, fixturesFile);
    // Left out as the folder is walked: neither listed nor read.
    const source = await openShippedFolder(root, {
      ...(hidden === null ? {} : { omit: (entryPath: string) => entryPath === hidden }),
      ...(fixtures === null ? {} : { fixtures: [fixtures] }),
      measure: 'alongside',
    });
    try {
      return { ok: true, report: await validateBundle(source, settings) };
    } finally {
      await source.close();
    }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
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
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : null;
}

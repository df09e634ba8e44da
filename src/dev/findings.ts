import { realpathSync } from 'node:fs';
import path from 'node:path';
import { openShippedFolder, type ShippedSource } from '../core/pack/shipment.js';
import type { Report } from '../core/problem.js';
import { limitsOf, sizeLine, type BundleLimits } from '../core/report/limits.js';
import { validateBundle, type ValidateOptions } from '../core/validate.js';

/**
 * The validation report of the tool folder, with what its zip would use of each marketplace limit
 * (and that as the one line builds print), or why it could not be made.
 */
export type Findings = { ok: true; report: Report; limits: BundleLimits; sizeLine: string } | { ok: false; message: string };

type FindingSettings = Pick<ValidateOptions, 'rules' | 'overrides' | 'sourceMaps'>;

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
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : null;
}

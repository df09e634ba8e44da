import { codeThreadCounts } from '../../../core/code/code-threads.js';
import type { Report } from '../../../core/problem.js';
import { validateBundle } from '../../../core/validate.js';
import { UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { loadFormatter } from '../../formatters/index.js';
import { countsPhrase, plural } from '../../formatters/shared.js';
import { useColour, type CliIo } from '../../io.js';
import { isFolder, resolveTargets, toolFolderOf } from '../../project.js';
import type { ValidateFlags } from './command.js';
import { printConfig } from './print-config.js';
import { collectYoung } from '../../parse-memory.js';

export async function runValidate(bundles: readonly string[], flags: ValidateFlags, io: CliIo): Promise<number> {
  if (flags.printConfig !== undefined && bundles.length > 1) {
    throw new UsageError('--print-config shows the settings of one tool: give one folder or zip, or none for the project\'s own.');
  }
  const { targets, several } = await resolveTargets(bundles, flags, io, 'validate');
  if (flags.printConfig !== undefined) {
    if (targets.length > 1) throw new UsageError(`--print-config shows the settings of one tool, and ${bundles[0]} holds ${targets.length} zips: name one of them.`);
    io.stdout(await printConfig(flags.printConfig, targets[0]!, io.cwd));
    return EXIT.ok;
  }
  if (flags.report !== undefined && flags.report !== true && targets.length > 1) {
    throw new UsageError(`--report ${flags.report} names one page, and ${targets.length} bundles are checked: give --report without a file name, for a page beside each.`);
  }
  const reports: Report[] = [];
  const pages: { file: string; sizes: Record<string, unknown> }[] = [];
  for (const target of targets) {
    // Findings placed at the author's source are named from the project's folder (the one holding
    // the project file), or from the working folder without one. A zip holds no maps: those of its
    // project's tool folder place the findings of the entries it still holds byte for byte.
    const folder = target.project && !(await isFolder(target.path)) ? toolFolderOf(target.project) : undefined;
    const sourceMaps = { root: target.project?.root ?? io.cwd, ...(folder === undefined ? {} : { folder }) };
    const options = { rules: target.rules, overrides: target.overrides, sourceMaps, collectGarbage: collectYoung };
    let report: Report;
    if (flags.report === undefined) {
      report = await validateBundle(target.path, options);
    } else {
      // One opening of the bundle for the check and the report: a folder's zip is measured once.
      const { openBundleToCheck } = await import('../../../core/bundle/open-bundle.js');
      const { reportJson, reportPathFrom, writeReportPage } = await import('../../report-page.js');
      const file = reportPathFrom(flags.report, target.path, io.cwd);
      const source = await openBundleToCheck(target.path);
      try {
        report = await validateBundle(source, options);
        const sizes = await writeReportPage(source, file, { sourceMaps, problems: report.problems, title: target.shown });
        pages.push({ file, sizes: reportJson(sizes, file, io.cwd) });
      } finally {
        await source.close();
      }
    }
    report.bundle = target.shown;
    reports.push(report);
  }
  // With --report, each bundle's JSON carries its numbers (`sizes`) beside its problems.
  const sizes = pages.length > 0 ? pages.map((page) => page.sizes) : undefined;
  if (several) await printReports(reports, flags, io, sizes);
  else await printReport(reports[0]!, flags, io, sizes?.[0]);
  if (flags.report !== undefined && !flags.quiet && (flags.format === 'text' || flags.format === 'github')) {
    const { reportLine } = await import('../../report-page.js');
    for (const page of pages) io.stdout(reportLine(page.file, io.cwd));
  }
  if (io.env['PIPELINE_TOOL_CODE_THREADS'] !== undefined && io.env['PIPELINE_TOOL_CODE_THREADS'] !== '') {
    // The threads are an internal setting: what they did is told to those who set it (tests, benchmarks).
    const { workers, here, again, frames } = codeThreadCounts();
    io.stderr(`pipeline-tool: code threads: ${workers} jobs in workers, ${here} here, ${again} checked again, ${frames} frames\n`);
  }
  const total = totalOf(reports);
  const code = exitCodeFor(total, flags.maxWarnings);
  if (code !== EXIT.ok && total.errorCount === 0) {
    io.stderr(`pipeline-tool: ${total.warningCount} warnings exceed --max-warnings ${flags.maxWarnings}.\n`);
  }
  return code;
}

export async function printReport(report: Report, flags: Pick<ValidateFlags, 'format' | 'quiet'> & { verbose?: boolean }, io: CliIo, sizes?: Record<string, unknown>): Promise<void> {
  const colour = useColour(io, io.stdoutIsTTY);
  const formatter = await loadFormatter(flags.format, { colour });
  if (!formatter) throw new UsageError(`unknown format "${flags.format}".`);
  const options = { colour, quiet: flags.quiet, verbose: flags.verbose ?? false, cwd: io.cwd, workspace: io.env['GITHUB_WORKSPACE'] || undefined };
  if (sizes && flags.format === 'json') {
    const { jsonReport } = await import('../../formatters/json.js');
    io.stdout(`${JSON.stringify({ ...jsonReport(report, options), sizes }, null, 2)}\n`);
    return;
  }
  io.stdout(formatter(report, options));
}

/**
 * Several bundles in one run, as eslint reports several files: in text and github, each bundle's
 * report in turn and one line for them all at the end; in JSON, one document holding every
 * report, with the counts of all of them; in SARIF, one log whose one run holds every result.
 */
async function printReports(reports: readonly Report[], flags: Pick<ValidateFlags, 'format' | 'quiet'> & { verbose?: boolean }, io: CliIo, sizes?: readonly Record<string, unknown>[]): Promise<void> {
  const colour = useColour(io, io.stdoutIsTTY);
  const formatter = await loadFormatter(flags.format, { colour });
  if (!formatter) throw new UsageError(`unknown format "${flags.format}".`);
  const options = { colour, quiet: flags.quiet, verbose: flags.verbose ?? false, cwd: io.cwd, workspace: io.env['GITHUB_WORKSPACE'] || undefined };
  if (flags.format === 'sarif') {
    const { formatSarifLog } = await import('../../formatters/sarif.js');
    io.stdout(formatSarifLog(reports, options));
    return;
  }
  const total = totalOf(reports);
  if (flags.format === 'json') {
    const { jsonReport } = await import('../../formatters/json.js');
    const document = {
      ok: total.ok,
      errorCount: total.errorCount,
      warningCount: total.warningCount,
      bundles: reports.map((report, i) => ({ ...jsonReport(report, options), ...(sizes ? { sizes: sizes[i] } : {}) })),
    };
    io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  const parts = reports.map((report) => formatter(report, options));
  const line = `${plural(reports.length, 'bundle')}: ${countsPhrase(total)}`;
  if (flags.format === 'github') {
    io.stdout(`${parts.join('')}${line}\n`);
    return;
  }
  const { palette } = await import('../../formatters/palette.js');
  const chalk = palette(colour);
  const mark = total.errorCount > 0 ? chalk.red.bold(`✖ ${line}`) : total.warningCount > 0 ? chalk.yellow.bold(`⚠ ${line}`) : chalk.green(`✔ ${line}`);
  io.stdout(`${parts.join('\n')}\n${mark}\n`);
}

interface Total {
  ok: boolean;
  errorCount: number;
  warningCount: number;
}

function totalOf(reports: readonly Report[]): Total {
  const errorCount = reports.reduce((sum, report) => sum + report.errorCount, 0);
  const warningCount = reports.reduce((sum, report) => sum + report.warningCount, 0);
  return { ok: errorCount === 0, errorCount, warningCount };
}

export function exitCodeFor(report: Pick<Report, 'errorCount' | 'warningCount'>, maxWarnings: number | undefined): number {
  if (report.errorCount > 0) return EXIT.problems;
  if (maxWarnings !== undefined && report.warningCount > maxWarnings) return EXIT.problems;
  return EXIT.ok;
}

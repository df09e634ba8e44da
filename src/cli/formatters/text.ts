import { showName } from '../../core/format-bytes.js';
import type { Problem, Report } from '../../core/problem.js';
import { isSummed, libraryGroups, librarySummary, splitLibraryWarnings } from '../../core/library-summary.js';
import { listLeftOut } from './left-out.js';
import { palette } from './palette.js';
import { builtPlace, summaryLine, visibleProblems, type FormatOptions } from './shared.js';

/**
 * Human-readable output, grouped by file, with one summary line at the end. A problem that a
 * source map placed at the author's source is listed under that file (relative to the project's
 * folder) and names its place in the bundle.
 */
export function formatText(report: Report, options: FormatOptions): string {
  const chalk = palette(options.colour);
  const groups = new Map<string, Problem[]>();
  // A package's warnings are summed up once for the whole package, after the files.
  const packaged: Problem[] = [];
  for (const problem of visibleProblems(report, options)) {
    if (!options.verbose && isSummed(problem) && problem.package !== undefined) {
      packaged.push(problem);
      continue;
    }
    const key = problem.file ?? '';
    groups.set(key, [...(groups.get(key) ?? []), problem]);
  }
  const out: string[] = [];
  for (const [file, all] of groups) {
    // Names come from the bundle, which may be hostile: never print one raw.
    out.push(chalk.underline(showName(file === '' ? report.bundle : file)));
    const { listed: problems, summed } = splitLibraryWarnings(all, options.verbose ?? false);
    const locations = problems.map((p) => (p.line !== undefined ? `${p.line}:${p.column ?? 1}` : ''));
    const width = Math.max(0, ...locations.map((l) => l.length));
    problems.forEach((p, i) => {
      const location = width > 0 ? `${chalk.dim(locations[i]!.padEnd(width))}  ` : '';
      const severity = p.severity === 'error' ? chalk.red('error  ') : chalk.yellow('warning');
      // A problem placed at the author's source also says where it sits in the bundle.
      const built = builtPlace(p);
      out.push(`  ${location}${severity}  ${showName(p.message)}  ${chalk.dim(p.ruleId)}${built === undefined ? '' : chalk.dim(`  (built: ${showName(built)})`)}`);
    });
    if (summed.length > 0) {
      const location = width > 0 ? `${' '.repeat(width)}  ` : '';
      out.push(`  ${location}${chalk.yellow('warning')}  ${showName(librarySummary(file, summed))}`);
    }
    out.push('');
  }
  for (const [pkg, warnings] of libraryGroups(packaged)) {
    out.push(chalk.underline(showName(`node_modules/${pkg}`)));
    out.push(`  ${chalk.yellow('warning')}  ${showName(librarySummary(pkg, warnings, pkg))}`, '');
  }
  if (report.mapNotes && !options.quiet) {
    // Why a finding in a built file was not placed at its source: its map was refused, or (for
    // a zip) none was found.
    for (const note of report.mapNotes) out.push(chalk.dim(`note: ${showName(note.file ?? report.bundle)}: ${showName(note.message)}`));
    out.push('');
  }
  if (report.excluded && report.excluded.length > 0 && !options.quiet) {
    // What pack would leave out: not problems, but an author should see what will not ship.
    out.push(chalk.dim(`Left out of the bundle, as pack leaves them out (${report.excluded.length}):`));
    out.push(...listLeftOut(report.excluded, chalk.dim), '');
  }
  const summary = summaryLine(report, options);
  out.push(
    report.errorCount > 0 ? chalk.red.bold(`✖ ${summary}`) : report.warningCount > 0 ? chalk.yellow.bold(`⚠ ${summary}`) : chalk.green(`✔ ${summary}`),
  );
  return `${out.join('\n')}\n`;
}

import { showName } from '../../core/format-bytes.js';
import type { Report } from '../../core/problem.js';

export interface FormatOptions {
  colour: boolean;
  /** Show errors only. Counts in the report stay complete. */
  quiet: boolean;
  /** List every warning in library code instead of summing them up per file (text output). */
  verbose?: boolean;
  /** The working folder, to print paths relative to it. */
  cwd: string;
  /**
   * GitHub's checkout of the repository (GITHUB_WORKSPACE). Annotations must name files relative
   * to it, which differs from `cwd` when the tool's project is a subfolder of the repository.
   */
  workspace?: string;
}

export function visibleProblems(report: Report, options: FormatOptions) {
  return options.quiet ? report.problems.filter((p) => p.severity === 'error') : report.problems;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "2 problems (1 error, 1 warning)", or "no problems", for the end of human-readable output. */
export function summaryLine(report: Report, options: FormatOptions): string {
  const total = report.errorCount + report.warningCount;
  const bundle = showName(report.bundle);
  if (total === 0) return `${bundle}: no problems`;
  const hidden = options.quiet && report.warningCount > 0 ? `; ${plural(report.warningCount, 'warning')} hidden by --quiet` : '';
  return `${bundle}: ${plural(total, 'problem')} (${plural(report.errorCount, 'error')}, ${plural(report.warningCount, 'warning')})${hidden}`;
}

import path from 'node:path';
import { showName } from '../../core/format-bytes.js';
import type { Problem, Report } from '../../core/problem.js';
import { leavesFolder } from '../../core/relative-path.js';
import { placeText } from '../../core/place-text.js';

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

/** "1 bundle", "2 bundles". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "2 problems (1 error, 1 warning)", or "no problems". */
export function countsPhrase(counts: Pick<Report, 'errorCount' | 'warningCount'>): string {
  const total = counts.errorCount + counts.warningCount;
  return total === 0 ? 'no problems' : `${plural(total, 'problem')} (${plural(counts.errorCount, 'error')}, ${plural(counts.warningCount, 'warning')})`;
}

/** The bundle and its counts, for the end of human-readable output. */
export function summaryLine(report: Report, options: FormatOptions): string {
  const hidden = options.quiet && report.warningCount > 0 ? `; ${plural(report.warningCount, 'warning')} hidden by --quiet` : '';
  return `${showName(report.bundle)}: ${countsPhrase(report)}${hidden}`;
}

/**
 * The folder that paths for GitHub are relative to: the repository's root (GITHUB_WORKSPACE) when
 * the bundle lies inside it, so that paths are the repository's own; else the working folder.
 */
export function repositoryBase(report: Report, options: FormatOptions): string {
  const bundle = path.resolve(options.cwd, report.bundle);
  if (options.workspace === undefined) return options.cwd;
  const workspace = path.resolve(options.cwd, options.workspace);
  const inside = path.relative(workspace, bundle);
  return !leavesFolder(inside) ? workspace : options.cwd;
}

/**
 * Where on disk a problem points, absolute: its source file when a map placed it there, the
 * folder's file for a folder, the zip itself for a zip (the entry is then only inside it), and the
 * bundle for a problem about no file. `inside` says whether the line and column apply to that file.
 */
export function problemOnDisk(report: Report, problem: Problem, cwd: string): { file: string; inside: boolean } {
  if (problem.built !== undefined && problem.file !== undefined && report.sourceRoot !== undefined) {
    return { file: path.resolve(cwd, report.sourceRoot, problem.file), inside: true };
  }
  const bundle = path.resolve(cwd, report.bundle);
  if (report.kind === 'folder' && problem.file !== undefined) return { file: path.join(bundle, problem.file), inside: true };
  return { file: bundle, inside: false };
}

/** A path relative to `base` with `/` between folders ("." for the base itself). */
export function slashPath(base: string, file: string): string {
  return path.relative(base, file).split(path.sep).join('/') || '.';
}

/** "assets/index-3f2a.js:1:48213": where a placed problem sits in the bundle. */
export function builtPlace(problem: Problem): string | undefined {
  return problem.built && placeText(problem.built.file, problem.built.line, problem.built.column);
}

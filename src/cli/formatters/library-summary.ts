import { CONFIG_FILE } from '../../core/config/file-name.js';
import type { Problem } from '../../core/problem.js';

/*
 * Warnings in library code (Problem.library) are summed up in text output, one line per file, so
 * that a vendored library's dozens of warnings do not bury the author's own. Errors are always
 * listed, and the counts, the exit code and --max-warnings still take every warning.
 */

/** The problems of one file to list one by one, and the warnings summed up instead. */
export function splitLibraryWarnings(problems: readonly Problem[], verbose: boolean): { listed: Problem[]; summed: Problem[] } {
  if (verbose) return { listed: [...problems], summed: [] };
  const listed: Problem[] = [];
  const summed: Problem[] = [];
  for (const problem of problems) (problem.library && problem.severity === 'warning' ? summed : listed).push(problem);
  return { listed, summed };
}

/**
 * "2 dialog-call, 14 unsafe-html warnings in library code, not listed (--verbose lists them); to
 * quiet them, add to "overrides" in pipeline-tool.config.json: {…}".
 */
export function librarySummary(file: string, warnings: readonly Problem[]): string {
  const counts = new Map<string, number>();
  for (const warning of warnings) counts.set(warning.ruleId, (counts.get(warning.ruleId) ?? 0) + 1);
  const sorted = [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
  const rules = sorted.map(([ruleId]) => ruleId);
  const list = sorted.map(([ruleId, count]) => `${count} ${ruleId}`).join(', ');
  const noun = warnings.length === 1 ? 'warning' : 'warnings';
  const override = JSON.stringify({ files: [ignorePattern(file)], rules: Object.fromEntries(rules.map((id) => [id, 'off'])) });
  return `${list} ${noun} in library code, not listed (--verbose lists them); to quiet them, add to "overrides" in ${CONFIG_FILE}: ${override}`;
}

/** A file's path as a pattern that matches only it (gitignore syntax: a name alone would match in every folder). */
function ignorePattern(file: string): string {
  const escaped = file.replace(/[\\*?[\]!#]/g, '\\$&').replace(/ $/, '\\ ');
  return file.includes('/') ? escaped : `/${escaped}`;
}

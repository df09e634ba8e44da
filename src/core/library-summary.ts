import { CONFIG_FILE } from './config/file-name.js';
import type { Problem } from './problem.js';

/*
 * Warnings in library code (Problem.library) are summed up, one line per npm package (code under
 * node_modules/, placed there by the source map) or per file (a vendored file), so that a
 * library's dozens of warnings do not bury the author's own. Text output, the Vite build and dev's
 * terminal say them the same way; --verbose (the plugin's verbose option) lists them. Errors are
 * always listed, and the counts, the exit code and --max-warnings still take every warning.
 */

/** The problems of one file to list one by one, and the warnings summed up instead. */
export function splitLibraryWarnings(problems: readonly Problem[], verbose: boolean): { listed: Problem[]; summed: Problem[] } {
  if (verbose) return { listed: [...problems], summed: [] };
  const listed: Problem[] = [];
  const summed: Problem[] = [];
  for (const problem of problems) (isSummed(problem) ? summed : listed).push(problem);
  return { listed, summed };
}

/** A warning in library code, summed up unless --verbose. */
export function isSummed(problem: Problem): boolean {
  return problem.library === true && problem.severity === 'warning';
}

/** Library warnings by what they are summed up under: the package's name, or the file's path. */
export function libraryGroups(warnings: readonly Problem[]): Map<string, Problem[]> {
  const groups = new Map<string, Problem[]>();
  for (const warning of warnings) {
    const key = warning.package ?? warning.file ?? '';
    groups.set(key, [...(groups.get(key) ?? []), warning]);
  }
  return groups;
}

/**
 * "2 dialog-call, 14 unsafe-html warnings in library code, not listed (--verbose lists them); to
 * quiet them, add to "overrides" in pipeline-tool.config.json: {…}". For a package whose storage is
 * not guarded, what to do about that package instead: turning the rule off would hide the problem.
 */
export function librarySummary(file: string, warnings: readonly Problem[], pkg?: string, listedBy = '--verbose lists them'): string {
  const counts = new Map<string, number>();
  for (const warning of warnings) counts.set(warning.ruleId, (counts.get(warning.ruleId) ?? 0) + 1);
  const sorted = [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
  const list = sorted.map(([ruleId, count]) => `${count} ${ruleId}`).join(', ');
  const noun = warnings.length === 1 ? 'warning' : 'warnings';
  const where = pkg === undefined ? 'in library code' : `in ${pkg} (library code)`;
  const storage = pkg === undefined ? undefined : warnings.find((warning) => warning.ruleId === 'browser-storage');
  const others = sorted.map(([ruleId]) => ruleId).filter((ruleId) => storage === undefined || ruleId !== 'browser-storage');
  const override = JSON.stringify({ files: [pkg === undefined ? ignorePattern(file) : `node_modules/${pkg}/`], rules: Object.fromEntries(others.map((id) => [id, 'off'])) });
  const quiet = others.length === 0 ? '' : `; to quiet ${storage === undefined ? 'them' : others.join(', ')}, add to "overrides" in ${CONFIG_FILE}: ${override}`;
  return `${list} ${noun} ${where}, not listed (${listedBy})${storage === undefined ? '' : `: ${storage.message}`}${quiet}`;
}

/** One line of library warnings summed up: what it is about (`node_modules/<package>`, or a vendored file's path), its words, and the warnings. */
export interface LibraryLine<P extends Problem = Problem> {
  name: string;
  summary: string;
  warnings: P[];
}

/**
 * The library warnings among `problems`, one line per package (or vendored file), as the Vite
 * build and dev say them; `listedBy` says where they are listed ("--verbose lists them").
 */
export function libraryLines<P extends Problem>(problems: readonly P[], listedBy: string): LibraryLine<P>[] {
  const summed = problems.filter(isSummed);
  return [...libraryGroups(summed)].map(([key, warnings]) => {
    const pkg = warnings[0]!.package;
    return { name: pkg === undefined ? key : `node_modules/${pkg}`, summary: librarySummary(key, warnings, pkg, listedBy), warnings: warnings as P[] };
  });
}

/** A file's path as a pattern that matches only it (gitignore syntax: a name alone would match in every folder). */
function ignorePattern(file: string): string {
  const escaped = file.replace(/[\\*?[\]!#]/g, '\\$&').replace(/ $/, '\\ ');
  return file.includes('/') ? escaped : `/${escaped}`;
}

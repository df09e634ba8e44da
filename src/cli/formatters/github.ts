import { showName } from '../../core/format-bytes.js';
import type { Problem, Report } from '../../core/problem.js';
import { problemOnDisk, repositoryBase, slashPath, summaryLine, visibleProblems, type FormatOptions } from './shared.js';

// Workflow commands treat these characters specially; see GitHub's "workflow commands" docs.
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * GitHub Actions annotations. An annotation must name a file of the repository, by its path from
 * the repository's root: for a folder, the entry's path (so validating a project's src/ points at
 * the source line), or the author's source file when a source map placed the problem there; for a
 * zip, the zip itself, with the entry named in the message.
 */
export function formatGithub(report: Report, options: FormatOptions): string {
  const root = repositoryBase(report, options);
  const lines = visibleProblems(report, options).map((problem) => annotation(report, problem, options.cwd, root));
  if (!options.quiet) for (const note of report.mapNotes ?? []) lines.push(plainText(showName(`note: ${note.file ?? report.bundle}: ${note.message}`)));
  lines.push(plainText(summaryLine(report, options)));
  return `${lines.join('\n')}\n`;
}

/**
 * Text printed among annotations that must stay text. The runner reads any line that starts with
 * `::` once leading white space is trimmed as a command (and `##[` anywhere in a line as the older
 * form), so a bundle named `::stop-commands::x` at the start of a summary line would silence every
 * annotation after it. Such a start has its first character escaped, as showName escapes. (.NET's
 * TrimStart also trims U+0085, which JavaScript's \s leaves out.)
 */
export function plainText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^([\s\u0085]*)::/u, '$1\\x3a:').replace(/##\[/g, '##\\x5b'))
    .join('\n');
}

function annotation(report: Report, problem: Problem, cwd: string, base: string): string {
  const { file, inside } = problemOnDisk(report, problem, cwd);
  const properties = [`file=${escapeProperty(showName(slashPath(base, file)))}`];
  if (inside && problem.line !== undefined) properties.push(`line=${problem.line}`);
  if (inside && problem.column !== undefined) properties.push(`col=${problem.column}`);
  properties.push(`title=${escapeProperty(`pipeline-tool ${problem.ruleId}`)}`);
  const where = !inside && problem.file !== undefined ? `${problem.file}${problem.line ? `:${problem.line}:${problem.column ?? 1}` : ''}: ` : '';
  // Names come from the bundle, which may be hostile: a raw newline would start a new workflow command.
  return `::${problem.severity} ${properties.join(',')}::${escapeData(showName(where + problem.message))}`;
}

import path from 'node:path';
import { showName } from '../../core/format-bytes.js';
import type { Problem, Report } from '../../core/problem.js';
import { summaryLine, visibleProblems, type FormatOptions } from './shared.js';

// Workflow commands treat these characters specially; see GitHub's "workflow commands" docs.
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * GitHub Actions annotations. An annotation must name a file of the repository: for a folder that
 * is the entry's path; for a zip, the zip itself, with the entry named in the message.
 */
export function formatGithub(report: Report, options: FormatOptions): string {
  const lines = visibleProblems(report, options).map((problem) => annotation(report, problem, options.cwd));
  lines.push(summaryLine(report, options));
  return `${lines.join('\n')}\n`;
}

function annotation(report: Report, problem: Problem, cwd: string): string {
  const inFolder = report.kind === 'folder' && problem.file !== undefined;
  const file = path.relative(cwd, inFolder ? path.join(report.bundle, problem.file!) : report.bundle) || '.';
  const properties = [`file=${escapeProperty(showName(file.split(path.sep).join('/')))}`];
  if (inFolder && problem.line !== undefined) properties.push(`line=${problem.line}`);
  if (inFolder && problem.column !== undefined) properties.push(`col=${problem.column}`);
  properties.push(`title=${escapeProperty(`pipeline-tool ${problem.ruleId}`)}`);
  const where = !inFolder && problem.file !== undefined ? `${problem.file}${problem.line ? `:${problem.line}:${problem.column ?? 1}` : ''}: ` : '';
  // Names come from the bundle, which may be hostile: a raw newline would start a new workflow command.
  return `::${problem.severity} ${properties.join(',')}::${escapeData(showName(where + problem.message))}`;
}

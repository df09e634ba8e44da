import path from 'node:path';
import { Chalk, type ChalkInstance } from 'chalk';
import { formatBytes, showName } from '../../../core/format-bytes.js';
import type { PackResult } from '../../../core/pack/pack-folder.js';
import type { ExcludedEntry, ExclusionReason } from '../../../core/shipment/select-files.js';
import { ALLOWED_EXTENSIONS } from '../../../core/paths.js';
import { listLeftOut } from '../../formatters/left-out.js';
import { sizeLine } from '../../../core/report/limits.js';
import { measures, type PackOutputOptions } from './limits.js';
import { leavesFolder } from '../../../core/relative-path.js';

/** The human summary: where the zip went, its checksum, the size line, and what was left out. */
export function formatPackText(result: PackResult, options: PackOutputOptions): string {
  const chalk = new Chalk({ level: options.colour ? 1 : 0 });
  const out: string[] = [];
  const output = showPath(result.outputPath, options.cwd);
  if (result.dryRun) {
    const replacing = result.existed ? ` (${output} exists: --force would replace it)` : '';
    out.push(chalk.bold(`Dry run: ${showName(options.folder)} would be packed into ${output}${replacing}; nothing was written.`), '');
    out.push(chalk.bold(`Goes in (${result.files} files, ${formatBytes(result.unpackedSize)}):`));
    const width = Math.max(0, ...result.included.map((file) => showName(file.path).length));
    for (const file of result.included) out.push(`  ${showName(file.path).padEnd(width)}  ${chalk.dim(formatBytes(file.size))}`);
    out.push('', chalk.bold(`Stays out (${result.excluded.length}):`));
    out.push(...listLeftOut(result.excluded, chalk.dim));
    out.push('', sizeSummary(result, chalk));
    if (!result.ok) out.push('', chalk.red.bold('✖ These files fail the checks above: pack would write nothing.'));
    return `${out.join('\n')}\n`;
  }
  if (!result.written) {
    out.push(chalk.red.bold(`✖ Nothing was written: the bundle made from ${showName(options.folder)} fails the checks above.`));
    out.push('', sizeSummary(result, chalk));
    return `${out.join('\n')}\n`;
  }
  out.push(chalk.green(`✔ Packed ${showName(options.folder)} into ${output}${result.existed ? ' (replaced)' : ''}`));
  out.push(`  SHA-256  ${result.sha256}`, sizeSummary(result, chalk));
  const byType = result.excluded.filter((entry) => entry.reason === 'file-type');
  if (byType.length > 0) {
    out.push('', chalk.yellow(`Left out for their type (allowed: ${ALLOWED_EXTENSIONS.join(' ')}):`));
    out.push(...listLeftOut(byType, chalk.dim));
  }
  const others = result.excluded.filter((entry) => entry.reason !== 'file-type');
  if (others.length > 0) out.push('', chalk.dim(`Also left out, by reason: ${countByReason(others)} (list them with --dry-run).`));
  return `${out.join('\n')}\n`;
}

/**
 * The bundle against the three marketplace limits, in the one line every build prints
 * ({@link sizeLine}), red past a limit and yellow past 90% of one.
 */
function sizeSummary(result: PackResult, chalk: ChalkInstance): string {
  const limits = measures(result);
  const shares = [limits.zipBytes.share, limits.unpackedBytes.share, limits.files.share].filter((share) => share !== null);
  const paint = shares.some((share) => share > 1) ? chalk.red : shares.some((share) => share > 0.9) ? chalk.yellow : (text: string) => text;
  return `  ${paint(sizeLine(limits))}`;
}

function countByReason(entries: readonly ExcludedEntry[]): string {
  const counts = new Map<ExclusionReason, number>();
  for (const entry of entries) counts.set(entry.reason, (counts.get(entry.reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => `${reason} ${count}`).join(', ');
}

/** A path relative to the working folder when it lies inside it, absolute otherwise. */
function showPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return showName(relative && !leavesFolder(relative) ? relative : file);
}

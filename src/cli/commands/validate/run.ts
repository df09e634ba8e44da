import type { Report } from '../../../core/problem.js';
import { validateBundle } from '../../../core/validate.js';
import { UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { loadFormatter } from '../../formatters/index.js';
import { useColour, type CliIo } from '../../io.js';
import { resolveTarget } from '../../project.js';
import type { ValidateFlags } from './command.js';
import { printConfig } from './print-config.js';
import '../../parse-memory.js';

export async function runValidate(bundle: string | undefined, flags: ValidateFlags, io: CliIo): Promise<number> {
  const target = await resolveTarget(bundle, flags, io, 'validate');
  if (flags.printConfig !== undefined) {
    io.stdout(await printConfig(flags.printConfig, target, io.cwd));
    return EXIT.ok;
  }
  // Findings placed at the author's source are named from the project's folder (the one holding
  // the project file), or from the working folder without one.
  const sourceMaps = { root: target.project?.root ?? io.cwd };
  const report = await validateBundle(target.path, { rules: target.rules, overrides: target.overrides, sourceMaps });
  report.bundle = target.shown;
  await printReport(report, flags, io);
  const code = exitCodeFor(report, flags.maxWarnings);
  if (code !== EXIT.ok && report.errorCount === 0) {
    io.stderr(`pipeline-tool: ${report.warningCount} warnings exceed --max-warnings ${flags.maxWarnings}.\n`);
  }
  return code;
}

export async function printReport(report: Report, flags: Pick<ValidateFlags, 'format' | 'quiet'> & { verbose?: boolean }, io: CliIo): Promise<void> {
  const colour = useColour(io, io.stdoutIsTTY);
  const formatter = await loadFormatter(flags.format, { colour });
  if (!formatter) throw new UsageError(`unknown format "${flags.format}".`);
  io.stdout(formatter(report, { colour, quiet: flags.quiet, verbose: flags.verbose ?? false, cwd: io.cwd, workspace: io.env['GITHUB_WORKSPACE'] || undefined }));
}

export function exitCodeFor(report: Report, maxWarnings: number | undefined): number {
  if (report.errorCount > 0) return EXIT.problems;
  if (maxWarnings !== undefined && report.warningCount > maxWarnings) return EXIT.problems;
  return EXIT.ok;
}

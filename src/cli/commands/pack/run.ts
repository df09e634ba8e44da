import path from 'node:path';
import { packFolder, type PackProgress, type PackResult } from '../../../core/pack/pack-folder.js';
import { openShippedFolder } from '../../../core/shipment/shipment.js';
import { showName } from '../../../core/format-bytes.js';
import { shownPath } from '../../../core/shown-path.js';
import { UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { loadFormatter } from '../../formatters/index.js';
import { useColour, type CliIo } from '../../io.js';
import { resolveTarget } from '../../project.js';
import type { PackFlags } from './command.js';
import type { PackOutputOptions } from './limits.js';
import { collectYoung } from '../../parse-memory.js';

const EXIT_ON_SIGNAL: Partial<Record<NodeJS.Signals, number>> = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated };

export async function runPack(given: string | undefined, flags: PackFlags, io: CliIo): Promise<number> {
  const formatter = await loadFormatter(flags.format);
  if (!formatter) throw new UsageError(`unknown format "${flags.format}".`);
  const timestamp = parseSourceDateEpoch(io.env['SOURCE_DATE_EPOCH']);
  const target = await resolveTarget(given, flags, io, 'pack');
  const dir = target.shown;
  const projectOut = target.project?.config.out;
  // A trailing separator makes it a folder for the default name, whether or not it exists yet.
  const out = flags.out ?? (projectOut === undefined ? undefined : path.resolve(target.project!.root, projectOut) + path.sep);
  const controller = new AbortController();
  let interruptedBy: NodeJS.Signals | undefined;
  const releaseSignals = trapSignals((signal) => {
    interruptedBy = signal;
    controller.abort();
  });
  const progress = await startProgress(io, flags, dir);
  // The zip in place, once it is: an interrupted report leaves it there.
  let packed: string | undefined;
  try {
    const result = await packFolder(dir, {
      cwd: io.cwd,
      ...(out !== undefined ? { out } : {}),
      force: flags.force ?? false,
      rules: target.rules,
      overrides: target.overrides,
      sourceRoot: target.project?.root ?? io.cwd,
      dryRun: flags.dryRun ?? false,
      ...(timestamp ? { timestamp } : {}),
      signal: controller.signal,
      onProgress: progress.update,
      // A small tool's pack never collects, and never loads node:v8.
      collectGarbage: collectYoung,
    });
    progress.stop();
    if (result.written) packed = result.outputPath;
    const page = flags.report === undefined ? undefined : await writePackReport(result, flags.report, target.project?.root ?? io.cwd, io.cwd, controller.signal);
    const options: PackOutputOptions = {
      colour: useColour(io, io.stdoutIsTTY),
      quiet: flags.quiet ?? false,
      verbose: flags.verbose ?? false,
      cwd: io.cwd,
      workspace: io.env['GITHUB_WORKSPACE'] || undefined,
      folder: dir,
    };
    if (flags.format === 'json') {
      const { formatPackJson } = await import('./format-json.js');
      io.stdout(formatPackJson(result, options, page?.json));
    } else if (flags.format === 'sarif') {
      // A SARIF log is a document on its own: the findings, and what was left out as notifications.
      io.stdout(formatter(result.report, options));
    } else {
      const { formatPackText } = await import('./format-text.js');
      const visible = result.report.problems.filter((problem) => !flags.quiet || problem.severity === 'error');
      // pack's own summary lists what was left out; the problem list need not repeat it.
      const { excluded: _listedBelow, ...problems } = result.report;
      if (visible.length > 0) io.stdout(`${formatter(problems, options)}\n`);
      // Quiet means silent when all went well: the exit code says so.
      if (!(flags.quiet && result.ok && !result.dryRun)) {
        const summary = formatPackText(result, options);
        // Among annotations, the summary's lines (which name files) must not read as commands.
        io.stdout(flags.format === 'github' ? (await import('../../formatters/github.js')).plainText(summary) : summary);
      }
      if (page && !flags.quiet) io.stdout(page.line);
    }
    return result.ok ? EXIT.ok : EXIT.problems;
  } catch (error) {
    progress.stop();
    if (interruptedBy) {
      io.stderr(packed === undefined ? 'pipeline-tool: pack interrupted; nothing was written.\n' : `pipeline-tool: interrupted while writing the report; ${showName(shownPath(packed, io.cwd))} was written, the report was not.\n`);
      return EXIT_ON_SIGNAL[interruptedBy] ?? EXIT.failure;
    }
    throw error;
  } finally {
    releaseSignals();
  }
}

/**
 * The report page of what was packed: of the zip written, or, when nothing was (a dry run, a
 * failed check), of the zip the folder makes, measured as pack measures it; beside the zip either
 * way. Sources are named from the project's folder, maps read beside the folder's files.
 */
async function writePackReport(result: PackResult, flag: string | true, sourceRoot: string, cwd: string, signal: AbortSignal): Promise<{ json: Record<string, unknown>; line: string }> {
  const { defaultReportPath, reportJson, reportLine, reportPathFrom, writeReportPage } = await import('../../report-page.js');
  const file = flag === true ? defaultReportPath(result.outputPath) : reportPathFrom(flag, result.outputPath, cwd);
  const source = result.written ? result.outputPath : await openShippedFolder(result.folder, { output: () => result.outputPath });
  try {
    const report = await writeReportPage(source, file, { sourceMaps: { root: sourceRoot, folder: result.folder }, problems: result.report.problems, title: path.basename(result.outputPath), signal });
    return { json: reportJson(report, file, cwd), line: reportLine(file, cwd) };
  } finally {
    if (typeof source !== 'string') await source.close();
  }
}

/**
 * SOURCE_DATE_EPOCH (reproducible-builds.org): whole seconds since 1970, UTC. A value that is set
 * but malformed is refused rather than ignored, since ignoring it would quietly change the zip.
 */
export function parseSourceDateEpoch(value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value.trim())) {
    throw new UsageError(`SOURCE_DATE_EPOCH must be a whole number of seconds since 1970-01-01 UTC, not "${value}".`);
  }
  const date = new Date(Number(value.trim()) * 1000);
  if (!Number.isFinite(date.getTime())) throw new UsageError(`SOURCE_DATE_EPOCH is too large for a date: "${value}".`);
  return date;
}

/**
 * The first SIGINT or SIGTERM asks the pack to stop (it removes its temporary file at once); a
 * second one ends the process on the spot, for a pack that does not stop fast enough.
 */
function trapSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  let received = false;
  const handler = (signal: NodeJS.Signals) => {
    if (received) process.exit(EXIT_ON_SIGNAL[signal] ?? EXIT.failure);
    received = true;
    onSignal(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

interface Progress {
  update: (progress: PackProgress) => void;
  stop: () => void;
}

function describe(progress: PackProgress, dir: string): string {
  switch (progress.step) {
    case 'select':
      return `selecting the files in ${dir}`;
    case 'check-files':
      return `checking ${progress.files} files`;
    case 'compress':
      return `compressing: ${progress.done} of ${progress.total} files`;
    case 'check-zip':
      return 'checking the zip';
  }
}

/**
 * A spinner on an interactive terminal, and nothing anywhere else: a log, a pipe or CI sees only
 * the result, whatever the time each step takes. JSON, SARIF and --quiet mean no progress at all.
 */
async function startProgress(io: CliIo, flags: PackFlags, dir: string): Promise<Progress> {
  const none = { update: () => {}, stop: () => {} };
  if (flags.quiet || flags.format === 'json' || flags.format === 'sarif' || !io.stderrIsTTY) return none;
  // A pseudo-terminal without a size (`script`, `docker run -t`) reports 0 columns, on which ora
  // loops forever clearing lines.
  if ((process.stderr.columns ?? 80) <= 0) return none;
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: process.stderr, discardStdin: false }).start('packing');
  return {
    update: (progress) => (spinner.text = describe(progress, dir)),
    stop: () => spinner.stop(),
  };
}

/*
 * What `--report` adds to pack and validate. The CLI's build makes this module and what it
 * imports a bundle of their own (dist/cli/report.cjs), which those commands load only when
 * --report is given.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { asDiskWriteError } from '../core/disk-errors.js';
import { openBundleToCheck } from '../core/bundle/open-bundle.js';
import { reportBundle, type BundleReport, type ReportOptions } from '../core/report/bundle-report.js';
import { renderReportPage } from '../report-page/render.js';
import type { BundleSource } from '../core/shipment/source.js';
import { showName } from '../core/format-bytes.js';
import { shownPath } from '../core/shown-path.js';
import { UsageError } from '../core/errors.js';

/**
 * Where `--report` writes the page when given no file: beside a zip, as `<name>.report.html`; for a
 * folder, beside the folder (never inside it, where the page would ship with the tool).
 */
export function defaultReportPath(bundle: string): string {
  const absolute = path.resolve(bundle);
  const base = path.basename(absolute).replace(/\.zip$/i, '');
  return path.join(path.dirname(absolute), `${base}.report.html`);
}

/** The report file asked for: `--report <file>` (from the working folder), or the default beside the bundle. */
export function reportPathFrom(flag: string | true, bundle: string, cwd: string): string {
  if (flag === true) return defaultReportPath(path.resolve(cwd, bundle));
  if (!/\.html?$/i.test(flag)) throw new UsageError(`--report writes an HTML page: give a file name ending in .html, not "${flag}".`);
  return path.resolve(cwd, flag);
}

/**
 * Measures the bundle and writes its page; returns the report, for JSON output. A bundle given by
 * its path (a zip, or a folder measured as pack zips it) is opened for it, and closed: a folder's
 * zip is measured on the thread pool while its maps are read.
 */
export async function writeReportPage(bundle: BundleSource | string, file: string, options: ReportOptions & { title: string }): Promise<BundleReport> {
  if (typeof bundle === 'string') {
    const source = await openBundleToCheck(bundle);
    try {
      return await writeReportPage(source, file, options);
    } finally {
      await source.close();
    }
  }
  const report = await reportBundle(bundle, options);
  const page = renderReportPage(report, { title: options.title });
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, page);
  } catch (error) {
    const explained = asDiskWriteError(error, file);
    const code = (error as NodeJS.ErrnoException).code;
    if (explained === error && code) throw new UsageError(`cannot write the report to ${file} (${code}). Give another file with --report <file>.`);
    throw explained;
  }
  return report;
}

/** The report as JSON output carries it: every number, and where the page is. */
export function reportJson(report: BundleReport, file: string, cwd: string): Record<string, unknown> {
  const { bundle: _bundle, findings: _listedAsProblems, sourceRoot, ...numbers } = report;
  // Paths from the working folder, as validate's JSON shows its sourceRoot.
  return { page: shownPath(file, cwd), ...numbers, sourceRoot: sourceRoot === null ? null : shownPath(sourceRoot, cwd) };
}

/** The line text output ends with. */
export function reportLine(file: string, cwd: string): string {
  return `Bundle report: ${showName(shownPath(file, cwd))}\n`;
}

import path from 'node:path';
import type { Report } from '../../core/problem.js';
import { slashPath, visibleProblems, type FormatOptions } from './shared.js';

/**
 * One JSON document. The shape is documented in docs/validate.md and kept stable: fields may be added,
 * never renamed or removed.
 */
export function formatJson(report: Report, options: FormatOptions): string {
  return `${JSON.stringify(jsonReport(report, options), null, 2)}\n`;
}

/** A report as the JSON document holds it; several bundles' documents are put together from these. */
export function jsonReport(report: Report, options: FormatOptions): object {
  return {
    ok: report.ok,
    errorCount: report.errorCount,
    warningCount: report.warningCount,
    bundle: report.bundle,
    kind: report.kind,
    problems: visibleProblems(report, options).map((p) => ({
      ruleId: p.ruleId,
      severity: p.severity,
      message: p.message,
      ...(p.file !== undefined ? { file: p.file } : {}),
      ...(p.line !== undefined ? { line: p.line } : {}),
      ...(p.column !== undefined ? { column: p.column } : {}),
      ...(p.built !== undefined ? { built: p.built } : {}),
      ...(p.data !== undefined ? { data: p.data } : {}),
      ...(p.library ? { library: true } : {}),
      ...(p.package !== undefined ? { package: p.package } : {}),
    })),
    ...(report.excluded ? { excluded: report.excluded } : {}),
    ...(report.mapNotes ? { mapNotes: report.mapNotes } : {}),
    // What the `file` of a problem with `built` is relative to, from the working folder.
    ...(report.sourceRoot !== undefined ? { sourceRoot: slashPath(options.cwd, path.resolve(options.cwd, report.sourceRoot)) } : {}),
  };
}

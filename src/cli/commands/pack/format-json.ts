import type { PackResult } from '../../../core/pack/pack-folder.js';
import { formatJson } from '../../formatters/json.js';
import { shownPath } from '../../../core/shown-path.js';
import { measures, type PackOutputOptions } from './limits.js';

/**
 * The JSON result of `pack`. Stable: fields may be added, never renamed or removed. `report` is
 * exactly what `validate --format json` prints for the same problems, and paths are shown as
 * validate shows its `bundle`: relative to the working folder.
 */
export function formatPackJson(result: PackResult, options: PackOutputOptions, sizes?: Record<string, unknown>): string {
  const document = {
    ok: result.ok,
    dryRun: result.dryRun,
    written: result.written,
    folder: shownPath(result.folder, options.cwd),
    output: shownPath(result.outputPath, options.cwd),
    existed: result.existed,
    sha256: result.sha256 ?? null,
    limits: measures(result),
    stage: result.stage,
    included: result.included,
    excluded: result.excluded,
    report: JSON.parse(formatJson(result.report, options)) as unknown,
    // With --report: what the bundle is made of, per file, package and source, and where the page is.
    ...(sizes ? { sizes } : {}),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

import type { ExcludedEntry, ExclusionReason } from '../../core/shipment/left-out.js';
import { showName } from '../../core/format-bytes.js';

const REASONS: Record<ExclusionReason, (detail?: string) => string> = {
  'dot-file': (detail) => detail ?? 'hidden file or folder',
  junk: (detail) => detail ?? 'system debris',
  node_modules: () => 'dependencies, never part of a bundle',
  symlink: () => 'symbolic link, never followed',
  'not-regular': () => 'not a regular file',
  'output-zip': () => 'the zip pack writes',
  'project-file': () => 'project file, not part of the tool',
  'source-map': () => 'source map, not accepted by the marketplace',
  ignored: (detail) => (detail ? `matches "${detail}" in .pipelineignore` : 'excluded by .pipelineignore'),
  'file-type': (detail) => (detail ? `${detail} files are not accepted` : 'files without an extension are not accepted'),
  fixtures: () => 'fixture data for pipeline-tool dev',
};

/** What a reason code means for one left-out entry: "source map, not accepted by the marketplace". */
export function leftOutReason(entry: ExcludedEntry): string {
  return REASONS[entry.reason](entry.detail);
}

/**
 * One line per left-out file or folder: its path, the reason code and what it means, aligned.
 * Shared by `pack --dry-run` and `validate` on a folder, which list the same things.
 */
export function listLeftOut(entries: readonly ExcludedEntry[], dim: (text: string) => string): string[] {
  if (entries.length === 0) return ['  (nothing)'];
  const width = Math.max(...entries.map((entry) => showName(entry.path).length));
  const codeWidth = Math.max(...entries.map((entry) => entry.reason.length));
  return entries.map((entry) => `  ${showName(entry.path).padEnd(width)}  ${entry.reason.padEnd(codeWidth)}  ${dim(leftOutReason(entry))}`);
}

import type { EntryKind } from './source.js';

/** Why a file or folder of a tool folder stays out of the bundle. Codes are public API: never rename one. */
export type ExclusionReason =
  | 'dot-file'
  | 'junk'
  | 'node_modules'
  | 'symlink'
  | 'not-regular'
  | 'output-zip'
  | 'project-file'
  | 'source-map'
  | 'ignored'
  | 'file-type'
  | 'fixtures';

export interface ExcludedEntry {
  /** Slash-separated path inside the folder; a folder left out ends with "/" and is listed once. */
  path: string;
  kind: EntryKind;
  reason: ExclusionReason;
  /** What exactly matched: the extension, the .pipelineignore pattern, or what the junk is. */
  detail?: string;
}

/**
 * The left-out entry that holds `file` (the file itself, or a folder left out around it). Names
 * are compared in Unicode NFC, as the bundle stores them.
 */
export function leftOutEntry(excluded: readonly ExcludedEntry[], file: string): ExcludedEntry | undefined {
  const wanted = file.normalize('NFC');
  return excluded.find((entry) => {
    const held = entry.path.normalize('NFC');
    return held === wanted || (held.endsWith('/') && wanted.startsWith(held));
  });
}

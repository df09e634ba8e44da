import path from 'node:path';
import { openFolderSource } from '../core/bundle/folder-source.js';
import type { Report } from '../core/problem.js';
import { validateBundle, type ValidateOptions } from '../core/validate.js';

/** The validation report of the tool folder, or why it could not be made. */
export type Findings = { ok: true; report: Report } | { ok: false; message: string };

/**
 * Validates the tool folder as `pipeline-tool validate` would, with the same rule settings, except for the dev server's own
 * state folder, which `pack` leaves out and which is no fault of the author's.
 */
export async function collectFindings(root: string, stateFolder: string | null, settings: Pick<ValidateOptions, 'rules' | 'overrides'> = {}): Promise<Findings> {
  try {
    const relative = stateFolder === null ? null : path.relative(path.resolve(root), path.resolve(stateFolder)).split(path.sep).join('/');
    const hidden = relative !== null && relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? `${relative}/` : null;
    // Left out as the folder is walked: neither listed nor read.
    const source = await openFolderSource(root, hidden === null ? {} : { omit: (entryPath) => entryPath === hidden });
    return { ok: true, report: await validateBundle(source, settings) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

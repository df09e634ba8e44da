import type { PackResult } from '../../../core/pack/pack-folder.js';
import { MAX_ARCHIVE_BYTES } from '../../../core/rules/bundle-size.js';
import { MAX_FILES } from '../../../core/rules/file-count.js';
import { MAX_UNPACKED_BYTES } from '../../../core/rules/unpacked-size.js';
import type { FormatOptions } from '../../formatters/index.js';

export interface PackOutputOptions extends FormatOptions {
  /** The folder as the user typed it, for messages. */
  folder: string;
}

export interface Measure {
  used: number | null;
  limit: number;
  /** used / limit; null when not measured (past the unpacked limit, the zip is not measured). */
  share: number | null;
}

/** Each figure the marketplace limits, with how much of the limit it uses. */
export function measures(result: PackResult): { files: Measure; zipBytes: Measure; unpackedBytes: Measure } {
  const measure = (used: number | undefined, limit: number): Measure => ({ used: used ?? null, limit, share: used === undefined ? null : used / limit });
  return {
    files: measure(result.files, MAX_FILES),
    zipBytes: measure(result.zipSize, MAX_ARCHIVE_BYTES),
    unpackedBytes: measure(result.unpackedSize, MAX_UNPACKED_BYTES),
  };
}

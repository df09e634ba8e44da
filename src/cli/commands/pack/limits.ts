import type { PackResult } from '../../../core/pack/pack-folder.js';
import { bundleLimits, type BundleLimits } from '../../../core/report/limits.js';
import type { FormatOptions } from '../../formatters/index.js';

export interface PackOutputOptions extends FormatOptions {
  /** The folder as the user typed it, for messages. */
  folder: string;
}

/** Each figure the marketplace limits, with how much of the limit it uses. */
export function measures(result: PackResult): BundleLimits {
  return bundleLimits(result);
}

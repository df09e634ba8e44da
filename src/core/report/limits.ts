import type { BundleSource } from '../shipment/source.js';
import { formatShare, groupDigits } from '../format-bytes.js';
import { MAX_ARCHIVE_BYTES } from '../rules/bundle-size.js';
import { MAX_FILES } from '../rules/file-count.js';
import { MAX_UNPACKED_BYTES } from '../rules/unpacked-size.js';

/** One figure the marketplace limits, and how much of the limit it uses. */
export interface Measure {
  used: number | null;
  limit: number;
  /** used / limit; null when not measured (past the unpacked limit, the zip is not measured). */
  share: number | null;
}

/** The three figures the marketplace limits. */
export interface BundleLimits {
  files: Measure;
  zipBytes: Measure;
  unpackedBytes: Measure;
}

/** What a bundle uses of each limit: `zipSize` absent when it was not measured. */
export function bundleLimits(sizes: { files: number; zipSize?: number | undefined; unpackedSize: number }): BundleLimits {
  const measure = (used: number | undefined, limit: number): Measure => ({ used: used ?? null, limit, share: used === undefined ? null : used / limit });
  return {
    files: measure(sizes.files, MAX_FILES),
    zipBytes: measure(sizes.zipSize, MAX_ARCHIVE_BYTES),
    unpackedBytes: measure(sizes.unpackedSize, MAX_UNPACKED_BYTES),
  };
}

/**
 * What a bundle uses of each limit, as its source holds the sizes: a zip's own, or a folder's zip
 * as pack would write it, once measured (a folder opened with openBundle or openBundleToCheck).
 */
export async function limitsOf(source: BundleSource): Promise<BundleLimits> {
  await source.sized;
  const files = source.entries.filter((entry) => entry.kind === 'file');
  return bundleLimits({ files: files.length, zipSize: source.archiveSize, unpackedSize: files.reduce((sum, entry) => sum + entry.declaredSize, 0) });
}

/**
 * The bundle against every limit, in one line, as each build prints it:
 * `61,234 bytes zipped of 10,000,000 (0.6%) · 201,000 unpacked of 50,000,000 (0.4%) · 5 files of 200 (2.5%)`.
 */
export function sizeLine(limits: BundleLimits): string {
  const part = (measure: Measure, what: string) =>
    measure.used === null
      ? `${what} not measured (limit ${groupDigits(measure.limit)})`
      : `${groupDigits(measure.used)} ${what} of ${groupDigits(measure.limit)} (${formatShare(measure.share!)})`;
  return [part(limits.zipBytes, 'bytes zipped'), part(limits.unpackedBytes, 'unpacked'), part(limits.files, 'files')].join(' · ');
}

import { formatBytes, showName } from '../format-bytes.js';
import { defineRule } from './rule.js';

/** 10 MB read as 10,000,000 bytes: the stricter of the two readings (decisions.md). */
export const MAX_ARCHIVE_BYTES = 10_000_000;

export default defineRule<{ size: number; limit: number; largest: { path: string; bytes: number }[] }>({
  id: 'bundle-size',
  severity: 'error',
  locked: true,
  description: 'The .zip file is larger than 10,000,000 bytes.',
  why: 'A marketplace limit: larger uploads are refused.',
  fix: 'Remove what the tool does not need, compress images, or subset fonts.',
  message: ({ size, limit, largest }) =>
    `The bundle is ${formatBytes(size)}; the marketplace accepts at most ${formatBytes(limit)} (10 MB read as decimal, the stricter reading). ` +
    `Largest entries (compressed): ${largest.map((f) => `${showName(f.path)} ${formatBytes(f.bytes)}`).join(', ')}.`,
  check: ({ source, files }) => {
    const size = source.archiveSize;
    if (size === undefined || size <= MAX_ARCHIVE_BYTES) return [];
    const largest = [...files]
      .sort((a, b) => (b.compressedSize ?? 0) - (a.compressedSize ?? 0))
      .slice(0, 5)
      .map((f) => ({ path: f.path, bytes: f.compressedSize ?? 0 }));
    return [{ data: { size, limit: MAX_ARCHIVE_BYTES, largest } }];
  },
});

import { defineRule } from './rule.js';

/** Common file systems (ext4, NTFS, APFS) store at most 255 bytes (or UTF-16 units) per name. */
const MAX_NAME_BYTES = 255;

export default defineRule<{ bytes: number }>({
  id: 'path-name-too-long',
  severity: 'error',
  locked: true,
  description: 'A file or folder name in a path is longer than 255 bytes, more than any common file system allows.',
  why: 'No common file system stores a name longer than 255 bytes, so the file could not be unpacked.',
  fix: 'Shorten the file or folder name.',
  message: ({ bytes }) =>
    `A name in this path is ${bytes} bytes long (as UTF-8); file systems allow at most ${MAX_NAME_BYTES} bytes per name, so it cannot be extracted. Shorten it.`,
  check: ({ source }) =>
    source.entries.flatMap((entry) => {
      const longest = Math.max(...entry.path.split('/').map((segment) => Buffer.byteLength(segment, 'utf8')));
      return longest > MAX_NAME_BYTES ? [{ file: entry.path, data: { bytes: longest } }] : [];
    }),
});

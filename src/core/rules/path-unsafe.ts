import { allDotPrefixed, ROOT_ENTRY, unsafePathReason } from '../paths.js';
import { nameExplainsFileType } from './file-type.js';
import { defineRule } from './rule.js';

export default defineRule<{ reason: string }>({
  id: 'path-unsafe',
  severity: 'error',
  locked: true,
  description: 'A path could escape the bundle folder or is not portable (.., absolute, drive letter, backslash, Windows-reserved).',
  why: 'Such a path could write outside the folder it is unpacked into, or cannot be created on every system.',
  fix: 'Rename the file with a plain relative path (letters, digits, - _ . and /).',
  message: ({ reason }) => `Unsafe path: ${reason}. Use relative paths with forward slashes and plain names.`,
  supersedes: nameExplainsFileType,
  check: ({ source }) => {
    // A "./" on every name, or a "./" root entry, is path-dot-prefix's one finding; the rest of
    // each name is still checked here.
    const dotted = allDotPrefixed(source.entries.map((entry) => entry.path));
    return source.entries.flatMap((entry) => {
      if (entry.path === ROOT_ENTRY) return [];
      const reason = unsafePathReason(dotted ? entry.path.slice(2) : entry.path);
      return reason ? [{ file: entry.path, data: { reason } }] : [];
    });
  },
});

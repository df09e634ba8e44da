import { unsafePathReason } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<{ reason: string }>({
  id: 'path-unsafe',
  severity: 'error',
  locked: true,
  description: 'A path could escape the bundle folder or is not portable (.., absolute, drive letter, backslash, Windows-reserved).',
  why: 'Such a path could write outside the folder it is unpacked into, or cannot be created on every system.',
  fix: 'Rename the file with a plain relative path (letters, digits, - _ . and /).',
  message: ({ reason }) => `Unsafe path: ${reason}. Use relative paths with forward slashes and plain names.`,
  check: ({ source }) =>
    source.entries.flatMap((entry) => {
      const reason = unsafePathReason(entry.path);
      return reason ? [{ file: entry.path, data: { reason } }] : [];
    }),
});

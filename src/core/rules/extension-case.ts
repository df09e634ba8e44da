import { ALLOWED_EXTENSIONS, baseName } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<{ extension: string; expected: string }>({
  id: 'extension-case',
  severity: 'warning',
  description: 'An allowed extension is written in upper or mixed case (.PNG).',
  why: 'Servers and tools differ on upper-case extensions; lower case is the portable choice.',
  fix: 'Rename the file with a lower-case extension.',
  message: ({ extension, expected }) =>
    `The extension ${extension} is accepted here, but the marketplace may compare case-sensitively. Rename it to ${expected} (and update references to it).`,
  check: ({ files }) =>
    files.flatMap((entry) => {
      const base = baseName(entry.path);
      const dot = base.lastIndexOf('.');
      if (dot <= 0) return [];
      const extension = base.slice(dot);
      const expected = extension.toLowerCase();
      return extension !== expected && ALLOWED_EXTENSIONS.includes(expected) ? [{ file: entry.path, data: { extension, expected } }] : [];
    }),
});

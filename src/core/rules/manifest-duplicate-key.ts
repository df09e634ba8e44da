import { MANIFEST_PATH } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<{ key: string }>({
  id: 'manifest-duplicate-key',
  severity: 'error',
  description: 'A key appears twice in the same object of manifest.json.',
  why: 'JSON readers disagree on which of two equal keys wins, so the marketplace and your editor may read different values.',
  fix: 'Keep one of the two keys.',
  message: ({ key }) =>
    `"${key}" appears twice in the same object. Parsers disagree on which value wins, so the marketplace may read another value than you see; keep one.`,
  check: ({ manifest }) =>
    manifest.status === 'parsed'
      ? manifest.duplicateKeys.map(({ key, line, column }) => ({ file: MANIFEST_PATH, line, column, data: { key } }))
      : [],
});

import { MANIFEST_PATH } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<{ detail: string }>({
  id: 'manifest-syntax',
  severity: 'error',
  locked: true,
  description: 'manifest.json is not valid JSON.',
  why: 'A manifest that does not parse tells the platform nothing; the upload is refused.',
  fix: 'Fix the JSON at the position given: no comments, no trailing commas, double quotes.',
  message: ({ detail }) => `manifest.json is not valid JSON: ${detail}.`,
  check: ({ manifest }) =>
    manifest.status === 'syntax-error'
      ? [{ file: MANIFEST_PATH, line: manifest.line, column: manifest.column, data: { detail: manifest.message } }]
      : [],
});

import { MANIFEST_PATH } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<{ actual: string }>({
  id: 'manifest-not-object',
  severity: 'error',
  description: 'manifest.json holds something other than a JSON object.',
  why: "The manifest's fields live in one JSON object.",
  fix: 'Make manifest.json a single object: { "name": …, … }.',
  message: ({ actual }) => `manifest.json holds ${actual}; it must be an object like {"name": "…", "shortName": "…", …}.`,
  check: ({ manifest }) => {
    if (manifest.status !== 'parsed') return [];
    const { value } = manifest;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return [];
    const actual = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return [{ file: MANIFEST_PATH, line: 1, column: 1, data: { actual } }];
  },
});

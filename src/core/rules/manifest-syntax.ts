import { MAX_JSON_DEPTH } from '../json/scan-json.js';
import { MANIFEST_PATH } from '../paths.js';
import { defineRule } from './rule.js';

/** `limit`: the JSON may be valid, but nests objects and arrays deeper than every JSON reader here allows. */
export default defineRule<{ detail: string; limit?: number }>({
  id: 'manifest-syntax',
  severity: 'error',
  locked: true,
  description: `manifest.json is not valid JSON, or nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`,
  why: 'A manifest that does not parse tells the platform nothing; the upload is refused.',
  fix: 'Fix the JSON at the position given: no comments, no trailing commas, double quotes.',
  message: ({ detail, limit }) =>
    limit !== undefined
      ? `manifest.json nests objects and arrays more than ${limit} levels deep, the most pipeline-tool reads in any JSON file (the platform's records are far flatter). A manifest holds six strings; write it flat.`
      : `manifest.json is not valid JSON: ${detail}.`,
  check: ({ manifest }) =>
    manifest.status === 'syntax-error'
      ? [{ file: MANIFEST_PATH, line: manifest.line, column: manifest.column, data: { detail: manifest.message, ...(manifest.tooDeep ? { limit: MAX_JSON_DEPTH } : {}) } }]
      : [],
});

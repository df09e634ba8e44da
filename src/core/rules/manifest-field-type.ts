import { atManifestKey, schemaErrorsFor } from '../manifest/read-manifest.js';
import { defineRule } from './rule.js';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export default defineRule<{ field: string; expected: string; actual: string }>({
  id: 'manifest-field-type',
  severity: 'error',
  description: 'A manifest field has the wrong JSON type (every field is a string).',
  why: 'Every manifest field is a string; a number or list is refused.',
  fix: 'Write the value as a string, e.g. "version": "1.0.0".',
  message: ({ field, expected, actual }) => `"${field}" must be a ${expected}, but it is ${actual}. Write it in double quotes.`,
  check: ({ manifest }) =>
    schemaErrorsFor(manifest, 'type')
      .filter((e) => e.instancePath.startsWith('/'))
      .map((e) => {
        const field = e.instancePath.slice(1);
        const value = manifest.status === 'parsed' ? (manifest.value as Record<string, unknown>)[field] : undefined;
        return atManifestKey(manifest, field, { field, expected: String(e.params['type']), actual: describe(value) });
      }),
});

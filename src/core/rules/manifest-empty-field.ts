import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { defineRule } from './rule.js';

const TEXT_FIELDS = ['name', 'shortName', 'description', 'version', 'entry', 'type'] as const;

export default defineRule<{ field: string }>({
  id: 'manifest-empty-field',
  severity: 'error',
  description: 'A required manifest field is empty or only white space.',
  why: 'An empty name, version or entry cannot be listed or loaded.',
  fix: 'Give the field a value.',
  message: ({ field }) => `"${field}" is empty. Give it a value.`,
  check: ({ manifest }) =>
    TEXT_FIELDS.filter((field) => manifestString(manifest, field)?.trim() === '').map((field) => atManifestKey(manifest, field, { field })),
});

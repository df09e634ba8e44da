import { atManifestKey, manifestObject } from '../manifest/read-manifest.js';
import { nearestName } from '../nearest.js';
import { defineRule } from './rule.js';

export const MANIFEST_FIELDS = ['name', 'shortName', 'type', 'version', 'description', 'entry'] as const;

export default defineRule<{ field: string; suggestion?: string }>({
  id: 'manifest-unknown-field',
  severity: 'warning',
  description: 'manifest.json has a field the platform does not know (with the nearest known name).',
  why: 'The platform ignores fields it does not know, so a misspelt field silently does nothing.',
  fix: 'Correct the name (the message gives the nearest known field) or remove the field.',
  message: ({ field, suggestion }) =>
    `"${field}" is not a manifest field${suggestion ? `; did you mean "${suggestion}"?` : `; the fields are ${MANIFEST_FIELDS.join(', ')}.`}`,
  check: ({ manifest }) => {
    const object = manifestObject(manifest);
    if (!object) return [];
    return Object.keys(object)
      .filter((field) => field !== '$schema' && !(MANIFEST_FIELDS as readonly string[]).includes(field))
      .map((field) => {
        const suggestion = nearestName(field, MANIFEST_FIELDS);
        return atManifestKey(manifest, field, { field, ...(suggestion ? { suggestion } : {}) });
      });
  },
});

import { atManifestKey, schemaErrorsFor } from '../manifest/read-manifest.js';
import { defineRule } from './rule.js';

export default defineRule<{ field: string }>({
  id: 'manifest-missing-field',
  severity: 'error',
  description: 'A required manifest field (name, shortName, type, version, description, entry) is missing.',
  why: 'The platform needs every required field to list and load the tool.',
  fix: 'Add the field named in the message.',
  message: ({ field }) =>
    field === 'type'
      ? 'manifest.json has no "type". The host would assume "standalone", but the field is required: add "type": "standalone" or "type": "quoting_extension".'
      : `manifest.json has no "${field}", which is required. Add it.`,
  check: ({ manifest }) =>
    schemaErrorsFor(manifest, 'required')
      .filter((e) => e.instancePath === '')
      .map((e) => atManifestKey(manifest, undefined, { field: String(e.params['missingProperty']) })),
});

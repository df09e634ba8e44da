import { MANIFEST_PATH } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<Record<string, never>>({
  id: 'manifest-encoding',
  severity: 'error',
  locked: true,
  description: 'manifest.json is not valid UTF-8.',
  why: 'The platform reads the manifest as UTF-8; other encodings garble names or fail to parse.',
  fix: 'Save manifest.json as UTF-8.',
  message: () => 'manifest.json is not valid UTF-8. Save it as UTF-8 in your editor.',
  check: ({ manifest }) => (manifest.status === 'not-utf8' ? [{ file: MANIFEST_PATH, data: {} }] : []),
});

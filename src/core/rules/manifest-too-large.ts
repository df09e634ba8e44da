import { formatBytes } from '../format-bytes.js';
import { MANIFEST_MAX_BYTES } from '../manifest/read-manifest.js';
import { MANIFEST_PATH } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<{ size: number; limit: number }>({
  id: 'manifest-too-large',
  severity: 'error',
  locked: true,
  description: 'manifest.json is larger than 64,000 bytes.',
  why: 'The marketplace refuses a manifest over 64,000 bytes.',
  fix: 'Keep only the documented fields; a manifest is a few hundred bytes.',
  message: ({ size, limit }) => `manifest.json is ${formatBytes(size)}; at most ${formatBytes(limit)} is read. A manifest holds six short fields; remove the rest.`,
  check: ({ manifest }) => (manifest.status === 'too-large' ? [{ file: MANIFEST_PATH, data: { size: manifest.size, limit: MANIFEST_MAX_BYTES } }] : []),
});

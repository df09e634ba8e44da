import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { entryPathProblem } from './manifest-entry-path.js';
import { defineRule } from './rule.js';

export default defineRule<{ entry: string }>({
  id: 'manifest-entry-location',
  severity: 'error',
  description: 'The entry HTML file is in a subfolder; the platform loads it from the bundle root.',
  why: 'The platform loads the entry page from the bundle root only.',
  fix: 'Move the entry page to the root of the tool folder and point "entry" at it.',
  message: ({ entry }) =>
    `"entry" is "${entry}", in a subfolder; the platform expects the entry page at the bundle root. Move it to the root (and fix its relative links), then set "entry" to its name.`,
  check: ({ manifest }) => {
    const entry = manifestString(manifest, 'entry');
    if (!entry || entryPathProblem(entry) || !entry.includes('/')) return [];
    return [atManifestKey(manifest, 'entry', { entry })];
  },
});

import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { unsafePathReason } from '../paths.js';
import { defineRule } from './rule.js';

/** Why an entry value cannot name the tool's page, or undefined when its form is fine. */
export function entryPathProblem(entry: string): string | undefined {
  if (entry.startsWith('/')) return 'it starts with /; write it relative to the bundle root, like index.html';
  if (entry.includes('\\')) return 'it contains a backslash; use forward slashes';
  if (entry.split('/').includes('..')) return 'it climbs out of the bundle (a .. segment)';
  if (/^[a-z][a-z0-9+.-]*:/i.test(entry)) return 'it is a URL; name a file inside the bundle';
  if (!entry.endsWith('.html')) return 'it must name an .html file (lower-case extension)';
  const unsafe = unsafePathReason(entry);
  return unsafe ? `it is not a safe path: ${unsafe}` : undefined;
}

export default defineRule<{ entry: string; reason: string }>({
  id: 'manifest-entry-path',
  severity: 'error',
  description: '"entry" is not a relative path to an .html file (no leading /, no .., no backslash).',
  why: 'The platform resolves the entry inside the bundle; an absolute or climbing path, or one that is not HTML, cannot load.',
  fix: 'Name an .html file relative to the bundle root, with forward slashes: "index.html".',
  message: ({ entry, reason }) => `"entry" is "${entry}": ${reason}.`,
  check: ({ manifest }) => {
    const entry = manifestString(manifest, 'entry');
    if (!entry || entry.trim() === '') return [];
    const reason = entryPathProblem(entry);
    return reason ? [atManifestKey(manifest, 'entry', { entry, reason })] : [];
  },
});

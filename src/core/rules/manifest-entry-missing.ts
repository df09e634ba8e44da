import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { entryPathProblem } from './manifest-entry-path.js';
import { defineRule } from './rule.js';

export default defineRule<{ entry: string; sameLetters?: string; htmlFiles: string[] }>({
  id: 'manifest-entry-missing',
  severity: 'error',
  description: 'The file named by "entry" is not in the bundle.',
  message: ({ entry, sameLetters, htmlFiles }) =>
    sameLetters
      ? `"entry" is "${entry}", but the bundle has "${sameLetters}"; names are case-sensitive. Make them match.`
      : `"entry" is "${entry}", but there is no such file in the bundle.` +
        (htmlFiles.length > 0 ? ` HTML files present: ${htmlFiles.slice(0, 5).join(', ')}.` : ' Add the page, or correct the name.'),
  check: ({ manifest, files }) => {
    const entry = manifestString(manifest, 'entry');
    if (!entry || entry.trim() === '' || entryPathProblem(entry)) return [];
    if (files.some((f) => f.path === entry)) return [];
    const sameLetters = files.find((f) => f.path.toLowerCase() === entry.toLowerCase())?.path;
    const htmlFiles = files.filter((f) => f.path.toLowerCase().endsWith('.html')).map((f) => f.path);
    return [atManifestKey(manifest, 'entry', { entry, htmlFiles, ...(sameLetters ? { sameLetters } : {}) })];
  },
});

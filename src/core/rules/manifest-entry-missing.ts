import type { ExcludedEntry } from '../shipment/left-out.js';
import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { entryPathProblem } from './manifest-entry-path.js';
import { leftOutCause, leftOutData } from './left-out-cause.js';
import { defineRule } from './rule.js';

export default defineRule<{ entry: string; sameLetters?: string; otherForm?: string; htmlFiles: string[]; leftOut?: ExcludedEntry }>({
  id: 'manifest-entry-missing',
  severity: 'error',
  description: 'The file named by "entry" is not in the bundle.',
  why: 'The host would load a page that does not exist: the tool opens blank.',
  fix: 'Add the file, or correct "entry" (names are case-sensitive).',
  message: ({ entry, sameLetters, otherForm, htmlFiles, leftOut }) =>
    leftOut
      ? `"entry" is "${entry}", which is in the folder but does not ship: ${leftOutCause(leftOut)}`
      : otherForm
      ? `"entry" is "${entry}", which names "${otherForm}" only in another Unicode form, and servers compare names byte for byte. Bundles store names composed (NFC), as \`pipeline-tool pack\` writes them: type the entry's accented letters again so they are composed.`
      : sameLetters
        ? `"entry" is "${entry}", but the bundle has "${sameLetters}"; names are case-sensitive. Make them match.`
        : `"entry" is "${entry}", but there is no such file in the bundle.` +
          (htmlFiles.length > 0 ? ` HTML files present: ${htmlFiles.slice(0, 5).join(', ')}.` : ' Add the page, or correct the name.'),
  check: ({ manifest, files, source, excluded }) => {
    const entry = manifestString(manifest, 'entry');
    if (!entry || entry.trim() === '' || entryPathProblem(entry)) return [];
    // pack stores a folder's names in Unicode NFC, so a folder is judged by the names its zip will
    // have; otherwise a folder could pass while the zip packed from it fails, or the other way round.
    const stored = (path: string) => (source.kind === 'folder' ? path.normalize('NFC') : path);
    if (files.some((f) => stored(f.path) === entry)) return [];
    const otherForm = files.find((f) => f.path.normalize('NFC') === entry.normalize('NFC'))?.path;
    const sameLetters = otherForm ? undefined : files.find((f) => f.path.toLowerCase() === entry.toLowerCase())?.path;
    const htmlFiles = files.filter((f) => f.path.toLowerCase().endsWith('.html')).map((f) => f.path);
    const leftOut = leftOutData(excluded, entry);
    return [atManifestKey(manifest, 'entry', { entry, htmlFiles, ...leftOut, ...(otherForm ? { otherForm } : sameLetters ? { sameLetters } : {}) })];
  },
});

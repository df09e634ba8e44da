import { showName } from '../format-bytes.js';
import type { BundleEntry } from '../shipment/source.js';
import { defineRule } from './rule.js';

type How = 'exact' | 'case' | 'unicode' | 'file-and-folder';

const HOW: Record<How, string> = {
  exact: 'has the same name as',
  case: 'differs only in letter case from',
  unicode: 'differs only in Unicode normalisation from',
  'file-and-folder': 'is a file but is also used as a folder by',
};

/** Two names that extract to the same file on some system, or that some readers would merge. */
export default defineRule<{ other: string; how: How }>({
  id: 'path-duplicate',
  severity: 'error',
  locked: true,
  description: 'Two entries would extract to the same path (exactly, by letter case, by Unicode normalisation, or file vs folder).',
  why: 'When unpacked, one entry would overwrite the other, on some systems or all.',
  fix: 'Rename one of them, or remove the copy.',
  message: ({ other, how }, file) =>
    how === 'exact'
      ? `This name appears twice in the archive; extractors keep either copy. Keep one.`
      : how === 'file-and-folder'
        ? `This entry is a file, but "${showName(other)}" uses it as a folder; extracting one fails or overwrites the other. Rename one of them.`
        : file?.endsWith('/')
          ? `This folder ${HOW[how]} "${showName(other)}"; on case-insensitive or normalising systems the two become one folder, and paths spelled the other way stop working. Use one spelling.`
          : `This entry ${HOW[how]} "${showName(other)}"; on case-insensitive or normalising systems one overwrites the other. Keep one, or rename.`,
  check: ({ source }) => {
    const hits: { file: string; data: { other: string; how: How } }[] = [];
    type Seen = Pick<BundleEntry, 'path' | 'kind'>;
    const seen: Record<'exact' | 'unicode' | 'case', Map<string, Seen>> = { exact: new Map(), unicode: new Map(), case: new Map() };
    const files = new Map<string, Seen>();
    for (const entry of withImpliedFolders(source.entries)) {
      const bare = entry.path.replace(/\/$/, '');
      const keys = { exact: bare, unicode: bare.normalize('NFC'), case: bare.normalize('NFC').toLowerCase() };
      const how = (['exact', 'unicode', 'case'] as const).find((kind) => seen[kind].has(keys[kind]));
      const earlier = how ? seen[how].get(keys[how])! : undefined;
      // A file against a folder of the same name is reported below, on the file.
      if (how && earlier && (earlier.kind === 'directory') === (entry.kind === 'directory')) {
        hits.push({ file: entry.path, data: { other: earlier.path, how } });
      }
      for (const kind of ['exact', 'unicode', 'case'] as const) if (!seen[kind].has(keys[kind])) seen[kind].set(keys[kind], entry);
      if (entry.kind !== 'directory' && !files.has(keys.case)) files.set(keys.case, entry);
    }
    const reported = new Set<string>();
    for (const entry of source.entries) {
      const segments = entry.path.replace(/\/$/, '').normalize('NFC').toLowerCase().split('/');
      // A folder entry is a folder itself; a file only makes folders of its parents. Every file
      // along the way is named (`a` and `a/b` for `a/b/c.js`), each once.
      const depth = entry.kind === 'directory' ? segments.length : segments.length - 1;
      for (let i = 1; i <= depth; i++) {
        const file = files.get(segments.slice(0, i).join('/'));
        if (file && file !== entry && !reported.has(file.path)) {
          reported.add(file.path);
          hits.push({ file: file.path, data: { other: entry.path, how: 'file-and-folder' } });
        }
      }
    }
    return hits;
  },
});

/**
 * The entries plus every folder their paths imply but the bundle does not list. A zip needs no
 * folder entries, yet "a/x.js" and "A/y.js" still make two folders that a case-insensitive system
 * merges; a folder on disk lists both, so without this a zip and the folder it was packed from
 * would get different verdicts.
 */
function withImpliedFolders(entries: readonly BundleEntry[]): Pick<BundleEntry, 'path' | 'kind'>[] {
  const listed = new Set(entries.map((entry) => entry.path));
  const result: Pick<BundleEntry, 'path' | 'kind'>[] = [];
  for (const entry of entries) {
    const segments = entry.path.replace(/\/$/, '').split('/');
    for (let i = 1; i < segments.length; i++) {
      const folder = `${segments.slice(0, i).join('/')}/`;
      if (listed.has(folder)) continue;
      listed.add(folder);
      result.push({ path: folder, kind: 'directory' });
    }
    result.push(entry);
  }
  return result;
}

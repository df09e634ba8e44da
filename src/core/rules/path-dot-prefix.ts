import { allDotPrefixed, ROOT_ENTRY } from '../paths.js';
import { defineRule } from './rule.js';

/**
 * `bsdtar -a -cf x.zip .` stores every name as "./name", and jar lists the root as "./". Whether
 * the marketplace finds "./manifest.json" is unknown, so the bundle is refused, but once, with the
 * cause, instead of a path-unsafe finding per entry.
 */
export default defineRule<{ count: number; all: boolean }>({
  id: 'path-dot-prefix',
  severity: 'error',
  locked: true,
  description: 'Names start with ./ (bsdtar run on ".") or the root folder is listed as ./ (jar).',
  why: 'Whether the marketplace finds ./manifest.json is not known; every reader that does not strip ./ would see no manifest and no entry page.',
  fix: 'Zip the tool folder\'s contents with pipeline-tool pack, which stores plain relative names.',
  message: ({ count, all }) =>
    all
      ? `Every name in the archive starts with ./ (${count} entries), as \`bsdtar -a -cf x.zip .\` writes them; whether the marketplace finds ./manifest.json is unknown. Zip the folder's contents with plain names: \`pipeline-tool pack <folder>\`.`
      : 'The archive lists its root folder as an entry named ./ (as jar writes it); extractors treat it differently. Build the bundle with `pipeline-tool pack <folder>`.',
  // With every name under "./", no plain name resolves: the manifest, and every file a page refers
  // to, look missing. This finding is their cause and names the fix; a file missing under its
  // "./" name too is still reported.
  supersedes: ({ data }, { source }) =>
    data.all
      ? (other) =>
          other.ruleId === 'manifest-missing' ||
          (other.ruleId === 'reference-missing' && typeof other.data['resolved'] === 'string' && source.entries.some((entry) => entry.path === `./${other.data['resolved'] as string}`))
      : undefined,
  check: ({ source }) => {
    const paths = source.entries.map((entry) => entry.path);
    if (allDotPrefixed(paths)) return [{ data: { count: paths.length, all: true } }];
    return paths.includes(ROOT_ENTRY) ? [{ file: ROOT_ENTRY, data: { count: 1, all: false } }] : [];
  },
});

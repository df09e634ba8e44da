import { allDotPrefixed, MANIFEST_PATH } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<{ nested?: string; wrongCase?: string; folder?: boolean }>({
  id: 'manifest-missing',
  severity: 'error',
  locked: true,
  description: 'There is no manifest.json at the root of the bundle.',
  why: "The platform reads the tool's name, type, version and entry page from manifest.json at the root; without it the upload is refused.",
  fix: 'Put manifest.json at the root of the bundle (pack the folder that holds it, not its parent).',
  message: ({ nested, wrongCase, folder }) =>
    nested && folder
      ? `manifest.json is not here but at ${nested}: this is the folder around the tool. Check the tool folder itself: \`pipeline-tool validate ${nested.split('/')[0]}\`.`
      : nested
      ? `manifest.json is not at the root but at ${nested}: you zipped the folder, not its contents. Zip the files inside the folder, or run \`pipeline-tool pack ${nested.split('/')[0]}\`.`
      : wrongCase
        ? `There is no manifest.json at the root, only ${wrongCase}. Rename it to manifest.json (all lower case).`
        : 'There is no manifest.json at the root of the bundle. Add one (`pipeline-tool init` creates a complete tool), then pack again.',
  // Names that all start with "./" are path-dot-prefix's finding, which says what to do.
  check: ({ manifest, source }) =>
    manifest.status === 'missing' && !allDotPrefixed(source.entries.map((entry) => entry.path))
      ? [
          {
            file: MANIFEST_PATH,
            data: {
              ...(manifest.nested ? { nested: manifest.nested, ...(source.kind === 'folder' ? { folder: true } : {}) } : {}),
              ...(manifest.wrongCase ? { wrongCase: manifest.wrongCase } : {}),
            },
          },
        ]
      : [],
});

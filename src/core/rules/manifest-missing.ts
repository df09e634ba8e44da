import { MANIFEST_PATH } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<{ nested?: string; wrongCase?: string; folder?: boolean; kind?: 'symlink' | 'other' }>({
  id: 'manifest-missing',
  severity: 'error',
  locked: true,
  description: 'There is no manifest.json at the root of the bundle.',
  why: "The platform reads the tool's name, type, version and entry page from manifest.json at the root; without it the upload is refused.",
  fix: 'Put manifest.json at the root of the bundle (pack the folder that holds it, not its parent).',
  message: ({ nested, wrongCase, folder, kind }) =>
    kind === 'symlink'
      ? folder
        ? 'manifest.json is a symbolic link, and pack never follows links, so the bundle would have no manifest. Replace the link with the file it points to.'
        : 'manifest.json is stored as a symbolic link, not as a file: extractors write a link (or nothing), never the manifest it points to. Put the file itself in the bundle, for example with `pipeline-tool pack`, which never follows links.'
      : kind === 'other'
        ? 'manifest.json is not a regular file (a device, a pipe, or an entry whose type contradicts its name), so no manifest can be read from it. Put the file itself in the bundle.'
        : nested && folder
          ? `manifest.json is not here but at ${nested}: this is the folder around the tool. Check the tool folder itself: \`pipeline-tool validate ${nested.split('/')[0]}\`.`
          : nested
            ? `manifest.json is not at the root but at ${nested}: you zipped the folder, not its contents. Zip the files inside the folder, or run \`pipeline-tool pack ${nested.split('/')[0]}\`.`
            : wrongCase
              ? `There is no manifest.json at the root, only ${wrongCase}. Rename it to manifest.json (all lower case).`
              : 'There is no manifest.json at the root of the bundle. Add one (`pipeline-tool init` creates a complete tool), then pack again.',
  // A manifest that is a link is one problem: this message says what entry-not-regular would.
  supersedes: ({ data, file }) => (data.kind ? (other) => other.ruleId === 'entry-not-regular' && other.file === file : undefined),
  check: ({ manifest, source }) =>
    manifest.status === 'missing'
      ? [
          {
            file: MANIFEST_PATH,
            data: {
              ...(manifest.nested ? { nested: manifest.nested } : {}),
              ...(manifest.nested || manifest.kind ? (source.kind === 'folder' ? { folder: true } : {}) : {}),
              ...(manifest.wrongCase ? { wrongCase: manifest.wrongCase } : {}),
              ...(manifest.kind ? { kind: manifest.kind } : {}),
            },
          },
        ]
      : [],
});

import { defineRule } from './rule.js';

/** Symbolic links and special files: extracting them can write outside the tool's folder. */
export default defineRule<{ kind: string }>({
  id: 'entry-not-regular',
  severity: 'error',
  locked: true,
  description: 'An entry is a symbolic link or another special file, not a regular file or folder.',
  why: 'Links and special files can point outside the bundle when unpacked.',
  fix: 'Replace the link with the file itself (pipeline-tool pack never follows links).',
  message: ({ kind }) =>
    kind === 'symlink'
      ? 'This entry is a symbolic link. Links are never followed; copy the file it points to into the tool folder instead.'
      : 'This entry is not a regular file or folder (a device, pipe, or an entry whose type contradicts its name). Remove it.',
  check: ({ source }) =>
    source.entries.flatMap((entry) =>
      entry.kind === 'symlink' || entry.kind === 'other' ? [{ file: entry.path, data: { kind: entry.kind } }] : [],
    ),
});

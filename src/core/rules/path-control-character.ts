import { DECEPTIVE_CHARACTERS } from '../paths.js';
import { nameExplainsFileType } from './file-type.js';
import { defineRule } from './rule.js';

export default defineRule<{ codePoint: string }>({
  id: 'path-control-character',
  severity: 'error',
  locked: true,
  description: 'A path contains a control character or an invisible character that can disguise it.',
  why: 'Invisible characters can make one file look like another.',
  fix: 'Rename the file without control or invisible characters.',
  message: ({ codePoint }) =>
    `The name contains the invisible or control character ${codePoint}, which can hide its real name or extension. Rename the file.`,
  supersedes: nameExplainsFileType,
  check: ({ source }) =>
    source.entries.flatMap((entry) => {
      const match = DECEPTIVE_CHARACTERS.exec(entry.path);
      if (!match) return [];
      const codePoint = `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      return [{ file: entry.path, data: { codePoint } }];
    }),
});

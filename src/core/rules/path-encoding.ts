import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ hex: string }>({
  id: 'path-encoding',
  severity: 'error',
  locked: true,
  description: 'A file name is not valid UTF-8.',
  why: 'A name that is not UTF-8 unpacks differently on every system.',
  fix: 'Rename the file, then pack again.',
  message: ({ hex }) =>
    `The name's bytes (${hex}) are not valid UTF-8, so each system shows it differently. Rename the file using plain characters.`,
});

import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ fields: string[] }>({
  id: 'archive-header-mismatch',
  severity: 'error',
  locked: true,
  description: "An entry's local header disagrees with the central directory.",
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ fields }) =>
    `The entry's local header disagrees with the central directory on: ${fields.join(', ')}. Readers that trust one or the other would extract different things; build the bundle again.`,
});

import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reason: string }>({
  id: 'archive-corrupt-data',
  severity: 'error',
  locked: true,
  description: "An entry's compressed data cannot be inflated.",
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ reason }) => `The entry cannot be decompressed: ${reason}. Build the bundle again.`,
});

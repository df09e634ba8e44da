import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ claimed: number; found: number }>({
  id: 'archive-entry-count',
  severity: 'error',
  locked: true,
  description: "The central directory holds a different number of entries than the archive's end record claims.",
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ claimed, found }) =>
    `The archive claims ${claimed} entries but its directory holds ${found}; readers that trust the count ${found > claimed ? 'miss the hidden ones' : 'disagree'}. Build the bundle again.`,
});

import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<Record<string, never>>({
  id: 'archive-encrypted',
  severity: 'error',
  locked: true,
  description: 'An entry is encrypted.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: () => 'This entry is encrypted; the marketplace cannot read it. Zip the files without a password.',
});

import { showName } from '../format-bytes.js';
import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ other: string; offset: number }>({
  id: 'archive-overlap',
  severity: 'error',
  locked: true,
  description: 'Two entries (or an entry and the central directory) share bytes, a zip-bomb technique.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ other, offset }) =>
    `This entry overlaps ${other === 'the central directory' ? other : `"${showName(other)}"`} at offset ${offset}. Overlapping entries are how zip bombs multiply their size; no zip tool writes them. Build the bundle again.`,
});

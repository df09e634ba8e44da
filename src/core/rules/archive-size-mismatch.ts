import { formatBytes } from '../format-bytes.js';
import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ declared: number; actual: number; atLeast: boolean }>({
  id: 'archive-size-mismatch',
  severity: 'error',
  locked: true,
  description: 'An entry inflates to a different size than its header declares.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ declared, actual, atLeast }) =>
    atLeast
      ? `The entry inflates to more than the ${formatBytes(declared)} its header declares (inflation stopped there). Headers that understate sizes are a zip-bomb technique; build the bundle again.`
      : `The entry inflates to ${formatBytes(actual)}, not the ${formatBytes(declared)} its header declares. Build the bundle again.`,
});

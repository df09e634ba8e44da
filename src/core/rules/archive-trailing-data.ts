import { formatBytes } from '../format-bytes.js';
import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ bytes: number }>({
  id: 'archive-trailing-data',
  severity: 'error',
  locked: true,
  description: 'Data follows the end of the archive.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ bytes }) => `${formatBytes(bytes)} of data follow the end of the archive. Build the bundle again; do not append to it.`,
});

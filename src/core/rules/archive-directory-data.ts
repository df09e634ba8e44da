import { formatBytes } from '../format-bytes.js';
import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

/** A folder entry with content: some extractors write a file, some a folder, some fail. */
export default defineCollectedRule<{ declared: number; stored: number }>({
  id: 'archive-directory-data',
  severity: 'error',
  locked: true,
  description: 'A directory entry (a name ending in /) carries data.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ declared, stored }) =>
    `This folder entry carries data (${formatBytes(declared)} declared, ${formatBytes(stored)} stored). Extractors disagree on what to make of it: a file, a folder, or an error. Build the bundle again, for example with \`pipeline-tool pack\`.`,
});

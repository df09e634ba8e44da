import { formatBytes, showName } from '../format-bytes.js';
import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ offset: number; bytes: number; after: string }>({
  id: 'archive-hidden-data',
  severity: 'error',
  locked: true,
  description: 'Bytes that belong to no entry sit between entries or before the central directory.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ offset, bytes, after }) =>
    `${formatBytes(bytes)} at offset ${offset}, after ${after === 'the central directory' ? after : `"${showName(after)}"`}, belong to no entry. Hidden data is read by some tools and not others; build the bundle again.`,
});

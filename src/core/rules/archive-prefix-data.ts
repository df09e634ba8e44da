import { formatBytes } from '../format-bytes.js';
import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ bytes: number }>({
  id: 'archive-prefix-data',
  severity: 'error',
  locked: true,
  description: 'Data precedes the first entry (a self-extractor stub or a polyglot file).',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ bytes }) =>
    `${formatBytes(bytes)} of data come before the first entry. Bundles must be plain zips, not self-extracting or combined files; build the bundle again.`,
});

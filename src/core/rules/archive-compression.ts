import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

const NAMES: Record<number, string> = { 9: 'Deflate64', 12: 'bzip2', 14: 'LZMA', 93: 'Zstandard', 95: 'XZ', 98: 'PPMd' };

export default defineCollectedRule<{ method: number }>({
  id: 'archive-compression',
  severity: 'error',
  locked: true,
  description: 'An entry uses a compression method other than stored or deflate.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ method }) =>
    `This entry is compressed with method ${method}${NAMES[method] ? ` (${NAMES[method]})` : ''}; only stored and deflate are widely readable. Zip it with the default settings or with \`pipeline-tool pack\`.`,
});

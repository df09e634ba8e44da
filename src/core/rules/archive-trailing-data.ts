import { formatBytes } from '../format-bytes.js';
import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ bytes: number; zeros?: boolean }>({
  id: 'archive-trailing-data',
  severity: 'error',
  locked: true,
  description: 'Data follows the end of the archive.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ bytes, zeros }) =>
    zeros
      ? `${formatBytes(bytes)} of zeros follow the end of the archive: padding that tools writing to a pipe or tape add (bsdtar does). Write the zip straight to a file, for example with \`pipeline-tool pack\`.`
      : `${formatBytes(bytes)} of data follow the end of the archive. Build the bundle again; do not append to it.`,
});

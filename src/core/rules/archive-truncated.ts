import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reason: string }>({
  id: 'archive-truncated',
  severity: 'error',
  locked: true,
  description: 'The archive is cut short: its structures point past the end of the file.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ reason }) => `The archive is truncated: ${reason}. The upload or download was probably interrupted; build the bundle again.`,
});

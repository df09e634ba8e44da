import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reason: string }>({
  id: 'archive-corrupt',
  severity: 'error',
  locked: true,
  description: "The archive's directory structures are damaged.",
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ reason }) => `The archive is damaged: ${reason}. Build the bundle again with \`pipeline-tool pack\`.`,
});

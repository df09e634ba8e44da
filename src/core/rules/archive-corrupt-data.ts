import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reason: string }>({
  id: 'archive-corrupt-data',
  severity: 'error',
  locked: true,
  description: "An entry's compressed data cannot be inflated.",
  message: ({ reason }) => `The entry cannot be decompressed: ${reason}. Build the bundle again.`,
});

import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reason: string }>({
  id: 'archive-corrupt',
  severity: 'error',
  locked: true,
  description: "The archive's directory structures are damaged.",
  message: ({ reason }) => `The archive is damaged: ${reason}. Build the bundle again with \`pipeline-tool pack\`.`,
});

import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ detail: string }>({
  id: 'json-syntax',
  severity: 'error',
  description: 'A .json file (other than manifest.json) or an inline JSON script block is not valid JSON.',
  message: ({ detail }) => `This is not valid JSON: ${detail}. JSON.parse and fetch().json() will throw on it.`,
});

import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ detail: string }>({
  id: 'json-syntax',
  severity: 'error',
  description: 'A .json file (other than manifest.json) or an inline JSON script block is not valid JSON.',
  why: 'The tool fails when it reads the file at run time.',
  fix: 'Fix the JSON at the position given: no comments, no trailing commas, double quotes.',
  message: ({ detail }) => `This is not valid JSON: ${detail}. JSON.parse and fetch().json() will throw on it.`,
});

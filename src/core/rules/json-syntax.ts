import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ detail: string }>({
  id: 'json-syntax',
  severity: 'error',
  description:
    'A `.json` file (other than `manifest.json`, which has its own rules) or an inline JSON `<script>` (`application/json`, `importmap`, `application/ld+json`) is not valid JSON; the position is given.',
  why: 'The tool fails when it reads the file at run time.',
  fix: 'Fix the JSON (no comments, no trailing commas, double quotes).',
  message: ({ detail }) => `This is not valid JSON: ${detail}. JSON.parse and fetch().json() will throw on it.`,
});

import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ message: string }>({
  id: 'js-syntax',
  severity: 'error',
  description: 'A script (a .js file, an inline <script>, a module) has a syntax error, so the browser runs none of it.',
  message: ({ message }) =>
    `This script has a syntax error (${message}), so the browser refuses the whole file and none of it runs: the tool stays at "Connecting…" or loses what this script does. Fix the code at this position.`,
});

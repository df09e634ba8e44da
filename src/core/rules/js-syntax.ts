import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ message: string }>({
  id: 'js-syntax',
  severity: 'error',
  description:
    'A script (a `.js` file, an inline `<script>`, a `type="module"` script or module file) has a syntax error as V8, Chromium\'s engine, reads it; the browser then runs none of it. Line, column and the parser\'s words are given.',
  why: 'A script the browser cannot parse runs not a line: the tool hangs at "Connecting…" or loses what the script does.',
  fix: 'Fix the code at that position.',
  message: ({ message }) =>
    `This script has a syntax error (${message}), so the browser refuses the whole file and none of it runs: the tool stays at "Connecting…" or loses what this script does. Fix the code at this position.`,
});

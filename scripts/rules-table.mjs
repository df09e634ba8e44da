// Rewrites the README's two rules tables from the rule definitions (run `npm run build` first).
// A test fails while the README differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { readmeTables } from '../dist/core/rule-docs.js';
import { rules } from '../dist/core/rules/index.js';

const file = new URL('../README.md', import.meta.url);
let readme = readFileSync(file, 'utf8');
for (const [name, table] of Object.entries(readmeTables(rules))) {
  const pattern = new RegExp(`(<!-- rules-table:${name} -->\\n)[\\s\\S]*?(\\n<!-- /rules-table -->)`);
  if (!pattern.test(readme)) throw new Error(`README.md has no <!-- rules-table:${name} --> block`);
  readme = readme.replace(pattern, (_match, start, end) => `${start}${table}${end}`);
}
writeFileSync(file, readme);

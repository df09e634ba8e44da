// Rewrites what lists the rules from the rule definitions (run `npm run build` first): the two rules
// tables of docs/rules.md, and the rule settings that schemas/config.schema.json offers editors.
// Tests fail while either differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { rulesPageTables } from '../dist/core/rule-docs.js';
import { rules } from '../dist/core/rules/index.js';

const file = new URL('../docs/rules.md', import.meta.url);
let page = readFileSync(file, 'utf8');
for (const [name, table] of Object.entries(rulesPageTables(rules))) {
  const pattern = new RegExp(`(<!-- rules-table:${name} -->\\n)[\\s\\S]*?(\\n<!-- /rules-table -->)`);
  if (!pattern.test(page)) throw new Error(`docs/rules.md has no <!-- rules-table:${name} --> block`);
  page = page.replace(pattern, (_match, start, end) => `${start}${table}${end}`);
}
writeFileSync(file, page);

// The project file's schema: one property per rule, with the settings it may take.
const schemaFile = new URL('../schemas/config.schema.json', import.meta.url);
const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
schema.definitions.rules.properties = Object.fromEntries(
  rules.map((rule) => [
    rule.id,
    {
      description: `${rule.description} ${rule.locked ? 'Locked: it cannot be turned off or down.' : `Default: ${rule.severity === 'warning' ? 'warn' : 'error'}.`}`,
      enum: rule.locked ? ['error'] : ['off', 'warn', 'error'],
    },
  ]),
);
writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);

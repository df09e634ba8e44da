import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rulesPageTables } from '../../src/core/rule-docs.js';
import { rules } from '../../src/core/rules/index.js';

describe("the rules' documentation", () => {
  it('gives every rule a why and a fix, each a sentence', () => {
    for (const rule of rules) {
      expect(rule.why, rule.id).toMatch(/^\S.*[.)]$/);
      expect(rule.fix, rule.id).toMatch(/^\S.*[.)]$/);
    }
  });

  it("keeps the tables of docs/rules.md equal to the rule definitions (node scripts/rules-table.mjs rewrites them)", () => {
    const page = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    for (const [name, table] of Object.entries(rulesPageTables(rules))) {
      expect(page).toContain(`<!-- rules-table:${name} -->\n${table}\n<!-- /rules-table -->`);
    }
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeTables } from '../../src/core/rule-docs.js';
import { rules } from '../../src/core/rules/index.js';

describe("the rules' documentation", () => {
  it('gives every rule a why and a fix, each a sentence', () => {
    for (const rule of rules) {
      expect(rule.why, rule.id).toMatch(/^\S.*[.)]$/);
      expect(rule.fix, rule.id).toMatch(/^\S.*[.)]$/);
    }
  });

  it("keeps the README's tables equal to the rule definitions (node scripts/rules-table.mjs rewrites them)", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const [name, table] of Object.entries(readmeTables(rules))) {
      expect(readme).toContain(`<!-- rules-table:${name} -->\n${table}\n<!-- /rules-table -->`);
    }
  });
});

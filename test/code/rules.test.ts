import { describe, expect, it } from 'vitest';
import { CODE_RULE_IDS } from '../../src/core/code/rule-ids.js';
import { rules } from '../../src/core/rules/index.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodFiles, goodManifest, writeFolder, writeZip } from '../helpers/bundles.js';
import { codeRuleCases, type Variant } from './rule-cases.js';

function files(variant: Variant): Record<string, string | Buffer> {
  const manifest = variant.type ? { ...goodManifest, type: variant.type } : goodManifest;
  return { ...goodFiles(manifest), ...variant.files };
}

const asFolder = (variant: Variant) => writeFolder(files(variant));
const asZip = (variant: Variant) => writeZip(Object.entries(files(variant)).map(([name, data]) => ({ name, data })));

async function problemsOf(bundle: string) {
  return (await validateBundle(bundle)).problems;
}

describe('code rules: each has a failing and a passing bundle', () => {
  for (const [id, testCase] of Object.entries(codeRuleCases)) {
    describe(id, () => {
      it.each([
        ['a folder', asFolder],
        ['a zip', asZip],
      ])('is found in %s, with its data and position', async (_kind, make) => {
        const hits = (await problemsOf(make(testCase.bad))).filter((p) => p.ruleId === id);
        expect(hits, `expected ${id}`).not.toHaveLength(0);
        const rule = rules.find((r) => r.id === id)!;
        expect(hits[0]!.severity).toBe(rule.severity);
        if (testCase.data) expect(hits[0]!.data).toMatchObject(testCase.data);
        if (testCase.at) expect({ file: hits[0]!.file, line: hits[0]!.line, column: hits[0]!.column }).toEqual(testCase.at);
        if (testCase.message) expect(hits[0]!.message).toBe(testCase.message);
      });

      it.each(Object.entries(testCase.alsoBad ?? {}))('is found when written as: %s', async (_name, variant) => {
        const hits = (await problemsOf(asFolder(variant))).filter((p) => p.ruleId === id);
        expect(hits, `expected ${id}`).not.toHaveLength(0);
        if (variant.data) expect(hits[0]!.data).toMatchObject(variant.data);
      });

      it('is not found in the near-identical good bundle', async () => {
        const problems = await problemsOf(asFolder(testCase.good));
        expect(problems.map((p) => p.ruleId)).not.toContain(id);
      });

      it.each(Object.entries(testCase.falsePositives))('stays silent: %s', async (_name, variant) => {
        const problems = await problemsOf(asFolder(variant));
        expect(problems.map((p) => `${p.ruleId} ${p.file}:${p.line}`)).toEqual([]);
      });
    });
  }
});

describe('the code rules in the registry', () => {
  it('every id the scanners report is a registered rule with a case here', () => {
    const registered = rules.map((r) => r.id);
    for (const id of CODE_RULE_IDS) {
      expect(registered).toContain(id);
      expect(Object.keys(codeRuleCases)).toContain(id);
    }
  });

  it('the clean tool has no problem at all', async () => {
    expect(await problemsOf(writeFolder(goodFiles()))).toEqual([]);
  });

  it("the code checks table of docs/rules.md has a row for every code rule", async () => {
    const { readFileSync } = await import('node:fs');
    const docs = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    const missing = CODE_RULE_IDS.filter((id) => !docs.includes(`| \`${id}\` |`));
    expect(missing).toEqual([]);
  });
});

import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ruleHelpUri } from '../../src/core/rule-docs.js';
import { rules as registry } from '../../src/core/rules/index.js';
import { validateBundle } from '../../src/core/validate.js';
import pipeline from '../../src/eslint/index.js';
import { goodFiles, goodManifest, tempDir, writeFolder } from '../helpers/bundles.js';
import { codeRuleCases, type Variant } from '../code/rule-cases.js';
import { LANGUAGES, toolFolder } from './languages.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const IDS = ['dialog-call', 'browser-storage', 'unsafe-html', 'bridge-tool-type', 'bridge-unknown-method', 'bridge-deprecated', 'bridge-literal-range'];

describe('the plugin object', () => {
  it('has a rule for every code rule that reads a script on its own, each linking to its README entry', () => {
    expect(Object.keys(pipeline.rules).sort()).toEqual([...IDS].sort());
    for (const id of IDS) {
      const docs = pipeline.rules[id]!.meta!.docs!;
      expect(docs.url).toBe(ruleHelpUri(id));
      expect(docs.description).toBe(registry.find((rule) => rule.id === id)!.description);
    }
    expect(pipeline.meta.name).toBe('pipeline-tool');
  });

  it('recommended turns every rule on at the severity validate gives it', () => {
    const [config] = pipeline.configs.recommended;
    expect(pipeline.configs.recommended).toHaveLength(1);
    expect(config!.plugins!['pipeline-tool']).toBe(pipeline);
    const expected = Object.fromEntries(IDS.map((id) => [`pipeline-tool/${id}`, registry.find((rule) => rule.id === id)!.severity === 'error' ? 'error' : 'warn']));
    expect(config!.rules).toEqual(expected);
    expect(config!.rules!['pipeline-tool/bridge-tool-type']).toBe('error');
    expect(config!.rules!['pipeline-tool/browser-storage']).toBe('warn');
  });
});

/** app.js alone: the planted mistakes and lookalikes that are one script, not a page. */
function scriptOnly(variant: Variant): string | undefined {
  const names = Object.keys(variant.files);
  return names.includes('app.js') && names.every((name) => name === 'app.js' || name === 'index.html') && !variant.files['index.html']?.includes('<script>') ? variant.files['app.js'] : undefined;
}

/** What validate reports for rule `id` in app.js, as lines and messages. */
async function validated(variant: Variant, id: string): Promise<Array<{ line: number; column: number; message: string }>> {
  const manifest = variant.type ? { ...goodManifest, type: variant.type } : goodManifest;
  const report = await validateBundle(writeFolder({ ...goodFiles(manifest), ...variant.files }));
  return report.problems.filter((p) => p.ruleId === id && p.file === 'app.js').map((p) => ({ line: p.line!, column: p.column!, message: p.message }));
}

interface Planted {
  name: string;
  code: string;
  type: string;
  expected: Array<{ line: number; column: number; message: string }>;
}

// Every variant, with what validate says of it, worked out before the cases are declared.
const root = tempDir('pipeline-tool-eslint-');
const planted = new Map<string, Planted[]>();
for (const id of IDS) {
  const testCase = codeRuleCases[id]!;
  const variants: Array<[string, Variant]> = [
    ['the bad bundle', testCase.bad],
    ...Object.entries(testCase.alsoBad ?? {}),
    ['the good bundle', testCase.good],
    ...Object.entries(testCase.falsePositives),
  ];
  const list: Planted[] = [];
  for (const [name, variant] of variants) {
    const code = scriptOnly(variant);
    if (code === undefined) continue;
    list.push({ name, code, type: variant.type ?? goodManifest.type, expected: await validated(variant, id) });
  }
  planted.set(id, list);
}

describe('each planted mistake of the code checks, written in TS, TSX and Vue, is reported where validate reports it', () => {
  it('the cases include mistakes and lookalikes for every rule', () => {
    for (const id of IDS) {
      const list = planted.get(id)!;
      expect(list.some((one) => one.expected.length > 0), id).toBe(true);
      expect(list.some((one) => one.expected.length === 0), id).toBe(true);
    }
  });

  for (const language of LANGUAGES) {
    for (const id of IDS) {
      const cases = planted.get(id)!.map((one) => ({
        name: `${language.name}: ${one.name}`,
        code: language.wrap(one.code),
        filename: path.join(toolFolder(root, one.type), language.file),
        languageOptions: language.languageOptions,
        expected: one.expected.map(({ line, column, message }) => ({ line: line + language.shift, column, message })),
      }));
      new RuleTester().run(`${id} in ${language.name}`, pipeline.rules[id]!, {
        valid: cases.filter((one) => one.expected.length === 0).map(({ name, code, filename, languageOptions }) => ({ name, code, filename, languageOptions })),
        invalid: cases.filter((one) => one.expected.length > 0).map(({ name, code, filename, languageOptions, expected }) => ({ name, code, filename, languageOptions, errors: expected })),
      });
    }
  }
});

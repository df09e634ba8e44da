import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rules } from '../../src/core/rules/index.js';
import { validateBundle } from '../../src/core/validate.js';
import { ruleCases } from './rule-cases.js';

const ownCases = rules.filter((rule) => ruleCases[rule.id]);

describe('every rule has a failing and a passing bundle, and says what it found in its own words', () => {
  it.each(ownCases.map((rule) => [rule.id]))('%s', async (id) => {
    const testCase = ruleCases[id]!;
    const bad = await validateBundle(testCase.bad());
    const hits = bad.problems.filter((p) => p.ruleId === id);
    expect(hits, `expected ${id} in ${JSON.stringify(bad.problems.map((p) => p.ruleId))}`).not.toHaveLength(0);
    if (testCase.data) expect(hits.some((hit) => Object.entries(testCase.data!).every(([k, v]) => JSON.stringify(hit.data?.[k]) === JSON.stringify(v)))).toBe(true);
    if (testCase.message) expect(hits.map((hit) => hit.message)).toContain(testCase.message);
    const good = await validateBundle(testCase.good());
    expect(good.problems.map((p) => p.ruleId)).not.toContain(id);
  });
});

describe('the registry', () => {
  it('ids are kebab-case, unique and equal to their file names', async () => {
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      const file = (await import(`../../src/core/rules/${id}.ts`)) as { default: { id: string } };
      expect(file.default.id).toBe(id);
    }
  });

  it('every rule has a case in rule-cases.ts or in the code-check tests', () => {
    const codeCases = readCodeCaseIds();
    const missing = rules.map((r) => r.id).filter((id) => !ruleCases[id] && !codeCases.has(id));
    expect(missing).toEqual([]);
  });

  it('every rule has a row in the rules table of docs/rules.md', () => {
    const page = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    const missing = rules.map((r) => r.id).filter((id) => !page.includes(`| \`${id}\` |`));
    expect(missing).toEqual([]);
  });
});

/** Rule ids that the code-check tests (test/code) cover with their own fixtures. */
function readCodeCaseIds(): Set<string> {
  try {
    const text = readFileSync(new URL('../code/rule-cases.ts', import.meta.url), 'utf8');
    return new Set([...text.matchAll(/^ {2}'([a-z0-9-]+)': \{/gm)].map((m) => m[1]!));
  } catch {
    return new Set();
  }
}

describe('manifest-description counts sentences as a reader would', () => {
  const sentencesIn = async (description: string) => {
    const { goodFiles, goodManifest, writeFolder } = await import('../helpers/bundles.js');
    const report = await validateBundle(writeFolder({ ...goodFiles(), 'manifest.json': JSON.stringify({ ...goodManifest, description }) }));
    const hit = report.problems.find((p) => p.ruleId === 'manifest-description');
    return hit ? (hit.data as { sentences: number }).sentences : 1;
  };

  it.each([
    ['Works with e.g. Acme Inc. products.', 1],
    ['Prices jobs for J. Smith & Co. Ltd. crews, i.e. Fitters.', 1],
    ['Counts 3 vs. 4 sites.', 1],
    ['Estimates kitchens. Also bathrooms.', 2],
    ['Estimates kitchens! Bathrooms too? Yes.', 3],
    ['Ends with a stop... Then more.', 2],
    ['Plan A? Then B.', 2],
    ['Plan A... Then B.', 2],
  ])('%j reads as %i', async (description, expected) => {
    expect(await sentencesIn(description)).toBe(expected);
  });
});

import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyMutations,
  bombCase,
  buildBase,
  byteString,
  CENTRAL_FIELDS,
  DESCRIPTOR_FIELDS,
  EOCD_FIELDS,
  LOCAL_FIELDS,
  parseLayout,
  validBaseZip,
  zipCase,
  type BaseZip,
  type Mutation,
} from './arbitraries.js';
import { checkAcceptedMeansReadable, checkBomb, checkByteString, checkCleanBase, checkCli, checkMutatedZip, checkValidateNeverBreaks } from './checks.js';
import { fuzzProperty, isSelected } from './harness.js';

function requireBuiltCli(): void {
  if (!existsSync(new URL('../../dist/cli/main.cjs', import.meta.url))) throw new Error('dist/cli/main.cjs is missing: run `npm run build` first');
}

/*
 * Property 1: validate never breaks. For any input file it returns a report (exit 0 or 1 from
 * the CLI), never throws out of the library, never prints a stack trace, answers within
 * TIME_BOUND_MS per case, and never has more inflated bytes handed to it than its budget.
 */
describe('validate never breaks', () => {
  fuzzProperty('validate/mutated-zip', zipCase, checkMutatedZip, { ciRuns: 350 });

  fuzzProperty('validate/bytes', byteString, checkByteString, { ciRuns: 300 });

  fuzzProperty('validate/bomb', bombCase, checkBomb, { ciRuns: 4, campaignShare: 0.01, timeout: 60_000 });

  // Not part of the guarantee itself, but it keeps the others honest: mutations start from bundles
  // that really are clean, so any problem validate reports was caused by the mutation.
  fuzzProperty('validate/clean-base', fc.record({ base: validBaseZip, mutations: fc.constant<Mutation[]>([]) }), checkCleanBase, { ciRuns: 100, campaignShare: 0.1 });

  // A gate is only as good as its agreement with the reader on the other side.
  fuzzProperty('validate/accepted-means-readable', zipCase, checkAcceptedMeansReadable, { ciRuns: 100, campaignShare: 0.5 });

  // Spawning the binary costs a few hundred milliseconds, so this sees far fewer cases.
  fuzzProperty(
    'validate/cli',
    fc.tuple(fc.oneof(fc.record({ zip: zipCase }), byteString), fc.constantFrom('text', 'json', 'github')),
    ([input, format]) => checkCli(input, format),
    { ciRuns: 20, campaignShare: 0.02, timeout: 60_000, precondition: requireBuiltCli },
  );
});

/*
 * The same guarantee, swept exhaustively instead of sampled: every truncation point near a
 * structure boundary, and every header field set to each edge value, on a few fixed bundles.
 */
describe('validate never breaks: exhaustive sweeps', () => {
  const bases: Record<string, BaseZip> = {
    'deflated, no descriptors': {
      files: [
        { name: 'manifest.json', body: { text: '{"name":"A","shortName":"A","type":"standalone","version":"1.0.0","description":"A.","entry":"index.html"}' }, method: 8 },
        { name: 'index.html', body: { text: '<!doctype html><p>hi</p>' }, method: 8 },
        { name: 'img/café logo.png', body: { zeros: 5000 }, method: 8 },
      ],
    },
    'stored, with descriptors': {
      files: [
        { name: 'manifest.json', body: { text: '{"name":"A","shortName":"A","type":"standalone","version":"1.0.0","description":"A.","entry":"index.html"}' }, method: 0, descriptor: 'signed' },
        { name: 'index.html', body: { text: '<!doctype html><p>hi</p>' }, method: 0, descriptor: 'unsigned', unixMode: 0o100644 },
      ],
    },
  };
  const sweep = isSelected('validate/sweep') ? it : it.skip;

  for (const [label, base] of Object.entries(bases)) {
    sweep(`every truncation around a boundary (${label})`, async () => {
      const zip = buildBase(base);
      expect((await checkValidateNeverBreaks(zip)).ok).toBe(true);
      const cuts = new Set(parseLayout(zip).boundaries.flatMap((b) => [b - 1, b, b + 1]).filter((c) => c >= 0 && c < zip.length));
      for (const cut of cuts) {
        const report = await checkValidateNeverBreaks(zip.subarray(0, cut));
        expect(report.ok, `cut at ${cut}`).toBe(false);
      }
    });

    sweep(`every header field set to every edge value (${label})`, async () => {
      const zip = buildBase(base);
      const count = base.files.length;
      const edges = [0, 1, 0x7f, 0x80, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff];
      const mutations: Mutation[] = [];
      for (let entry = 0; entry < count; entry++) {
        for (const field of Object.keys(LOCAL_FIELDS)) mutations.push(...edges.map((abs) => ({ op: 'set' as const, where: { in: 'local' as const, entry, field }, value: { abs } })));
        for (const field of Object.keys(CENTRAL_FIELDS)) mutations.push(...edges.map((abs) => ({ op: 'set' as const, where: { in: 'central' as const, entry, field }, value: { abs } })));
        for (const field of Object.keys(DESCRIPTOR_FIELDS) as (keyof typeof DESCRIPTOR_FIELDS)[]) {
          mutations.push(...edges.map((abs) => ({ op: 'set' as const, where: { in: 'descriptor' as const, entry, field }, value: { abs } })));
        }
      }
      for (const field of Object.keys(EOCD_FIELDS) as (keyof typeof EOCD_FIELDS)[]) {
        mutations.push(...edges.map((abs) => ({ op: 'set' as const, where: { in: 'eocd' as const, field }, value: { abs } })));
      }
      for (const m of mutations) {
        const mutated = applyMutations(zip, [m]);
        await checkValidateNeverBreaks(mutated).catch((error: Error) => {
          throw new Error(`${JSON.stringify(m)}: ${error.message}`);
        });
      }
    });
  }
});

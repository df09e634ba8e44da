import fc from 'fast-check';
import { describe } from 'vitest';
import { cleanFolder, wildFolder } from './arbitraries.js';
import { fuzzProperty } from './harness.js';
import { checkDeterministic, checkNothingLost, checkSameVerdict, type DeterminismCase } from './pack-checks.js';

/*
 * Properties 2 to 4: pack is a build step that must agree with validate, lose nothing, and give the
 * same bytes for the same folder. The precise statements are on the checks in pack-checks.ts.
 */
describe('pack', () => {
  // A few folders hold a 10 MB photo (to test the zip size at the limit), which takes seconds on a busy machine.
  fuzzProperty('pack/same-verdict', wildFolder, checkSameVerdict, { ciRuns: 60, campaignShare: 0.25, timeout: 180_000 });

  // Each case writes, packs and re-reads a whole folder (a quarter of a second), so fewer runs here.
  fuzzProperty('pack/nothing-lost', cleanFolder, checkNothingLost, { ciRuns: 50, campaignShare: 0.2, timeout: 180_000 });

  // More files than any generated folder holds, so every file gets its own order, time, mode and form.
  const perFile = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: 30, maxLength: 30 });
  // Names whose order depends on letter case and normal form; none clash with another when folded.
  const sortSensitive = fc.subarray(['é.js', 'f.js', 'E2.js', 'Ä/b.css', 'a/B.css', 'z.svg', 'Ω.json', 'ö.png', 'O.png'], { minLength: 2 });
  const determinism: fc.Arbitrary<DeterminismCase> = fc.record({
    folder: fc.tuple(cleanFolder, sortSensitive).map(([folder, names]) => ({
      ...folder,
      files: [
        ...folder.files.filter((f) => !names.some((n) => n.toLowerCase().split('/')[0] === f.path.normalize('NFC').toLowerCase().split('/')[0])),
        ...names.map((name) => ({ path: name, body: { text: name.endsWith('.json') ? '{}' : '' }, expect: 'in' as const })),
      ],
    })),
    second: fc.record({
      order: perFile(fc.nat({ max: 1000 })),
      // 1970 to 2100: also times before the zip epoch (1980) and after 2038.
      times: perFile(fc.integer({ min: 0, max: 4_102_444_800 })),
      modes: perFile(fc.constantFrom(0o600, 0o644, 0o664, 0o755, 0o444)),
      forms: perFile(fc.constantFrom<'NFC' | 'NFD'>('NFC', 'NFD')),
    }),
  });
  fuzzProperty('pack/deterministic', determinism, checkDeterministic, { ciRuns: 100, campaignShare: 0.2, timeout: 180_000 });
});

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
  fuzzProperty('pack/same-verdict', wildFolder, checkSameVerdict, { ciRuns: 60, campaignShare: 0.25, timeout: 120_000 });

  fuzzProperty('pack/nothing-lost', cleanFolder, checkNothingLost, { ciRuns: 30, campaignShare: 0.2 });

  // More files than any generated folder holds, so every file gets its own order, time and mode.
  const perFile = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: 20, maxLength: 20 });
  const determinism: fc.Arbitrary<DeterminismCase> = fc.record({
    folder: cleanFolder,
    second: fc.record({
      order: perFile(fc.nat({ max: 1000 })),
      // 1970 to 2100: also times before the zip epoch (1980) and after 2038.
      times: perFile(fc.integer({ min: 0, max: 4_102_444_800 })),
      modes: perFile(fc.constantFrom(0o600, 0o644, 0o664, 0o755, 0o444)),
    }),
  });
  fuzzProperty('pack/deterministic', determinism, checkDeterministic, { ciRuns: 30, campaignShare: 0.2 });
});

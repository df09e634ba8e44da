import { describe, expect, it } from 'vitest';
import { COLLECT_EVERY, validateBundle } from '../../src/core/validate.js';
import { goodEntries, writeZip } from '../helpers/bundles.js';

describe('validateBundle: collectGarbage', () => {
  it('is called each time COLLECT_EVERY more bytes have been read, and the verdict is the same', async () => {
    // Five files of half COLLECT_EVERY after the good bundle's small files: 2.5 times COLLECT_EVERY.
    const large = Array.from({ length: 5 }, (_, i) => ({ name: `data/part-${i}.txt`, data: Buffer.alloc(COLLECT_EVERY / 2, 0x61 + i) }));
    const zip = writeZip([...goodEntries(), ...large]);
    let calls = 0;
    const collected = await validateBundle(zip, { collectGarbage: () => calls++ });
    expect(calls).toBe(2);
    expect(collected).toEqual(await validateBundle(zip));
  });
});

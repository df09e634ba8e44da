import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRandomAccess } from '../../src/core/bundle/zip/random-access.js';
import { openZipSource } from '../../src/core/bundle/zip/zip-source.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodEntries, tempDir, writeZip } from '../helpers/bundles.js';

/** Small limits, so a small file takes the windowed path that large archives take. */
const SMALL = { inMemory: 0, window: 4096 };

describe('reading byte ranges', () => {
  it('a window at a time gives exactly the bytes asked for, wherever they fall', async () => {
    const bytes = Buffer.alloc(100_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    const file = path.join(tempDir(), 'bytes.bin');
    writeFileSync(file, bytes);
    for (const limits of [SMALL, undefined]) {
      const access = await openRandomAccess(file, limits);
      try {
        const ranges = [[0, 4], [4090, 20], [50_000, 10_000], [99_990, 100], [200_000, 5], [0, 100_000], [4096, 4096], [10, 0]];
        for (const [offset, length] of ranges) {
          const want = bytes.subarray(Math.min(offset!, bytes.length), Math.min(offset! + length!, bytes.length));
          expect((await access.read(offset!, length!)).equals(want), `${offset} + ${length}`).toBe(true);
        }
      } finally {
        await access.close();
      }
    }
  });

  it('an archive read a window at a time gets the same verdict and bytes', async () => {
    const big = { name: 'big.js', data: Buffer.from('let x = 1;\n'.repeat(5000)), method: 0 };
    const zip = writeZip([...goodEntries(), big, { name: 'lib/', data: 'x' }], { trailing: Buffer.alloc(7) });
    const whole = await openZipSource(zip);
    const windowed = await openZipSource(zip, SMALL);
    try {
      expect(windowed.entries.map((e) => e.path)).toEqual(whole.entries.map((e) => e.path));
      expect(windowed.findings).toEqual(whole.findings);
      const entry = windowed.entries.find((e) => e.path === 'big.js')!;
      const chunks: Buffer[] = [];
      await windowed.read(entry, 1_000_000, (chunk) => chunks.push(chunk));
      expect(Buffer.concat(chunks).equals(big.data)).toBe(true);
      expect((await validateBundle(windowed)).problems.map((p) => p.ruleId)).toEqual((await validateBundle(whole)).problems.map((p) => p.ruleId));
    } finally {
      await whole.close();
      await windowed.close();
    }
    expect(readFileSync(zip).length).toBeGreaterThan(4096 * 10);
  });
});

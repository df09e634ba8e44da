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
        const ranges = [[0, 4], [4090, 20], [50_000, 10_000], [99_990, 100], [200_000, 5], [0, 100_000], [4096, 4096], [10, 0], [10, -3], [-5, 10], [-5, 3], [-10, 100_010]];
        for (const [offset, length] of ranges) {
          // [offset, offset + length) clipped to the file: a range that starts before it loses its front.
          const start = Math.min(Math.max(0, offset!), bytes.length);
          const want = bytes.subarray(start, Math.max(start, Math.min(offset! + length!, bytes.length)));
          expect((await access.read(offset!, length!)).equals(want), `${offset} + ${length}`).toBe(true);
        }
      } finally {
        await access.close();
      }
    }
  });

  it('keeps one window and reads from it until a read falls outside; a read larger than a window goes straight to the file', async () => {
    // Each version of the file has its own byte everywhere: a read shows which version it came from.
    const file = path.join(tempDir(), 'versions.bin');
    const version = (byte: number) => writeFileSync(file, Buffer.alloc(10_000, byte));
    const from = (bytes: Buffer) => [...new Set(bytes)];
    version(0xa);
    const access = await openRandomAccess(file, SMALL);
    try {
      expect(from(await access.read(0, 10))).toEqual([0xa]); // window [0, 4096)
      version(0xb);
      expect(from(await access.read(4090, 6))).toEqual([0xa]); // up to the window's last byte
      expect(from(await access.read(0, 5000))).toEqual([0xb]); // larger than a window: straight from the file
      expect(from(await access.read(0, 10))).toEqual([0xa]); // the window is still [0, 4096)
      expect(from(await access.read(5000, 4096))).toEqual([0xb]); // exactly a window: window [5000, 9096)
      version(0xc);
      expect(from(await access.read(5000, 10))).toEqual([0xb]);
      expect(from(await access.read(9000, 1000))).toEqual([0xc]); // past the window: window [9000, 10000)
      expect(await access.read(9000, 2000)).toHaveLength(1000);
    } finally {
      await access.close();
    }
  });

  it('reads a file up to the in-memory limit once, when it is opened', async () => {
    const file = path.join(tempDir(), 'whole.bin');
    writeFileSync(file, Buffer.alloc(1000, 0xa));
    const atLimit = await openRandomAccess(file, { inMemory: 1000, window: 4096 });
    const overLimit = await openRandomAccess(file, { inMemory: 999, window: 4096 });
    try {
      writeFileSync(file, Buffer.alloc(1000, 0xb));
      expect(atLimit.size).toBe(1000);
      expect([...new Set(await atLimit.read(0, 1000))]).toEqual([0xa]);
      expect([...new Set(await overLimit.read(0, 1000))]).toEqual([0xb]);
    } finally {
      await atLimit.close();
      await overLimit.close();
    }
  });

  it('a file that shrinks after it was opened gives short reads, and no hang', async () => {
    const file = path.join(tempDir(), 'shrinking.bin');
    writeFileSync(file, Buffer.alloc(10_000, 0xa));
    const access = await openRandomAccess(file, SMALL);
    try {
      writeFileSync(file, Buffer.alloc(6000, 0xb));
      expect(access.size).toBe(10_000);
      expect(await access.read(5000, 2000)).toEqual(Buffer.alloc(1000, 0xb));
      expect(await access.read(8000, 5000)).toHaveLength(0);
    } finally {
      await access.close();
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

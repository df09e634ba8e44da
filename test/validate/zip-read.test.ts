import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readEntryBytes, type BundleSource } from '../../src/core/shipment/source.js';
import { crc32, crc32Portable } from '../../src/core/bundle/zip/crc32.js';
import { openZipSource } from '../../src/core/bundle/zip/zip-source.js';
import { goodEntries, writeZip } from '../helpers/bundles.js';
import { noise } from '../helpers/noise.js';
import { crc, type EntrySpec } from '../helpers/zip-builder.js';

/**
 * Reading entries out of a zip: what reaches the sink, what `read` says about it, and the
 * findings reading adds (sizes, checksums and compressed data that do not hold up).
 */

const hex = (n: number) => n.toString(16).padStart(8, '0');

/** Opens the clean tool plus `spec`, and hands the source and the entry for `spec` to `use`. */
async function withEntry<T>(spec: EntrySpec, use: (source: BundleSource, entry: BundleSource['entries'][number]) => Promise<T>): Promise<T> {
  const source = await openZipSource(writeZip([...goodEntries(), spec]));
  try {
    return await use(source, source.entries.find((e) => e.path === spec.name)!);
  } finally {
    await source.close();
  }
}

async function readAll(source: BundleSource, entry: BundleSource['entries'][number], limit: number) {
  const chunks: Buffer[] = [];
  const result = await source.read(entry, limit, (chunk) => chunks.push(chunk));
  return { result, bytes: Buffer.concat(chunks), chunks: chunks.length };
}

describe('reading an entry up to a limit', () => {
  // Stored; deflated and inflated in one call; deflated and streamed (more than 1 MB of noise,
  // then 1.5 MB of text that deflates to little).
  const kinds: [string, EntrySpec][] = [
    ['stored, in several reads', { name: 'a.bin', data: noise(600_000), method: 0 }],
    ['deflated, small', { name: 'a.js', data: 'let answer = 42;\n'.repeat(100) }],
    ['deflated, large and incompressible', { name: 'a.bin', data: noise(1_200_000) }],
    ['deflated, large and compressible', { name: 'a.js', data: Buffer.from('let answer = 42;\n'.repeat(90_000)) }],
  ];

  it.each(kinds)('%s: the whole entry, then one byte short of it, then nothing', async (_kind, spec) => {
    const data = Buffer.from(spec.data!);
    await withEntry(spec, async (source, entry) => {
      expect(entry).toMatchObject({ declaredSize: data.length, readable: true });
      const whole = await readAll(source, entry, data.length);
      expect(whole.result).toEqual({ bytes: data.length, stoppedAtLimit: false });
      expect(whole.bytes.equals(data)).toBe(true);
      const short = await readAll(source, entry, data.length - 1);
      expect(short.result).toEqual({ bytes: data.length - 1, stoppedAtLimit: true });
      expect(short.bytes.equals(data.subarray(0, data.length - 1))).toBe(true);
      const none = await readAll(source, entry, 0);
      expect(none).toEqual({ result: { bytes: 0, stoppedAtLimit: true }, bytes: Buffer.alloc(0), chunks: 0 });
      expect(source.findings).toEqual([]);
    });
  });

  it('readEntryBytes gives the bytes up to the limit', async () => {
    await withEntry({ name: 'a.js', data: 'abcdef' }, async (source, entry) => {
      expect((await readEntryBytes(source, entry, 4)).toString()).toBe('abcd');
      expect((await readEntryBytes(source, entry, 100)).toString()).toBe('abcdef');
    });
  });
});

describe('closing', () => {
  it('closing a zip read a window at a time releases its file: reading afterwards fails', async () => {
    const source = await openZipSource(writeZip([...goodEntries(), { name: 'a.bin', data: noise(20_000), method: 0 }]), { inMemory: 0, window: 4096 });
    const entry = source.entries.find((e) => e.path === 'a.bin')!;
    expect((await readAll(source, entry, 100)).result).toEqual({ bytes: 100, stoppedAtLimit: true });
    await source.close();
    await expect(readAll(source, entry, 20_000)).rejects.toMatchObject({ code: 'EBADF' });
  });
});

describe('what reading finds', () => {
  it('an entry that holds less than it declares: how much it holds', async () => {
    const spec = { name: 'a.js', data: 'xxxxx', method: 0, central: { uncompressedSize: 10 }, local: { uncompressedSize: 10 } };
    await withEntry(spec, async (source, entry) => {
      expect((await readAll(source, entry, 1000)).result).toEqual({ bytes: 5, stoppedAtLimit: false });
      expect(source.findings).toEqual([{ ruleId: 'archive-size-mismatch', file: 'a.js', data: { declared: 10, actual: 5, atLeast: false } }]);
    });
  });

  it('an entry that holds more than it declares: reading stops one byte past the declared size', async () => {
    const liars: EntrySpec[] = [
      { name: 'a.js', payload: zlib.deflateRawSync(Buffer.alloc(1000)), central: { uncompressedSize: 100 }, local: { uncompressedSize: 100 } },
      { name: 'a.js', data: 'xxxxx', method: 0, central: { uncompressedSize: 3 }, local: { uncompressedSize: 3 } },
    ];
    for (const [spec, declared] of [
      [liars[0]!, 100],
      [liars[1]!, 3],
    ] as const) {
      await withEntry(spec, async (source, entry) => {
        expect((await readAll(source, entry, 1000)).result).toEqual({ bytes: declared + 1, stoppedAtLimit: false });
        expect(source.findings).toEqual([{ ruleId: 'archive-size-mismatch', file: 'a.js', data: { declared, actual: declared + 1, atLeast: true } }]);
      });
    }
  });

  it('a stored entry that holds more than it declares stops one byte past it, also in a later 256 KB read', async () => {
    // 600,000 stored bytes declared as 300,000: the cap falls inside the second read.
    const data = noise(600_000);
    const spec = { name: 'a.bin', data, method: 0, central: { uncompressedSize: 300_000 }, local: { uncompressedSize: 300_000 } };
    await withEntry(spec, async (source, entry) => {
      const all = await readAll(source, entry, 1_000_000);
      expect(all.result).toEqual({ bytes: 300_001, stoppedAtLimit: false });
      expect(all.bytes.equals(data.subarray(0, 300_001))).toBe(true);
      expect(source.findings).toEqual([{ ruleId: 'archive-size-mismatch', file: 'a.bin', data: { declared: 300_000, actual: 300_001, atLeast: true } }]);
    });
  });

  it('a streamed entry cut short is inflated from its own bytes only, not from the entry after it', async () => {
    // Over 1 MB, so it is streamed 256 KB at a time; the deflate stream lacks its last 1,000
    // bytes, and a stored entry of noise follows it in the file.
    const data = noise(1_200_000);
    const payload = zlib.deflateRawSync(data);
    const cut = { name: 'a.bin', payload: payload.subarray(0, payload.length - 1000), central: { uncompressedSize: data.length }, local: { uncompressedSize: data.length } };
    const source = await openZipSource(writeZip([...goodEntries(), cut, { name: 'after.bin', data: noise(300_000), method: 0 }]));
    try {
      await readAll(source, source.entries.find((e) => e.path === 'a.bin')!, 2_000_000);
      expect(source.findings).toEqual([{ ruleId: 'archive-corrupt-data', file: 'a.bin', data: { reason: 'the compressed data ends too early' } }]);
    } finally {
      await source.close();
    }
  });

  it('nothing is said about the size or checksum of an entry read only in part', async () => {
    const spec = { name: 'a.js', payload: zlib.deflateRawSync(Buffer.alloc(1000)), central: { uncompressedSize: 100, crc: 1 }, local: { uncompressedSize: 100, crc: 1 } };
    await withEntry(spec, async (source, entry) => {
      expect((await readAll(source, entry, 50)).result).toEqual({ bytes: 50, stoppedAtLimit: true });
      expect(source.findings).toEqual([]);
    });
  });

  it('a checksum that does not match: both values, once the whole entry is read', async () => {
    const spec = { name: 'a.js', data: 'original', central: { crc: 1234 }, local: { crc: 1234 } };
    await withEntry(spec, async (source, entry) => {
      await readAll(source, entry, 3);
      expect(source.findings).toEqual([]);
      await readAll(source, entry, 1000);
      expect(source.findings).toEqual([{ ruleId: 'archive-crc-mismatch', file: 'a.js', data: { expected: '000004d2', actual: hex(crc(Buffer.from('original'))) } }]);
    });
  });

  it('compressed data that is invalid or ends early, in one call or streamed', async () => {
    const big = zlib.deflateRawSync(noise(1_200_000));
    const cases: [Buffer, number, string][] = [
      [Buffer.from([0xff, 0xff, 0xff, 0xff]), 4, 'the compressed data is invalid (invalid block type)'],
      [zlib.deflateRawSync(Buffer.from('let answer = 42;\n'.repeat(100))).subarray(0, 20), 1700, 'the compressed data ends too early'],
      [big.subarray(0, big.length - 1000), 1_200_000, 'the compressed data ends too early'],
      [Buffer.concat([Buffer.from([0xff]), big]), 1_200_000, 'the compressed data is invalid (invalid block type)'],
    ];
    for (const [payload, declared, reason] of cases) {
      await withEntry({ name: 'a.js', payload, central: { uncompressedSize: declared }, local: { uncompressedSize: declared } }, async (source, entry) => {
        await readAll(source, entry, 2_000_000);
        expect(source.findings, reason).toEqual([{ ruleId: 'archive-corrupt-data', file: 'a.js', data: { reason } }]);
      });
    }
  });
});

describe('entries that cannot be read', () => {
  const unreadable: [string, EntrySpec, unknown[]][] = [
    ['encrypted', { name: 'a.js', data: 'x', flags: 0x1 }, [{ ruleId: 'archive-encrypted', file: 'a.js', data: {} }]],
    ['strongly encrypted', { name: 'a.js', data: 'x', flags: 0x40 }, [{ ruleId: 'archive-encrypted', file: 'a.js', data: {} }]],
    ['AES-encrypted (method 99)', { name: 'a.js', data: 'x', method: 99 }, [{ ruleId: 'archive-encrypted', file: 'a.js', data: {} }]],
    ['in another compression method', { name: 'a.js', data: 'x', method: 12 }, [{ ruleId: 'archive-compression', file: 'a.js', data: { method: 12 } }]],
    [
      'without its data',
      { name: 'a.js', data: 'x', central: { localOffset: 0x7fffffff } },
      [{ ruleId: 'archive-truncated', file: 'a.js', data: { reason: 'a local header lies past the end of the file' } }],
    ],
  ];

  it.each(unreadable)('%s: not readable, and reading it passes nothing on', async (_what, spec, findings) => {
    await withEntry(spec, async (source, entry) => {
      expect(entry.readable).toBe(false);
      expect(source.findings).toEqual(findings);
      expect(await readAll(source, entry, 1000)).toEqual({ result: { bytes: 0, stoppedAtLimit: false }, bytes: Buffer.alloc(0), chunks: 0 });
      expect(source.findings).toEqual(findings);
    });
  });
});

describe('folder entries that hold data', () => {
  const directoryData = (declared: number, stored: number) => ({ ruleId: 'archive-directory-data', file: 'lib/', data: { declared, stored } });
  const folder = (spec: Partial<EntrySpec>) => withEntry({ name: 'lib/', ...spec }, async (source) => source.findings);
  /** Empty deflate streams of 16 and 17 bytes: empty stored and fixed blocks. */
  const empty16 = Buffer.from('000000ffff000000ffff02040000ffff', 'hex');
  const empty17 = Buffer.from('000000ffff000000ffff000000ffff0300', 'hex');
  const zero = { central: { uncompressedSize: 0 }, local: { uncompressedSize: 0 } };

  it('holds no data: nothing stored, or a short deflate stream of nothing', async () => {
    expect(zlib.inflateRawSync(empty16).length + zlib.inflateRawSync(empty17).length).toBe(0);
    expect(await folder({ data: '', method: 0 })).toEqual([]);
    expect(await folder({ data: '' })).toEqual([]);
    expect(await folder({ payload: empty16 })).toEqual([]);
  });

  it('holds data: a size, stored bytes, a long or invalid deflate stream, or one that inflates to something', async () => {
    expect(await folder({ data: 'alert(1)', method: 0 })).toEqual([directoryData(8, 8)]);
    expect(await folder({ data: 'abc', method: 0, ...zero })).toEqual([directoryData(0, 3)]);
    expect(await folder({ payload: empty17 })).toEqual([directoryData(0, 17)]);
    expect(await folder({ payload: Buffer.from([0xff, 0xff]) })).toEqual([directoryData(0, 2)]);
    const x = zlib.deflateRawSync(Buffer.from('x'));
    expect(await folder({ payload: x, ...zero })).toEqual([directoryData(0, x.length)]);
  });

  it('holds data when its header declares a size, even with nothing stored', async () => {
    expect(await folder({ data: '', method: 0, central: { uncompressedSize: 5 }, local: { uncompressedSize: 5 } })).toEqual([directoryData(5, 0)]);
  });

  it('stored bytes are data even when they would inflate to nothing', async () => {
    // 03 00 is an empty fixed-Huffman deflate block; stored, it is two bytes of content.
    expect(zlib.inflateRawSync(Buffer.from('0300', 'hex')).length).toBe(0);
    expect(await folder({ data: Buffer.from('0300', 'hex'), method: 0, ...zero })).toEqual([directoryData(0, 2)]);
  });

  it('holds data even where it cannot be read: encrypted, or past the end of the file', async () => {
    expect(await folder({ data: 'abc', method: 0, flags: 0x1, ...zero })).toEqual([{ ruleId: 'archive-encrypted', file: 'lib/', data: {} }, directoryData(0, 3)]);
    expect(await folder({ data: 'abc', method: 0, central: { uncompressedSize: 0, localOffset: 0x7fffffff } })).toEqual([
      { ruleId: 'archive-truncated', file: 'lib/', data: { reason: 'a local header lies past the end of the file' } },
      directoryData(0, 3),
    ]);
  });
});

describe('CRC-32 without zlib', () => {
  it('the portable CRC-32 gives the standard check values and continues across chunks as zlib does', () => {
    expect(crc32Portable(Buffer.alloc(0))).toBe(0);
    expect(crc32Portable(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32Portable(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), noise(4096)]);
    expect(crc32Portable(bytes)).toBe(zlib.crc32(bytes));
    expect(crc32Portable(bytes.subarray(1000), crc32Portable(bytes.subarray(0, 1000)))).toBe(zlib.crc32(bytes));
    expect(crc32(bytes.subarray(1000), crc32(bytes.subarray(0, 1000)))).toBe(zlib.crc32(bytes));
  });
});

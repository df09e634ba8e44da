import { randomBytes } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { dosDateTime, writeZip, type ZipInput } from '../../src/core/pack/write-zip.js';
import { compressContent, zipSizeOf } from '../../src/core/shipment/zip-size.js';
import { tempDir } from '../helpers/bundles.js';
import { noise } from '../helpers/noise.js';
import { goodFiles, readWithPython, sha256 } from './helpers.js';

const inputsOf = (files: Record<string, string | Buffer>): ZipInput[] =>
  Object.entries(files).map(([name, content]) => ({ name, read: async () => Buffer.from(content) }));

async function zipOf(files: Record<string, string | Buffer>, timestamp = new Date(Date.UTC(1980, 0, 1)), level = 9) {
  const file = path.join(tempDir(), 'out.zip');
  const handle = await open(file, 'w');
  try {
    const written = await writeZip(inputsOf(files), handle, { level, timestamp });
    return { file, written, bytes: await readFile(file) };
  } finally {
    await handle.close();
  }
}

describe('zipSizeOf and compressContent: the size of a zip without writing it', () => {
  it('predicts the size writeZip writes, byte for byte, for names in any script and any content', async () => {
    const files = { ...goodFiles(), 'js/données/café.js': 'export const x = 1;\n'.repeat(300), 'css/empty.css': '', 'img/noise.png': randomBytes(50_000), 'a.svg': '<svg/>' };
    const { written, bytes } = await zipOf(files, undefined, 6);
    const measured = await Promise.all(
      Object.entries(files).map(async ([name, content]) => ({ name, storedSize: (await compressContent(Buffer.from(content), 6)).data.length })),
    );
    expect(zipSizeOf(measured)).toBe(bytes.length);
    for (const entry of written.entries) expect(measured.find((m) => m.name === entry.name)?.storedSize).toBe(entry.compressedSize);
  });

  it('stores what deflate cannot shrink, and empty files', async () => {
    expect((await compressContent(Buffer.alloc(0), 6)).method).toBe('store');
    const noise = randomBytes(4096);
    expect(await compressContent(noise, 6)).toEqual({ data: noise, method: 'store' });
    expect((await compressContent(Buffer.alloc(4096, 0x61), 6)).method).toBe('deflate');
  });
});

describe('writeZip', () => {
  it('writes a zip that validate accepts and Python reads back byte for byte', async () => {
    const files = { ...goodFiles(), 'js/données/café.js': 'export const x = 1;\n', 'css/empty.css': '', 'img/noise.png': randomBytes(50_000) };
    const { file, written, bytes } = await zipOf(files);
    expect((await validateBundle(file)).problems).toEqual([]);
    expect(written.sha256).toBe(sha256(bytes));
    expect(written.size).toBe(bytes.length);
    const read = readWithPython(file);
    expect(read.bad).toBeNull();
    expect(Object.fromEntries(read.entries.map((e) => [e.name, e.sha256]))).toEqual(
      Object.fromEntries(Object.entries(files).map(([name, content]) => [name, sha256(Buffer.from(content))])),
    );
  });

  it('records fixed metadata: Unix rw-r--r-- regular files, the UTF-8 flag only on non-ASCII names', async () => {
    const { file } = await zipOf({ 'a.js': 'x', 'é.js': 'y' });
    const entries = readWithPython(file).entries;
    expect(entries.map((e) => ({ name: e.name, mode: e.mode, system: e.system, utf8: (e.flags & 0x800) !== 0 }))).toEqual([
      { name: 'a.js', mode: 0o100644, system: 3, utf8: false },
      { name: 'é.js', mode: 0o100644, system: 3, utf8: true },
    ]);
  });

  it('keeps what deflate cannot shrink stored, and deflates the rest', async () => {
    const { written } = await zipOf({ 'noise.png': randomBytes(20_000), 'text.js': 'let a = 1;\n'.repeat(2_000), 'empty.css': '' });
    expect(written.entries.map((e) => [e.name, e.method])).toEqual([
      ['noise.png', 'store'],
      ['text.js', 'deflate'],
      ['empty.css', 'store'],
    ]);
    expect(written.entries[1]!.compressedSize).toBeLessThan(written.entries[1]!.size / 10);
  });

  it('depends on nothing but names, contents, level and timestamp', async () => {
    const files = { 'a.js': 'alpha', 'b/c.css': 'gamma'.repeat(100) };
    const first = await zipOf(files);
    const second = await zipOf(files);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    const later = await zipOf(files, new Date(Date.UTC(2024, 5, 1, 12, 30, 10)));
    expect(later.bytes.equals(first.bytes)).toBe(false);
    expect(readWithPython(later.file).entries[0]!.date).toEqual([2024, 6, 1, 12, 30, 10]);
  });

  it('writes entries in the order given, however long each takes to prepare', async () => {
    const slow = (name: string, ms: number): ZipInput => ({ name, read: () => new Promise((resolve) => setTimeout(() => resolve(Buffer.from(name)), ms)) });
    const file = path.join(tempDir(), 'order.zip');
    const handle = await open(file, 'w');
    await writeZip([slow('a.js', 40), slow('b.js', 0), slow('c.js', 20)], handle, { level: 9, timestamp: new Date(0) });
    await handle.close();
    expect(readWithPython(file).entries.map((e) => e.name)).toEqual(['a.js', 'b.js', 'c.js']);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const file = path.join(tempDir(), 'aborted.zip');
    const handle = await open(file, 'w');
    const inputs = inputsOf({ 'a.js': 'a', 'b.js': 'b', 'c.js': 'c' });
    const writing = writeZip(inputs, handle, {
      level: 9,
      timestamp: new Date(0),
      signal: controller.signal,
      onEntry: (done) => done === 1 && controller.abort(),
    });
    await expect(writing).rejects.toMatchObject({ name: 'AbortError' });
    await handle.close();
  });
});

describe('dosDateTime', () => {
  it('uses the UTC calendar, two-second steps, and clamps to what the format can hold', () => {
    expect(dosDateTime(new Date(Date.UTC(1980, 0, 1)))).toEqual({ time: 0, date: (1 << 5) | 1 });
    expect(dosDateTime(new Date(Date.UTC(2023, 10, 14, 22, 13, 21)))).toEqual({
      time: (22 << 11) | (13 << 5) | 10,
      date: ((2023 - 1980) << 9) | (11 << 5) | 14,
    });
    expect(dosDateTime(new Date(0))).toEqual(dosDateTime(new Date(Date.UTC(1980, 0, 1))));
    expect(dosDateTime(new Date(Date.UTC(2200, 0, 1)))).toEqual({ time: (23 << 11) | (59 << 5) | 29, date: (127 << 9) | (12 << 5) | 31 });
  });
});

/** The header fields of each entry, read straight from the bytes: local headers in order, then the central directory. */
function headers(bytes: Buffer) {
  const end = bytes.length - 22;
  expect(bytes.readUInt32LE(end)).toBe(0x06054b50);
  const count = bytes.readUInt16LE(end + 10);
  let central = bytes.readUInt32LE(end + 16);
  let local = 0;
  const out = [];
  for (let i = 0; i < count; i++) {
    expect(bytes.readUInt32LE(local)).toBe(0x04034b50);
    expect(bytes.readUInt32LE(central)).toBe(0x02014b50);
    const nameLength = bytes.readUInt16LE(local + 26);
    out.push({
      name: bytes.toString('utf8', local + 30, local + 30 + nameLength),
      localVersion: bytes.readUInt16LE(local + 4),
      centralMadeBy: bytes.readUInt16LE(central + 4),
      centralVersion: bytes.readUInt16LE(central + 6),
      method: bytes.readUInt16LE(local + 8),
      offset: bytes.readUInt32LE(central + 42),
    });
    expect(out[i]!.offset).toBe(local);
    local += 30 + nameLength + bytes.readUInt16LE(local + 28) + bytes.readUInt32LE(local + 18);
    central += 46 + bytes.readUInt16LE(central + 28) + bytes.readUInt16LE(central + 30) + bytes.readUInt16LE(central + 32);
  }
  return out;
}

describe('writeZip: the headers', () => {
  it('asks for version 1.0 to extract a stored entry and 2.0 for a deflated one, in both headers', async () => {
    const { bytes } = await zipOf({ 'noise.png': noise(1_000), 'text.js': 'let a = 1;\n'.repeat(100), 'empty.css': '' }, undefined, 6);
    expect(headers(bytes)).toEqual([
      { name: 'noise.png', localVersion: 10, centralMadeBy: 0x0314, centralVersion: 10, method: 0, offset: 0 },
      { name: 'text.js', localVersion: 20, centralMadeBy: 0x0314, centralVersion: 20, method: 8, offset: expect.any(Number) },
      { name: 'empty.css', localVersion: 10, centralMadeBy: 0x0314, centralVersion: 10, method: 0, offset: expect.any(Number) },
    ]);
  });
});

describe('writeZip: the number of entries', () => {
  const empty = (count: number, reads: { count: number }): ZipInput[] =>
    Array.from({ length: count }, (_, i) => ({
      name: `f${i}.js`,
      read: async () => {
        reads.count++;
        return Buffer.alloc(0);
      },
    }));

  it('refuses more than 65,535 entries before reading any', async () => {
    const reads = { count: 0 };
    const file = path.join(tempDir(), 'too-many.zip');
    const handle = await open(file, 'w');
    await expect(writeZip(empty(0x10000, reads), handle, { level: 6, timestamp: new Date(0) })).rejects.toThrow('cannot write more than 65535 entries without zip64');
    await handle.close();
    expect(reads.count).toBe(0);
    expect(await readFile(file)).toHaveLength(0);
  });

  it('takes 65,535 entries', async () => {
    const reads = { count: 0 };
    const controller = new AbortController();
    const handle = await open(path.join(tempDir(), 'most.zip'), 'w');
    // Writing all of them takes a while; the first entry written shows they were accepted.
    const writing = writeZip(empty(0xffff, reads), handle, { level: 6, timestamp: new Date(0), signal: controller.signal, onEntry: () => controller.abort() });
    await expect(writing).rejects.toMatchObject({ name: 'AbortError' });
    await handle.close();
    expect(reads.count).toBeGreaterThan(0);
  });
});

describe('writeZip: the 32-bit fields', () => {
  // The real limit is 0xfffffffe (0xffffffff marks a zip64 field); lowered here to reach it.
  const max32 = 1000;
  const header = 30 + 'a.js'.length;
  async function attempt(files: Record<string, Buffer>) {
    const file = path.join(tempDir(), 'edge.zip');
    const handle = await open(file, 'w');
    try {
      const outcome = await writeZip(inputsOf(files), handle, { level: 6, timestamp: new Date(0), max32 }).then(
        () => 'written',
        (error: Error) => error.message,
      );
      return { outcome, length: (await readFile(file)).length };
    } finally {
      await handle.close();
    }
  }

  it('writes a size at the limit and refuses one past it', async () => {
    expect((await attempt({ 'a.js': Buffer.alloc(max32) })).outcome).toBe('written');
    expect((await attempt({ 'a.js': Buffer.alloc(max32 + 1) })).outcome).toBe('the zip would need zip64');
  });

  it('starts an entry at the limit, and refuses one past it before writing it', async () => {
    const atLimit = await attempt({ 'a.js': randomBytes(max32 - header), 'b.js': Buffer.from('x') });
    // b.js starts exactly at the limit and is written; the directory after it is past the limit.
    expect(atLimit).toEqual({ outcome: 'the zip would need zip64', length: max32 + header + 1 });
    expect(await attempt({ 'a.js': randomBytes(max32 + 1 - header), 'b.js': Buffer.from('x') })).toEqual({ outcome: 'the zip would need zip64', length: max32 + 1 });
  });

  it('starts the central directory at the limit, and refuses it past the limit', async () => {
    expect((await attempt({ 'a.js': randomBytes(max32 - header) })).outcome).toBe('written');
    expect(await attempt({ 'a.js': randomBytes(max32 + 1 - header) })).toEqual({ outcome: 'the zip would need zip64', length: max32 + 1 });
  });
});

describe('writeZip: reading ahead', () => {
  it('reads up to `window` entries ahead of the one it writes, 8 by default, at least 1', async () => {
    for (const [window, ahead] of [[undefined, 8], [3, 3], [1, 1], [0, 1]] as const) {
      let started = 0;
      let released = false;
      const waiting: (() => void)[] = [];
      const inputs: ZipInput[] = Array.from({ length: 20 }, (_, i) => ({
        name: `f${i}.js`,
        read: () => {
          started++;
          const content = Buffer.from(`entry ${i}`);
          return released ? Promise.resolve(content) : new Promise<Buffer>((resolve) => waiting.push(() => resolve(content)));
        },
      }));
      const file = path.join(tempDir(), 'ahead.zip');
      const handle = await open(file, 'w');
      const writing = writeZip(inputs, handle, { level: 6, timestamp: new Date(0), ...(window === undefined ? {} : { window }) });
      await new Promise((resolve) => setImmediate(resolve));
      expect(started).toBe(ahead);
      released = true;
      for (const release of waiting.splice(0)) release();
      const written = await writing;
      await handle.close();
      expect(started).toBe(20);
      expect(written.entries.map((entry) => entry.name)).toEqual(inputs.map((input) => input.name));
    }
  });
});

describe('compressContent: how each file is stored', () => {
  const deflated = (content: Buffer, level: number) => deflateRawSync(content, { level, memLevel: 9 });

  it('raw deflate at the level given, with zlib’s largest memory level', async () => {
    const text = Buffer.from(Array.from({ length: 600 }, (_, i) => `row ${i % 37} value ${(i * 7919) % 1000}`).join('\n'));
    for (const level of [1, 6, 9]) {
      const { data, method } = await compressContent(text, level);
      expect(method).toBe('deflate');
      expect(data).toEqual(deflated(text, level));
      expect(inflateRawSync(data)).toEqual(text);
    }
    expect((await compressContent(text, 1)).data.length).toBeGreaterThan((await compressContent(text, 9)).data.length);
  });

  it('keeps a file stored when deflate gives exactly as many bytes, and deflates it at one byte fewer', async () => {
    // Short texts around the break-even point; which ones land exactly on it depends on zlib.
    const texts = ['café café', 'café, café', 'über über', 'été été', 'crème crème', 'naïve naïve', 'brûlée brûlée', 'Zürich Zürich', 'déjà vu déjà'].map((text) => Buffer.from(text));
    const even = texts.find((text) => deflated(text, 6).length === text.length);
    const smaller = texts.find((text) => deflated(text, 6).length === text.length - 1);
    expect(even).toBeDefined();
    expect(smaller).toBeDefined();
    expect(await compressContent(even!, 6)).toEqual({ data: even, method: 'store' });
    expect(await compressContent(smaller!, 6)).toEqual({ data: deflated(smaller!, 6), method: 'deflate' });
    const { written } = await zipOf({ 'even.js': even!, 'smaller.js': smaller! }, undefined, 6);
    expect(written.entries.map((entry) => [entry.name, entry.method, entry.compressedSize])).toEqual([
      ['even.js', 'store', even!.length],
      ['smaller.js', 'deflate', smaller!.length - 1],
    ]);
  });
});

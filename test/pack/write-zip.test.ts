import { randomBytes } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { compressContent, dosDateTime, writeZip, zipSizeOf, type ZipInput } from '../../src/core/pack/write-zip.js';
import { tempDir } from '../helpers/bundles.js';
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

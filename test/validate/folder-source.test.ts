import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFolderSource } from '../../src/core/shipment/folder-source.js';
import { leftOutEntry, type ExcludedEntry } from '../../src/core/shipment/left-out.js';
import { openBundle } from '../../src/core/bundle/open-bundle.js';
import type { BundleSource } from '../../src/core/shipment/source.js';
import { goodEntries, goodFiles, tempDir, writeFolder, writeZip } from '../helpers/bundles.js';
import { noise } from '../helpers/noise.js';

/**
 * The folder reader: what it lists (and in what order), what it walks into, what it reads and
 * how much, and what it refuses to follow.
 */

/** A folder with files, a subfolder two deep, a link and a named pipe; a.js sorts before a/. */
function mixedFolder(): string {
  const root = writeFolder({ 'a.js': 'aaaa', 'b.js': 'bb', 'a/c.js': 'ccc', 'a/d/e.txt': '', 'z.js': 'z' });
  symlinkSync('b.js', path.join(root, 'link'));
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  return root;
}

async function readAll(source: BundleSource, entryPath: string, limit: number) {
  const chunks: Buffer[] = [];
  const result = await source.read(source.entries.find((e) => e.path === entryPath)!, limit, (chunk) => chunks.push(chunk));
  return { result, bytes: Buffer.concat(chunks), chunks: chunks.length };
}

describe('listing a folder', () => {
  it('every file, folder, link and special file, sorted by path; sizes and reading for files only', async () => {
    const root = mixedFolder();
    const source = await openFolderSource(root);
    expect(source).toMatchObject({ kind: 'folder', location: root, findings: [] });
    expect(source.archiveSize).toBeUndefined();
    expect(source.excluded).toBeUndefined();
    expect(source.entries.map(({ path, kind, declaredSize, readable }) => ({ path, kind, declaredSize, readable }))).toEqual([
      { path: 'a.js', kind: 'file', declaredSize: 4, readable: true },
      { path: 'a/', kind: 'directory', declaredSize: 0, readable: false },
      { path: 'a/c.js', kind: 'file', declaredSize: 3, readable: true },
      { path: 'a/d/', kind: 'directory', declaredSize: 0, readable: false },
      { path: 'a/d/e.txt', kind: 'file', declaredSize: 0, readable: true },
      { path: 'b.js', kind: 'file', declaredSize: 2, readable: true },
      { path: 'link', kind: 'symlink', declaredSize: 0, readable: false },
      { path: 'pipe', kind: 'other', declaredSize: 0, readable: false },
      { path: 'z.js', kind: 'file', declaredSize: 1, readable: true },
    ]);
    await source.close();
  });

  it('a name that is not UTF-8: listed lossily, still readable, and a finding with its folder and bytes', async () => {
    const root = writeFolder({ 'sub/ok.js': 'x' });
    writeFileSync(Buffer.concat([Buffer.from(`${root}/sub/`), Buffer.from([0x62, 0xff, 0x2e, 0x6a, 0x73])]), 'content');
    const source = await openFolderSource(root);
    expect(source.entries.map((e) => e.path)).toEqual(['sub/', 'sub/b\ufffd.js', 'sub/ok.js']);
    expect(source.findings).toEqual([{ ruleId: 'path-encoding', file: 'sub/b\ufffd.js', data: { hex: '62ff2e6a73' } }]);
    expect((await readAll(source, 'sub/b\ufffd.js', 100)).bytes.toString()).toBe('content');
  });

  it('a folder it is told not to walk into is listed, its contents are not', async () => {
    const asked: string[] = [];
    const source = await openFolderSource(mixedFolder(), { descend: (folder) => (asked.push(folder), folder !== 'a/d/') });
    expect(asked.sort()).toEqual(['a/', 'a/d/']);
    expect(source.entries.map((e) => e.path)).toEqual(['a.js', 'a/', 'a/c.js', 'a/d/', 'b.js', 'link', 'pipe', 'z.js']);
  });

  it('an entry it is told to omit is neither listed nor walked into', async () => {
    const asked: string[] = [];
    const source = await openFolderSource(mixedFolder(), { omit: (entry) => (asked.push(entry), entry === 'a/' || entry === 'z.js') });
    expect(asked.sort()).toEqual(['a.js', 'a/', 'b.js', 'link', 'pipe', 'z.js']);
    expect(source.entries.map((e) => e.path)).toEqual(['a.js', 'b.js', 'link', 'pipe']);
  });
});

describe('reading a file of a folder', () => {
  it('in chunks, up to the limit: the whole file, one byte short of it, nothing', async () => {
    const data = noise(600_000);
    const source = await openFolderSource(writeFolder({ 'a.bin': data }));
    const whole = await readAll(source, 'a.bin', data.length);
    expect(whole.result).toEqual({ bytes: data.length, stoppedAtLimit: false });
    expect(whole.bytes.equals(data)).toBe(true);
    expect(whole.chunks).toBeGreaterThan(1);
    const short = await readAll(source, 'a.bin', data.length - 1);
    expect(short.result).toEqual({ bytes: data.length - 1, stoppedAtLimit: true });
    expect(short.bytes.equals(data.subarray(0, data.length - 1))).toBe(true);
    expect(await readAll(source, 'a.bin', 0)).toEqual({ result: { bytes: 0, stoppedAtLimit: true }, bytes: Buffer.alloc(0), chunks: 0 });
  });

  it('a small file read with its size as the limit is read whole', async () => {
    const source = await openFolderSource(writeFolder({ 'a.js': 'abc' }));
    expect(await readAll(source, 'a.js', 3)).toEqual({ result: { bytes: 3, stoppedAtLimit: false }, bytes: Buffer.from('abc'), chunks: 1 });
    expect(await readAll(source, 'a.js', 2)).toEqual({ result: { bytes: 2, stoppedAtLimit: true }, bytes: Buffer.from('ab'), chunks: 1 });
  });

  it('a file that grew or shrank since the walk is read as it is now, whole', async () => {
    const root = writeFolder({ 'grows.bin': noise(1_000), 'shrinks.bin': noise(300_000) });
    const source = await openFolderSource(root);
    const grown = noise(700_000);
    writeFileSync(path.join(root, 'grows.bin'), grown);
    writeFileSync(path.join(root, 'shrinks.bin'), 'x');
    const grows = await readAll(source, 'grows.bin', 10_000_000);
    expect(grows.result).toEqual({ bytes: grown.length, stoppedAtLimit: false });
    expect(grows.bytes.equals(grown)).toBe(true);
    expect(await readAll(source, 'shrinks.bin', 10_000_000)).toEqual({ result: { bytes: 1, stoppedAtLimit: false }, bytes: Buffer.from('x'), chunks: 1 });
  });

  it('a file read whole takes one read, none more to find its end; one streamed to its size, one read per chunk; one of no size is read to its end', async () => {
    const root = writeFolder({ 'small.js': 'x'.repeat(1_000), 'large.bin': noise(600_000), 'empty.js': '' });
    const source = await openFolderSource(root);
    const probe = await open(path.join(root, 'small.js'));
    const prototype = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const original = prototype.read;
    let reads = 0;
    prototype.read = function (this: unknown, ...args: unknown[]) {
      reads++;
      return original.apply(this, args);
    };
    try {
      const counted = async (file: string, limit = 10_000_000) => {
        reads = 0;
        const { result, chunks } = await readAll(source, file, limit);
        return { bytes: result.bytes, reads, chunks };
      };
      expect(await counted('small.js')).toEqual({ bytes: 1_000, reads: 1, chunks: 1 });
      // A limit past its size: the caller takes it whole (pack, and validate's measuring), in one buffer.
      expect(await counted('large.bin')).toEqual({ bytes: 600_000, reads: 1, chunks: 1 });
      // A limit at its size: 256 KiB chunks, the last one a byte longer than what is left.
      expect(await counted('large.bin', 600_000)).toEqual({ bytes: 600_000, reads: 3, chunks: 3 });
      expect(await counted('empty.js')).toEqual({ bytes: 0, reads: 1, chunks: 0 });
    } finally {
      prototype.read = original;
    }
  });

  it('each chunk is a buffer of its own, which a reader may keep', async () => {
    const data = noise(700_000);
    const source = await openFolderSource(writeFolder({ 'a.bin': data }));
    const kept: Buffer[] = [];
    await source.read(source.entries[0]!, data.length, (chunk) => kept.push(chunk));
    expect(kept.length).toBeGreaterThan(1);
    expect(new Set(kept.map((chunk) => chunk.buffer)).size).toBe(kept.length);
    expect(Buffer.concat(kept).equals(data)).toBe(true);
  });

  it('folders, links and special files read as nothing, and are never opened', async () => {
    const source = await openFolderSource(mixedFolder());
    for (const entry of ['a/', 'link', 'pipe']) {
      expect(await readAll(source, entry, 100), entry).toEqual({ result: { bytes: 0, stoppedAtLimit: false }, bytes: Buffer.alloc(0), chunks: 0 });
    }
  });

  it('refuses a file that was swapped for a link after the folder was listed', async () => {
    const outside = writeFolder({ 'secret.js': 'secret' });
    const root = writeFolder({ 'a.js': 'mine' });
    const source = await openFolderSource(root);
    rmSync(path.join(root, 'a.js'));
    symlinkSync(path.join(outside, 'secret.js'), path.join(root, 'a.js'));
    await expect(readAll(source, 'a.js', 100)).rejects.toMatchObject({ name: 'UsageError', type: 'symlink', message: `${path.join(root, 'a.js')} is a symbolic link, not a regular file` });
  });

  it('refuses a file that was swapped for a named pipe after the folder was listed, without waiting on it', async () => {
    const root = writeFolder({ 'a.js': 'mine' });
    const source = await openFolderSource(root);
    rmSync(path.join(root, 'a.js'));
    execFileSync('mkfifo', [path.join(root, 'a.js')]);
    await expect(readAll(source, 'a.js', 100)).rejects.toMatchObject({ name: 'UsageError', type: 'fifo', message: `${path.join(root, 'a.js')} is a named pipe (FIFO), not a regular file` });
  });
});

describe('opening a bundle by its path', () => {
  it('a folder opens as the zip pack would make of it, a file as a zip', async () => {
    const folder = await openBundle(writeFolder({ ...goodFiles(), 'notes.txt': 'x' }));
    expect(folder.kind).toBe('folder');
    expect(folder.excluded).toEqual([{ path: 'notes.txt', kind: 'file', reason: 'file-type', detail: '.txt' }]);
    // Measured before it is handed over: a caller reads the zip's size at once.
    expect(folder.archiveSize).toBeGreaterThan(0);
    expect(folder.sized).toBeUndefined();
    const zip = writeZip(goodEntries());
    const opened = await openBundle(zip);
    expect(opened).toMatchObject({ kind: 'zip', location: zip, archiveSize: statSync(zip).size });
    await opened.close();
  });

  it('anything else is a usage error that says what to give instead', async () => {
    const missing = path.join(tempDir(), 'nowhere');
    await expect(openBundle(missing)).rejects.toMatchObject({
      name: 'UsageError',
      message: `${missing} does not exist. Give the path of a tool folder or a .zip bundle.`,
    });
    const file = writeZip(goodEntries());
    const underFile = path.join(file, 'x');
    await expect(openBundle(underFile)).rejects.toMatchObject({
      name: 'UsageError',
      message: `cannot read ${underFile}: ENOTDIR: not a directory, stat '${underFile}'`,
    });
    const pipe = path.join(tempDir(), 'pipe');
    execFileSync('mkfifo', [pipe]);
    await expect(openBundle(pipe)).rejects.toMatchObject({
      name: 'UsageError',
      message: `${pipe} is neither a file nor a folder. Give the path of a tool folder or a .zip bundle.`,
    });
  });
});

describe('which left-out entry holds a file', () => {
  const excluded: ExcludedEntry[] = [
    { path: 'drafts/', kind: 'directory', reason: 'ignored', detail: 'drafts/' },
    { path: 'notes', kind: 'file', reason: 'file-type' },
    { path: 'cafe\u0301.js', kind: 'file', reason: 'file-type' },
  ];

  it('the file itself, or a folder around it, compared in NFC', () => {
    expect(leftOutEntry(excluded, 'notes')).toBe(excluded[1]);
    expect(leftOutEntry(excluded, 'drafts/a/b.js')).toBe(excluded[0]);
    expect(leftOutEntry(excluded, 'café.js')).toBe(excluded[2]);
    expect(leftOutEntry([{ path: 'café/', kind: 'directory', reason: 'ignored' }], 'cafe\u0301/a.js')).toMatchObject({ path: 'café/' });
  });

  it('not a file that merely starts like a left-out one, nor the folder of a file of that name', () => {
    expect(leftOutEntry(excluded, 'notes/a.js')).toBeUndefined();
    expect(leftOutEntry(excluded, 'draft.js')).toBeUndefined();
    expect(leftOutEntry(excluded, 'x/drafts/a.js')).toBeUndefined();
    expect(leftOutEntry([], 'a.js')).toBeUndefined();
  });
});

describe('the folder root', () => {
  it('a relative root is resolved, and listed the same', async () => {
    const root = writeFolder({ 'a.js': 'x' });
    mkdirSync(path.join(root, 'empty'));
    const relative = path.relative(process.cwd(), root);
    const source = await openFolderSource(relative);
    expect(source.location).toBe(relative);
    expect(source.entries.map((e) => e.path)).toEqual(['a.js', 'empty/']);
    expect((await readAll(source, 'a.js', 10)).bytes.toString()).toBe('x');
  });
});

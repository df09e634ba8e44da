import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { goodEntries, goodFiles, tempDir, writeBytes } from '../helpers/bundles.js';
import { buildZip, type EntrySpec } from '../helpers/zip-builder.js';
import { hiddenBehindStream, secondNameInLocalHeader, shapes } from './zip-corpus.js';

/**
 * What an extractor that is not ours makes of the shapes validate refuses, to show the danger in
 * the test itself: bsdtar (libarchive; Debian's libarchive-tools) names files by the local header
 * and, reading from a pipe, finds each entry's end by its compressed data. Skipped without it.
 */
const bsdtar = spawnSync('bsdtar', ['--version']).status === 0;

interface Extracted {
  status: number | null;
  stderr: string;
  /** What it wrote, path → content. */
  files: Record<string, string>;
}

/** Extracts with bsdtar from the file itself, or as a stream on standard input. */
function extract(bytes: Buffer, how: 'file' | 'pipe'): Extracted {
  const into = tempDir();
  const zip = writeBytes(bytes);
  const run = how === 'file' ? spawnSync('bsdtar', ['-xf', zip, '-C', into]) : spawnSync('bsdtar', ['-xf', '-', '-C', into], { input: bytes });
  const files: Record<string, string> = {};
  for (const entry of readdirSync(into, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[path.relative(into, path.join(entry.parentPath ?? entry.path, entry.name)).split(path.sep).join('/')] = readFileSync(path.join(entry.parentPath ?? entry.path, entry.name), 'utf8');
  }
  return { status: run.status, stderr: run.stderr.toString(), files };
}

const plus = (...extra: EntrySpec[]) => [...goodEntries(), ...extra];
const checkedManifest = goodFiles()['manifest.json'];
const ids = async (bytes: Buffer) => (await validateBundle(writeBytes(bytes))).problems.map((p) => p.ruleId);

describe.skipIf(!bsdtar)('what bsdtar writes from archives validate refuses', () => {
  it('the clean tool, from the file and from a pipe: every file as checked (so the comparisons below mean something)', () => {
    const bytes = buildZip(goodEntries());
    for (const how of ['file', 'pipe'] as const) {
      const out = extract(bytes, how);
      expect(out.status, out.stderr).toBe(0);
      expect(out.files).toEqual(goodFiles());
    }
  });

  it("a local header's Unicode Path field: bsdtar writes data/notes.json as manifest.json, over the checked one", async () => {
    const bytes = buildZip(plus(secondNameInLocalHeader()));
    for (const how of ['file', 'pipe'] as const) {
      const out = extract(bytes, how);
      expect(out.files['manifest.json'], how).not.toBe(checkedManifest);
      expect(JSON.parse(out.files['manifest.json']!)).toMatchObject({ name: 'Swapped', type: 'standalone' });
      expect(Object.keys(out.files), how).not.toContain('data/notes.json');
    }
    expect(await ids(bytes)).toEqual(['path-unicode-mismatch']);
  });

  it('an entry hidden behind the end of a deflate stream: bsdtar reading from a pipe writes it over the checked manifest', async () => {
    const bytes = buildZip(plus(hiddenBehindStream()));
    const out = extract(bytes, 'pipe');
    expect(out.status, out.stderr).toBe(0);
    expect(out.files['data/notes.json']).toBe('{"notes":[]}');
    expect(JSON.parse(out.files['manifest.json']!)).toMatchObject({ name: 'Swapped' });
    expect(await ids(bytes)).toEqual(['archive-size-mismatch']);
  });

  it('plain bytes after the end of a deflate stream: bsdtar fails on the entry and writes it without its content', async () => {
    const bytes = shapes.find((shape) => shape.name.startsWith('bytes after the end of a deflate stream'))!.bytes();
    for (const how of ['file', 'pipe'] as const) {
      const out = extract(bytes, how);
      expect(out.status, how).not.toBe(0);
      expect(out.stderr).toContain('compressed data is wrong size');
      // Empty from a pipe, zeros of the right length from the file (libarchive 3.6).
      expect(out.files['data/notes.json'], how).toMatch(/^\0*$/);
    }
    expect(await ids(bytes)).toEqual(['archive-size-mismatch']);
  });

  it("8-byte descriptor sizes without a local Zip64 field (yauzl's zip64.zip): bsdtar reading from a pipe fails on every entry", async () => {
    const bytes = shapes.find((shape) => shape.name.startsWith('yauzl success/zip64.zip'))!.bytes();
    expect(extract(bytes, 'file').files).toEqual(goodFiles());
    const out = extract(bytes, 'pipe');
    expect(out.status).not.toBe(0);
    expect(out.stderr).toContain('uncompressed data is wrong size');
    expect([...new Set(await ids(bytes))]).toEqual(['archive-corrupt']);
  });
});

import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateBundle } from '../src/core/validate.js';
import { BridgeModelError } from '../src/platform/index.js';
import { goodEntries, goodManifest, writeZip } from './helpers/bundles.js';
import { buildZip, type EntrySpec } from './helpers/zip-builder.js';
import { line, makePlatform } from './platform/helpers.js';

/*
 * Every limit at its edge: one case exactly at the limit, which must pass, and one just past it,
 * which must fail. Tests far from a limit let an off-by-one (`>=` for `>`) through unnoticed.
 */

const ZIP_LIMIT = 10_000_000;
const UNPACKED_LIMIT = 50_000_000;
const FILE_LIMIT = 200;
const MANIFEST_LIMIT = 64_000;

async function ruleIdsOf(file: string): Promise<string[]> {
  const report = await validateBundle(file);
  return report.problems.map((p) => p.ruleId);
}

/** A clean bundle plus one stored (uncompressed) filler entry, sized so the zip is exactly `bytes` long. */
function zipOfSize(bytes: number): string {
  const filler = (length: number): EntrySpec => ({ name: 'filler.png', method: 0, data: randomBytes(length) });
  const overhead = buildZip([...goodEntries(), filler(0)]).length;
  const file = writeZip([...goodEntries(), filler(bytes - overhead)]);
  expect(statSync(file).size).toBe(bytes);
  return file;
}

/** A clean bundle whose files inflate to exactly `bytes` in total, most of it in one file of zeros. */
function zipUnpackingTo(bytes: number): string {
  const entries = goodEntries();
  const used = entries.reduce((sum, e) => sum + Buffer.byteLength(e.data ?? ''), 0);
  return writeZip([...entries, { name: 'zeros.png', data: Buffer.alloc(bytes - used) }]);
}

/** A clean bundle holding exactly `count` files (directory entries do not count). */
function zipWithFiles(count: number): string {
  const entries = goodEntries();
  const extra = Array.from({ length: count - entries.length }, (_, i): EntrySpec => ({ name: `img/${i}.png`, data: 'x' }));
  return writeZip([{ name: 'img/', data: '' }, ...entries, ...extra]);
}

/** A clean bundle whose manifest.json is exactly `bytes` long (padded with JSON white space). */
function zipWithManifestOf(bytes: number): string {
  const text = JSON.stringify(goodManifest);
  const padded = text.slice(0, -1) + ' '.repeat(bytes - Buffer.byteLength(text)) + '}';
  expect(Buffer.byteLength(padded)).toBe(bytes);
  const entries = goodEntries().map((e) => (e.name === 'manifest.json' ? { ...e, data: padded } : e));
  return writeZip(entries);
}

function zipWithShortName(length: number): string {
  return writeZip(goodEntries({ ...goodManifest, name: 'N'.repeat(40), shortName: 'S'.repeat(length) }));
}

describe('bundle limits at their edges', () => {
  const cases: { limit: string; rule: string; at: () => string; past: () => string }[] = [
    { limit: 'zip bytes', rule: 'bundle-size', at: () => zipOfSize(ZIP_LIMIT), past: () => zipOfSize(ZIP_LIMIT + 1) },
    { limit: 'unpacked bytes', rule: 'unpacked-size', at: () => zipUnpackingTo(UNPACKED_LIMIT), past: () => zipUnpackingTo(UNPACKED_LIMIT + 1) },
    { limit: 'file count', rule: 'file-count', at: () => zipWithFiles(FILE_LIMIT), past: () => zipWithFiles(FILE_LIMIT + 1) },
    { limit: 'manifest size', rule: 'manifest-too-large', at: () => zipWithManifestOf(MANIFEST_LIMIT), past: () => zipWithManifestOf(MANIFEST_LIMIT + 1) },
    { limit: 'short name length', rule: 'manifest-short-name', at: () => zipWithShortName(24), past: () => zipWithShortName(25) },
  ];

  for (const { limit, rule, at, past } of cases) {
    it(`${limit}: exactly at the limit passes, one past it fails with ${rule}`, async () => {
      expect(await ruleIdsOf(at())).toEqual([]);
      expect(await ruleIdsOf(past())).toContain(rule);
    });
  }

  it('a bundle past the zip limit names its five largest entries, largest first, with their compressed sizes', async () => {
    const sizes = [900_000, 3_000_000, 100, 2_000_000, 5_000_000, 1_000];
    const fillers = sizes.map((bytes, i): EntrySpec => ({ name: `img/${i}.png`, method: 0, data: randomBytes(bytes) }));
    const report = await validateBundle(writeZip([...goodEntries(), ...fillers]));
    const problem = report.problems.find((p) => p.ruleId === 'bundle-size');
    expect(problem?.data).toMatchObject({ limit: ZIP_LIMIT });
    const largest = (problem?.data as { largest: { path: string; bytes: number }[] }).largest;
    expect(largest).toEqual([
      { path: 'img/4.png', bytes: 5_000_000 },
      { path: 'img/1.png', bytes: 3_000_000 },
      { path: 'img/3.png', bytes: 2_000_000 },
      { path: 'img/0.png', bytes: 900_000 },
      { path: 'img/5.png', bytes: 1_000 },
    ]);
  });
});

/** Resolves to 'ok', or to the error's detail codes by path. */
async function outcome(promise: Promise<unknown>): Promise<'ok' | Record<string, string>> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (!(error instanceof BridgeModelError)) throw error;
    return Object.fromEntries(error.details.map((d) => [d.path, d.code]));
  }
}

const request = (lines: unknown[]) => ({ customerName: 'Edge', upsertByEmail: false, lines });
const createLine = (changes: Record<string, unknown> = {}) => ({ description: 'x', qty: 1, unitPrice: 10, taxRate: 0.15, ...changes });

describe('bridge limits at their edges', () => {
  const { platform } = makePlatform();
  const create = (lines: unknown[]) => outcome(platform.call('quotes.create', [request(lines)]));
  const addLine = (changes: Record<string, unknown>) => outcome(platform.call('quotes.addLines', [[line(changes)]]));

  const cases: { limit: string; at: () => Promise<unknown>; past: () => Promise<unknown>; path: string; code: string }[] = [
    { limit: 'quote lines (most)', at: () => create(Array.from({ length: 200 }, () => createLine())), past: () => create(Array.from({ length: 201 }, () => createLine())), path: 'lines', code: 'TOO_MANY_ITEMS' },
    { limit: 'quote lines (fewest)', at: () => create([createLine()]), past: () => create([]), path: 'lines', code: 'EMPTY_LIST' },
    { limit: 'create qty (most)', at: () => create([createLine({ qty: 10_000 })]), past: () => create([createLine({ qty: 10_000.01 })]), path: 'lines[0].qty', code: 'OUT_OF_RANGE' },
    { limit: 'create qty (least)', at: () => create([createLine({ qty: 0.001 })]), past: () => create([createLine({ qty: 0 })]), path: 'lines[0].qty', code: 'OUT_OF_RANGE' },
    { limit: 'create unitPrice (most)', at: () => create([createLine({ unitPrice: 1_000_000 })]), past: () => create([createLine({ unitPrice: 1_000_000.01 })]), path: 'lines[0].unitPrice', code: 'OUT_OF_RANGE' },
    { limit: 'create unitPrice (least)', at: () => create([createLine({ unitPrice: 0 })]), past: () => create([createLine({ unitPrice: -0.01 })]), path: 'lines[0].unitPrice', code: 'OUT_OF_RANGE' },
    { limit: 'addLines qty (least)', at: () => addLine({ qty: 0.001 }), past: () => addLine({ qty: 0 }), path: 'lines[0].qty', code: 'OUT_OF_RANGE' },
    { limit: 'addLines unitPrice (least)', at: () => addLine({ unitPrice: 0 }), past: () => addLine({ unitPrice: -0.01 }), path: 'lines[0].unitPrice', code: 'OUT_OF_RANGE' },
    { limit: 'discount (least)', at: () => addLine({ discountPercent: 0 }), past: () => addLine({ discountPercent: -0.01 }), path: 'lines[0].discountPercent', code: 'OUT_OF_RANGE' },
    { limit: 'discount (most)', at: () => addLine({ discountPercent: 100 }), past: () => addLine({ discountPercent: 100.01 }), path: 'lines[0].discountPercent', code: 'OUT_OF_RANGE' },
    { limit: 'page (least)', at: () => outcome(platform.call('products.list', [{ page: 1 }])), past: () => outcome(platform.call('products.list', [{ page: 0 }])), path: 'page', code: 'OUT_OF_RANGE' },
    { limit: 'pageSize (least)', at: () => outcome(platform.call('customers.list', [{ pageSize: 1 }])), past: () => outcome(platform.call('customers.list', [{ pageSize: 0 }])), path: 'pageSize', code: 'OUT_OF_RANGE' },
  ];

  for (const { limit, at, past, path, code } of cases) {
    it(`${limit}: at the limit is accepted, one step past it is refused (${path} ${code})`, async () => {
      expect(await at()).toBe('ok');
      expect(await past()).toEqual({ [path]: code });
    });
  }

  it('a page of exactly one row holds one row', async () => {
    const page = (await platform.call('products.list', [{ page: 2, pageSize: 1 }])) as { items: unknown[]; totalCount: number };
    expect(page.items).toHaveLength(1);
    expect(page.totalCount).toBeGreaterThan(2);
  });
});

describe('section limits at their edges', () => {
  const sectioned = (section: string, sectionNotes?: string) => line({ section, ...(sectionNotes === undefined ? {} : { sectionNotes }) });

  it('section name: 100 characters are kept whole, 101 are cut to 100 with a warning', async () => {
    const { platform, warnings } = makePlatform();
    await platform.call('quotes.addLines', [[sectioned('a'.repeat(100)), sectioned(`b${'c'.repeat(100)}`)]]);
    const names = platform.editorView().blocks.map((b) => b.section?.name).filter((n): n is string => n !== undefined);
    expect(names).toEqual(['a'.repeat(100), `b${'c'.repeat(99)}`]);
    expect(warnings.map((w) => [w.code, w.path])).toEqual([['SECTION_NAME_TRUNCATED', 'lines[1].section']]);
  });

  it('section notes: 2000 characters are kept whole, 2001 are cut to 2000 with a warning', async () => {
    const { platform, warnings } = makePlatform();
    await platform.call('quotes.addLines', [[sectioned('A', 'n'.repeat(2000)), sectioned('B', `m${'o'.repeat(2000)}`)]]);
    const notes = platform.editorView().blocks.map((b) => b.section?.notes);
    expect(notes).toEqual(['n'.repeat(2000), `m${'o'.repeat(1999)}`]);
    expect(warnings.map((w) => [w.code, w.path])).toEqual([['SECTION_NOTES_TRUNCATED', 'lines[1].sectionNotes']]);
  });
});

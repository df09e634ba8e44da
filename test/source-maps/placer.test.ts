import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codePointColumn, createSourcePlacer, utf16Offset } from '../../src/core/source-map/source-placer.js';
import { tempDir } from '../helpers/bundles.js';

/*
 * The placer on its own, with maps written by hand: which maps it trusts (a plain map, an indexed
 * map of sections, and nothing else), and where lines of the built file end.
 */

/** One source line `abc` and a map that ties each of the built line's first three columns to it. */
const PLAIN = { version: 3, sources: ['../src/a.ts'], names: [], mappings: 'AAAA,CAAC,CAAC' };

/** A placer over a built file `app.js` (text `built`) whose map beside it is `map` (an object, or text as it is). */
function placerFor(map: unknown, built = 'abc\n') {
  const root = tempDir();
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'a.ts'), 'abc\n');
  const folder = path.join(root, 'dist');
  return createSourcePlacer({
    folder,
    root,
    readBuilt: async (file) => (file === 'app.js' ? built : undefined),
    readMap: async (file) => (file === 'app.js.map' ? (typeof map === 'string' ? map : JSON.stringify(map)) : undefined),
  });
}

describe('the maps the placer trusts', () => {
  it('a plain map', async () => {
    expect(await placerFor(PLAIN).place('app.js', 1, 2)).toEqual({ file: 'src/a.ts', line: 1, column: 2 });
  });

  it('an indexed map, whose sections hold plain maps', async () => {
    const indexed = { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: PLAIN }] };
    expect(await placerFor(indexed).place('app.js', 1, 3)).toEqual({ file: 'src/a.ts', line: 1, column: 3 });
  });

  it.each([
    ['another version', { ...PLAIN, version: 2 }],
    ['no version', { ...PLAIN, version: undefined }],
    ['mappings that are not a string', { ...PLAIN, mappings: 7 }],
    ['no sources list', { ...PLAIN, sources: '../src/a.ts' }],
    ['an array', [PLAIN]],
    ['null', null],
    ['a number', 3],
    ['a section that is not an object', { version: 3, sections: [null] }],
    ['a section of a number', { version: 3, sections: [7] }],
    ['a section whose map is of another version', { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: { ...PLAIN, version: 2 } }] }],
    ['a section whose map has sections of its own', { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: PLAIN }] } }] }],
    ['an indexed map of another version', { version: 2, sections: [{ offset: { line: 0, column: 0 }, map: PLAIN }] }],
  ])('not %s', async (_name, map) => {
    expect(await placerFor(map).place('app.js', 1, 1)).toBeUndefined();
  });
});

describe('how a source\u2019s name becomes a file of the project', () => {
  /** Where column 2 of the built line is placed when PLAIN names its one source `source` (with `extra` fields). */
  const placeNamed = (source: string, extra: object = {}) => placerFor({ ...PLAIN, sources: [source], ...extra }).place('app.js', 1, 2);

  it.each([
    ['webpack://my-app/./src/a.ts', 'webpack and Rspack by default'],
    ['webpack://my-app/./src/a.ts?5f3a', 'with a query'],
    ['webpack:///./src/a.ts', 'with no namespace'],
    ['webpack://my-app/src/a.ts#x', 'with a fragment'],
  ])('%s (%s) is read from the project\u2019s folder', async (source) => {
    expect(await placeNamed(source)).toEqual({ file: 'src/a.ts', line: 1, column: 2 });
  });

  it('a webpack:// name in a section of an indexed map, as it is written', async () => {
    const section = { ...PLAIN, sources: ['webpack://my-app/./src/a.ts'] };
    const indexed = { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: section }] };
    expect(await placerFor(indexed).place('app.js', 1, 2)).toEqual({ file: 'src/a.ts', line: 1, column: 2 });
  });

  it.each(['webpack://my-app/webpack/bootstrap', 'webpack://my-app/external "react"', 'webpack://my-app/', 'webpack://my-app'])('%s names no file', async (source) => {
    expect(await placeNamed(source)).toBeUndefined();
  });

  it('a relative name not beside the map, in a map without sourceRoot, is read from the project\u2019s folder (as Parcel writes it)', async () => {
    expect(await placeNamed('src/a.ts')).toEqual({ file: 'src/a.ts', line: 1, column: 2 });
    expect(await placeNamed('./src/a.ts', { sourceRoot: '' })).toEqual({ file: 'src/a.ts', line: 1, column: 2 });
  });

  it('but not when the map has a sourceRoot, or the name has a scheme or starts at a root', async () => {
    expect(await placeNamed('src/a.ts', { sourceRoot: 'lib' })).toBeUndefined();
    expect(await placeNamed('/src/a.ts')).toBeUndefined();
    expect(await placeNamed('app:src/a.ts')).toBeUndefined();
  });

  it('a file beside the map comes first', async () => {
    const root = tempDir();
    for (const folder of ['src', 'dist/src']) mkdirSync(path.join(root, folder), { recursive: true });
    writeFileSync(path.join(root, 'src', 'a.ts'), 'abc\n');
    writeFileSync(path.join(root, 'dist', 'src', 'a.ts'), 'abc\n');
    const placer = createSourcePlacer({
      folder: path.join(root, 'dist'),
      root,
      readBuilt: async (file) => (file === 'app.js' ? 'abc\n' : undefined),
      readMap: async () => JSON.stringify({ ...PLAIN, sources: ['src/a.ts'] }),
    });
    expect(await placer.place('app.js', 1, 2)).toEqual({ file: 'dist/src/a.ts', line: 1, column: 2 });
  });
});

describe('the built file\u2019s lines', () => {
  it.each([
    ['LF', 'abc\nx'],
    ['CRLF', 'abc\r\nx'],
    ['a lone CR', 'abc\rx'],
  ])('end before their %s: a column past it is in no line', async (_name, built) => {
    const placer = placerFor(PLAIN, built);
    expect(await placer.place('app.js', 1, 4)).toEqual({ file: 'src/a.ts', line: 1, column: 3 });
    expect(await placer.place('app.js', 1, 5)).toBeUndefined();
  });

  it('has no line 0, column 0 or line after the last', async () => {
    const placer = placerFor(PLAIN, 'abc');
    expect(await placer.place('app.js', 0, 1)).toBeUndefined();
    expect(await placer.place('app.js', 1, 0)).toBeUndefined();
    expect(await placer.place('app.js', 2, 1)).toBeUndefined();
    expect(await placer.place('app.js', 1.5, 1)).toBeUndefined();
  });
});

describe('lone surrogates', () => {
  it('count as one character and one UTF-16 unit each, as a pair counts as one character and two units', () => {
    const line = 'a\uD83Db\uDE00c😀d\uD83D';
    // a, lone high, b, lone low, c, pair, d, lone high at the end
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((column) => utf16Offset(line, column))).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 9]);
    expect([0, 1, 2, 3, 4, 5, 7, 8, 9].map((offset) => codePointColumn(line, offset))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

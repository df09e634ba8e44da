import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSourcePlacer, findSourceMap, mappingsFault, MAX_MAP_BYTES, readMapInside } from '../../src/core/source-map/source-placer.js';
import { tempDir } from '../helpers/bundles.js';

/*
 * The placer's checks one by one, with maps written by hand: the text of `mappings`, the place a
 * segment points at in its source, which source files it reads, the places `sitesOf` finds, and
 * how the bundle report finds a built file's map.
 */

/** A project with src/a.ts (`abc` then `de`) and a dist/ folder; `files` are written in the project. */
function project(files: Record<string, string> = {}) {
  const root = tempDir();
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'dist'));
  writeFileSync(path.join(root, 'src', 'a.ts'), 'abc\nde\n');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return { root, folder: path.join(root, 'dist') };
}

/** A placer over `app.js` (text `built`) whose map is `map`, in a project like {@link project}'s. */
function placerFor(map: object, built = 'abc\n', where = project()) {
  const placer = createSourcePlacer({
    ...where,
    readBuilt: async (file) => (file === 'app.js' ? built : undefined),
    readMap: async (file) => (file === 'app.js.map' ? JSON.stringify(map) : undefined),
  });
  return placer;
}

const plain = (mappings: string, extra: object = {}) => ({ version: 3, sources: ['../src/a.ts'], names: [], mappings, ...extra });

describe('mappingsFault', () => {
  it.each([
    ['', 1],
    ['A', 1],
    ['AAAA', 1],
    ['AAAAA', 1],
    ['AAAA,AAAA;AAAA', 2],
    ['AAAA;;', 3],
    ['AAAA,', 1],
    ['gggggA', 1],
    ['AAAA,CAAC', 1, 2],
  ])('%s is well formed for a file of %d lines', (mappings, lines, characters = Infinity) => {
    expect(mappingsFault(mappings, lines, characters)).toBeUndefined();
  });

  it.each([
    ['AA', 1, 'its mappings have a segment of 2 numbers before character 3; a segment has 1, 4 or 5'],
    ['AAA,AAAA', 1, 'its mappings have a segment of 3 numbers before character 4; a segment has 1, 4 or 5'],
    ['AAAAAA', 1, 'its mappings have a segment of 6 numbers before character 7; a segment has 1, 4 or 5'],
    ['AAAg', 1, 'its mappings cut a number short at character 5'],
    ['AAAg,A', 1, 'its mappings cut a number short at character 5'],
    ['ggggggA', 1, 'its mappings hold a number of more than 6 digits at character 7, too large for a position'],
    ['AA!A', 1, 'its mappings hold "!" at character 3, which is not a base64 digit'],
    ['AA\u00e9A', 1, 'its mappings hold "\u00e9" at character 3, which is not a base64 digit'],
    ['AA\u0080A', 1, 'its mappings hold "\u0080" at character 3, which is not a base64 digit'],
    ['AAAA;AAAA', 1, 'its mappings describe more lines than the 1 the file has'],
    ['AAAA;', 1, 'its mappings describe more lines than the 1 the file has'],
  ])('%s is not, for a file of %d lines', (mappings, lines, fault) => {
    expect(mappingsFault(mappings, lines)).toBe(fault);
  });

  it('counts segments against the places of the file', () => {
    expect(mappingsFault('A,A,A', 1, 3)).toBeUndefined();
    expect(mappingsFault('A,A,A,A', 1, 3)).toBe('its mappings have more segments than the 3 places of the file');
    expect(mappingsFault('A;A;A;A', 4, 3)).toBe('its mappings have more segments than the 3 places of the file');
    expect(mappingsFault(';;;', 4, 0)).toBeUndefined();
    expect(mappingsFault('A,'.repeat(1000) + 'A', 1, 1000)).toBe('its mappings have more segments than the 1,000 places of the file');
  });
});

describe('the mappings of an indexed map\u2019s sections', () => {
  const indexed = (offsetLine: unknown, mappings: string) => ({ version: 3, sections: [{ offset: { line: offsetLine, column: 0 }, map: plain(mappings) }] });

  it('may describe the lines from the section\u2019s own to the end of the file', async () => {
    const placer = placerFor(indexed(1, 'AAAA;AACA'), 'x\nabc\nde\n');
    expect(await placer.place('app.js', 2, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
    expect(await placer.place('app.js', 3, 1)).toEqual({ file: 'src/a.ts', line: 2, column: 1 });
    expect(placer.notes()).toEqual([]);
  });

  it('from the first line, for a section at line 0', async () => {
    const placer = placerFor(indexed(0, 'AAAA;AACA'), 'abc\nde\n');
    expect(await placer.place('app.js', 2, 1)).toEqual({ file: 'src/a.ts', line: 2, column: 1 });
  });

  it('and no more', async () => {
    const placer = placerFor(indexed(2, 'AAAA;AACA'), 'x\nabc\nde');
    expect(await placer.place('app.js', 3, 1)).toBeUndefined();
    expect(placer.notes()).toEqual([{ file: 'app.js', reason: 'mappings', message: 'its source map is not used: its mappings describe more lines than the 1 the file has' }]);
  });

  it.each([
    ['a negative line', -1],
    ['a line that is not a number', 'x'],
    ['a fraction', 0.5],
  ])('of %s, may describe no line at all', async (_name, offsetLine) => {
    const placer = placerFor(indexed(offsetLine, 'AAAA;AACA'), 'abc\nde\n');
    expect(await placer.place('app.js', 1, 1)).toBeUndefined();
    expect(placer.notes()).toEqual([{ file: 'app.js', reason: 'mappings', message: 'its source map is not used: its mappings describe more lines than the 0 the file has' }]);
  });

  it('each checked: a fault in the second section is found', async () => {
    const map = { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: plain('AAAA') }, { offset: { line: 1, column: 0 }, map: plain('AA') }] };
    const placer = placerFor(map, 'abc\nde\n');
    expect(await placer.place('app.js', 1, 1)).toBeUndefined();
    expect(placer.notes()).toEqual([{ file: 'app.js', reason: 'mappings', message: expect.stringContaining('a segment of 2 numbers') }]);
  });
});

describe('the place a segment points at', () => {
  it('is a character of the source, or the end of its line; not past it, nor a line past the last', async () => {
    // Built columns 1, 2, 3, 4 point at the source's 1:3, 1:4 (the line's end), 1:5 and 9:1.
    const placer = placerFor(plain('AAAE,CAAC,CAAC,CAQJ'), 'abcd\n');
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 3 });
    expect(await placer.place('app.js', 1, 2)).toEqual({ file: 'src/a.ts', line: 1, column: 4 });
    expect(await placer.place('app.js', 1, 3)).toBeUndefined();
    expect(await placer.place('app.js', 1, 4)).toBeUndefined();
  });

  it('is nowhere for a negative source line or column, or a source the map does not name', async () => {
    // Line 1 points at source line -1; line 2 at column -1 of line 0; line 3 at source 1 of 1.
    const placer = placerFor(plain('AADA;AACD;ACAA'), 'a\nb\nc\n');
    expect(await placer.place('app.js', 1, 1)).toBeUndefined();
    expect(await placer.place('app.js', 2, 1)).toBeUndefined();
    expect(await placer.place('app.js', 3, 1)).toBeUndefined();
  });

  it('counts columns past a character outside the BMP in characters, or in UTF-16 units when asked', async () => {
    // The built line is `😀ab`: UTF-16 units 0-1 are the emoji, `a` is at 2, `b` at 3, each mapped.
    const placer = placerFor(plain('AAAA,EAAC,CAAC'), '\u{1F600}ab\n');
    expect(await placer.place('app.js', 1, 2)).toEqual({ file: 'src/a.ts', line: 1, column: 2 });
    expect(await placer.place('app.js', 1, 3)).toEqual({ file: 'src/a.ts', line: 1, column: 3 });
    expect(await placer.place('app.js', 1, 3, 'utf16')).toEqual({ file: 'src/a.ts', line: 1, column: 2 });
    expect(await placer.place('app.js', 1, 4, 'utf16')).toEqual({ file: 'src/a.ts', line: 1, column: 3 });
    expect(await placer.place('app.js', 1, 4)).toEqual({ file: 'src/a.ts', line: 1, column: 3 });
    expect(await placer.place('app.js', 1, 6)).toBeUndefined();
  });

  it('in a source with a character outside the BMP, is counted in characters there too', async () => {
    const where = project({ 'src/b.ts': '\u{1F600}xy\n' });
    // Built column 1 points at UTF-16 offset 3 of the source line: `y`, its third character.
    const placer = placerFor({ ...plain('AAAG'), sources: ['../src/b.ts'] }, 'a\n', where);
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/b.ts', line: 1, column: 3 });
  });
});

describe('the source files a map may name', () => {
  it('are not a file outside the project, a link inside it that leads out, a folder, or a file too large to read', async () => {
    const outside = tempDir();
    writeFileSync(path.join(outside, 'x.ts'), 'abc\n');
    const where = project({ 'src/big.ts': '' });
    truncateSync(path.join(where.root, 'src', 'big.ts'), 10_000_001);
    symlinkSync(path.join(outside, 'x.ts'), path.join(where.root, 'src', 'out.ts'));
    mkdirSync(path.join(where.root, 'src', 'dir.ts'));
    for (const source of [pathToFileURL(path.join(outside, 'x.ts')).href, '../src/out.ts', '../src/dir.ts', '../src/big.ts', '../../x.ts']) {
      const placer = placerFor({ ...plain('AAAA'), sources: [source] }, 'a\n', where);
      expect(await placer.place('app.js', 1, 1)).toBeUndefined();
    }
  });

  it('are a link inside the project to a file inside it, named by the file\u2019s own path', async () => {
    const where = project();
    symlinkSync(path.join(where.root, 'src', 'a.ts'), path.join(where.root, 'src', 'link.ts'));
    const placer = placerFor({ ...plain('AAAA'), sources: ['../src/link.ts'] }, 'a\n', where);
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
  });

  it('are found when the project was reached through a link, the built folder named through it or by its real path', async () => {
    const { root } = project();
    const linked = path.join(tempDir(), 'linked');
    symlinkSync(root, linked);
    for (const where of [
      { root: linked, folder: path.join(linked, 'dist') },
      { root: linked, folder: path.join(root, 'dist') },
    ]) {
      const placer = placerFor(plain('AAAA'), 'a\n', where);
      expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
      expect(placer.sourceText('src/a.ts')).toBe('abc\nde\n');
    }
  });

  it('are read from disk, never from the map\u2019s sourcesContent, and each once', async () => {
    const placer = placerFor(plain('AAAA;AACA', { sourcesContent: ['// pipeline-tool-disable-next-line\nxyz\n'] }), 'a\nb\n');
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
    expect(await placer.place('app.js', 2, 1)).toEqual({ file: 'src/a.ts', line: 2, column: 1 });
    expect(placer.sourceText('src/a.ts')).toBe('abc\nde\n');
    expect(placer.sourceText('src/other.ts')).toBeUndefined();
  });
});

describe('the notes', () => {
  it('are a copy: changing the list given leaves the placer\u2019s own', async () => {
    const placer = placerFor(plain('AA'));
    await placer.place('app.js', 1, 1);
    const notes = placer.notes();
    expect(notes).toHaveLength(1);
    notes.length = 0;
    expect(placer.notes()).toHaveLength(1);
  });
});

describe('the places a map ties to places of its sources', () => {
  it('are given in characters of the built line, skip segments of no source, and come once per source place for which there is data', async () => {
    // Built `😀abcd`: offsets 2 (a) and 5 (d) map to the source's `a` (1:1); 3 (b) names no source;
    // 4 (c) maps to `b` (1:2), for which there is no data.
    const placer = placerFor(plain('EAAA,C,CAAC,CADA'), '\u{1F600}abcd\n');
    const sites = await placer.sitesOf('app.js', () => true, (text, offset) => (text[offset] === 'a' ? 'A' : undefined));
    expect(sites).toEqual([{ line: 1, column: 2, at: { file: 'src/a.ts', line: 1, column: 1 }, data: 'A' }]);
  });

  it('are none for a map of no usable source, or of sources the test does not want', async () => {
    const placer = placerFor({ ...plain('AAAA'), sources: ['../../elsewhere.ts'] }, 'a\n');
    expect(await placer.sitesOf('app.js', () => true, () => 'x')).toEqual([]);
    const asked: string[] = [];
    const wanted = placerFor(plain('AAAA'), 'a\n');
    expect(
      await wanted.sitesOf(
        'app.js',
        (source) => {
          asked.push(source);
          return false;
        },
        () => 'x',
      ),
    ).toEqual([]);
    expect(asked).toHaveLength(1);
  });

  it('skip a source place past its line', async () => {
    const placer = placerFor(plain('AAAM'), 'a\n');
    expect(await placer.sitesOf('app.js', () => true, () => 'x')).toEqual([]);
  });
});

describe('the map of a built file, for the bundle report', () => {
  const map = JSON.stringify(plain('AAAA'));

  it('is read from a comment, beside the file, or inline, with the address its sources are resolved against', async () => {
    const { folder } = project({ 'dist/js/app.js.map': map, 'dist/js/other.map': map });
    const read = readMapInside(folder);
    const fileUrl = (file: string) => pathToFileURL(path.join(folder, ...file.split('/'))).href;
    expect(await findSourceMap('js/app.js', 'a();\n', folder, read)).toEqual({ map: JSON.parse(map), url: fileUrl('js/app.js.map') });
    expect(await findSourceMap('js/app.js', 'a();\n//# sourceMappingURL=other.map\n', folder, read)).toEqual({ map: JSON.parse(map), url: fileUrl('js/other.map') });
    const inline = `a();\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString('base64')}\n`;
    expect(await findSourceMap('js/b.js', inline, folder, read)).toEqual({ map: JSON.parse(map), url: fileUrl('js/b.js') });
  });

  it('is none when the comment is unusable, the file is missing, too deep, not JSON, not a map, or too large', async () => {
    const { folder } = project({
      'dist/deep.js.map': JSON.stringify({ ...plain('AAAA'), x: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) as unknown }),
      'dist/bad.js.map': '{"version": 3,',
      'dist/other.js.map': '{"version": 2, "sources": [], "mappings": ""}',
      'dist/big.js.map': '',
    });
    truncateSync(path.join(folder, 'big.js.map'), MAX_MAP_BYTES + 1);
    const read = readMapInside(folder);
    expect(await findSourceMap('app.js', 'a();\n//# sourceMappingURL=https://example.com/app.js.map\n', folder, read)).toBeNull();
    for (const file of ['missing.js', 'deep.js', 'bad.js', 'other.js', 'big.js']) expect(await findSourceMap(file, 'a();\n', folder, read)).toBeNull();
    for (const json of ['null', '3', '[]', '"map"']) expect(await findSourceMap('app.js', 'a();\n', folder, async () => json)).toBeNull();
  });

  it('passes on what goes wrong in reading the map otherwise', async () => {
    const { folder } = project();
    const failure = new Error('disk gone');
    await expect(
      findSourceMap('app.js', 'a();\n', folder, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
  });
});

describe('the placer, further', () => {
  it('hears an abort before placing, even through a map it already holds', async () => {
    const controller = new AbortController();
    const where = project();
    const placer = createSourcePlacer({ ...where, signal: controller.signal, readBuilt: async () => 'a\n', readMap: async () => JSON.stringify(plain('AAAA')) });
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(placer.place('app.js', 1, 1)).rejects.toBe(reason);
    await expect(placer.sitesOf('app.js', () => true, () => 'x')).rejects.toBe(reason);
  });

  it('rejects with the abort that arrives while a map is being read, rather than leaving the file unplaced', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const where = project();
    const placer = createSourcePlacer({
      ...where,
      signal: controller.signal,
      readBuilt: async () => 'a\n',
      readMap: async () => {
        controller.abort(reason);
        throw new Error('read cut short');
      },
    });
    await expect(placer.place('app.js', 1, 1)).rejects.toBe(reason);
    expect(placer.notes()).toEqual([]);
  });

  it('leaves a map that is not JSON unused, without a note', async () => {
    const where = project();
    const placer = createSourcePlacer({ ...where, readBuilt: async () => 'a\n', readMap: async () => '{"version": 3,' });
    expect(await placer.place('app.js', 1, 1)).toBeUndefined();
    expect(placer.notes()).toEqual([]);
  });

  it('uses a map exactly at each budget', async () => {
    const where = project();
    const indexed = { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: plain('AAAA') }] };
    const text = JSON.stringify(indexed);
    // The index map nests 5 levels: the map, sections, a section, its map, its sources.
    const placer = createSourcePlacer({ ...where, readBuilt: async () => 'a\n', readMap: async () => text, budgets: { nesting: 5, sections: 1, sources: 1, decodedPerRun: 4 } });
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
    expect(placer.notes()).toEqual([]);
    const tighter = createSourcePlacer({ ...where, readBuilt: async () => 'a\n', readMap: async () => text, budgets: { nesting: 4 } });
    expect(await tighter.place('app.js', 1, 1)).toBeUndefined();
    expect(tighter.notes()).toEqual([expect.objectContaining({ reason: 'nesting' })]);
  });

  it('reads a webpack:// source made of the map\u2019s sourceRoot and the name', async () => {
    const placer = placerFor({ ...plain('AAAA'), sources: ['./src/a.ts'], sourceRoot: 'webpack://my-app/' }, 'a\n');
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
  });

  it('reads a relative name from the project\u2019s folder when the map\u2019s sourceRoot is null', async () => {
    const placer = placerFor({ ...plain('AAAA'), sources: ['src/a.ts'], sourceRoot: null }, 'a\n');
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
  });
});

describe('where the placer looks for a built file\u2019s map', () => {
  /** A placer over `file` with text `built`, whose map reader serves `maps` (path → map) and records what it is asked. */
  function looking(built: string, maps: Record<string, object>) {
    const asked: [string, boolean][] = [];
    const placer = createSourcePlacer({
      ...project(),
      readBuilt: async () => built,
      readMap: async (file, named) => {
        asked.push([file, named]);
        return maps[file] === undefined ? undefined : JSON.stringify(maps[file]);
      },
    });
    return { placer, asked };
  }

  it('the file its comment names, said to be named; else the .map beside it, said not to be', async () => {
    const named = looking('a\n//# sourceMappingURL=maps/app.map\n', { 'maps/app.map': { ...plain('AAAA'), sources: ['../../src/a.ts'] }, 'app.js.map': plain('AACA') });
    expect(await named.placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
    expect(named.asked).toEqual([['maps/app.map', true]]);
    const beside = looking('a\n', { 'app.js.map': plain('AAAA') });
    expect(await beside.placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
    expect(beside.asked).toEqual([['app.js.map', false]]);
  });

  it('the map inline in its comment, resolving sources from the built file\u2019s folder', async () => {
    const inline = `a\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(plain('AAAA'))).toString('base64')}\n`;
    const { placer, asked } = looking(inline, {});
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
    expect(asked).toEqual([]);
  });

  it('nowhere for a comment that names nothing usable, even with a map beside the file', async () => {
    const { placer, asked } = looking('a\n//# sourceMappingURL=https://example.com/app.js.map\n', { 'app.js.map': plain('AAAA') });
    expect(await placer.place('app.js', 1, 1)).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('nowhere outside the built folder, for a built file named outside it', async () => {
    const { placer, asked } = looking('a\n', { '../app.js.map': plain('AAAA') });
    expect(await placer.place('../app.js', 1, 1)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});

describe('the placer\u2019s last checks', () => {
  it('places nothing on a built line without mappings', async () => {
    const placer = placerFor(plain('AAAA;'), 'a\nb\n');
    expect(await placer.place('app.js', 2, 1)).toBeUndefined();
  });

  it('places no column between two characters', async () => {
    const placer = placerFor(plain('AAAA,CAAC,CAAC'));
    expect(await placer.place('app.js', 1, 1.5)).toBeUndefined();
    expect(await placer.place('app.js', 1, 2)).toEqual({ file: 'src/a.ts', line: 1, column: 2 });
  });

  it('reads a webpack:// name as written, so a `..` in it still climbs out of the project', async () => {
    const placer = placerFor({ ...plain('AAAA'), sources: ['webpack://my-app/../src/a.ts'] }, 'a\n');
    expect(await placer.place('app.js', 1, 1)).toBeUndefined();
  });
});

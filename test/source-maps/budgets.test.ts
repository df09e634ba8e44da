import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSourcePlacer, MAP_BUDGETS, MAX_MAP_BYTES, nestingOf, type MapBudgets } from '../../src/core/source-map/source-placer.js';
import { tempDir } from '../helpers/bundles.js';

/*
 * What one map may hold and what one run may decode. A tool folder is built by hand: a one-line
 * script per map, and a source file the map points into. Each budget spent leaves the map unused,
 * with a note naming the budget; the figures of time and memory are in bench/source-map-budgets.mjs.
 */

const SOURCE = 'export const saved = localStorage.getItem("x");\n';

/** A tool folder with `files` (path → text) in dist/ and src/app.ts in the project. */
function project(files: Record<string, string>): { folder: string; root: string } {
  const root = tempDir();
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'app.ts'), SOURCE);
  const folder = path.join(root, 'dist');
  mkdirSync(folder);
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(folder, file), text);
  return { folder, root };
}

const map = (extra: Record<string, unknown> = {}) => JSON.stringify({ version: 3, sources: ['../src/app.ts'], mappings: 'AAAA', ...extra });

function placerFor(files: Record<string, string>, budgets: Partial<MapBudgets> = {}, signal?: AbortSignal) {
  const { folder, root } = project(files);
  const readMaps: string[] = [];
  const readBuilt = async (file: string) => files[file];
  const placer = createSourcePlacer({
    folder,
    root,
    readBuilt,
    budgets,
    ...(signal ? { signal } : {}),
    readMap: async (file) => {
      readMaps.push(file);
      return files[file];
    },
  });
  return { placer, readMaps };
}

describe('a map within its budgets', () => {
  it('places, and is read again only after it is let go of', async () => {
    const { placer, readMaps } = placerFor({ 'app.js': 'x();\n', 'app.js.map': map() });
    expect(await placer.place('app.js', 1, 1)).toEqual({ file: 'src/app.ts', line: 1, column: 1 });
    await placer.place('app.js', 1, 1);
    expect(readMaps).toEqual(['app.js.map']);
    placer.release('app.js');
    await placer.place('app.js', 1, 1);
    expect(readMaps).toEqual(['app.js.map', 'app.js.map']);
    expect(placer.notes()).toEqual([]);
  });
});

describe('a map past a budget is not used, and a note says which', () => {
  it.each([
    ['sources', map({ sources: Array.from({ length: MAP_BUDGETS.sources + 1 }, (_, n) => `../src/s${n}.ts`) }), /names 10,001 sources, more than the 10,000 read/],
    ['sections', JSON.stringify({ version: 3, sections: Array.from({ length: MAP_BUDGETS.sections + 1 }, () => ({ offset: { line: 0, column: 0 }, map: JSON.parse(map()) as object })) }), /has 1,001 sections, more than the 1,000 read/],
    ['nesting', map({ x_deep: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) as unknown }), /nests objects and arrays 41 levels deep; .* at most 32 are read/],
    ['mappings', map({ mappings: 'AAAA,'.repeat(100) + 'AAAA' }), /more segments than the 7 places of the file/],
  ])('%s', async (reason, text, why) => {
    const { placer } = placerFor({ 'app.js': 'x();\n', 'app.js.map': text });
    expect(await placer.place('app.js', 1, 1)).toBeUndefined();
    expect(placer.notes()).toEqual([{ file: 'app.js', reason, message: expect.stringMatching(why) }]);
  });

  it('size: a map file over 50,000,000 bytes is not read', async () => {
    const { folder, root } = project({ 'app.js': 'x();\n' });
    writeFileSync(path.join(folder, 'app.js.map'), '');
    truncateSync(path.join(folder, 'app.js.map'), MAX_MAP_BYTES + 1);
    const placer = createSourcePlacer({ folder, root, readBuilt: async () => 'x();\n' });
    expect(await placer.place('app.js', 1, 1)).toBeUndefined();
    expect(placer.notes()).toEqual([{ file: 'app.js', reason: 'size', message: 'its source map is not used: app.js.map is 50,000,001 bytes, more than the 50,000,000 bytes read' }]);
  });

  it('decoded: the mappings one run decodes, all maps together', async () => {
    const files = { 'a.js': 'x();\n', 'a.js.map': map({ mappings: 'AAAA,CAAC' }), 'b.js': 'x();\n', 'b.js.map': map({ mappings: 'AAAA,CAAC' }) };
    const { placer } = placerFor(files, { decodedPerRun: 12 });
    expect(await placer.place('a.js', 1, 1)).toBeDefined();
    expect(await placer.place('b.js', 1, 1)).toBeUndefined();
    expect(placer.notes()).toEqual([{ file: 'b.js', reason: 'decoded', message: expect.stringMatching(/decoded 9 characters of mappings, and this map's 9 would pass the 12 one run decodes/) }]);
  });
});

describe('an abort', () => {
  it('stops placing before the next map is read', async () => {
    const controller = new AbortController();
    const { placer, readMaps } = placerFor({ 'a.js': 'x();\n', 'a.js.map': map(), 'b.js': 'x();\n', 'b.js.map': map() }, {}, controller.signal);
    await placer.place('a.js', 1, 1);
    controller.abort(new Error('stop'));
    await expect(placer.place('b.js', 1, 1)).rejects.toThrow('stop');
    expect(readMaps).toEqual(['a.js.map']);
  });
});

describe('nestingOf', () => {
  it('counts objects and arrays one inside another, not brackets inside strings', () => {
    expect(nestingOf('{"a": [1, {"b": "[[[{{{"}], "c\\\\\\"[": []}')).toBe(3);
    expect(nestingOf('[]')).toBe(1);
    expect(nestingOf('"x"')).toBe(0);
    // An escaped quote does not end a string; an escaped backslash before a quote does not escape it.
    expect(nestingOf('"\\"[[[[["')).toBe(0);
    expect(nestingOf('["\\\\", [[]]]')).toBe(3);
    // A string left open ends the text.
    expect(nestingOf('[{"a')).toBe(2);
  });
});

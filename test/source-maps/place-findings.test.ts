import { mkdirSync, writeFileSync } from 'node:fs';
import { encode } from '@jridgewell/sourcemap-codec';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BundleEntry, BundleSource } from '../../src/core/shipment/source.js';
import { placeAtSources } from '../../src/core/source-map/place-findings.js';
import { MAX_MAP_BYTES } from '../../src/core/source-map/source-placer.js';
import { tempDir } from '../helpers/bundles.js';

/*
 * Which findings validate places at their sources, and through which bytes: placeAtSources on a
 * bundle held in memory (a folder or a zip, as validate opens them), with a built folder on disk
 * whose maps tie `app.js` and `app.css` (`abc`) to src/a.ts (`abc`, a disable comment above it).
 */

const BUILT = 'abc\n';
const SOURCE = '// pipeline-tool-disable-next-line browser-storage\nabc\n';
const MAP = JSON.stringify({ version: 3, sources: ['../src/a.ts'], names: [], mappings: 'AACA,CAAC,CAAC' });

/** A project with src/a.ts and dist/ holding `built` (path → text) and a map beside each. */
function project(built: Record<string, string> = { 'app.js': BUILT, 'app.css': BUILT }) {
  const root = tempDir();
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'a.ts'), SOURCE);
  const folder = path.join(root, 'dist');
  mkdirSync(folder);
  for (const [file, text] of Object.entries(built)) {
    writeFileSync(path.join(folder, file), text);
    writeFileSync(path.join(folder, `${file}.map`), MAP);
  }
  return { root, folder };
}

interface Held {
  text: string;
  /** What the entry says of itself, when it differs from the text. */
  entry?: Partial<BundleEntry>;
}

/** A bundle of `files` (path → text, or text with what its entry says), read from memory. */
function bundle(kind: 'folder' | 'zip', location: string, files: Record<string, string | Held>, findings: BundleSource['findings'] = []): BundleSource {
  const held = new Map(Object.entries(files).map(([file, value]) => [file, typeof value === 'string' ? { text: value } : value]));
  return {
    kind,
    location,
    findings,
    entries: [...held].map(([file, { text, entry }]) => ({ path: file, kind: 'file', declaredSize: Buffer.byteLength(text), readable: true, ...entry })),
    read: async (entry, limit, sink) => {
      const bytes = Buffer.from(held.get(entry.path)!.text);
      sink(bytes.subarray(0, limit));
      return { bytes: Math.min(bytes.length, limit), stoppedAtLimit: bytes.length > limit };
    },
    close: async () => {},
  };
}

const finding = (file: string | undefined, line: number | undefined = 1, column: number | undefined = 2, ruleId = 'browser-storage') => ({ ruleId, file, line, column });
const at = (column: number) => ({ file: 'src/a.ts', line: 2, column });

describe('the findings placed', () => {
  it('are those of scripts and stylesheets at a line and column, save a built file\u2019s own unknown directive', async () => {
    const { root, folder } = project();
    const findings = [
      finding('app.js'),
      finding('app.css', 1, 3),
      finding('APP.JS'),
      finding('app.html'),
      finding(undefined),
      { ...finding('app.js'), line: undefined },
      { ...finding('app.js'), column: undefined },
      finding('app.js', 1, 2, 'unknown-disable-directive'),
    ];
    const placement = await placeAtSources(findings, bundle('folder', folder, { 'app.js': BUILT, 'app.css': BUILT, 'APP.JS': BUILT, 'app.html': BUILT }), { root });
    expect([...placement!.placed]).toEqual([
      [findings[0], at(2)],
      [findings[1], at(3)],
    ]);
    expect(placement!.root).toBe(path.resolve(root));
    expect(placement!.directives).toEqual([expect.objectContaining({ file: 'src/a.ts', line: 1, target: 2, ruleIds: ['browser-storage'] })]);
    expect(placement!.notes).toEqual([]);
  });

  it('none, and no map read, when no finding sits in a script or stylesheet', async () => {
    const { root, folder } = project();
    const readMap = async () => {
      throw new Error('no map should be read');
    };
    const unplaceable = [finding('app.html'), finding(undefined), { ...finding('app.js'), line: undefined }, { ...finding('app.js'), column: undefined }];
    for (const one of unplaceable) expect(await placeAtSources([one], bundle('folder', folder, { 'app.js': BUILT }), { root, readMap })).toBeUndefined();
  });

  it('at the place a finding asks the map about instead, when it names one', async () => {
    const { root, folder } = project();
    const asked = { ...finding('app.js', 1, 1), placeAt: { line: 1, column: 3 } };
    const placement = await placeAtSources([asked], bundle('folder', folder, { 'app.js': BUILT }), { root });
    expect(placement!.placed.get(asked)).toEqual(at(3));
  });

  it('reads no source directives of a file no finding was placed in', async () => {
    const { root, folder } = project();
    const placement = await placeAtSources([finding('app.js', 1, 9)], bundle('folder', folder, { 'app.js': BUILT }), { root });
    expect(placement!.placed.size).toBe(0);
    expect(placement!.directives).toEqual([]);
  });
});

describe('the built bytes a map is read for', () => {
  it('are not those of an entry that cannot be read, is too large to map, has a finding of its own, or holds more than it declares', async () => {
    const { root, folder } = project({ 'a.js': BUILT, 'b.js': BUILT, 'c.js': BUILT, 'd.js': BUILT, 'e.js': BUILT });
    const files = {
      'a.js': { text: BUILT, entry: { readable: false } },
      'b.js': { text: BUILT, entry: { declaredSize: MAX_MAP_BYTES + 1 } },
      'c.js': BUILT,
      'd.js': { text: BUILT, entry: { declaredSize: 2 } },
      'e.js': BUILT,
    };
    const findings = ['a.js', 'b.js', 'c.js', 'd.js', 'e.js'].map((file) => finding(file));
    const crc = { ruleId: 'zip-crc-mismatch', file: 'c.js', data: {} };
    const placement = await placeAtSources(findings, bundle('folder', folder, files, [crc]), { root });
    expect([...placement!.placed.keys()]).toEqual([findings[4]]);
    expect(placement!.notes).toEqual([]);
  });

  it('are those at the declared size limit exactly', async () => {
    const { root, folder } = project({ 'a.js': BUILT });
    const placement = await placeAtSources([finding('a.js')], bundle('folder', folder, { 'a.js': { text: BUILT, entry: { declaredSize: BUILT.length } } }), { root });
    expect(placement!.placed.size).toBe(1);
    const largest = await placeAtSources([finding('a.js')], bundle('folder', folder, { 'a.js': { text: BUILT, entry: { declaredSize: MAX_MAP_BYTES } } }), { root });
    expect(largest!.placed.size).toBe(1);
  });

  it('of a zip, are read through the maps of the folder it was packed from, when the folder holds the same bytes', async () => {
    const { root, folder } = project();
    const zip = path.join(root, 'tool.zip');
    const placement = await placeAtSources([finding('app.js')], bundle('zip', zip, { 'app.js': BUILT }), { root, folder });
    expect([...placement!.placed.values()]).toEqual([at(2)]);
    expect(placement!.notes).toEqual([]);
  });
});

describe('the note about a zip whose findings are not placed', () => {
  const notes = async (files: Record<string, string>, folder: string | undefined, root: string) => {
    const findings = Object.keys(files).map((file) => finding(file));
    const placement = await placeAtSources(findings, bundle('zip', path.join(root, 'tool.zip'), files), folder === undefined ? { root } : { root, folder });
    expect(placement!.placed.size).toBe(0);
    return placement!.notes;
  };

  it('says a zip holds no maps when no built folder is named', async () => {
    const { root } = project();
    const placement = await placeAtSources([finding('app.js')], bundle('zip', path.join(root, 'tool.zip'), { 'app.js': BUILT }), { root });
    expect(placement).toEqual({ root: path.resolve(root), placed: new Map(), directives: [], notes: [expect.objectContaining({ reason: 'no-maps' })], compiled: [], enabledAt: new Map() });
    expect(await notes({ 'app.js': BUILT }, undefined, root)).toEqual([
      {
        reason: 'no-maps',
        message: 'findings in its scripts and stylesheets are not placed at their sources: no source maps were found: a zip holds none, and no project file (pipeline-tool.config.json) in its folder or above names the built folder it was packed from',
      },
    ]);
  });

  it('names the file, or the first and how many others, and the folder from the project\u2019s', async () => {
    const { root, folder } = project({ 'a.js': 'other\n', 'b.js': 'other\n', 'c.js': 'other\n' });
    const message = (text: string) => [{ reason: 'no-maps', message: `findings in ${text} are not placed at their sources: no source maps were found: they were looked for in the built folder, dist/, which does not hold the same ${text.includes(' and ') ? 'files' : 'file'} (built again since the zip was packed?)` }];
    expect(await notes({ 'a.js': BUILT }, folder, root)).toEqual(message('a.js'));
    expect(await notes({ 'a.js': BUILT, 'b.js': BUILT }, folder, root)).toEqual(message('a.js and 1 other file'));
    expect(await notes({ 'a.js': BUILT, 'b.js': BUILT, 'c.js': BUILT }, folder, root)).toEqual(message('a.js and 2 other files'));
  });

  it('names the project\u2019s own folder as ./, a folder outside it by its absolute path, and says when the folder does not exist', async () => {
    const { root } = project({});
    writeFileSync(path.join(root, 'app.js'), 'other\n');
    const [inRoot] = await notes({ 'app.js': BUILT }, root, root);
    expect(inRoot!.message).toContain('the built folder, ./, which does not hold the same file');
    const elsewhere = tempDir();
    const [outside] = await notes({ 'app.js': BUILT }, elsewhere, root);
    expect(outside!.message).toContain(`the built folder, ${path.resolve(elsewhere)}, which does not hold`);
    mkdirSync(path.join(root, 'build', 'web'), { recursive: true });
    const [nested] = await notes({ 'app.js': BUILT }, path.join(root, 'build', 'web'), root);
    expect(nested!.message).toContain('the built folder, build/web/, which does not hold');
    const [missing] = await notes({ 'app.js': BUILT }, path.join(root, 'gone'), root);
    expect(missing!.message).toContain('they were looked for in the built folder, gone/, which does not exist');
  });

  it('counts an entry whose path would leave the folder as one the folder does not hold', async () => {
    const { root, folder } = project();
    const placement = await placeAtSources([finding('../app.js')], bundle('zip', path.join(root, 'tool.zip'), { '../app.js': BUILT }), { root, folder });
    expect(placement!.placed.size).toBe(0);
    expect(placement!.notes).toEqual([expect.objectContaining({ reason: 'no-maps', message: expect.stringContaining('findings in ../app.js are not placed') })]);
  });
});

describe('the author\u2019s places found through the map for findings in a package\u2019s code', () => {
  /**
   * A built line `abcdefghijkl` from four sources: Svelte's html block (a), the author's component
   * (d: `note`, g: `safe`), a storage plugin (i: its own `persist`), and the author's store (k:
   * `.persist`, l: `persist`).
   */
  function packaged() {
    const root = tempDir();
    const files: Record<string, string> = {
      'node_modules/svelte/html.js': 'abc\n',
      'src/App.svelte': 'note;\nsafe;\n',
      'node_modules/pinia-plugin-persistedstate/index.js': 'persist;\n',
      'src/store.ts': 'a.persist; ({ persist: true });\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    const folder = path.join(root, 'dist');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'app.js'), 'abcdefghijkl\n');
    const mappings = encode([
      [
        [0, 0, 0, 0],
        [3, 1, 0, 0],
        [6, 1, 1, 0],
        [8, 2, 0, 0],
        [10, 3, 0, 2],
        [11, 3, 0, 14],
      ],
    ]);
    writeFileSync(path.join(folder, 'app.js.map'), JSON.stringify({ version: 3, sources: Object.keys(files).map((file) => `../${file}`), names: [], mappings }));
    return { root, folder };
  }
  const sink = (framework: RegExp) => ({ framework, sources: /\.svelte$/, site: (text: string, offset: number) => (text.startsWith('note', offset) ? { value: 'note' } : undefined) });

  it('a compiled sink: the places of the author\u2019s component the sink\u2019s values come from', async () => {
    const { root, folder } = packaged();
    const html = finding('app.js', 1, 2, 'unsafe-html');
    const sinks = new Map([['unsafe-html', [sink(/\/svelte\//), sink(/\/vue\//)]]]);
    const placement = await placeAtSources([html], bundle('folder', folder, { 'app.js': 'abcdefghijkl\n' }), { root }, sinks);
    expect(placement!.placed.get(html)).toEqual({ file: 'node_modules/svelte/html.js', line: 1, column: 1 });
    expect(placement!.compiled).toEqual([{ ruleId: 'unsafe-html', file: 'app.js', line: 1, column: 4, data: { value: 'note' }, placed: { file: 'src/App.svelte', line: 1, column: 1 } }]);
  });

  it('no compiled sink for a finding of another rule, or placed outside the framework', async () => {
    const { root, folder } = packaged();
    const sinks = new Map([['unsafe-html', [sink(/\/svelte\//)]]]);
    const findings = [finding('app.js', 1, 2, 'browser-storage'), finding('app.js', 1, 5, 'unsafe-html')];
    const placement = await placeAtSources(findings, bundle('folder', folder, { 'app.js': 'abcdefghijkl\n' }), { root }, sinks);
    expect(placement!.placed.size).toBe(2);
    expect(placement!.compiled).toEqual([]);
  });

  it('a library entry: where the author\u2019s own code turns the package on, as a word of its own', async () => {
    const { root, folder } = packaged();
    const storage = finding('app.js', 1, 9);
    const again = finding('app.js', 1, 10);
    const elsewhere = finding('app.js', 1, 2);
    const entries = new Map([
      [
        'browser-storage',
        [
          { package: 'svelte', at: /^never/ },
          { package: 'pinia-plugin-persistedstate', at: /^persist\b/ },
        ],
      ],
    ]);
    const placement = await placeAtSources([storage, again, elsewhere], bundle('folder', folder, { 'app.js': 'abcdefghijkl\n' }), { root }, new Map(), entries);
    expect(placement!.placed.get(storage)).toEqual({ file: 'node_modules/pinia-plugin-persistedstate/index.js', line: 1, column: 1 });
    expect([...placement!.enabledAt]).toEqual([
      [storage, { file: 'src/store.ts', line: 1, column: 15 }],
      [again, { file: 'src/store.ts', line: 1, column: 15 }],
    ]);
  });
});

describe('what placeAtSources passes on to the placer', () => {
  it('a reader of maps held elsewhere', async () => {
    const { root, folder } = project({});
    const placement = await placeAtSources([finding('app.js')], bundle('folder', folder, { 'app.js': BUILT }), { root, folder, readMap: async (file) => (file === 'app.js.map' ? MAP : undefined) });
    expect([...placement!.placed.values()]).toEqual([at(2)]);
  });

  it('an abort, with its reason', async () => {
    const { root, folder } = project();
    const reason = new Error('stopped');
    await expect(placeAtSources([finding('app.js')], bundle('folder', folder, { 'app.js': BUILT }), { root, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('the disable comments of a component a compiled sink was placed in', async () => {
    const { root, folder } = project({ 'app.js': 'abcdef\n' });
    writeFileSync(path.join(root, 'src', 'App.svelte'), '<!-- pipeline-tool-disable-next-line unsafe-html -->\n{@html note}\n');
    mkdirSync(path.join(root, 'node_modules', 'svelte'), { recursive: true });
    writeFileSync(path.join(root, 'node_modules', 'svelte', 'html.js'), 'abc\n');
    const mappings = encode([
      [
        [0, 0, 0, 0],
        [3, 1, 1, 7],
      ],
    ]);
    writeFileSync(path.join(folder, 'app.js.map'), JSON.stringify({ version: 3, sources: ['../node_modules/svelte/html.js', '../src/App.svelte'], names: [], mappings }));
    const sink = { framework: /\/svelte\//, sources: /\.svelte$/, site: (text: string, offset: number) => (text.startsWith('note', offset) ? {} : undefined) };
    const placement = await placeAtSources([finding('app.js', 1, 1, 'unsafe-html')], bundle('folder', folder, { 'app.js': 'abcdef\n' }), { root }, new Map([['unsafe-html', [sink]]]));
    expect(placement!.compiled).toEqual([expect.objectContaining({ placed: { file: 'src/App.svelte', line: 2, column: 8 } })]);
    expect(placement!.directives).toEqual([expect.objectContaining({ file: 'src/App.svelte', target: 2, ruleIds: ['unsafe-html'] })]);
  });
});

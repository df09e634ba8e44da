import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodedMappings, TraceMap } from '@jridgewell/trace-mapping';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesBySource } from '../../src/core/source-map/source-bytes.js';
import { createSourcePlacer } from '../../src/core/source-map/source-placer.js';
import { readMappings } from '../../src/core/source-map/read-mappings.js';
import { tempDir } from '../helpers/bundles.js';
import { vlq } from '../helpers/vlq.js';

/** A map's decoded mappings, as trace-mapping takes them: per line, per segment, 1, 4 or 5 numbers. */
type DecodedMappings = number[][][];

/**
 * `mappings` decoded as trace-mapping decodes them, in slices (see {@link readMappings});
 * undefined where that decoder would read them otherwise than as written, for it to decode.
 */
async function decodeMappings(mappings: string, signal?: AbortSignal): Promise<DecodedMappings | undefined> {
  const lines: DecodedMappings = [];
  const count = await readMappings(
    mappings,
    (line, count, column, source, sourceLine, sourceColumn, name) => {
      while (lines.length <= line) lines.push([]);
      lines[line]!.push(count === 1 ? [column] : count === 4 ? [column, source, sourceLine, sourceColumn] : [column, source, sourceLine, sourceColumn, name]);
    },
    signal,
  );
  if (count === false) return undefined;
  while (lines.length < count) lines.push([]);
  return lines;
}

/*
 * Mappings are read in place and in slices (a turn of the event loop between them, where an abort
 * is heard), and read exactly as trace-mapping's own decoder reads them: what it would read
 * otherwise than as written is left to it.
 */

/** Lines of segments of 1, 4 or 5 numbers (deltas, some negative, columns not always in order), written as `mappings`. */
const wellFormed = fc
  .array(fc.array(fc.array(fc.integer({ min: -5000, max: 70_000 }), { minLength: 1, maxLength: 5 }).filter((numbers) => numbers.length !== 2 && numbers.length !== 3), { maxLength: 6 }), { maxLength: 8 })
  .map((lines) => lines.map((segments) => segments.map((numbers) => numbers.map(vlq).join('')).join(',')).join(';'));

const traceMappingReads = (mappings: string) => decodedMappings(new TraceMap({ version: 3, sources: ['a.ts', 'b.ts'], names: ['n'], mappings }));

describe('decodeMappings', () => {
  it('decodes well-formed mappings as trace-mapping does, once it has sorted each line', async () => {
    await fc.assert(
      fc.asyncProperty(wellFormed, async (mappings) => {
        const decoded = await decodeMappings(mappings);
        expect(decoded).toBeDefined();
        expect(decodedMappings(new TraceMap({ version: 3, sources: ['a.ts', 'b.ts'], names: ['n'], mappings: decoded! }))).toEqual(traceMappingReads(mappings));
      }),
    );
  });

  it.each([
    ['a character that is no base64 digit', 'AAAA;AA*A'],
    ['a character that is no base64 digit where a segment would end whole', 'AAA*A'],
    ['a number cut short', 'AAAA;AAg'],
    ['a number cut short after a whole segment', 'AAAAg'],
    ['a character past ASCII, where a digit would end a segment', 'AAA\u00e9'],
    ['character 128', 'AAA\u0080'],
    ['a segment of 2 numbers', 'AA;AAAA'],
    ['a segment of 3 numbers', 'AAAA,AAA'],
    ['a segment of 6 numbers', 'AAAAAA'],
    ['an empty segment', 'AAAA,,AAAA'],
    ['a line that starts with a comma', ',AAAA'],
  ])('leaves to trace-mapping what it would read otherwise than as written: %s', async (_name, mappings) => {
    expect(await decodeMappings(mappings)).toBeUndefined();
  });

  it('takes a comma at the end of a line, and empty lines, as trace-mapping does', async () => {
    for (const mappings of ['AAAA,;;CAAC,', '', ';', 'AAAA;;']) expect(await decodeMappings(mappings)).toEqual(traceMappingReads(mappings));
  });
});

describe('reading mappings in slices', () => {
  it('hears an abort between slices, with the signal’s reason', async () => {
    const stop = new AbortController();
    const reason = new Error('interrupted');
    const mappings = 'AAAA;'.repeat(500_000);
    let seen = 0;
    const read = readMappings(
      mappings,
      () => {
        if (++seen === 1) stop.abort(reason);
      },
      stop.signal,
    );
    await expect(read).rejects.toBe(reason);
    // Stopped at the end of the first slice, not at the end of the mappings.
    expect(seen).toBeLessThan(500_000);
  });

  it('a placer decoding a large map stops at an abort instead of finishing the map', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'a.ts'), 'a;\n');
    const lines = 300_000;
    const built = 'a;\n'.repeat(lines);
    const map = JSON.stringify({ version: 3, sources: [pathToFileURL(path.join(root, 'src', 'a.ts')).href], names: [], mappings: `AAAA${';AAAA'.repeat(lines - 1)}` });
    const stop = new AbortController();
    const reason = new Error('interrupted');
    const placer = createSourcePlacer({ folder: root, root, signal: stop.signal, readBuilt: async () => built, readMap: async () => map });
    // Everything before the decoding's first pause is done without a turn of the event loop,
    // so this abort comes while the map is decoded; decoded in one go, the place would be found.
    setImmediate(() => stop.abort(reason));
    await expect(placer.place('app.js', 2, 1)).rejects.toBe(reason);
    const unstopped = createSourcePlacer({ folder: root, root, readBuilt: async () => built, readMap: async () => map });
    expect(await unstopped.place('app.js', 2, 1)).toEqual({ file: 'src/a.ts', line: 1, column: 1 });
  }, 60_000);
});

describe('bytesBySource', () => {
  it('shares a file out as it does through trace-mapping’s decoder', async () => {
    // The same map, plain (read in place) and as an index map of one section (decoded by trace-mapping).
    const text = Array.from({ length: 8 }, (_, i) => `line ${i} ${'x'.repeat(i * 40_000)}`).join('\n');
    await fc.assert(
      fc.asyncProperty(wellFormed, async (mappings) => {
        const map = { version: 3, sources: ['a.ts', 'b.ts', 'node_modules/c/index.js'], names: ['n'], mappings };
        const url = 'file:///project/dist/app.js.map';
        const plain = await bytesBySource(text, { map, url });
        const indexed = await bytesBySource(text, { map: { version: 3, sections: [{ offset: { line: 0, column: 0 }, map }] }, url });
        expect(plain).toEqual(indexed);
      }),
    );
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodedMappings, TraceMap } from '@jridgewell/trace-mapping';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesBySource } from '../../src/core/source-map/source-bytes.js';
import { createSourcePlacer } from '../../src/core/source-map/source-placer.js';
import { readSourceRuns } from '../../src/core/source-map/read-mappings.js';
import { tempDir } from '../helpers/bundles.js';
import { vlq } from '../helpers/vlq.js';

/** Where each run of one source starts, as readSourceRuns tells it: line, column, source (-1 for none). */
type Run = [number, number, number];

async function runsOf(mappings: string, signal?: AbortSignal): Promise<Run[] | false> {
  const runs: Run[] = [];
  const lines = await readSourceRuns(mappings, (line, column, source) => runs.push([line, column, source]), signal);
  return lines === false ? false : runs;
}

/*
 * Mappings are read in place and in slices (a turn of the event loop between them, where an abort
 * is heard), and read exactly as trace-mapping's own decoder reads them: what it would read
 * otherwise than as written, or sort, is left to it.
 */

/** Lines of segments of 1, 4 or 5 numbers (deltas, some negative, columns not always in order). */
const segmentLines = fc.array(fc.array(fc.array(fc.integer({ min: -5000, max: 70_000 }), { minLength: 1, maxLength: 5 }).filter((numbers) => numbers.length !== 2 && numbers.length !== 3), { maxLength: 6 }), { maxLength: 8 });
const written = (lines: number[][][]) => lines.map((segments) => segments.map((numbers) => numbers.map(vlq).join('')).join(',')).join(';');
/** The same, as `mappings`. */
const wellFormed = segmentLines.map(written);

const traceMappingReads = (mappings: string) => decodedMappings(new TraceMap({ version: 3, sources: ['a.ts', 'b.ts'], names: ['n'], mappings }));

/**
 * The runs in what trace-mapping decodes; false when a line's columns, as written, go back (the
 * decoder sorts such a line, and readSourceRuns leaves it to the decoder).
 */
function runsFromDecoder(lines: number[][][]): Run[] | false {
  for (const segments of lines) {
    let column = 0;
    let last = -Infinity;
    for (const [delta] of segments) {
      column += delta!;
      if (column < last) return false;
      last = column;
    }
  }
  const runs: Run[] = [];
  traceMappingReads(written(lines)).forEach((segments, line) => {
    let previous: number | undefined;
    segments.forEach((segment, i) => {
      const source = segment.length === 1 ? -1 : segment[1]!;
      if (i === 0 || source !== previous) runs.push([line, segment[0]!, source]);
      previous = source;
    });
  });
  return runs;
}

describe('readSourceRuns', () => {
  it('finds where each source’s run starts in what trace-mapping decodes, and leaves it a line out of column order', async () => {
    await fc.assert(
      fc.asyncProperty(segmentLines, async (lines) => {
        expect(await runsOf(written(lines))).toEqual(runsFromDecoder(lines));
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
    ['a line out of column order', 'CAAA,DAAA'],
  ])('leaves to trace-mapping what it would read otherwise than as written: %s', async (_name, mappings) => {
    expect(await runsOf(mappings)).toBe(false);
  });

  it('takes a comma at the end of a line, and empty lines, as trace-mapping does', async () => {
    // The source carries over lines: CAAC is column 1 of source 0 + 0.
    expect(await runsOf('AAAA,;;CAAC,')).toEqual([
      [0, 0, 0],
      [2, 1, 0],
    ]);
    for (const mappings of ['', ';', 'AAAA;;']) expect(await runsOf(mappings)).toEqual(mappings === 'AAAA;;' ? [[0, 0, 0]] : []);
  });

  it('tells a run of one source once, and a segment of no source as a run of its own', async () => {
    // Source 0 at columns 0, 2 and 4; no source at 6; source 1 at 8 and 9; the next line from 0.
    expect(await runsOf('AAAA,EAAA,EAAA,E,ECAA,CAAA;AAAA')).toEqual([
      [0, 0, 0],
      [0, 6, -1],
      [0, 8, 1],
      [1, 0, 1],
    ]);
  });
});

describe('reading mappings in slices', () => {
  it('hears an abort between slices, with the signal’s reason', async () => {
    const stop = new AbortController();
    const reason = new Error('interrupted');
    const mappings = 'AAAA;'.repeat(500_000);
    let seen = 0;
    const read = readSourceRuns(
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

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encode, type SourceMapMappings } from '@jridgewell/sourcemap-codec';
import { TraceMap, traceSegment } from '@jridgewell/trace-mapping';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexMappings, segmentAt } from '../../src/core/source-map/mapping-lines.js';
import { validateBundle } from '../../src/core/validate.js';
import { buildApp, positionOf } from '../helpers/built-app.js';

/*
 * A map costs only what the findings need: it is read only for a built file that has a finding to
 * place, and of its mappings only the lines those findings sit on are decoded. The lookup gives
 * what trace-mapping (the decoder Vite, Rollup and Babel use) gives for every position.
 */

describe('a map is read only for a built file with a finding to place', () => {
  /** An app whose bundle has a finding, beside a second script with none, each with a map. */
  function twoScripts(second: string) {
    const app = buildApp({}, { extra: { 'dist/assets/clean.js': second, 'dist/assets/clean.js.map': '' } });
    const cleanMap = path.join(app.dist, 'assets', 'clean.js.map');
    // A map that, read, is refused with a note: its mappings cut a number short.
    writeFileSync(cleanMap, JSON.stringify({ version: 3, sources: ['../../src/greet.ts'], names: [], mappings: 'AAAAg' }));
    return app;
  }

  it('never opens the map of a file without findings, and places the other through its own', async () => {
    const app = twoScripts('document.title = "ready";\n');
    const asked: string[] = [];
    const readMap = async (file: string) => {
      asked.push(file);
      return readFileSync(path.join(app.dist, ...file.split('/')), 'utf8');
    };
    const report = await validateBundle(app.dist, { sourceMaps: { root: app.project, readMap } });
    expect(asked).toEqual(['assets/index.js.map']);
    expect(report.problems).toEqual([expect.objectContaining({ ruleId: 'browser-storage', file: 'src/App.tsx', built: expect.objectContaining({ file: 'assets/index.js' }) })]);
    // Read from disk, the broken map of the clean file says nothing: it was never read.
    expect((await validateBundle(app.dist, { sourceMaps: { root: app.project } })).mapNotes).toBeUndefined();
  });

  it('reads the same map as soon as its file has a finding (the note shows it was read)', async () => {
    const app = twoScripts('sessionStorage.clear();\n');
    const report = await validateBundle(app.dist, { sourceMaps: { root: app.project } });
    expect(report.mapNotes).toEqual([{ file: 'assets/clean.js', reason: 'mappings', message: expect.stringMatching(/^its source map is not used: its mappings cut a number short/) }]);
  });

  it('reads no map at all for a bundle with no findings', async () => {
    const app = buildApp({ 'src/App.tsx': "export function App(): HTMLElement {\n  return document.createElement('p');\n}\n" });
    const asked: string[] = [];
    const report = await validateBundle(app.dist, { sourceMaps: { root: app.project, readMap: async (file) => void asked.push(file) as undefined } });
    expect(report.problems).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('still reads a map whose source comment silences the finding, and silences it', async () => {
    const app = buildApp({ 'src/greet.ts': '// pipeline-tool-disable-next-line browser-storage -- a cache\nexport const greet = (name: string): string => `Hello, ${name} ${sessionStorage.length}`;\n' });
    expect(positionOf(app.bundle, 'sessionStorage').line).toBe(1);
    const report = await validateBundle(app.dist, { sourceMaps: { root: app.project } });
    expect(report.problems.map((problem) => [problem.ruleId, problem.file])).toEqual([['browser-storage', 'src/App.tsx']]);
  });
});

describe('mappings decoded a line at a time', () => {
  it('decodes nothing whole for a line in column order, and only the line asked about otherwise', () => {
    // Three lines of two segments, at columns 0 and 1, from columns 0 and 1 of lines 0, 1, 2 of
    // the one source (D is -1: a source column is counted from the last one, across lines).
    const lines = indexMappings('AAAA,CAAC;AACD,CAAC;AACD,CAAC');
    expect(segmentAt(lines, 1, 1)).toEqual({ source: 0, line: 1, column: 1 });
    expect(segmentAt(lines, 2, 0)).toEqual({ source: 0, line: 2, column: 0 });
    expect(segmentAt(lines, 3, 0)).toBeNull();
    expect(lines.decoded.size).toBe(0);
    // The second line's segments out of order (column 1, then 0): that line alone is decoded, and sorted.
    const unsorted = indexMappings('AAAA,CAAC;CACD,DAAC;AACD,CAAC');
    expect(segmentAt(unsorted, 1, 0)).toEqual({ source: 0, line: 1, column: 1 });
    expect(segmentAt(unsorted, 0, 1)).toEqual({ source: 0, line: 0, column: 1 });
    expect([...unsorted.decoded.keys()]).toEqual([1]);
  });

  /** A segment: its column, and (unless it has only that) source, line, column and maybe a name. */
  const segment = fc.oneof(
    fc.tuple(fc.nat(400)),
    fc.tuple(fc.nat(400), fc.nat(5), fc.nat(3000), fc.nat(200)),
    fc.tuple(fc.nat(400), fc.nat(5), fc.nat(3000), fc.nat(200), fc.nat(9)),
  );

  it('finds the segment trace-mapping finds, at every position, sorted lines or not', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(segment, { maxLength: 300, size: 'max' }), fc.boolean()), { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(7), fc.nat(420)), { minLength: 1, maxLength: 40 }), (written, asked) => {
        // Lines long enough to be read from checkpoints, in column order as bundlers write them, or
        // not (encode keeps the order it is given).
        const decoded = written.map(([line, inOrder]) => (inOrder ? [...line].sort((a, b) => a[0] - b[0]) : line));
        const mappings = encode(decoded as SourceMapMappings);
        const trace = new TraceMap({ version: 3, sources: ['a', 'b', 'c', 'd', 'e', 'f'], names: [], mappings });
        const lines = indexMappings(mappings);
        for (const [line, column] of asked) {
          const expected = traceSegment(trace, line, column);
          const found = expected && expected.length >= 4 ? { source: expected[1], line: expected[2], column: expected[3] } : null;
          expect(segmentAt(lines, line, column)).toEqual(found);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads the map of a real build as trace-mapping does', () => {
    const app = buildApp();
    const map = JSON.parse(readFileSync(path.join(app.dist, 'assets', 'index.js.map'), 'utf8')) as { mappings: string; sources: string[] };
    const trace = new TraceMap({ version: 3, sources: map.sources, names: [], mappings: map.mappings });
    const lines = indexMappings(map.mappings);
    for (let column = 0; column < app.bundle.indexOf('\n'); column++) {
      const expected = traceSegment(trace, 0, column);
      expect(segmentAt(lines, 0, column)).toEqual(expected && expected.length >= 4 ? { source: expected[1], line: expected[2], column: expected[3] } : null);
    }
  });
});

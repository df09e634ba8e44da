import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TraceMap, traceSegment } from '@jridgewell/trace-mapping';
import { describe, expect, it } from 'vitest';
import { indexMappings, segmentAt } from '../../src/core/source-map/mapping-lines.js';
import { validateBundle } from '../../src/core/validate.js';
import { buildApp, positionOf } from '../helpers/built-app.js';

/*
 * A map costs only what the findings need: it is read only for a built file that has a finding to
 * place, and of its mappings only the lines those findings sit on are decoded. The lookup gives
 * what trace-mapping (the decoder Vite, Rollup and Babel use) gives for every position: here on a
 * real build's map, in mapping-lines.test.ts on maps written by hand and generated.
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

#!/usr/bin/env node
// Hostile source maps against the placer's budgets: how long each takes to be refused, and the
// process's resident memory after it. Each map sits beside a one-line script with a finding, in a
// tool folder of its own, and is placed through the built library as validate places a finding.
// Before the budgets: a 45 MB map of valid segments took 31-35 s and 1 GB; 45 MB of ";" 78-122 s
// and 2.5 GB; a million sources 27-37 s; 200,000 sections 15-20 s; 5 million levels 21-28 s.
// Usage: npm run build, then node bench/source-map-budgets.mjs [megabytes]   (default 45)
// Prints one JSON line per map: {"map", "bytes", "ms", "rssMB", "placed", "note"}.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createSourcePlacer } = await import(pathToFileURL(path.join(root, 'dist', 'core', 'source-map', 'source-placer.js')).href);
const megabytes = Number(process.argv[2] ?? 45);
const size = megabytes * 1_000_000;
const work = mkdtempSync(path.join(tmpdir(), 'source-map-budgets-'));

const base = { version: 3, sources: ['../src/app.ts'] };
const maps = {
  'valid segments on one line': () => JSON.stringify({ ...base, mappings: `AAAA${',CAAC'.repeat((size - 60) / 5)}` }),
  'only ";"': () => JSON.stringify({ ...base, mappings: `AAAA${';'.repeat(size - 60)}` }),
  'a million sources': () => JSON.stringify({ ...base, sources: Array.from({ length: 1_000_000 }, (_, n) => `../src/s${n}.ts`), mappings: 'AAAA' }),
  '200,000 sections': () => JSON.stringify({ version: 3, sections: Array.from({ length: 200_000 }, () => ({ offset: { line: 0, column: 0 }, map: { ...base, mappings: 'AAAA' } })) }),
  '5 million levels': () => `{"version":3,"sources":["../src/app.ts"],"mappings":"AAAA","x":${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}}`,
};

try {
  mkdirSync(path.join(work, 'src'));
  writeFileSync(path.join(work, 'src', 'app.ts'), 'localStorage.getItem("x");\n');
  for (const [name, make] of Object.entries(maps)) {
    const folder = mkdtempSync(path.join(work, 'dist-'));
    const text = make();
    writeFileSync(path.join(folder, 'app.js'), 'x();\n');
    writeFileSync(path.join(folder, 'app.js.map'), text);
    globalThis.gc?.();
    const start = performance.now();
    const placer = createSourcePlacer({ folder, root: work, readBuilt: async () => 'x();\n' });
    const placed = await placer.place('app.js', 1, 1);
    const ms = performance.now() - start;
    const rssMB = Math.round(process.memoryUsage().rss / 1e6);
    const note = placer.notes()[0]?.reason ?? null;
    placer.release('app.js');
    process.stdout.write(`${JSON.stringify({ map: name, bytes: text.length, ms: Math.round(ms), rssMB, placed: placed !== undefined, note })}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

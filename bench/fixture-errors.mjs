#!/usr/bin/env node
// A fixture file whose every row breaks the schema: how long loading it takes, and how long a
// reload of it holds dev's event loop. For each row count it writes a file of products each with
// two errors (an id that is no GUID, a price that is no number), then
//   - times loadFixtureFile on this thread (read, parse, check, place the first problems), and
//   - loads it as dev reloads a fixture file (parse on a worker, check in steps) while a 1 ms timer
//     records the longest stretch the event loop was held.
// Collecting the errors used to take time in the square of the rows: 40,000 rows, about two minutes.
// Usage: npm run build, then node bench/fixture-errors.mjs [rows ...]   (default 8000 20000 40000 100000)
// Prints one JSON line per row count: {"rows", "loadMs", "reloadMs", "worstStallMs", "listed", "more"}.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { watchEventLoop } from './event-loop-hold.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { loadFixtureFile, parseFixtures } = await import(pathToFileURL(path.join(root, 'dist', 'index.js')).href);
const { loadFixturesInBackground } = await import(pathToFileURL(path.join(root, 'dist', 'dev', 'fixture-loader.js')).href);
const counts = process.argv.slice(2).map(Number);
const work = mkdtempSync(path.join(tmpdir(), 'fixture-errors-'));

const refused = async (promise) => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the file was accepted');
};

try {
  await parseFixtures('{}', 'warm-up');
  for (const rows of counts.length > 0 ? counts : [8_000, 20_000, 40_000, 100_000]) {
    const file = path.join(work, `bad-${rows}.json`);
    const products = Array.from({ length: rows }, (_, n) => ({ id: `not-a-guid-${n}`, sku: `S${n}`, name: 'x', price: 'free', unit: 'T_ITEM' }));
    writeFileSync(file, JSON.stringify({ products }, null, 2));

    let start = performance.now();
    const error = await refused(loadFixtureFile(file));
    const loadMs = performance.now() - start;

    start = performance.now();
    const loop = watchEventLoop();
    await refused(loadFixturesInBackground(file).fixtures);
    const reloadMs = performance.now() - start;
    const worst = loop.stop();

    const round = (ms) => Math.round(ms);
    process.stdout.write(`${JSON.stringify({ rows, loadMs: round(loadMs), reloadMs: round(reloadMs), worstStallMs: round(worst), listed: error.problems.length, more: error.more })}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

#!/usr/bin/env node
// How long a reload of a large fixture file keeps `dev` from answering. Starts the built dev server
// in this process with a small fixture file, saves the large one over it, and until the new data
// is served, asks for the host page's state as fast as answers come while a 1 ms timer records the
// longest stretch the event loop was held. For comparison it then loads the same file the way a
// reload used to, on the server's thread (read, parse, check, merge, build the host's tables).
//
// Usage: npm run bench -- --only fixtures-100k   (once, to make the inputs), then
//        node bench/reload-stall.mjs [bench/.work/inputs/fixtures-100k.json]
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { watchEventLoop } from './event-loop-hold.mjs';

const { fetch } = globalThis;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.resolve(process.argv[2] ?? path.join(root, 'bench', '.work', 'inputs', 'fixtures-100k.json'));
const { startDevServer, loadFixtureFile, createPlatform } = await import(pathToFileURL(path.join(root, 'dist', 'index.js')).href);

const work = mkdtempSync(path.join(tmpdir(), 'reload-stall-'));
try {
  const tool = path.join(work, 'tool');
  mkdirSync(tool);
  writeFileSync(path.join(tool, 'manifest.json'), JSON.stringify({ name: 'Stall', shortName: 'Stall', type: 'standalone', version: '1.0.0', description: 'Measures.', entry: 'index.html' }));
  writeFileSync(path.join(tool, 'index.html'), '<!doctype html><title>Stall</title>');
  const fixturesFile = path.join(work, 'fixtures.json');
  writeFileSync(fixturesFile, '{}');
  const server = await startDevServer({ root: tool, port: 0, fixturesFile, settingsFile: path.join(work, 'settings.json') });
  const state = async () => (await fetch(`${server.url}__pipeline/state`)).json();
  const count = async () =>
    (await (await fetch(`${server.apiUrl}/products?pageSize=1`, { headers: { Authorization: `Bearer ${server.apiKey}` } })).json()).totalCount;
  const before = await count();

  copyFileSync(source, fixturesFile);
  const started = performance.now();
  const loop = watchEventLoop();
  let answered = 0;
  let slowest = 0;
  for (;;) {
    const asked = performance.now();
    const current = await state();
    slowest = Math.max(slowest, performance.now() - asked);
    if (current.fixtures.reloading) answered++;
    if (current.fixtures.error) throw new Error(current.fixtures.error);
    if (!current.fixtures.reloading && (await count()) !== before) break;
  }
  const worst = loop.stop();
  const reloadMs = performance.now() - started;
  await server.close();

  const onThread = performance.now();
  const fixtures = await loadFixtureFile(source);
  createPlatform({ toolId: 'Stall', toolType: 'standalone', fixtures });
  const onThreadMs = performance.now() - onThread;

  const ms = (value) => `${Math.round(value)} ms`;
  process.stdout.write(
    [
      `fixture file: ${source}`,
      `reload while serving: ${ms(reloadMs)} until the new data was served; ${answered} state requests answered during it;`,
      `  longest the event loop was held: ${ms(worst)}; slowest answer: ${ms(slowest)}`,
      `the same load on the server's thread: ${ms(onThreadMs)} held in one piece`,
      '',
    ].join('\n'),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

#!/usr/bin/env node
// How long `pipeline-tool dev` takes to exit after Ctrl-C (SIGINT) while it waits on something
// slow: a framed page's server that sends a byte a second, one that never answers (dev is asked to
// place an error in its script and waits on it), and a large fixture file still loading at start.
// Runs the built binary, sends SIGINT once dev is waiting, and prints one JSON line per case:
// {"case", "exitCode", "msToExit"}. The goal is a second or two, whatever dev waits on.
// Usage: npm run build, then node bench/dev-stop.mjs [fixture file]   (default: bench/.work/inputs/fixtures-100k.json,
//        which `npm run bench -- --only fixtures-100k` makes)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setInterval, clearInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'pipeline-tool.js');
const fixtures = path.resolve(process.argv[2] ?? path.join(root, 'bench', '.work', 'inputs', 'fixtures-100k.json'));
const work = mkdtempSync(path.join(tmpdir(), 'dev-stop-'));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function startDev(args) {
  const child = spawn(process.execPath, [bin, 'dev', ...args, '--port', '0'], { cwd: work, env: { ...process.env, NO_COLOR: '1', CI: 'true' } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Sends SIGINT and times the exit. */
async function interrupt(name, dev) {
  const start = performance.now();
  dev.child.kill('SIGINT');
  const exitCode = await dev.exited;
  console.log(JSON.stringify({ case: name, exitCode, msToExit: Math.round(performance.now() - start) }));
}

async function framedCase(name, answer) {
  const asked = [];
  const site = createServer((incoming, response) => {
    asked.push(incoming.url);
    answer(response);
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${site.address().port}/app/`;
  const dev = startDev(['--url', siteUrl, 'tool']);
  let match;
  while (!(match = /Open: +(http:\/\/\S+)/.exec(dev.output()))) await sleep(50);
  const host = new URL(match[1]);
  const sent = request({ host: host.hostname, port: host.port, path: '/__pipeline/report', method: 'POST', headers: { Origin: host.origin, 'Content-Type': 'application/json' } });
  sent.on('error', () => {});
  sent.end(JSON.stringify({ kind: 'error', message: 'TypeError: x', file: `${siteUrl}app.js`, line: 1, column: 1 }));
  while (asked.length === 0) await sleep(20);
  await sleep(1_500);
  await interrupt(name, dev);
  site.closeAllConnections();
  site.close();
}

try {
  const tool = path.join(work, 'tool');
  mkdirSync(tool);
  writeFileSync(path.join(tool, 'manifest.json'), JSON.stringify({ name: 'Stop', shortName: 'Stop', type: 'standalone', version: '1.0.0', description: 'Measures.', entry: 'index.html' }));
  writeFileSync(path.join(tool, 'index.html'), '<!doctype html><title>Stop</title>');

  await framedCase('framed server sending a byte a second', (response) => {
    response.writeHead(200, { 'Content-Type': 'text/javascript' });
    const timer = setInterval(() => response.write('x'), 1_000);
    response.on('close', () => clearInterval(timer));
  });
  await framedCase('framed server that never answers', () => {});

  if (existsSync(fixtures)) {
    const dev = startDev(['tool', '--fixtures', fixtures]);
    // Well past Node's start-up, while the file loads (dev prints its address once it has).
    await sleep(1_500);
    const started = /Open:/.test(dev.output());
    await interrupt(started ? 'large fixture file (already loaded: use a larger one)' : 'large fixture file still loading', dev);
  } else {
    console.error(`bench/dev-stop: ${fixtures} does not exist; run npm run bench -- --only fixtures-100k to make it`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

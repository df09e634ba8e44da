import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevServer } from '../../src/dev/server.js';
import { tempDir } from '../helpers/bundles.js';
import { spawnDev, type DevProcess } from './dev-process.js';
import { callBridge, SETTLE_MS, startTestServer, waitFor, writeTool } from './helpers.js';

/*
 * Ctrl-C ends dev whatever it is waiting on: a framed page's server that trickles a byte a second
 * or never answers, a large fixture file still loading, a large source map being decoded. The real
 * binary is run and sent SIGINT, and the test asserts that it exits: how long it took is for the
 * bench (a dev that did not stop would leave the test waiting until its generous timeout).
 */

const EXIT_WAIT_MS = 90_000;
const servers: Server[] = [];
const open: ServerResponse[] = [];
afterAll(() => {
  for (const response of open) response.destroy();
  for (const server of servers) server.close();
});

/** Sends SIGINT and waits for dev to exit, however long it takes up to the test's limit. */
async function interrupt(dev: DevProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => {
    if (dev.child.exitCode !== null) resolve(dev.child.exitCode);
    else dev.child.on('exit', (code) => resolve(code));
  });
  dev.child.kill('SIGINT');
  return exited;
}

/** A framed page's server, on 127.0.0.1; every path asked for is recorded. */
async function framedServer(answer: (response: ServerResponse) => void): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((incoming, response) => {
    asked.push(incoming.url ?? '');
    open.push(response);
    answer(response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/app/`, asked };
}

/** A report of an error in the framed page's app.js, as the host page passes it on; its answer is not waited for. */
function reportError(hostUrl: string, file: string, line = 1, column = 1): void {
  const host = new URL(hostUrl);
  const sent = request({ host: host.hostname, port: host.port, path: '/__pipeline/report', method: 'POST', headers: { Origin: host.origin, 'Content-Type': 'application/json' } });
  sent.on('error', () => {});
  sent.end(JSON.stringify({ kind: 'error', message: 'TypeError: x', file, line, column }));
}

describe('Ctrl-C while dev waits on a framed page’s server', () => {
  it.each([
    ['that sends a byte a second', (response: ServerResponse) => {
      response.writeHead(200, { 'Content-Type': 'text/javascript' });
      const timer = setInterval(() => response.write('x'), 1_000);
      response.on('close', () => clearInterval(timer));
    }],
    ['that never answers', () => {}],
  ])('ends dev, with a server %s', async (_name, answer) => {
    const site = await framedServer(answer);
    const project = tempDir();
    const dist = writeTool();
    const dev = spawnDev(['--url', site.url, dist, '--port', '0'], { cwd: project });
    const hostUrl = await dev.url();
    reportError(hostUrl, `${site.url}app.js`);
    // dev is now waiting on the server for the script, to place the error.
    await waitFor(() => site.asked.includes('/app/app.js'), SETTLE_MS, 'dev asking for app.js');
    expect(await interrupt(dev)).toBe(0);
    expect(dev.stderr()).toContain('Stopping pipeline-tool dev');
  }, EXIT_WAIT_MS + 60_000);
});

/** The CPU time a process has used, from Linux's /proc (0 where there is none). */
function cpuSecondsOf(pid: number): number {
  try {
    // The fields after the command's name, which is in parentheses: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Infinity;
  }
}

/** A fixture file of `rows` products, all valid. */
function largeFixtureFile(rows: number): string {
  const file = path.join(tempDir(), 'fixtures.json');
  const id = (n: number) => `b${n.toString(16).padStart(7, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
  const products = Array.from({ length: rows }, (_, n) => ({ id: id(n), sku: `SKU-${n}`, name: `Panel ${n}`, price: 10 + (n % 100), unit: 'T_ITEM' }));
  writeFileSync(file, JSON.stringify({ products }, null, 2));
  return file;
}

describe('Ctrl-C while dev starts', () => {
  it('ends dev while a large fixture file loads, with exit 0 and its goodbye', async () => {
    const fixtures = largeFixtureFile(200_000);
    const dev = spawnDev([writeTool(), '--port', '0', '--fixtures', fixtures], { cwd: tempDir() });
    // Past node's own start-up (a Ctrl-C before dev listens for it ends node the default way),
    // measured in the CPU time it has used, since the machine may be busy: the file is loading.
    await waitFor(() => cpuSecondsOf(dev.child.pid!) >= 1.5, SETTLE_MS, 'dev to be loading the fixture file');
    expect(await interrupt(dev)).toBe(0);
    expect(dev.stderr()).toContain('Stopping pipeline-tool dev');
  }, EXIT_WAIT_MS + 60_000);

  it('startDevServer gives up a start at an abort, while the fixture file loads', async () => {
    const fixturesFile = largeFixtureFile(50_000);
    const stop = new AbortController();
    const reason = new Error('stopped');
    const starting = startDevServer({ root: writeTool(), port: 0, fixturesFile, watch: false, signal: stop.signal });
    // The load reads the file and parses it on a worker thread: this comes before it is done.
    setImmediate(() => stop.abort(reason));
    await expect(starting).rejects.toBe(reason);
  }, 60_000);

  it('startDevServer with a signal that is not aborted loads the whole fixture file, in steps', async () => {
    const fixturesFile = largeFixtureFile(50_000);
    const server = await startTestServer({ root: writeTool(), fixturesFile, watch: false, signal: new AbortController().signal });
    const outcome = await callBridge(server, 'products.list', [{ pageSize: 1 }]);
    // Laid over the built-in products.
    expect((outcome.value as { totalCount: number }).totalCount).toBeGreaterThanOrEqual(50_000);
  }, 60_000);
});

describe('Ctrl-C while dev decodes a large source map', () => {
  it('ends dev', async () => {
    const root = tempDir();
    const lines = 400_000;
    const tool = writeTool();
    writeFileSync(path.join(tool, 'app.js'), `${'a;\n'.repeat(lines)}//# sourceMappingURL=app.js.map\n`);
    writeFileSync(path.join(root, 'a.ts'), 'a;\n');
    writeFileSync(path.join(tool, 'app.js.map'), JSON.stringify({ version: 3, sources: [path.relative(tool, path.join(root, 'a.ts'))], names: [], mappings: `AAAA${';AAAA'.repeat(lines - 1)}` }));
    const dev = spawnDev([tool, '--port', '0'], { cwd: root });
    const hostUrl = await dev.url();
    reportError(hostUrl, 'app.js', lines, 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await interrupt(dev)).toBe(0);
    expect(dev.stderr()).toContain('Stopping pipeline-tool dev');
  }, EXIT_WAIT_MS + 60_000);
});

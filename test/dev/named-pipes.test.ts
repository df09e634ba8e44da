import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DevServerError } from '../../src/dev/errors.js';
import { startDevServer } from '../../src/dev/server.js';
import { tempDir } from '../helpers/bundles.js';
import { spawnDev } from './dev-process.js';
import { callBridge, readState, sendRequest, SETTLE_MS, startTestServer, waitFor, writeTool } from './helpers.js';

/*
 * A named pipe opened for reading waits for a writer on one of Node's four file threads. Four
 * such waits used to stall every tool file, settings.set and the REST API, and Ctrl-C with them.
 * Each request below has a bounded wait (sendRequest gives up after 10 s), so a hang fails.
 */

const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

async function toolFile(server: { toolUrl: string }, name: string) {
  const url = new URL(name, server.toolUrl);
  return sendRequest(Number(url.port), { path: url.pathname });
}

describe.skipIf(process.platform === 'win32')('dev and named pipes', () => {
  it('a pipe in the tool folder gets a 404 saying what it is, and never takes a file thread', async () => {
    const root = writeTool();
    mkfifo(path.join(root, 'stream.js'));
    const logged: string[] = [];
    const server = await startTestServer({ root, watch: false, onLog: (_level, message) => logged.push(message) });

    const answers = await Promise.all(Array.from({ length: 12 }, () => toolFile(server, 'stream.js')));
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toBe('The tool asked for stream.js, which is a named pipe (FIFO), not a regular file; only regular files are served.');
    }
    expect(logged.some((line) => line.includes('stream.js, which is a named pipe (FIFO)'))).toBe(true);

    // Everything else that needs the file threads still works.
    expect((await toolFile(server, 'app.js')).status).toBe(200);
    expect((await callBridge(server, 'settings.set', ['units', 'metric'])).ok).toBe(true);
    expect((await callBridge(server, 'settings.get', ['units'])).value).toBe('metric');
    const rest = await fetch(`${server.apiUrl}/customers`, { headers: { Authorization: `Bearer ${server.apiKey}` }, signal: AbortSignal.timeout(10_000) });
    expect(rest.status).toBe(200);
  });

  it('a pipe for manifest.json: dev starts, runs the tool as standalone at index.html, and says why', async () => {
    const root = writeTool();
    rmSync(path.join(root, 'manifest.json'));
    mkfifo(path.join(root, 'manifest.json'));
    const server = await startTestServer({ root, watch: false });
    const state = await readState(server);
    expect(state['tool']).toMatchObject({ entry: 'index.html', toolType: 'standalone' });
    expect(state['alerts']).toContain(
      'manifest.json is broken: it is a named pipe (FIFO), not a regular file. Acting as a standalone tool opened at index.html until it is fixed.',
    );
    expect((await toolFile(server, 'index.html')).status).toBe(200);
  });

  it('a pipe given as the fixture file: the start fails naming it', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    mkfifo(fixturesFile);
    const error = await startDevServer({ root: writeTool(), port: 0, fixturesFile, watch: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DevServerError);
    expect(error).toMatchObject({ code: 'FIXTURES_INVALID', message: `${fixturesFile}: it is a named pipe (FIFO), not a regular file; give the path of a JSON file` });
  });

  it('a fixture file replaced by a pipe while dev runs: the previous data stays, and the page says why', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    const product = { id: '20000000-0000-4000-8000-000000000901', sku: 'FIX-ONE', name: 'Fixture one', price: 10, unit: 'T_ITEM' };
    writeFileSync(fixturesFile, JSON.stringify({ products: [product] }));
    const server = await startTestServer({ root: writeTool(), fixturesFile });
    rmSync(fixturesFile);
    mkfifo(fixturesFile);
    const state = await waitFor(async () => {
      const current = await readState(server);
      return (current['fixtures'] as { error: string | null }).error !== null && current;
    }, SETTLE_MS, 'the fixture error');
    expect((state['fixtures'] as { error: string }).error).toBe(`${fixturesFile}: it is a named pipe (FIFO), not a regular file; give the path of a JSON file`);
    const skus = ((await callBridge(server, 'products.list', [{ pageSize: 500 }])).value as { items: { sku: string }[] }).items.map((item) => item.sku);
    expect(skus).toContain('FIX-ONE');
  });

  it('a pipe for the settings file: set aside, and dev starts with no settings', async () => {
    const settingsFile = path.join(tempDir(), 'settings.json');
    mkfifo(settingsFile);
    const logged: string[] = [];
    const server = await startTestServer({ root: writeTool(), settingsFile, watch: false, onLog: (_level, message) => logged.push(message) });
    expect(logged).toContain(`${settingsFile} could not be used (it is a named pipe (FIFO), not a regular file); starting with no stored settings. The old file is kept as ${settingsFile}.corrupt.`);
    expect(statSync(`${settingsFile}.corrupt`).isFIFO()).toBe(true);
    expect((await callBridge(server, 'settings.set', ['units', 'metric'])).ok).toBe(true);
    expect(statSync(settingsFile).isFile()).toBe(true);
  });

  it('Ctrl-C still stops dev after many requests for a pipe', async () => {
    const root = writeTool();
    mkfifo(path.join(root, 'stream.js'));
    const cwd = tempDir();
    const dev = spawnDev([root, '--port', '0'], { cwd });
    const url = await dev.url();
    const state = (await (await fetch(`${url}__pipeline/state`)).json()) as { toolPort: number; toolBasePath: string };
    const port = state.toolPort;
    const answers = await Promise.all(Array.from({ length: 12 }, () => sendRequest(port, { path: `${state.toolBasePath}stream.js` })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 12 }, () => 404));
    const page = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    expect(page.status).toBe(200);
    expect(await dev.stop('SIGINT')).toBe(0);
    expect(dev.stderr()).toContain('Stopping pipeline-tool dev…');
    // The pipe is still a pipe: nothing wrote over it.
    expect(existsSync(path.join(root, 'stream.js')) && statSync(path.join(root, 'stream.js')).isFIFO()).toBe(true);
  });
});

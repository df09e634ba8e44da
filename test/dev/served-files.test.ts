import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { readServedFile } from '../../src/dev/served-files.js';
import { createRuntimePlaces } from '../../src/dev/source-places.js';
import { tempDir } from '../helpers/bundles.js';
import { postFromHostPage, startTestServer, writeTool } from './helpers.js';

/*
 * A framed page's server is waited on with a deadline that holds, body included, and dev closing
 * gives up on it at once; reports that arrive together about one script share one request for it,
 * and a script is asked for once per version of the page's code (a load, a hot update).
 * No timing is asserted: a deadline that did not hold would leave a test waiting until its timeout.
 */

const servers: Server[] = [];
const open: ServerResponse[] = [];
afterAll(() => {
  for (const response of open) response.destroy();
  for (const server of servers) server.close();
});

async function serve(handle: (path: string, response: ServerResponse) => void): Promise<URL> {
  const server = createServer((request, response) => handle(request.url ?? '', response));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/app/`);
}

describe('a framed page server that is slow', () => {
  it('is given up on when it sends a byte at a time past the deadline', async () => {
    const base = await serve((_path, response) => {
      open.push(response);
      response.writeHead(200, { 'Content-Type': 'text/javascript' });
      const timer = setInterval(() => response.write('x'), 20);
      response.on('close', () => clearInterval(timer));
    });
    expect(await readServedFile(base, 'app.js', undefined, { timeoutMs: 300 })).toBeUndefined();
  }, 30_000);

  it('is given up on at once when dev closes, though it never answers', async () => {
    const base = await serve((_path, response) => open.push(response));
    const closing = new AbortController();
    const read = readServedFile(base, 'app.js', undefined, { signal: closing.signal });
    setTimeout(() => closing.abort(), 50);
    expect(await read).toBeUndefined();
  }, 8_000);
});

describe('reports that arrive together about one script', () => {
  it('share one request for it', async () => {
    const asked: string[] = [];
    const base = await serve((path, response) => {
      asked.push(path);
      setTimeout(() => response.end('throw new Error("x");\n'), 100);
    });
    const places = createRuntimePlaces({ server: base.href, folder: tempDir() }, tempDir());
    const report = { kind: 'error' as const, message: 'x', file: 'app.js', line: 1, column: 1 };
    await Promise.all(Array.from({ length: 30 }, () => places.place(report)));
    expect(asked).toEqual(['/app/app.js']);
  });
});

describe('a framed script', () => {
  it('is asked for once per version of the page’s code, however many reports come, and once again after a change', async () => {
    // A server that says which version of the file it sends, as Vite does: 304 when it did not change.
    let script = 'throw new Error("one");\n';
    let etag = '"1"';
    const asked: { path: string; status: number }[] = [];
    const site = await serve((_path, response) => {
      const ifNoneMatch = (response.req.headers['if-none-match'] ?? '') as string;
      const status = ifNoneMatch === etag ? 304 : 200;
      asked.push({ path: _path, status });
      response.writeHead(status, { 'Content-Type': 'text/javascript', ETag: etag });
      // Slow enough that the first reports arrive while it is being read.
      setTimeout(() => response.end(status === 200 ? script : undefined), 100);
    });
    const server = await startTestServer({ root: writeTool(), url: site.href, watch: false });
    const report = (version: string) => postFromHostPage(server, '/__pipeline/report', { kind: 'error', message: 'Error: x', file: `${site.href}app.js`, line: 1, column: 1, version });

    const first = await Promise.all(Array.from({ length: 20 }, () => report('load-1')));
    expect(first.every((response) => response.status === 200)).toBe(true);
    // Later reports of the same code: no request at all.
    await Promise.all(Array.from({ length: 20 }, () => report('load-1')));
    expect(asked).toEqual([{ path: '/app/app.js', status: 200 }]);

    // The script changes, and the page reloads with it: one request, which gets the new text.
    script = 'throw new Error("two");\n';
    etag = '"2"';
    await Promise.all(Array.from({ length: 20 }, () => report('load-2')));
    await Promise.all(Array.from({ length: 5 }, () => report('load-2')));
    expect(asked).toEqual([
      { path: '/app/app.js', status: 200 },
      { path: '/app/app.js', status: 200 },
    ]);

    // A reload without a change: one question, answered 304.
    await Promise.all(Array.from({ length: 5 }, () => report('load-3')));
    expect(asked.at(-1)).toEqual({ path: '/app/app.js', status: 304 });
    expect(asked).toHaveLength(3);
  }, 60_000);
});

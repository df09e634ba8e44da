import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DevServer } from '../../src/dev/server.js';
import { readRequestPath } from '../../src/dev/static-files.js';
import { tempDir } from '../helpers/bundles.js';
import { sendRawBytes, sendRequest, startTestServer, writeTool } from './helpers.js';

let server: DevServer;
let root: string;
let outside: string;

beforeAll(async () => {
  outside = tempDir();
  writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET');
  root = writeTool(undefined, {
    '.env': 'API_KEY=nope',
    'sub/page.html': '<p>no head at all</p>',
    'sub/data.json': '{"a":1}',
    'img/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'module.mjs': 'export {};',
    'odd.xyz': 'unknown type',
  });
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'escape.txt'));
  symlinkSync(outside, path.join(root, 'escape-dir'));
  mkdirSync(path.join(root, '.pipeline-tool'));
  writeFileSync(path.join(root, '.pipeline-tool', 'settings.json'), '{"settings":[]}');
  symlinkSync(path.join(root, '.pipeline-tool', 'settings.json'), path.join(root, 'settings-link.json'));
  symlinkSync(path.join(root, 'app.js'), path.join(root, 'alias.js'));
  server = await startTestServer({ root, watch: false });
});

type RequestInit = { method?: string; headers?: Record<string, string> };

/** A request for exactly this target on the tool origin. */
const onToolOrigin = (target: string, init: RequestInit = {}) =>
  sendRequest(server.toolPort, { path: target, ...init, headers: { Host: `127.0.0.1:${server.toolPort}`, ...init.headers } });

/** The random path the tool folder is served under, such as `/t/Zx…/`. */
const toolBase = () => new URL(server.toolUrl).pathname;

/** A request for a path of the tool folder: `/app.js` is asked for under the tool's base path. */
const tool = (requestPath: string, init: RequestInit = {}) => onToolOrigin(`${toolBase()}${requestPath.replace(/^\//, '')}`, init);

describe('serving the tool folder', () => {
  it('serves HTML with the frame reporter and the SDK as the first scripts, and the right headers', async () => {
    const response = await tool('/index.html');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
    const firstScript = response.body.indexOf('<script');
    expect(response.body.slice(firstScript)).toMatch(/^<script src="\/__pipeline\/report\.js"><\/script><script src="\/__pipeline\/sdk\.js"><\/script>/);
    expect(response.body.indexOf('<head>')).toBeLessThan(firstScript);
    expect(response.body.indexOf('src="app.js"')).toBeGreaterThan(firstScript);
  });

  it('injects into HTML without a head too', async () => {
    const response = await tool('/sub/page.html');
    expect(response.body).toBe('<script src="/__pipeline/report.js"></script><script src="/__pipeline/sdk.js"></script><p>no head at all</p>');
  });

  it.each([
    ['/app.js', 'text/javascript; charset=utf-8'],
    ['/module.mjs', 'text/javascript; charset=utf-8'],
    ['/styles.css', 'text/css; charset=utf-8'],
    ['/sub/data.json', 'application/json; charset=utf-8'],
    ['/img/logo.svg', 'image/svg+xml'],
    ['/odd.xyz', 'application/octet-stream'],
    ['/manifest.json?cache=1#x', 'application/json; charset=utf-8'],
  ])('serves %s as %s', async (file, type) => {
    const response = await tool(file);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers HEAD without a body', async () => {
    const response = await tool('/app.js', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    expect(Number(response.headers['content-length'])).toBeGreaterThan(0);
  });

  it('redirects the base path, with or without its last slash, to the entry page', async () => {
    for (const target of [toolBase(), toolBase().slice(0, -1), `${toolBase()}?x=1`]) {
      const response = await onToolOrigin(target);
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe(`${toolBase()}index.html`);
    }
  });

  it('serves the SDK with the host origin and the SDK version built in', async () => {
    const response = await onToolOrigin('/__pipeline/sdk.js');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.body).toContain(`"hostOrigin":"http://127.0.0.1:${server.port}"`);
    expect(response.body).toContain('"version":"2.5.0"');
  });

  it('allows the sandboxed frame (origin "null") to load modules, and nobody else', async () => {
    expect((await tool('/module.mjs', { headers: { Origin: 'null' } })).headers['access-control-allow-origin']).toBe('null');
    expect((await tool('/module.mjs', { headers: { Origin: 'https://evil.example' } })).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('follows a link that stays inside the folder', async () => {
    expect((await tool('/alias.js')).status).toBe(200);
  });
});

const WITH_AND_WITHOUT_NULL_ORIGIN: Record<string, string>[] = [{}, { Origin: 'null' }];

describe('the random base path', () => {
  it('is a fresh 128-bit token under /t/ for each start', async () => {
    expect(toolBase()).toMatch(/^\/t\/[A-Za-z0-9_-]{22}\/$/);
    const other = await startTestServer({ root, watch: false });
    expect(new URL(other.toolUrl).pathname).not.toBe(toolBase());
    expect(new URL(other.toolUrl).origin).toBe(other.toolOrigin);
  });

  const wrongToken = () => toolBase().replace(/\/t\/(.)/, (_all, first: string) => `/t/${first === 'A' ? 'B' : 'A'}`);

  it.each([
    ['/index.html'],
    ['/app.js'],
    ['/module.mjs'],
    ['/manifest.json'],
    ['/'],
    ['/t/'],
    ['/t/index.html'],
    ['/index.html?t=1'],
  ])('answers %s without the base path with a bare 404, with and without Origin: null', async (target) => {
    for (const headers of WITH_AND_WITHOUT_NULL_ORIGIN) {
      const response = await onToolOrigin(target, { headers });
      expect(response.status).toBe(404);
      expect(response.body).toBe('not found');
      expect(response.headers.location).toBeUndefined();
      expect(JSON.stringify(response)).not.toContain(toolBase().slice(3, -1));
    }
  });

  it.each([
    ['a wrong token', () => `${wrongToken()}index.html`],
    ['a wrong token, for the base path itself', () => wrongToken()],
    ['a token cut short', () => `${toolBase().slice(0, -2)}/index.html`],
    ['a token with more after it', () => `${toolBase().slice(0, -1)}x/index.html`],
    ['the token in another letter case', () => `${toolBase().toUpperCase() === toolBase() ? toolBase().toLowerCase() : toolBase().toUpperCase()}index.html`],
    ['the token percent-encoded', () => `/t/${[...toolBase().slice(3, -1)].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}/index.html`],
    ['the token as a later segment', () => `/sub${toolBase()}index.html`],
    ['an absolute-form target', () => `http://127.0.0.1:${server.toolPort}${toolBase()}index.html`],
  ])('answers %s with a bare 404, with and without Origin: null', async (_case, target) => {
    for (const headers of WITH_AND_WITHOUT_NULL_ORIGIN) {
      const response = await onToolOrigin(target(), { headers });
      expect(response.status).toBe(404);
      expect(response.body).toBe('not found');
      expect(JSON.stringify(response)).not.toContain(toolBase().slice(3, -1));
    }
  });

  it('serves the same files under the right base path, to the sandboxed frame too', async () => {
    const response = await tool('/module.mjs', { headers: { Origin: 'null' } });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('null');
  });
});

describe('refusing what is not the tool', () => {
  it.each([
    ['/../secret.txt', 400],
    ['/sub/../../secret.txt', 400],
    ['/sub/../index.html', 400],
    ['/%2e%2e/secret.txt', 400],
    ['/%2E%2E%2Fsecret.txt', 400],
    ['/sub%2f..%2f..%2fsecret.txt', 400],
    ['/sub%2Fdata.json', 400],
    ['/..%5csecret.txt', 400],
    ['/sub\\..\\index.html', 400],
    ['//etc/passwd', 400],
    ['/sub//data.json', 400],
    ['/./index.html', 400],
    ['/index.html%00.js', 400],
    ['/%E0%A4%A', 400],
    ['/%', 400],
    ['/.env', 404],
    ['/%2eenv', 404],
    ['/.pipeline-tool/settings.json', 404],
    ['/settings-link.json', 404],
    ['/escape.txt', 404],
    ['/escape-dir/secret.txt', 404],
    ['/sub', 404],
    ['/sub/', 404],
    ['/app.js/', 404],
    ['/index.html/', 404],
    ['/sub/data.json/', 404],
    ['/app.js/?x=1', 404],
    ['/missing.js', 404],
  ])('%s → %i', async (requestPath, status) => {
    const response = await tool(requestPath);
    expect(response.status).toBe(status);
    expect(response.body).not.toContain('TOP SECRET');
    expect(response.body).not.toContain('API_KEY');
  });

  it('refuses an absolute-form request target', async () => {
    const response = await onToolOrigin(`http://127.0.0.1:${server.toolPort}/../secret.txt`);
    expect(response.status).toBe(404);
  });

  it('refuses an absolute path outside the folder given raw on the wire', async () => {
    for (const target of [`${outside}/secret.txt`, `${toolBase()}${outside.slice(1)}/secret.txt`]) {
      const reply = await sendRawBytes(server.toolPort, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.toolPort}\r\nConnection: close\r\n\r\n`);
      expect(reply).toMatch(/^HTTP\/1\.1 40[04]/);
      expect(reply).not.toContain('TOP SECRET');
    }
  });

  it.each(['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'])('answers %s with 405', async (method) => {
    const response = await tool('/index.html', { method });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it.each(['evil.example', `evil.example:${0}`, 'localhost.evil.example', '127.0.0.1:1', '127.0.0.1:notaport'])(
    'refuses Host "%s" (DNS rebinding)',
    async (host) => {
      const response = await tool('/index.html', { headers: { Host: host.replace(':0', `:${server.toolPort}`) } });
      expect(response.status === 403 || response.status === 400).toBe(true);
    },
  );

  it('refuses a request with no Host header or an empty one', async () => {
    for (const header of ['', 'Host: \r\n']) {
      const reply = await sendRawBytes(server.toolPort, `GET ${toolBase()}index.html HTTP/1.1\r\n${header}Connection: close\r\n\r\n`);
      expect(reply).toMatch(/^HTTP\/1\.1 40[03]/);
    }
  });

  it('accepts localhost as a Host', async () => {
    expect((await tool('/index.html', { headers: { Host: `localhost:${server.toolPort}` } })).status).toBe(200);
  });

  it('survives malformed requests and keeps serving', async () => {
    const garbage = [
      'NONSENSE\r\n\r\n',
      'GET /index.html HTTP/9.9\r\n\r\n',
      `GET ${toolBase()}index.html HTTP/1.1\r\nHost: 127.0.0.1:${server.toolPort}\r\nContent-Length: -5\r\n\r\n`,
      `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      '\u0000\u0001\u0002\r\n\r\n',
    ];
    for (const bytes of garbage) {
      const reply = await sendRawBytes(server.toolPort, bytes);
      expect(reply).toMatch(/^HTTP\/1\.1 4\d\d|^$/);
    }
    expect((await tool('/index.html')).status).toBe(200);
  });
});

describe('readRequestPath', () => {
  it('decodes each segment on its own', () => {
    expect(readRequestPath('/a%20b/c.js?x=1')).toEqual({ ok: true, segments: ['a b', 'c.js'] });
    expect(readRequestPath('/caf%C3%A9')).toEqual({ ok: true, segments: ['café'] });
    expect(readRequestPath('/')).toEqual({ ok: true, segments: [] });
  });

  it('refuses a path that ends in a slash, as the platform has no folder pages', () => {
    expect(readRequestPath('/app.js/')).toMatchObject({ ok: false, status: 404 });
    expect(readRequestPath('/sub/page.html/?x=1')).toMatchObject({ ok: false, status: 404 });
    expect(readRequestPath('/sub/')).toMatchObject({ ok: false, status: 404 });
  });
});

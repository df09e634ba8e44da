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

const tool = (requestPath: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  sendRequest(server.toolPort, { path: requestPath, ...init, headers: { Host: `127.0.0.1:${server.toolPort}`, ...init.headers } });

describe('serving the tool folder', () => {
  it('serves HTML with the SDK as the first script, and the right headers', async () => {
    const response = await tool('/index.html');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
    const firstScript = response.body.indexOf('<script');
    expect(response.body.slice(firstScript)).toMatch(/^<script src="\/__pipeline\/sdk\.js"><\/script>/);
    expect(response.body.indexOf('<head>')).toBeLessThan(firstScript);
    expect(response.body.indexOf('src="app.js"')).toBeGreaterThan(firstScript);
  });

  it('injects into HTML without a head too', async () => {
    const response = await tool('/sub/page.html');
    expect(response.body).toBe('<script src="/__pipeline/sdk.js"></script><p>no head at all</p>');
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

  it('redirects / to the entry page', async () => {
    const response = await tool('/');
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/index.html');
  });

  it('serves the SDK with the host origin and the SDK version built in', async () => {
    const response = await tool('/__pipeline/sdk.js');
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
    ['/missing.js', 404],
  ])('%s → %i', async (requestPath, status) => {
    const response = await tool(requestPath);
    expect(response.status).toBe(status);
    expect(response.body).not.toContain('TOP SECRET');
    expect(response.body).not.toContain('API_KEY');
  });

  it('refuses an absolute-form request target', async () => {
    const response = await tool(`http://127.0.0.1:${server.toolPort}/../secret.txt`);
    expect(response.status).toBe(400);
  });

  it('refuses an absolute path outside the folder given raw on the wire', async () => {
    const reply = await sendRawBytes(server.toolPort, `GET ${outside}/secret.txt HTTP/1.1\r\nHost: 127.0.0.1:${server.toolPort}\r\nConnection: close\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 404/);
    expect(reply).not.toContain('TOP SECRET');
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
      const reply = await sendRawBytes(server.toolPort, `GET /index.html HTTP/1.1\r\n${header}Connection: close\r\n\r\n`);
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
      `GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:${server.toolPort}\r\nContent-Length: -5\r\n\r\n`,
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
    expect(readRequestPath('/caf%C3%A9/')).toEqual({ ok: true, segments: ['café'] });
    expect(readRequestPath('/')).toEqual({ ok: true, segments: [] });
  });
});

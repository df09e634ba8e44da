import { request as httpRequest } from 'node:http';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DevServer } from '../../src/dev/server.js';
import { WIRE_TAG } from '../../src/dev/wire-values.js';
import {
  callBridge,
  canConnect,
  postFromHostPage,
  reachableOwnAddresses,
  readState,
  sendRawBytes,
  sendRequest,
  startTestServer,
  STANDALONE_MANIFEST,
  writeTool,
} from './helpers.js';

let server: DevServer;

beforeAll(async () => {
  server = await startTestServer({ root: writeTool(), watch: false });
});

beforeEach(async () => {
  await postFromHostPage(server, '/__pipeline/control', { action: 'reset-quote' });
  await postFromHostPage(server, '/__pipeline/control', { action: 'choose', toolType: null, userRole: null, cultureCode: null, sdkVersion: '2.5.0' });
});

const host = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}) =>
  sendRequest(server.port, { path, ...init });

const productLine = { description: 'Base cabinet', productCode: 'CAB-BASE-600', qty: 1, unitPrice: 100, taxRate: 0.15 };

describe('the host page', () => {
  it('is served with a strict content security policy', async () => {
    const response = await host('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain(`frame-src http://127.0.0.1:${server.toolPort}`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves its script and style', async () => {
    expect((await host('/__pipeline/host.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await host('/__pipeline/host.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('reports the state as JSON: tool, quote views, findings', async () => {
    const state = await readState(server);
    expect(state['tool']).toMatchObject({ toolId: 'Kitchen Estimator', toolType: 'quoting_extension', entry: 'index.html' });
    expect(state['toolPort']).toBe(server.toolPort);
    expect(state['toolBasePath']).toBe(new URL(server.toolUrl).pathname);
    expect(state['editor'].quote.ref).toBe('Q-1042');
    expect(state['preview'].blocks).toEqual([]);
    expect(state['findings']).toMatchObject({ ok: true, report: { errorCount: 0 } });
  });

  it('does not let another origin read the state, which holds the base path of the tool files', async () => {
    for (const origin of ['null', 'https://evil.example', `http://127.0.0.1:${server.toolPort}`]) {
      const response = await host('/__pipeline/state', { headers: { Origin: origin } });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    expect((await host('/nope')).status).toBe(404);
    expect((await host('/__pipeline/call')).status).toBe(405);
    expect((await host('/', { method: 'POST' })).status).toBe(405);
    expect((await host('/__proto__')).status).toBe(404);
  });

  it('refuses a foreign Host header (DNS rebinding) and accepts localhost', async () => {
    expect((await host('/__pipeline/state', { headers: { Host: `evil.example:${server.port}` } })).status).toBe(403);
    expect((await host('/__pipeline/state', { headers: { Host: `127.0.0.1:${server.toolPort}` } })).status).toBe(403);
    expect((await host('/__pipeline/state', { headers: { Host: `localhost:${server.port}` } })).status).toBe(200);
  });
});

describe('where the server listens', () => {
  it('listens on loopback only by default: both listeners are bound to 127.0.0.1', async () => {
    expect(server.listeners.hostPage).toMatchObject({ address: '127.0.0.1', family: 'IPv4', port: server.port });
    expect(server.listeners.tool).toMatchObject({ address: '127.0.0.1', family: 'IPv4', port: server.toolPort });
    expect(await canConnect('127.0.0.1', server.port)).toBe(true);
    expect(await canConnect('127.0.0.1', server.toolPort)).toBe(true);
    // Nothing answers on this machine's other addresses, when it has any that a listener on
    // every interface could be reached at.
    for (const address of await reachableOwnAddresses()) {
      expect(await canConnect(address, server.port), `host page on ${address}`).toBe(false);
      expect(await canConnect(address, server.toolPort), `tool files on ${address}`).toBe(false);
    }
  });
});

describe('the bridge endpoint', () => {
  it('answers a call from the fixtures', async () => {
    const outcome = await callBridge(server, 'products.list', [{ pageSize: 100 }]);
    expect(outcome.ok).toBe(true);
    expect((outcome.value as { items: { sku: string }[] }).items.map((p) => p.sku)).toContain('CAB-BASE-600');
  });

  it('reports a bridge failure as data with its code', async () => {
    const outcome = await callBridge(server, 'quotes.addLines', [[{ ...productLine, lineType: 'bogus' }]]);
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.code).toBe('BATCH_REJECTED');
    expect(outcome.error?.details[0]).toMatchObject({ code: 'UNKNOWN_LINE_TYPE', path: 'lines[0].lineType' });
  });

  it('carries NaN and undefined as themselves, not as JSON nulls', async () => {
    const nan = { [WIRE_TAG]: 'number', value: 'NaN' };
    const outcome = await callBridge(server, 'quotes.addLines', [[{ ...productLine, qty: nan }]]);
    expect(outcome.error?.details[0]).toMatchObject({ code: 'INVALID_TYPE', path: 'lines[0].qty' });
  });

  it.each([
    ['foo.bar', 'UNKNOWN_METHOD'],
    ['constructor.name', 'UNKNOWN_METHOD'],
    ['toString.call', 'UNKNOWN_METHOD'],
  ])('answers the unknown method %s with %s', async (method, code) => {
    const outcome = await callBridge(server, method);
    expect(outcome.error?.code).toBe(code);
  });

  it('refuses a method that is not a plain name', async () => {
    for (const method of ['__proto__', 'a.b.c', '', 42, null, 'quotes.list()', 'x'.repeat(200)]) {
      const response = await postFromHostPage(server, '/__pipeline/call', { method, args: [] });
      expect(response.status).toBe(400);
    }
  });

  it('refuses a standalone tool changing the quote', async () => {
    await postFromHostPage(server, '/__pipeline/control', { action: 'choose', toolType: 'standalone' });
    const outcome = await callBridge(server, 'quotes.addLines', [[productLine]]);
    expect(outcome.error?.code).toBe('TOOL_TYPE_NOT_ALLOWED');
  });

  it('acts as an older SDK when asked, and leaves newer methods out', async () => {
    await postFromHostPage(server, '/__pipeline/control', { action: 'choose', sdkVersion: '2.2.0' });
    expect((await callBridge(server, 'settings.get', ['units'])).error?.code).toBe('METHOD_NOT_AVAILABLE');
    const sdk = await sendRequest(server.toolPort, { path: '/__pipeline/sdk.js', headers: { Host: `127.0.0.1:${server.toolPort}` } });
    expect(sdk.body).toContain('"version":"2.2.0"');
    // Later methods are known to the SDK only so that it can leave them absent.
    const methods = JSON.parse(/"methods":(\[[^\]]*\])/.exec(sdk.body)?.[1] ?? '[]') as string[];
    expect(methods).not.toContain('settings.get');
    expect(methods).toContain('jobCostTemplates.list');
  });

  it.each([
    ['no Origin', {}],
    ['another site', { Origin: 'https://evil.example' }],
    ['the sandboxed tool', { Origin: 'null' }],
    ['the tool origin', { Origin: 'http://127.0.0.1:1' }],
    ['a cross-site fetch', { Origin: 'http://127.0.0.1:0', 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses a call from %s', async (_who, headers: Record<string, string>) => {
    const origin = headers['Origin']?.replace(':0', `:${server.port}`).replace(':1', `:${server.toolPort}`);
    const response = await host('/__pipeline/call', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers, ...(origin === undefined ? {} : { Origin: origin }) },
      body: JSON.stringify({ method: 'context.get', args: [] }),
    });
    expect(response.status).toBe(403);
  });

  it('refuses bodies that are not JSON objects', async () => {
    const post = (body: string, type = 'application/json') =>
      host('/__pipeline/call', { method: 'POST', headers: { Origin: `http://127.0.0.1:${server.port}`, 'Content-Type': type }, body });
    expect((await post('{"method":"context.get","args":[]}', 'text/plain')).status).toBe(415);
    expect((await post('{"method":')).status).toBe(400);
    expect((await post('')).status).toBe(400);
    expect((await post('[1,2]')).status).toBe(400);
    expect((await post('null')).status).toBe(400);
    expect((await post('{"method":"context.get","args":{}}')).status).toBe(400);
    expect((await post(`{"method":"context.get","args":${'['.repeat(5000)}${']'.repeat(5000)}}`)).status).toBe(400);
    expect((await post(JSON.stringify({ method: 'context.get', args: [{ [WIRE_TAG]: 'eval', code: 'process.exit()' }] }))).status).toBe(400);
  });

  it('refuses a huge body without reading it all, and keeps working', async () => {
    const huge = Buffer.alloc(6_000_000, 0x20);
    const response = await host('/__pipeline/call', {
      method: 'POST',
      headers: { Origin: `http://127.0.0.1:${server.port}`, 'Content-Type': 'application/json' },
      body: huge,
    });
    expect(response.status).toBe(413);
    // The same with no Content-Length: chunked, so the limit is enforced while reading.
    const chunked = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/__pipeline/call',
          method: 'POST',
          headers: { Host: `127.0.0.1:${server.port}`, Origin: `http://127.0.0.1:${server.port}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        },
        (reply) => {
          reply.resume();
          resolve(reply.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      for (let i = 0; i < 7; i++) request.write(Buffer.alloc(1_000_000, 0x20));
      request.end();
    });
    expect(chunked).toBe(413);
    expect((await callBridge(server, 'context.get')).ok).toBe(true);
  });

  it('survives malformed HTTP', async () => {
    const reply = await sendRawBytes(server.port, 'POST /__pipeline/call HTTP/1.1\r\nContent-Length: abc\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect((await callBridge(server, 'context.get')).ok).toBe(true);
  });
});

describe('the controls', () => {
  it('switch the role and culture the tool is told about, keeping the open quote', async () => {
    await callBridge(server, 'quotes.addLines', [[productLine]]);
    const response = await postFromHostPage(server, '/__pipeline/control', { action: 'choose', userRole: 'H_Field', cultureCode: 'mi-NZ' });
    expect(JSON.parse(response.body)).toEqual({ ok: true, reloadTool: true });
    const context = (await callBridge(server, 'context.get')).value as { userRole: string; cultureCode: string; tenantName: string };
    expect(context).toMatchObject({ userRole: 'H_Field', cultureCode: 'mi-NZ', tenantName: 'Kauri Coast Kitchens Ltd' });
    expect((await readState(server))['editor'].blocks).toHaveLength(1);
  });

  it.each([
    [{ action: 'choose', userRole: '<script>' }],
    [{ action: 'choose', cultureCode: 'english' }],
    [{ action: 'choose', toolType: 'admin' }],
    [{ action: 'choose', sdkVersion: '3.0.0' }],
    [{ action: 'format-disk' }],
    [{}],
  ])('refuse %j', async (body) => {
    expect((await postFromHostPage(server, '/__pipeline/control', body)).status).toBe(400);
  });

  it('reset the open quote', async () => {
    await callBridge(server, 'quotes.addLines', [[productLine]]);
    expect((await readState(server))['editor'].blocks).toHaveLength(1);
    await postFromHostPage(server, '/__pipeline/control', { action: 'reset-quote' });
    expect((await readState(server))['editor'].blocks).toHaveLength(0);
  });

  it('reset the settings of this tool', async () => {
    await callBridge(server, 'settings.set', ['units', 'metric']);
    expect((await callBridge(server, 'settings.get', ['units'])).value).toBe('metric');
    await postFromHostPage(server, '/__pipeline/control', { action: 'reset-settings' });
    expect((await callBridge(server, 'settings.get', ['units'])).value).toBeNull();
  });
});

describe('server-sent events', () => {
  it('tell the page when the state changed', async () => {
    const events: string[] = [];
    const request = httpRequest({ host: '127.0.0.1', port: server.port, path: '/__pipeline/events', headers: { Host: `127.0.0.1:${server.port}` } });
    const connected = new Promise<void>((resolve) => {
      request.on('response', (response) => {
        expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => events.push(chunk));
        resolve();
      });
    });
    request.end();
    await connected;
    await callBridge(server, 'context.get');
    const deadline = Date.now() + 3000;
    while (!events.join('').includes('event: state') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    request.destroy();
    expect(events.join('')).toContain('event: state');
  });
});

describe('a standalone tool', () => {
  it('takes its type from the manifest', async () => {
    const standalone = await startTestServer({ root: writeTool(STANDALONE_MANIFEST), watch: false });
    expect((await readState(standalone))['tool'].toolType).toBe('standalone');
    expect((await callBridge(standalone, 'quotes.addSections', [[{ name: 'Extras' }]])).error?.code).toBe('TOOL_TYPE_NOT_ALLOWED');
  });
});

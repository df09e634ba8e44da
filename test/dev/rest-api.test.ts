import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DevServer } from '../../src/dev/server.js';
import { DEFAULT_API_KEY } from '../../src/platform/index.js';
import { writeFolder } from '../helpers/bundles.js';
import { callBridge, readState, sendRequest, startTestServer, STANDALONE_MANIFEST, writeTool } from './helpers.js';

/*
 * The REST API v1 of `pipeline-tool dev`, over real HTTP with Node's fetch, as an integrator's
 * script would call it.
 */

const READER_KEY = 'quotes-reader-0001';
const BURST_KEY = 'burst-key-0001';
const AROHA = '10000000-0000-4000-8000-000000000001';
const SKIRTING = '20000000-0000-4000-8000-000000000006';
const OTHER_TENANT_QUOTE = '80000000-0000-4000-8000-000000000006';

let server: DevServer;

beforeAll(async () => {
  const fixtures = writeFolder({
    'fixtures.json': JSON.stringify({
      apiKeys: [
        { key: READER_KEY, scopes: ['GET /api/v1/quotes', 'GET /api/v1/quotes/{id}'] },
        { key: BURST_KEY, rateLimit: { requests: 3, windowSeconds: 2 } },
      ],
    }),
  });
  server = await startTestServer({ root: writeTool(STANDALONE_MANIFEST), fixturesFile: path.join(fixtures, 'fixtures.json'), watch: false });
});

function api(endpoint: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const { key = DEFAULT_API_KEY, headers, ...rest } = init;
  return fetch(`${server.apiUrl}${endpoint}`, { ...rest, headers: { ...(key === null ? {} : { Authorization: `Bearer ${key}` }), ...(headers as Record<string, string>) } });
}

function postQuote(body: unknown, init: RequestInit & { key?: string } = {}): Promise<Response> {
  return api('/quotes', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), ...init });
}

async function errorOf(response: Response): Promise<{ code: string; message: string; details?: { path: string; code: string; message: string }[] }> {
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return ((await response.json()) as { error: never }).error;
}

describe('where the API is', () => {
  it('is served on the host page\'s address under /api/v1, with a ready key', () => {
    expect(server.apiUrl).toBe(`http://127.0.0.1:${server.port}/api/v1`);
    expect(server.apiKey).toBe(DEFAULT_API_KEY);
  });
});

describe('the lists', () => {
  it('pages customers, products and quotes as the bridge does, only of the tenant, with rate-limit headers', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await api('/customers?page=2&pageSize=3');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const customers = (await response.json()) as { items: { id: string; name: string }[]; page: number; pageSize: number; totalCount: number };
    expect({ ...customers, items: customers.items.map((c) => c.name) }).toEqual({
      items: ['Li Wei', 'Ngaio Builders Ltd', 'Sione Fifita'],
      page: 2,
      pageSize: 3,
      totalCount: 8,
    });
    expect(Object.keys(customers.items[0]!)).toEqual(['id', 'name', 'email', 'phone']);
    expect(response.headers.get('x-ratelimit-limit')).toBe('60');
    const remaining = Number(response.headers.get('x-ratelimit-remaining'));
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(before + 1);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);

    const products = await api('/products');
    expect(Number(products.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    const productList = (await products.json()) as { items: { name: string }[]; page: number; pageSize: number; totalCount: number };
    expect([productList.page, productList.pageSize, productList.totalCount]).toEqual([1, 50, 12]);
    expect(productList.items.map((p) => p.name)).not.toContain('Base cabinet 600 mm (other tenant)');

    const quotes = (await (await api('/quotes', { key: READER_KEY })).json()) as { items: { ref: string }[] };
    expect(quotes.items.map((q) => q.ref)).not.toContain('Q-5001');
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await api('/products', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('60');
    expect(await response.text()).toBe('');
  });

  it('refuses bad paging with 400 and the problem', async () => {
    const response = await api('/customers?page=0&pageSize=x');
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details!.map((d) => [d.path, d.code])).toEqual([
      ['page', 'OUT_OF_RANGE'],
      ['pageSize', 'INVALID_TYPE'],
    ]);
  });
});

describe('keys and scopes', () => {
  it('answers 401 to a missing, malformed or unknown key, with no rate-limit headers', async () => {
    for (const init of [{ key: null }, { key: 'no-such-key-001' }, { key: null, headers: { Authorization: `Basic ${DEFAULT_API_KEY}` } }]) {
      const response = await api('/customers', init);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      expect((await errorOf(response)).code).toBe('UNAUTHORIZED');
    }
  });

  it('answers 403 outside the key\'s scopes, and lets it call what they name', async () => {
    const refused = await api('/customers', { key: READER_KEY });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
    expect(await errorOf(refused)).toEqual({ code: 'FORBIDDEN', message: expect.stringContaining('GET /api/v1/customers') });
    expect((await postQuote({ customerId: AROHA, lines: [{ skuId: SKIRTING, qty: 1, unitPrice: 1 }] }, { key: READER_KEY })).status).toBe(403);
    expect((await api('/quotes/80000000-0000-4000-8000-000000000001', { key: READER_KEY })).status).toBe(200);
  });

  it('checks a HEAD request against the key\u2019s scopes as it checks GET: 403 outside them, 200 inside', async () => {
    for (const endpoint of ['/customers', '/products?page=2']) {
      const refused = await api(endpoint, { key: READER_KEY, method: 'HEAD' });
      expect(refused.status, endpoint).toBe(403);
      expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await refused.text()).toBe('');
    }
    expect((await api('/quotes', { key: READER_KEY, method: 'HEAD' })).status).toBe(200);
    expect((await api('/quotes/80000000-0000-4000-8000-000000000001', { key: READER_KEY, method: 'HEAD' })).status).toBe(200);
  });

  it('answers 404 for an unknown path or quote, a quote of another tenant included, and 405 with Allow for a wrong method', async () => {
    for (const endpoint of ['/jobs', '/customers/', '/quotes/not-a-quote', `/quotes/${OTHER_TENANT_QUOTE}`]) {
      const response = await api(endpoint);
      expect(response.status, endpoint).toBe(404);
      expect((await errorOf(response)).code).toBe('NOT_FOUND');
    }
    const wrong = await api('/customers', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect((await errorOf(wrong)).code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('creating a quote', () => {
  it('returns 201 with the quote and a Location to read it from; the host page lists it and is told to redraw', async () => {
    const events = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${server.port}/__pipeline/events`, { signal: events.signal });
    const reader = stream.body!.getReader();
    await reader.read(); // the retry line: the stream is open

    const response = await postQuote({ customerId: AROHA, lines: [{ skuId: SKIRTING, qty: 3, unitPrice: 12.45, taxRate: 0.15 }] });
    expect(response.status).toBe(201);
    const quote = (await response.json()) as { id: string; ref: string; customerId: string; lines: unknown[]; totals: unknown };
    expect(quote).toMatchObject({
      customerId: AROHA,
      customerName: 'Aroha Tane',
      status: 'Draft',
      lines: [{ skuId: SKIRTING, productCode: 'SKIRT-MDF-90', description: 'MDF skirting 90 mm', qty: 3, unitPrice: 12.45, taxRate: 0.15, nett: 37.35, tax: 5.6, total: 42.95 }],
      totals: { nett: 37.35, tax: 5.6, total: 42.95 },
    });
    const location = response.headers.get('location')!;
    expect(location).toBe(`/api/v1/quotes/${quote.id}`);

    let received = '';
    while (!received.includes('event: state')) received += new TextDecoder().decode((await reader.read()).value);
    events.abort();

    const read = await fetch(new URL(location, server.apiUrl), { headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } });
    expect(await read.json()).toEqual(quote);
    const state = await readState(server);
    expect(state['createdQuotes'].map((q: { id: string }) => q.id)).toContain(quote.id);
    const list = (await (await api('/quotes')).json()) as { items: { id: string }[] };
    expect(list.items[0]!.id).toBe(quote.id);
    // The tool sees it too.
    const bridgeList = await callBridge(server, 'quotes.list');
    expect((bridgeList.value as { items: { id: string }[] }).items[0]!.id).toBe(quote.id);
  });

  it('reads over REST a quote a tool made with quotes.create', async () => {
    const made = await callBridge(server, 'quotes.create', [{ upsertByEmail: false, customerName: 'Walk-in', lines: [{ qty: 2, unitPrice: 10, taxRate: 0.15, productCode: 'X-1' }] }]);
    expect(made.ok).toBe(true);
    const { id } = made.value as { id: string };
    const response = await api(`/quotes/${id}`, { key: READER_KEY });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id, customerName: 'Walk-in', lines: [{ skuId: null, productCode: 'X-1', qty: 2, nett: 20, tax: 3, total: 23 }] });
  });

  it('reads a built-in quote with its lines and totals, which add up to its total in the list', async () => {
    const listed = (await (await api('/quotes?pageSize=50')).json()) as { items: { id: string; ref: string; total: number }[] };
    expect(listed.items.length).toBeGreaterThanOrEqual(5);
    for (const row of listed.items.filter((item) => /^Q-10(3[7-9]|4[01])$/.test(item.ref))) {
      const quote = (await (await api(`/quotes/${row.id}`)).json()) as { lines: unknown[]; totals: { total: number } | null; total: number };
      expect(quote.lines.length, row.ref).toBeGreaterThan(0);
      expect(quote.totals?.total, row.ref).toBe(row.total);
      expect(quote.total).toBe(row.total);
    }
  });

  it('lists every problem of a body in details, and saves nothing', async () => {
    const before = (await readState(server))['createdQuotes'].length as number;
    const response = await postQuote({ customerId: 'nobody', lines: [{ skuId: SKIRTING, qty: 0, unitPrice: 2_000_000 }, { qty: 1 }] });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details!.map((d) => [d.path, d.code])).toEqual([
      ['customerId', 'UNKNOWN_ID'],
      ['lines[0].qty', 'OUT_OF_RANGE'],
      ['lines[0].unitPrice', 'OUT_OF_RANGE'],
      ['lines[1].skuId', 'REQUIRED'],
      ['lines[1].unitPrice', 'REQUIRED'],
    ]);
    const single = await postQuote({ customerId: AROHA, lines: [] });
    expect(await errorOf(single)).toEqual({ code: 'VALIDATION_FAILED', message: expect.stringContaining('lines is empty') });
    expect((await readState(server))['createdQuotes']).toHaveLength(before);
  });

  it('answers 415 to a body that is not application/json and 400 to one that is not JSON', async () => {
    const plain = await api('/quotes', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    expect([plain.status, (await errorOf(plain)).code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const none = await api('/quotes', { method: 'POST', body: new Uint8Array([0x7b, 0x7d]) });
    expect(none.status).toBe(415);
    for (const body of ['{"customerId": ', '', 'customerId=1']) {
      const response = await api('/quotes', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      expect([response.status, (await errorOf(response)).code], body).toEqual([400, 'INVALID_JSON']);
    }
  });

  it('answers 413 to a body over 1,000,000 bytes, declared or streamed, and keeps serving', async () => {
    const huge = JSON.stringify({ customerId: AROHA, lines: [], pad: 'x'.repeat(1_000_000) });
    const declared = await sendRequest(server.port, {
      path: '/api/v1/quotes',
      method: 'POST',
      headers: { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' },
      body: huge,
    });
    expect([declared.status, JSON.parse(declared.body).error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const streamed = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/api/v1/quotes',
          method: 'POST',
          headers: { Host: `127.0.0.1:${server.port}`, Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      for (let i = 0; i < 3; i++) request.write(Buffer.alloc(400_000, 0x20));
      request.end();
    });
    expect(streamed).toBe(413);
    // Exactly at the limit is still read (and is then judged as JSON).
    const atLimit = await api('/quotes', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `${' '.repeat(1_000_000 - 2)}{}` });
    expect(atLimit.status).toBe(400);
    expect((await errorOf(atLimit)).code).toBe('VALIDATION_FAILED');
  });
});

describe('the rate limit', () => {
  it('lets a burst use up the window, answers 429 with Retry-After, and lets the next request through after waiting it', async () => {
    const answers: Response[] = [];
    for (let i = 0; i < 4; i++) answers.push(await api('/customers?pageSize=1', { key: BURST_KEY }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    expect(new Set(answers.map((r) => r.headers.get('x-ratelimit-limit')))).toEqual(new Set(['3']));
    expect(new Set(answers.map((r) => r.headers.get('x-ratelimit-reset'))).size).toBe(1);
    const refused = answers[3]!;
    expect((await errorOf(refused)).code).toBe('RATE_LIMITED');
    const retryAfter = refused.headers.get('retry-after')!;
    expect(retryAfter).toMatch(/^[12]$/);
    // Other keys have their own windows.
    expect((await api('/customers')).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
    const after = await api('/customers?pageSize=1', { key: BURST_KEY });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('2');
    // A new window, starting at this request: it ends at least a whole window after the old one.
    expect(Number(after.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Number(refused.headers.get('x-ratelimit-reset')) + 2);
  });
});

describe('the dev server\'s protections', () => {
  it('answers only to the Host it printed', async () => {
    const response = await sendRequest(server.port, { path: '/api/v1/customers', headers: { Host: `attacker.example:${server.port}`, Authorization: `Bearer ${DEFAULT_API_KEY}` } });
    expect(response.status).toBe(403);
    expect(response.body).not.toContain('Aroha');
  });

  it('sends no CORS headers, so another origin\'s page cannot read it or pass its preflight', async () => {
    const response = await api('/customers', { headers: { Origin: 'https://attacker.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${server.apiUrl}/customers`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://attacker.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(preflight.status).toBe(401);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
  });
});

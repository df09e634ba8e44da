import { describe, expect, it } from 'vitest';
import { handleApiRequest, matchRoute, MAX_API_BODY_BYTES, readBearerKey, type ApiRequest, type ApiServices } from '../../src/dev/rest/handle-request.js';
import { createRateLimiter } from '../../src/dev/rest/rate-limit.js';
import { BodyError } from '../../src/dev/http-utils.js';
import { createPlatform, DEFAULT_API_KEY, DEFAULT_FIXTURES, resolveApiKeys, type BridgeWarning, type FixtureApiKey } from '../../src/platform/index.js';

/*
 * The REST API without a socket: the rate limiter on a clock the test moves, and the request
 * handler over a real platform model.
 */

const START = Date.UTC(2026, 0, 1, 0, 0, 0, 250);

describe('the rate limiter (fixed window from the first request)', () => {
  it('allows `requests` per window, then refuses with Retry-After rounded up, and opens a new window at its end', () => {
    let now = START;
    const limiter = createRateLimiter(() => now);
    const limit = { requests: 3, windowSeconds: 2 };
    const taken = [limiter.take('k', limit), limiter.take('k', limit), limiter.take('k', limit)];
    expect(taken.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    // The window ends 2 s after the first request: .250 + 2 s, so Reset rounds up to the next whole second.
    expect(taken[0]!.resetAt).toBe(Math.ceil((START + 2000) / 1000));
    now += 300;
    const refused = limiter.take('k', limit);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 3, retryAfter: 2 }); // 1.7 s left → 2
    now = START + 1999;
    expect(limiter.take('k', limit)).toMatchObject({ allowed: false, retryAfter: 1 }); // 1 ms left → 1, never 0
    now = START + 2000;
    const fresh = limiter.take('k', limit);
    expect(fresh).toMatchObject({ allowed: true, remaining: 2, retryAfter: 0, resetAt: Math.ceil((START + 4000) / 1000) });
  });

  it('keeps one window per key, and does not count refused requests into the next window', () => {
    let now = START;
    const limiter = createRateLimiter(() => now);
    const one = { requests: 1, windowSeconds: 10 };
    expect(limiter.take('a', one).allowed).toBe(true);
    expect(limiter.take('a', one).allowed).toBe(false);
    expect(limiter.take('b', one).allowed).toBe(true);
    now += 10_000;
    expect(limiter.take('a', one)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('starts the window at the first request, not at a boundary of the clock', () => {
    let now = START + 59_000;
    const limiter = createRateLimiter(() => now);
    const limit = { requests: 1, windowSeconds: 60 };
    limiter.take('k', limit);
    now += 30_000; // past a whole minute of the clock, but only half way through the window
    expect(limiter.take('k', limit)).toMatchObject({ allowed: false, retryAfter: 30 });
  });
});

describe('reading the Authorization header and the path', () => {
  it('takes "Bearer <key>" with the scheme in any case, and says what is wrong otherwise', () => {
    expect(readBearerKey('Bearer abc.def-123')).toEqual({ key: 'abc.def-123' });
    expect(readBearerKey('bearer   abc')).toEqual({ key: 'abc' });
    for (const header of [undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'abc']) expect(readBearerKey(header)).toHaveProperty('problem');
  });

  it('matches the five endpoints exactly and decodes the quote id', () => {
    expect(matchRoute('/api/v1/customers')?.endpoints).toEqual({ GET: 'GET /api/v1/customers' });
    expect(matchRoute('/api/v1/quotes')?.endpoints).toEqual({ GET: 'GET /api/v1/quotes', POST: 'POST /api/v1/quotes' });
    expect(matchRoute('/api/v1/quotes/a%20b')).toEqual({ endpoints: { GET: 'GET /api/v1/quotes/{id}' }, id: 'a b' });
    for (const path of ['/api/v1/customers/', '/api/v1/Customers', '/api/v2/customers', '/api/v1/quotes/', '/api/v1/quotes/a/b', '/api/v1/quotes/%E0%A4%A', '/api/v1/../v1/customers']) {
      expect(matchRoute(path), path).toBeUndefined();
    }
  });
});

interface Harness {
  services: ApiServices;
  advance(ms: number): void;
  request(method: string, target: string, init?: Partial<ApiRequest> & { body?: string; key?: string | null }): ReturnType<typeof handleApiRequest>;
  bodyReads: () => number;
}

function harness(apiKeys: FixtureApiKey[] = [{ key: DEFAULT_API_KEY }]): Harness {
  let now = START;
  let reads = 0;
  let ids = 0;
  const platform = createPlatform({
    toolId: 'rest-test',
    toolType: 'standalone',
    fixtures: { ...DEFAULT_FIXTURES, apiKeys },
    generateId: () => `f0000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    now: () => new Date(now),
  });
  const keys = resolveApiKeys(apiKeys);
  const services: ApiServices = {
    keys: () => keys,
    limiter: createRateLimiter(() => now),
    run: async (operation) => {
      const warnings: BridgeWarning[] = [];
      return { value: await operation(platform), warnings };
    },
  };
  return {
    services,
    advance: (ms) => (now += ms),
    bodyReads: () => reads,
    request: (method, target, init = {}) => {
      const { body = '', key = DEFAULT_API_KEY, ...rest } = init;
      return handleApiRequest(
        {
          method,
          target,
          authorization: key === null ? undefined : `Bearer ${key}`,
          contentType: 'application/json',
          readBody: () => {
            reads += 1;
            return Promise.resolve(new TextEncoder().encode(body));
          },
          ...rest,
        },
        services,
      );
    },
  };
}

const codeOf = (response: { body: unknown }) => (response.body as { error: { code: string } }).error.code;

describe('handling a request', () => {
  it('answers 401 before anything else, without rate-limit headers, and names the Bearer scheme', async () => {
    const api = harness();
    for (const response of [await api.request('GET', '/nowhere', { key: null }), await api.request('DELETE', '/api/v1/customers', { key: 'not-a-key-at-all' })]) {
      expect(response.status).toBe(401);
      expect(codeOf(response)).toBe('UNAUTHORIZED');
      expect(response.headers['WWW-Authenticate']).toMatch(/^Bearer /);
      expect(response.headers).not.toHaveProperty('X-RateLimit-Limit');
    }
  });

  it('counts every request of a known key, then checks the path (404), the method (405) and the scopes (403)', async () => {
    const api = harness([{ key: 'customers-only', scopes: ['GET /api/v1/customers'], rateLimit: { requests: 10, windowSeconds: 60 } }]);
    const notFound = await api.request('GET', '/api/v1/jobs', { key: 'customers-only' });
    expect([notFound.status, codeOf(notFound), notFound.headers['X-RateLimit-Remaining']]).toEqual([404, 'NOT_FOUND', '9']);
    const wrongMethod = await api.request('POST', '/api/v1/customers', { key: 'customers-only' });
    expect([wrongMethod.status, codeOf(wrongMethod), wrongMethod.headers['Allow']]).toEqual([405, 'METHOD_NOT_ALLOWED', 'GET, HEAD']);
    expect((await api.request('constructor', '/api/v1/customers', { key: 'customers-only' })).status).toBe(405);
    const outOfScope = await api.request('GET', '/api/v1/products', { key: 'customers-only' });
    expect([outOfScope.status, codeOf(outOfScope), outOfScope.headers['X-RateLimit-Remaining']]).toEqual([403, 'FORBIDDEN', '6']);
    const allowed = await api.request('HEAD', '/api/v1/customers?page=2&pageSize=3', { key: 'customers-only' });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ page: 2, pageSize: 3, totalCount: 8 });
  });

  it('refuses over the limit with 429 and Retry-After, before looking at the path', async () => {
    const api = harness([{ key: 'burst-key-1', rateLimit: { requests: 2, windowSeconds: 5 } }]);
    await api.request('GET', '/api/v1/customers', { key: 'burst-key-1' });
    api.advance(1500);
    await api.request('GET', '/api/v1/customers', { key: 'burst-key-1' });
    const refused = await api.request('GET', '/api/v1/no-such-path', { key: 'burst-key-1' });
    expect(refused.status).toBe(429);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect(refused.headers).toMatchObject({ 'Retry-After': '4', 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '0' }); // 3.5 s left → 4
    api.advance(3500);
    expect((await api.request('GET', '/api/v1/customers', { key: 'burst-key-1' })).status).toBe(200);
  });

  it('passes paging to the model and reports its problems as VALIDATION_FAILED with every detail', async () => {
    const api = harness();
    const one = await api.request('GET', '/api/v1/products?page=0');
    expect(one.status).toBe(400);
    expect(one.body).toEqual({ error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('page must be at least 1, got 0 [OUT_OF_RANGE]') } });
    const several = await api.request('GET', '/api/v1/quotes?page=abc&pageSize=1.5');
    expect((several.body as { error: { details: unknown[] } }).error.details).toEqual([
      { path: 'page', code: 'INVALID_TYPE', message: expect.any(String) },
      { path: 'pageSize', code: 'NOT_AN_INTEGER', message: expect.any(String) },
    ]);
    const twice = await api.request('GET', '/api/v1/customers?page=1&page=2');
    expect([twice.status, codeOf(twice)]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('checks the media type before reading a body, and the size and JSON after', async () => {
    const api = harness();
    const plain = await api.request('POST', '/api/v1/quotes', { contentType: 'text/plain', body: '{}' });
    expect([plain.status, codeOf(plain), api.bodyReads()]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE', 0]);
    const missing = await api.request('POST', '/api/v1/quotes', { contentType: undefined });
    expect(missing.status).toBe(415);
    const large = await api.request('POST', '/api/v1/quotes', { readBody: () => Promise.reject(new BodyError(413, 'too large')) });
    expect([large.status, codeOf(large), large.headers['Connection']]).toEqual([413, 'PAYLOAD_TOO_LARGE', 'close']);
    expect(MAX_API_BODY_BYTES).toBe(1_000_000);
    for (const body of ['', '{"customerId":', 'not json', '{"a":1}{"b":2}']) {
      const response = await api.request('POST', '/api/v1/quotes', { body, contentType: 'Application/JSON; charset=utf-8' });
      expect([response.status, codeOf(response)], body).toEqual([400, 'INVALID_JSON']);
    }
    const latin1 = await api.request('POST', '/api/v1/quotes', { readBody: () => Promise.resolve(new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d])) });
    expect([latin1.status, codeOf(latin1)]).toEqual([400, 'INVALID_JSON']);
    // Valid JSON that is no quote is the model's to refuse; a leading byte order mark is dropped, as RFC 8259 allows.
    for (const body of ['[]', '\uFEFF{}']) {
      const response = await api.request('POST', '/api/v1/quotes', { body });
      expect([response.status, codeOf(response)], body).toEqual([400, 'VALIDATION_FAILED']);
    }
  });

  it('creates a quote with 201 and a Location that reads it back, and marks the data as changed', async () => {
    const api = harness();
    const body = JSON.stringify({ customerId: '10000000-0000-4000-8000-000000000002', lines: [{ skuId: '20000000-0000-4000-8000-000000000007', qty: 4, unitPrice: 14.95, taxRate: 0.15 }] });
    const created = await api.request('POST', '/api/v1/quotes', { body });
    expect(created.status).toBe(201);
    expect(created.changed).toBe(true);
    expect(created.headers['Location']).toBe('/api/v1/quotes/f0000000-0000-4000-8000-000000000001');
    expect(created.body).toMatchObject({ ref: 'Q-1043', customerId: '10000000-0000-4000-8000-000000000002', totals: { nett: 59.8, tax: 8.97, total: 68.77 } });
    const read = await api.request('GET', created.headers['Location']!);
    expect([read.status, read.changed]).toEqual([200, false]);
    expect(read.body).toEqual(created.body);
  });

  it('turns a fault of the emulator into a 500 SERVER_ERROR that keeps the rate-limit headers and carries the fault', async () => {
    const api = harness();
    const fault = new Error('store broke');
    api.services.run = () => Promise.reject(fault);
    const response = await api.request('GET', '/api/v1/customers');
    expect([response.status, codeOf(response), response.headers['X-RateLimit-Limit']]).toEqual([500, 'SERVER_ERROR', '60']);
    expect(response.fault).toBe(fault);
  });
});

import { describe, expect, it } from 'vitest';
import { apiErrorBody, API_ENDPOINTS, BridgeModelError, OTHER_TENANT_ID, parseFixtures, readyApiKey, resolveApiKeys, type Platform } from '../../src/platform/index.js';
import { ids, makePlatform } from './helpers.js';

/*
 * POST /api/v1/quotes and GET /api/v1/quotes/{id} on the model's side: the same rules as
 * quotes.create, the same quote list, one tenant.
 */

const AROHA = '10000000-0000-4000-8000-000000000001';
const OTHER_TENANT_QUOTE = '80000000-0000-4000-8000-000000000006';
const apiLine = (changes: Record<string, unknown> = {}) => ({ skuId: ids.product('SKIRT-MDF-90'), qty: 2, unitPrice: 12.45, ...changes });

function refusalOf(platform: Platform, body: unknown): [string, string][] {
  let error: unknown;
  try {
    platform.createApiQuote(body);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(BridgeModelError);
  expect((error as BridgeModelError).code).toBe('INVALID_ARGUMENT');
  expect((error as BridgeModelError).method).toBe('POST /api/v1/quotes');
  return (error as BridgeModelError).details.map((d) => [d.path, d.code]);
}

describe('a quote created over the REST API', () => {
  it('takes description and code from the product, the Self supplier, taxRate 0 unless given, and joins the quote list', async () => {
    const { platform, warnings } = makePlatform();
    const quote = platform.createApiQuote({
      customerId: AROHA.toUpperCase(),
      lines: [apiLine(), apiLine({ skuId: ids.product('HANDLE-BAR-160'), qty: 10, unitPrice: 14.95, taxRate: 0.15 })],
    });
    expect(quote).toEqual({
      id: 'f0000000-0000-4000-8000-000000000001',
      ref: 'Q-1043',
      status: 'Draft',
      date: '2025-07-01T10:00:00.000Z',
      customerId: AROHA,
      customerName: 'Aroha Tane',
      title: null,
      jobId: null,
      total: 196.83, // 24.90 + 149.50 + 22.425→22.43 tax
      lines: [
        { skuId: ids.product('SKIRT-MDF-90'), description: 'MDF skirting 90 mm', productCode: 'SKIRT-MDF-90', qty: 2, unitPrice: 12.45, taxRate: 0, supplierRef: 'T_SELF', supplierName: 'Self', nett: 24.9, tax: 0, total: 24.9 },
        expect.objectContaining({ productCode: 'HANDLE-BAR-160', nett: 149.5, tax: 22.43, total: 171.93 }),
      ],
      totals: { nett: 174.4, tax: 22.43, total: 196.83 },
    });
    expect(warnings).toEqual([]);
    expect((await platform.sdk.quotes.list()).items[0]).toMatchObject({ id: quote.id, ref: 'Q-1043', customerName: 'Aroha Tane', total: 196.83 });
    expect(platform.createdQuotes().map((q) => q.id)).toEqual([quote.id]);
    // One numbering for both ways of creating a quote.
    expect((await platform.sdk.quotes.create({ upsertByEmail: false, lines: [{ qty: 1, unitPrice: 1, taxRate: 0 }] })).ref).toBe('Q-1044');
  });

  it('lists every problem at once: customer, lines, and each line field, with quotes.create ranges', () => {
    const { platform } = makePlatform();
    expect(refusalOf(platform, { lines: [] })).toEqual([
      ['customerId', 'REQUIRED'],
      ['lines', 'EMPTY_LIST'],
    ]);
    expect(refusalOf(platform, { customerId: AROHA, lines: Array.from({ length: 201 }, () => apiLine()) })).toEqual([['lines', 'TOO_MANY_ITEMS']]);
    expect(
      refusalOf(platform, {
        customerId: 42,
        lines: [
          apiLine({ qty: 0 }),
          apiLine({ qty: 10_001, unitPrice: -1 }),
          apiLine({ unitPrice: 1_000_001, taxRate: -0.1 }),
          apiLine({ skuId: undefined, qty: '2' }),
          'a line',
        ],
      }),
    ).toEqual([
      ['customerId', 'INVALID_TYPE'],
      ['lines[0].qty', 'OUT_OF_RANGE'],
      ['lines[1].qty', 'OUT_OF_RANGE'],
      ['lines[1].unitPrice', 'OUT_OF_RANGE'],
      ['lines[2].unitPrice', 'OUT_OF_RANGE'],
      ['lines[2].taxRate', 'OUT_OF_RANGE'],
      ['lines[3].skuId', 'REQUIRED'],
      ['lines[3].qty', 'INVALID_TYPE'],
      ['lines[4]', 'INVALID_TYPE'],
    ]);
    // The edges themselves are allowed, as in quotes.create.
    expect(platform.createApiQuote({ customerId: AROHA, lines: [apiLine({ qty: 10_000, unitPrice: 1_000_000 }), apiLine({ unitPrice: 0 })] }).total).toBe(10_000_000_000);
    expect(refusalOf(platform, 'customer')).toEqual([['', 'INVALID_TYPE']]);
  });

  it('accepts only a customer and products of the tenant', () => {
    const { platform } = makePlatform();
    const otherTenantCustomer = '10000000-0000-4000-8000-000000000009';
    const otherTenantProduct = '20000000-0000-4000-8000-000000000013'; // CAB-BASE-600 of the other tenant
    expect(refusalOf(platform, { customerId: otherTenantCustomer, lines: [apiLine({ skuId: otherTenantProduct }), apiLine({ skuId: 'CAB-BASE-600' })] })).toEqual([
      ['customerId', 'UNKNOWN_ID'],
      ['lines[0].skuId', 'UNKNOWN_ID'],
      ['lines[1].skuId', 'UNKNOWN_ID'],
    ]);
    expect(platform.createdQuotes()).toEqual([]);
  });

  it('warns about unknown fields and a tax rate that looks like a percentage, and still creates the quote', () => {
    const { platform, warnings } = makePlatform();
    platform.createApiQuote({ customerId: AROHA, title: 'x', lines: [apiLine({ taxRate: 15, quantity: 3 })] });
    expect(warnings.map((w) => [w.code, w.path, w.method])).toEqual([
      ['UNKNOWN_FIELD', 'title', 'POST /api/v1/quotes'],
      ['UNKNOWN_FIELD', 'lines[0].quantity', 'POST /api/v1/quotes'],
      ['TAX_RATE_LOOKS_LIKE_PERCENT', 'lines[0].taxRate', 'POST /api/v1/quotes'],
    ]);
    expect(warnings[0]!.message).toContain('the REST API');
  });
});

describe('reading one quote', () => {
  it('finds quotes made over REST and by quotes.create, with their lines, in any letter case', async () => {
    const { platform } = makePlatform();
    const made = platform.createApiQuote({ customerId: AROHA, lines: [apiLine()] });
    expect(platform.findApiQuote(made.id.toUpperCase())).toEqual(made);
    const bridge = await platform.sdk.quotes.create({ upsertByEmail: false, customerName: 'Walk-in', lines: [{ qty: 1, unitPrice: 10, taxRate: 0.15, productCode: 'X-1' }] });
    expect(platform.findApiQuote(bridge.id)).toMatchObject({
      id: bridge.id,
      customerId: null,
      customerName: 'Walk-in',
      lines: [{ skuId: null, productCode: 'X-1', qty: 1, nett: 10, tax: 1.5, total: 11.5 }],
      totals: { nett: 10, tax: 1.5, total: 11.5 },
    });
  });

  it('gives a built-in quote its lines, priced, and totals that add up to its total in the list', async () => {
    const { platform } = makePlatform();
    const listed = (await platform.sdk.quotes.list({ pageSize: 50 })).items;
    for (const row of listed) {
      const quote = platform.findApiQuote(row.id)!;
      expect(quote.lines.length, row.ref).toBeGreaterThan(0);
      expect(quote.totals?.total, row.ref).toBe(row.total);
      expect(quote.total).toBe(row.total);
      // Every line's amounts add up, and so do the lines.
      for (const line of quote.lines) expect(Math.round((line.nett + line.tax) * 100)).toBe(Math.round(line.total * 100));
      expect(Math.round(quote.lines.reduce((sum, line) => sum + line.total, 0) * 100)).toBe(Math.round(row.total * 100));
    }
    const q1037 = platform.findApiQuote('80000000-0000-4000-8000-000000000001')!;
    expect(q1037).toMatchObject({ ref: 'Q-1037', status: 'Accepted', customerName: 'Li Wei', total: 12650.75, totals: { nett: 11000.65, tax: 1650.1, total: 12650.75 } });
    expect(q1037.lines[0]).toEqual({
      skuId: ids.product('CAB-BASE-600'),
      description: 'Base cabinet 600 mm',
      productCode: 'CAB-BASE-600',
      qty: 6,
      unitPrice: 365.5,
      taxRate: 0.15,
      supplierRef: 'T_SELF',
      supplierName: 'Self',
      nett: 2193,
      tax: 328.95,
      total: 2521.95,
    });
    expect(q1037.lines[2]).toMatchObject({ productCode: 'BENCH-STONE-20', supplierRef: 'STONEWORKS', supplierName: 'Stoneworks NZ' });
  });

  it('gives a fixture quote without lines no lines and null totals, and nothing for another tenant or an unknown id', async () => {
    const file = { quotes: [{ id: '80000000-0000-4000-8000-000000000901', ref: 'Q-0901', customerName: 'Fixture', total: 99.5, status: 'Sent', date: '2025-02-01T00:00:00.000Z' }] };
    const { platform } = makePlatform({ fixtures: await parseFixtures(JSON.stringify(file), 'fixtures.json') });
    expect(platform.findApiQuote('80000000-0000-4000-8000-000000000901')).toEqual({
      id: '80000000-0000-4000-8000-000000000901',
      ref: 'Q-0901',
      status: 'Sent',
      date: '2025-02-01T00:00:00.000Z',
      customerId: null,
      customerName: 'Fixture',
      title: null,
      jobId: null,
      total: 99.5,
      lines: [],
      totals: null,
    });
    expect(platform.findApiQuote(OTHER_TENANT_QUOTE)).toBeUndefined();
    expect(platform.findApiQuote('nope')).toBeUndefined();
    // Seen from the other tenant, it is there.
    const other = makePlatform({ context: { tenantId: OTHER_TENANT_ID } }).platform;
    expect(other.findApiQuote(OTHER_TENANT_QUOTE)?.ref).toBe('Q-5001');
  });
});

describe('REST error bodies', () => {
  const problem = (path: string, message: string) => ({ path, code: 'REQUIRED', message });

  it('no problems: the message alone', () => {
    expect(apiErrorBody('NOT_FOUND', 'No quote of the tenant has this id')).toEqual({ error: { code: 'NOT_FOUND', message: 'No quote of the tenant has this id' } });
  });

  it('one problem is said in the message, after its path when it has one; details only for several', () => {
    expect(apiErrorBody('VALIDATION_FAILED', 'The body breaks a rule', [problem('customerId', 'is required')])).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'The body breaks a rule: customerId is required [REQUIRED]' },
    });
    expect(apiErrorBody('VALIDATION_FAILED', 'The body breaks a rule', [problem('', 'the body must be a JSON object')])).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'The body breaks a rule: the body must be a JSON object [REQUIRED]' },
    });
    const two = [problem('customerId', 'is required'), problem('lines', 'is required')];
    expect(apiErrorBody('VALIDATION_FAILED', 'The body breaks rules', two)).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'The body breaks rules (2 problems): customerId is required; lines is required', details: two },
    });
  });
});

describe('the API key to offer first', () => {
  it('the first key that may call every endpoint, else the first key, else none', () => {
    const keys = resolveApiKeys([
      { key: 'reports-key-001', scopes: ['GET /api/v1/quotes'] },
      { key: 'full-key-0001' },
      { key: 'full-key-0002', scopes: [...API_ENDPOINTS] },
    ]);
    expect(readyApiKey(keys)).toBe('full-key-0001');
    expect(readyApiKey([keys[0]!])).toBe('reports-key-001');
    expect(readyApiKey(resolveApiKeys([{ key: 'almost-all-01', scopes: API_ENDPOINTS.slice(1) }]))).toBe('almost-all-01');
    expect(readyApiKey([])).toBeNull();
  });
});

describe('REST quote details', () => {
  it('a null customerId is missing, and a REST quote whose total no number holds exactly is refused', () => {
    const { platform } = makePlatform();
    const refusal = (body: unknown) => {
      try {
        platform.createApiQuote(body);
      } catch (error) {
        return (error as BridgeModelError).details.map((p) => `${p.path}: ${p.message} [${p.code}]`);
      }
      throw new Error('accepted');
    };
    expect(refusal({ customerId: null, lines: [apiLine()] })).toEqual(['customerId: is required [REQUIRED]']);
    const huge = apiLine({ qty: 10_000, unitPrice: 1_000_000, taxRate: 5000 });
    expect(refusal({ customerId: AROHA, lines: [huge, huge] })).toEqual(['lines: the quote total is too large to be represented exactly [OUT_OF_RANGE]']);
  });
});

import { describe, expect, it } from 'vitest';
import type { BridgeCreateQuoteRequest, BridgeQuoteLineRequest } from '../../src/bridge/types.js';
import { DEFAULT_FIXTURES, OTHER_TENANT_ID } from '../../src/platform/index.js';
import { makePlatform, problemsOf, rejectionOf, warningCodes } from './helpers.js';

const quoteLine = (changes: Partial<Record<keyof BridgeQuoteLineRequest, unknown>> = {}) =>
  ({ qty: 1, unitPrice: 10, taxRate: 0.15, ...changes }) as BridgeQuoteLineRequest;
const request = (changes: Partial<Record<keyof BridgeCreateQuoteRequest, unknown>> = {}) =>
  ({ upsertByEmail: false, customerName: 'Walk-in', lines: [quoteLine()], ...changes }) as BridgeCreateQuoteRequest;

describe('quotes.create result', () => {
  it('returns id, ref, total and url, and adds the quote to the list', async () => {
    const { platform } = makePlatform({ toolType: 'standalone' });
    const result = await platform.sdk.quotes.create(
      request({
        customerName: 'Ana Kumar',
        title: 'Laundry',
        lines: [quoteLine({ qty: 2, unitPrice: 19.99 }), quoteLine({ qty: 3, unitPrice: 10.1, description: 'Shelf', productCode: 'SH-1' })],
      }),
    );
    // 39.98 + 5.997→6.00 tax; 30.30 + 4.545→4.55 tax: 70.28 nett + 10.55 tax
    expect(result).toEqual({ id: 'f0000000-0000-4000-8000-000000000001', ref: 'Q-1043', total: 80.83, url: '/quotes/f0000000-0000-4000-8000-000000000001' });

    const listed = await platform.sdk.quotes.list();
    expect(listed.totalCount).toBe(6);
    expect(listed.items[0]).toEqual({
      id: result.id,
      ref: 'Q-1043',
      customerName: 'Ana Kumar',
      total: 80.83,
      status: 'Draft',
      date: '2025-07-01T10:00:00.000Z',
    });
    const [saved] = platform.createdQuotes();
    expect(saved).toMatchObject({ title: 'Laundry', customerId: null, totals: { nett: 70.28, tax: 10.55, total: 80.83 } });
    expect(saved!.lines[1]).toMatchObject({ description: 'Shelf', productCode: 'SH-1', nett: 30.3, tax: 4.55, total: 34.85 });
  });

  it('numbers quotes on from the highest Q- reference, and keeps a custom quoteRef', async () => {
    const { platform } = makePlatform();
    expect((await platform.sdk.quotes.create(request())).ref).toBe('Q-1043');
    expect((await platform.sdk.quotes.create(request({ quoteRef: 'KCK-2025-17' }))).ref).toBe('KCK-2025-17');
    expect((await platform.sdk.quotes.create(request({ quoteRef: '   ' }))).ref).toBe('Q-1044');
  });
});

describe('quotes.create validation (§4.2 rules, §7.4)', () => {
  it('needs at least one line and at most 200', async () => {
    const { platform } = makePlatform();
    expect(problemsOf(await rejectionOf(platform.sdk.quotes.create(request({ lines: [] })), 'INVALID_ARGUMENT'))).toEqual([['lines', 'EMPTY_LIST']]);
    const tooMany = Array.from({ length: 201 }, () => quoteLine());
    expect(problemsOf(await rejectionOf(platform.sdk.quotes.create(request({ lines: tooMany })), 'INVALID_ARGUMENT'))).toEqual([
      ['lines', 'TOO_MANY_ITEMS'],
    ]);
    expect(problemsOf(await rejectionOf(platform.call('quotes.create', [{ upsertByEmail: false }]), 'INVALID_ARGUMENT'))).toEqual([
      ['lines', 'REQUIRED'],
    ]);
    const result = await platform.sdk.quotes.create(request({ lines: tooMany.slice(1) }));
    expect(result.total).toBe(2300); // 200 × (10 + 1.50)
  });

  it.each([
    ['qty', 0, 'OUT_OF_RANGE'],
    ['qty', -1, 'OUT_OF_RANGE'],
    ['qty', 10_000.01, 'OUT_OF_RANGE'],
    ['qty', '2', 'INVALID_TYPE'],
    ['qty', null, 'REQUIRED'],
    ['unitPrice', -0.01, 'OUT_OF_RANGE'],
    ['unitPrice', 1_000_000.01, 'OUT_OF_RANGE'],
    ['unitPrice', Number.NaN, 'INVALID_TYPE'],
    ['unitPrice', undefined, 'REQUIRED'],
    ['taxRate', undefined, 'REQUIRED'],
    ['taxRate', -0.15, 'OUT_OF_RANGE'],
    ['supplierRef', 7, 'INVALID_TYPE'],
  ])('rejects %s = %s with %s', async (field, value, code) => {
    const { platform } = makePlatform();
    const error = await rejectionOf(platform.sdk.quotes.create(request({ lines: [quoteLine(), quoteLine({ [field]: value })] })), 'INVALID_ARGUMENT');
    expect(error.method).toBe('quotes.create');
    expect(error.details).toEqual([expect.objectContaining({ path: `lines[1].${field}`, index: 1, field, code })]);
  });

  it('accepts the limits themselves', async () => {
    const { platform } = makePlatform();
    const result = await platform.sdk.quotes.create(request({ lines: [quoteLine({ qty: 10_000, unitPrice: 0 }), quoteLine({ qty: 0.001, unitPrice: 1_000_000, taxRate: 0 })] }));
    expect(result.total).toBe(1000);
  });

  it('needs customerEmail when upsertByEmail is true', async () => {
    const { platform } = makePlatform();
    for (const customerEmail of [undefined, null, '', '  ']) {
      const error = await rejectionOf(platform.sdk.quotes.create(request({ upsertByEmail: true, customerEmail })), 'INVALID_ARGUMENT');
      expect(problemsOf(error)).toEqual([['customerEmail', 'REQUIRED']]);
    }
  });

  it('reports every problem of the request together and saves nothing', async () => {
    const { platform } = makePlatform();
    const before = await platform.sdk.quotes.list();
    const error = await rejectionOf(
      platform.call('quotes.create', [
        { upsertByEmail: 'yes', title: 5, lines: [{ qty: 0, unitPrice: -1, taxRate: 0.15 }, 'line', { qty: 1, unitPrice: 1 }] },
      ]),
      'INVALID_ARGUMENT',
    );
    expect(problemsOf(error)).toEqual([
      ['title', 'INVALID_TYPE'],
      ['upsertByEmail', 'INVALID_TYPE'],
      ['lines[0].qty', 'OUT_OF_RANGE'],
      ['lines[0].unitPrice', 'OUT_OF_RANGE'],
      ['lines[1]', 'INVALID_TYPE'],
      ['lines[2].taxRate', 'REQUIRED'],
    ]);
    expect(await platform.sdk.quotes.list()).toEqual(before);
    expect(platform.createdQuotes()).toEqual([]);
  });

  it('rejects a request that is not an object', async () => {
    const { platform } = makePlatform();
    expect(problemsOf(await rejectionOf(platform.call('quotes.create', ['{}']), 'INVALID_ARGUMENT'))).toEqual([['request', 'INVALID_TYPE']]);
  });

  it('takes taxRate as a fraction, warning when it looks like a percentage', async () => {
    const { platform, warnings } = makePlatform();
    const result = await platform.sdk.quotes.create(request({ lines: [quoteLine({ taxRate: 15 })] }));
    expect(result.total).toBe(160); // 10 nett + 1500% tax
    expect(warningCodes(warnings)).toEqual([['lines[0].taxRate', 'TAX_RATE_LOOKS_LIKE_PERCENT']]);
  });

  it('treats a missing upsertByEmail as false, with a warning', async () => {
    const { platform, warnings } = makePlatform();
    await platform.call('quotes.create', [{ customerName: 'X', lines: [quoteLine()] }]);
    expect(warningCodes(warnings)).toEqual([['upsertByEmail', 'UPSERT_BY_EMAIL_MISSING']]);
  });

  it('warns about unknown fields, naming them', async () => {
    const { platform, warnings } = makePlatform();
    await platform.call('quotes.create', [{ upsertByEmail: false, lines: [{ qty: 1, unitPrice: 1, taxRate: 0, discount: 5 }], customer: 'x' }]);
    expect(warningCodes(warnings)).toEqual([
      ['customer', 'UNKNOWN_FIELD'],
      ['lines[0].discount', 'UNKNOWN_FIELD'],
    ]);
  });
});

describe('quotes.create customers (upsertByEmail)', () => {
  it('matches an existing customer by e-mail, ignoring case', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.create(request({ upsertByEmail: true, customerEmail: ' olivia.barnes@example.COM', customerName: 'O. Barnes' }));
    expect((await platform.sdk.customers.list()).totalCount).toBe(8);
    expect(platform.createdQuotes()[0]).toMatchObject({ customerId: '10000000-0000-4000-8000-000000000008', customerName: 'Olivia Barnes' });
  });

  it('creates the customer when none matches', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.create(request({ upsertByEmail: true, customerEmail: 'kiri@example.nz', customerName: 'Kiri Hona', customerPhone: '021 555' }));
    const customers = await platform.sdk.customers.list();
    expect(customers.totalCount).toBe(9);
    expect(customers.items.at(-1)).toEqual({ id: 'f0000000-0000-4000-8000-000000000001', name: 'Kiri Hona', email: 'kiri@example.nz', phone: '021 555' });
    expect((await platform.sdk.quotes.list()).items[0]!.customerName).toBe('Kiri Hona');
  });

  it('without upsertByEmail, uses customerName as given and creates no customer', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.create(request({ customerName: 'Aroha Tane', customerEmail: 'new@example.nz' }));
    expect((await platform.sdk.customers.list()).totalCount).toBe(8);
    expect(platform.createdQuotes()[0]).toMatchObject({ customerId: null, customerName: 'Aroha Tane', customerEmail: 'new@example.nz' });
  });
});

describe('quotes.create supplierRef and jobId', () => {
  it('resolves by reference, then by name, active suppliers only, ignoring case as addLines does; else Self', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.create(
      request({
        lines: [
          quoteLine({ supplierRef: 'STONEWORKS' }),
          quoteLine({ supplierRef: 'Mainfreight' }),
          quoteLine({ supplierRef: 'TOTARA-TIMBER' }),
          quoteLine({ supplierRef: 'stoneworks' }),
          quoteLine({ supplierRef: 'Nobody' }),
          quoteLine({ supplierRef: null }),
          quoteLine(),
        ],
      }),
    );
    expect(platform.createdQuotes()[0]!.lines.map((l) => l.supplierRef)).toEqual(['STONEWORKS', 'MAINFREIGHT', 'T_SELF', 'STONEWORKS', 'T_SELF', 'T_SELF', 'T_SELF']);
    expect(warningCodes(warnings)).toEqual([
      ['lines[2].supplierRef', 'SUPPLIER_NOT_RESOLVED'],
      ['lines[4].supplierRef', 'SUPPLIER_NOT_RESOLVED'],
    ]);
  });

  it('keeps jobId and warns when it is not an active job of the tenant', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.create(request({ jobId: '70000000-0000-4000-8000-000000000001' }));
    expect(warnings).toEqual([]);
    await platform.sdk.quotes.create(request({ jobId: '70000000-0000-4000-8000-000000000003' })); // closed
    await platform.sdk.quotes.create(request({ jobId: 'not-a-job' }));
    expect(warningCodes(warnings)).toEqual([
      ['jobId', 'JOB_NOT_FOUND'],
      ['jobId', 'JOB_NOT_FOUND'],
    ]);
    expect(platform.createdQuotes().map((q) => q.jobId)).toEqual([
      '70000000-0000-4000-8000-000000000001',
      '70000000-0000-4000-8000-000000000003',
      'not-a-job',
    ]);
  });
});

describe('quotes.create details', () => {
  it('refuses a quote whose total no number holds exactly; exactly MAX_SAFE_INTEGER cents is allowed', async () => {
    // 1 cent of nett plus a tax rate that brings the total to the limit, or one cent past it.
    const totalOf = (taxRate: number) => request({ lines: [quoteLine({ qty: 1, unitPrice: 0.01, taxRate })] });
    const { platform } = makePlatform();
    expect((await platform.sdk.quotes.create(totalOf(Number.MAX_SAFE_INTEGER - 1))).total).toBe(Number.MAX_SAFE_INTEGER / 100);
    const error = await rejectionOf(platform.sdk.quotes.create(totalOf(Number.MAX_SAFE_INTEGER)), 'INVALID_ARGUMENT');
    expect(error.details.map((p) => `${p.path}: ${p.message} [${p.code}]`)).toEqual(['lines: the quote total is too large to be represented exactly [OUT_OF_RANGE]']);
    // Lines that each fit but not together.
    const half = quoteLine({ qty: 10_000, unitPrice: 1_000_000, taxRate: 5000 });
    expect(problemsOf(await rejectionOf(platform.sdk.quotes.create(request({ lines: [half, half] })), 'INVALID_ARGUMENT'))).toEqual([['lines', 'OUT_OF_RANGE']]);
  });

  it('null upsertByEmail counts as missing; an e-mail of the wrong type is only that problem', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.create(request({ upsertByEmail: null }));
    expect(warningCodes(warnings)).toEqual([['upsertByEmail', 'UPSERT_BY_EMAIL_MISSING']]);
    const error = await rejectionOf(platform.sdk.quotes.create(request({ upsertByEmail: true, customerEmail: 5 })), 'INVALID_ARGUMENT');
    expect(problemsOf(error)).toEqual([['customerEmail', 'INVALID_TYPE']]);
  });

  it("another tenant's job is no job of this tenant", async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.create(request({ jobId: '70000000-0000-4000-8000-000000000006' }));
    expect(warningCodes(warnings)).toEqual([['jobId', 'JOB_NOT_FOUND']]);
  });

  it('numbers on from references that are exactly Q- and digits, nothing before or after', async () => {
    const quote = { customerName: 'X', total: 1, status: 'Draft' as const, date: '2025-06-01T00:00:00.000Z' };
    const quotes = [
      ...DEFAULT_FIXTURES.quotes,
      { ...quote, id: '80000000-0000-4000-8000-0000000000a1', ref: 'OLD-Q-9000' },
      { ...quote, id: '80000000-0000-4000-8000-0000000000a2', ref: 'Q-8000-B' },
    ];
    const { platform } = makePlatform({ fixtures: { ...DEFAULT_FIXTURES, quotes } });
    expect((await platform.sdk.quotes.create(request())).ref).toBe('Q-1043');
  });

  it('without a name or a customer the quote has an empty customer name', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.create(request({ customerName: undefined }));
    expect(platform.createdQuotes()[0]!.customerName).toBe('');
    expect((await platform.sdk.quotes.list()).items[0]!.customerName).toBe('');
  });
});

describe('quotes.create customers: details', () => {
  it("a new customer without a name is named by the e-mail, trimmed, and has no phone", async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.create(request({ upsertByEmail: true, customerEmail: '  kiri@example.nz ', customerName: undefined }));
    expect((await platform.sdk.customers.list()).items.at(-1)).toEqual({ id: 'f0000000-0000-4000-8000-000000000001', name: 'kiri@example.nz', email: 'kiri@example.nz', phone: '' });
    expect(platform.createdQuotes()[0]).toMatchObject({ customerName: 'kiri@example.nz', customerEmail: 'kiri@example.nz', customerPhone: '' });
  });

  it("a matched customer's own e-mail may carry spaces; its phone wins over the request's", async () => {
    const spaced = { id: '1a000000-0000-4000-8000-0000000000b1', name: 'Spaced', email: ' spaced@example.nz ', phone: '+64 9 555 0199' };
    const { platform } = makePlatform({ fixtures: { ...DEFAULT_FIXTURES, customers: [...DEFAULT_FIXTURES.customers, spaced] } });
    await platform.sdk.quotes.create(request({ upsertByEmail: true, customerEmail: 'SPACED@example.nz', customerPhone: '000' }));
    expect(platform.createdQuotes()[0]).toMatchObject({ customerId: spaced.id, customerName: 'Spaced', customerEmail: ' spaced@example.nz ', customerPhone: '+64 9 555 0199' });
  });

  it("another tenant's customer with the same e-mail is not matched: a new one is made", async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.create(request({ upsertByEmail: true, customerEmail: 'someone@othertenant.example' }));
    expect(platform.createdQuotes()[0]!.customerId).toBe('f0000000-0000-4000-8000-000000000001');
    expect((await platform.sdk.customers.list()).totalCount).toBe(9);
  });

  it('a REST quote is for the customer it names, not the first of the tenant', () => {
    const { platform } = makePlatform();
    const li = '10000000-0000-4000-8000-000000000004';
    const quote = platform.createApiQuote({ customerId: li, lines: [{ skuId: '20000000-0000-4000-8000-000000000010', qty: 1, unitPrice: 1 }] });
    expect(quote).toMatchObject({ customerId: li, customerName: 'Li Wei' });
    expect(platform.createdQuotes()[0]).toMatchObject({ customerEmail: 'li.wei@example.com', customerPhone: '+64 22 555 0104' });
  });

  it("a REST quote is for the tenant's own customer even when another tenant's row, listed first, has the same id", () => {
    const li = '10000000-0000-4000-8000-000000000004';
    const twin = { id: li, name: 'Twin', email: 'twin@othertenant.example', phone: '', tenantId: OTHER_TENANT_ID };
    const { platform } = makePlatform({ fixtures: { ...DEFAULT_FIXTURES, customers: [twin, ...DEFAULT_FIXTURES.customers] } });
    const quote = platform.createApiQuote({ customerId: li, lines: [{ skuId: '20000000-0000-4000-8000-000000000010', qty: 1, unitPrice: 1 }] });
    expect(quote).toMatchObject({ customerId: li, customerName: 'Li Wei' });
    expect(platform.createdQuotes()[0]).toMatchObject({ customerEmail: 'li.wei@example.com', customerPhone: '+64 22 555 0104' });
  });
});

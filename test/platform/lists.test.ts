import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES, OTHER_TENANT_ID } from '../../src/platform/index.js';
import { makePlatform, problemsOf, rejectionOf, warningCodes } from './helpers.js';

describe('paging (decisions.md list defaults)', () => {
  it('defaults to page 1 of 50 and counts rows before paging', async () => {
    const { platform } = makePlatform();
    const result = await platform.sdk.customers.list();
    expect(result.page).toBe(1);
    expect(result.pageSize).toBe(50);
    expect(result.totalCount).toBe(8);
    expect(result.items).toHaveLength(8);
    expect(Object.keys(result.items[0]!).sort()).toEqual(['email', 'id', 'name', 'phone']);
  });

  it('cuts pages and returns an empty page past the end', async () => {
    const { platform } = makePlatform();
    const third = await platform.sdk.products.list({ page: 3, pageSize: 5 });
    expect(third).toMatchObject({ page: 3, pageSize: 5, totalCount: 12 });
    expect(third.items.map((p) => p.sku)).toEqual(['LED-STRIP-WW', 'PANEL-END-720']);
    const beyond = await platform.sdk.products.list({ page: 4, pageSize: 5 });
    expect(beyond.items).toEqual([]);
    expect(beyond.totalCount).toBe(12);
  });

  it('has no upper limit on pageSize, so a SKU map fits in one call', async () => {
    const { platform } = makePlatform();
    const all = await platform.sdk.products.list({ pageSize: 100_000 });
    expect(all.items).toHaveLength(12);
    expect(Object.keys(all.items[0]!).sort()).toEqual(['id', 'name', 'price', 'sku', 'unit']);
  });

  it('rejects page and pageSize below 1, fractions, and non-numbers, all at once', async () => {
    const { platform } = makePlatform();
    const error = await rejectionOf(platform.sdk.customers.list({ page: 0, pageSize: 1.5 }), 'INVALID_ARGUMENT');
    expect(error.method).toBe('customers.list');
    expect(problemsOf(error)).toEqual([
      ['page', 'OUT_OF_RANGE'],
      ['pageSize', 'NOT_AN_INTEGER'],
    ]);
    for (const bad of ['2', Number.NaN, Number.POSITIVE_INFINITY, true]) {
      const e = await rejectionOf(platform.call('jobs.list', [{ page: bad }]), 'INVALID_ARGUMENT');
      expect(problemsOf(e)).toEqual([['page', 'INVALID_TYPE']]);
    }
    const negative = await rejectionOf(platform.sdk.quotes.list({ pageSize: -5 }), 'INVALID_ARGUMENT');
    expect(problemsOf(negative)).toEqual([['pageSize', 'OUT_OF_RANGE']]);
  });

  it('rejects options that are not an object, and treats null as no options', async () => {
    const { platform } = makePlatform();
    for (const bad of ['x', 5, [1]]) {
      const error = await rejectionOf(platform.call('customers.list', [bad]), 'INVALID_ARGUMENT');
      expect(problemsOf(error)).toEqual([['options', 'INVALID_TYPE']]);
    }
    const result = (await platform.call('customers.list', [null])) as { page: number };
    expect(result.page).toBe(1);
  });

  it('warns about unknown options such as codes on a list that does not filter by code', async () => {
    const { platform, warnings } = makePlatform();
    const result = await platform.call('customers.list', [{ codes: ['X'], pagesize: 2 }]);
    expect((result as { totalCount: number; pageSize: number }).pageSize).toBe(50);
    expect(warningCodes(warnings)).toEqual([
      ['codes', 'UNKNOWN_FIELD'],
      ['pagesize', 'UNKNOWN_FIELD'],
    ]);
  });
});

describe('template lists (list rules 1–4)', () => {
  it('return only the active rows of the current tenant', async () => {
    const { platform } = makePlatform();
    const tasks = await platform.sdk.taskTemplates.list();
    expect(tasks.totalCount).toBe(7);
    expect(tasks.items.map((t) => t.code)).not.toContain('T_LEGACY_ASSEMBLY');
    expect(tasks.items.filter((t) => t.code === 'T_DEFAULT_INSTALLATION_TASK')).toHaveLength(1);
    expect(Object.keys(tasks.items[0]!).sort()).toEqual(['code', 'id', 'name']);

    const costs = await platform.sdk.jobCostTemplates.list();
    expect(costs.items.map((t) => t.code)).not.toContain('SKIP-HIRE');
    expect(costs.items.map((t) => t.code)).not.toContain('FREIGHT');
  });

  it('orders job cost templates by cost code, before paging', async () => {
    const { platform } = makePlatform();
    const all = await platform.sdk.jobCostTemplates.list();
    expect(all.items.map((t) => t.code)).toEqual(['APPLIANCES', 'CHECK-MEASURE', 'CONSENT', 'DISPOSAL', 'SHIPPING', 'TRAVEL']);
    expect(Object.keys(all.items[0]!).sort()).toEqual(['code', 'id', 'name', 'type']);
    const second = await platform.sdk.jobCostTemplates.list({ page: 2, pageSize: 2 });
    expect(second.items.map((t) => t.code)).toEqual(['CONSENT', 'DISPOSAL']);
  });

  it('with codes: every active match on one page, paging ignored, each row once, exact codes only', async () => {
    const { platform, warnings } = makePlatform();
    const result = await platform.sdk.jobCostTemplates.list({
      codes: ['TRAVEL', 'SHIPPING', 'SKIP-HIRE', 'FREIGHT', 'shipping', 'NOPE', 'TRAVEL', 'DISPOSAL', 'CHECK-MEASURE'],
      page: 9,
      pageSize: 1,
    });
    expect(result.items.map((t) => t.code)).toEqual(['CHECK-MEASURE', 'DISPOSAL', 'SHIPPING', 'TRAVEL']);
    expect(result).toMatchObject({ totalCount: 4, page: 1, pageSize: 4 });
    expect(warningCodes(warnings)).toEqual([
      ['page', 'FIELD_IGNORED'],
      ['pageSize', 'FIELD_IGNORED'],
    ]);
  });

  it('does not check paging values it ignores', async () => {
    const { platform } = makePlatform();
    const result = await platform.call('taskTemplates.list', [{ codes: ['T_TILING'], page: -1, pageSize: 'x' }]);
    expect((result as { totalCount: number }).totalCount).toBe(1);
  });

  it('with an empty codes array, nothing matches', async () => {
    const { platform } = makePlatform();
    expect((await platform.sdk.taskTemplates.list({ codes: [] })).items).toEqual([]);
  });

  it('rejects codes that are not an array of strings', async () => {
    const { platform } = makePlatform();
    const notArray = await rejectionOf(platform.call('taskTemplates.list', [{ codes: 'T_TILING' }]), 'INVALID_ARGUMENT');
    expect(problemsOf(notArray)).toEqual([['codes', 'INVALID_TYPE']]);
    const mixed = await rejectionOf(platform.call('taskTemplates.list', [{ codes: ['T_TILING', 4, null] }]), 'INVALID_ARGUMENT');
    expect(problemsOf(mixed)).toEqual([
      ['codes[1]', 'INVALID_TYPE'],
      ['codes[2]', 'INVALID_TYPE'],
    ]);
  });

  it('resolves codes to GUIDs that link quote lines', async () => {
    const { platform } = makePlatform();
    const [tiling] = (await platform.sdk.taskTemplates.list({ codes: ['T_TILING'] })).items;
    const [card] = (await platform.sdk.costItems.list({ codes: ['CARD-FEE'] })).items;
    const [shipping] = (await platform.sdk.jobCostTemplates.list({ codes: ['SHIPPING'] })).items;
    await platform.sdk.quotes.addLines([
      { qty: 1, unitPrice: 55, taxRate: 0.15, lineType: 'task', linkedItemId: tiling!.id },
      { qty: 1, unitPrice: 2.5, taxRate: 0.15, lineType: 'cost', linkedItemId: card!.id },
      { qty: 1, unitPrice: 85, taxRate: 0.15, lineType: 'jobcost', linkedItemId: shipping!.id },
    ]);
    const lines = platform.editorView().blocks.flatMap((b) => b.lines);
    expect(lines.map((l) => [l.lineType, l.linkedCode])).toEqual([
      ['task', 'T_TILING'],
      ['cost', 'CARD-FEE'],
      ['jobcost', 'SHIPPING'],
    ]);
  });

  it('costItems.list still answers, with a deprecation warning', async () => {
    const { platform, warnings } = makePlatform();
    const result = await platform.sdk.costItems.list();
    expect(result.items.map((c) => c.code)).toEqual(['CARD-FEE', 'TRAVEL-KM']);
    expect(warningCodes(warnings)).toEqual([[null, 'DEPRECATED']]);
  });
});

describe('jobs and quotes', () => {
  it('jobs.list returns only active jobs of the tenant', async () => {
    const { platform } = makePlatform();
    const jobs = await platform.sdk.jobs.list();
    expect(jobs.items.map((j) => j.ref)).toEqual(['J-2031', 'J-2032', 'J-2035', 'J-2036']);
    expect(Object.keys(jobs.items[0]!).sort()).toEqual(['customerIdGuid', 'customerName', 'id', 'ref', 'status']);
  });

  it('quotes.list returns the tenant quotes, newest first', async () => {
    const { platform } = makePlatform();
    const quotes = await platform.sdk.quotes.list();
    expect(quotes.items.map((q) => q.ref)).toEqual(['Q-1041', 'Q-1039', 'Q-1038', 'Q-1037', 'Q-1040']);
    expect(Object.keys(quotes.items[0]!).sort()).toEqual(['customerName', 'date', 'id', 'ref', 'status', 'total']);
  });
});

describe('tenants', () => {
  it('a context override to another tenant shows only that tenant', async () => {
    const { platform } = makePlatform({ context: { tenantId: OTHER_TENANT_ID, tenantName: 'Other' } });
    expect((await platform.sdk.context.get()).tenantName).toBe('Other');
    expect((await platform.sdk.customers.list()).items.map((c) => c.name)).toEqual(['Other Tenant Customer']);
    expect((await platform.sdk.products.list()).items.map((p) => p.price)).toEqual([999]);
    expect((await platform.sdk.jobCostTemplates.list()).items.map((t) => t.code)).toEqual(['FREIGHT']);
    expect((await platform.sdk.quotes.list()).items.map((q) => q.ref)).toEqual(['Q-5001']);
  });

  it('context.get returns the fixture context with overrides', async () => {
    const { platform } = makePlatform({ context: { userRole: 'H_Field', cultureCode: 'en-AU' } });
    expect(await platform.sdk.context.get()).toEqual({
      userName: 'Mere Whitaker',
      userEmail: 'mere@kauricoastkitchens.co.nz',
      userRole: 'H_Field',
      tenantName: 'Kauri Coast Kitchens Ltd',
      tenantId: 'e0000000-0000-4000-8000-000000000001',
      cultureCode: 'en-AU',
    });
  });
});

describe('list options: what is known where, and ties', () => {
  it('the template lists know codes, page and pageSize, and warn about paging only when it is sent beside codes', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.taskTemplates.list({ codes: ['T_TILING'] });
    await platform.sdk.jobCostTemplates.list({ page: 1, pageSize: 2 });
    expect(warnings).toEqual([]);
  });

  it('the other lists know page and pageSize', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.customers.list({ page: 1, pageSize: 2 });
    expect(warnings).toEqual([]);
  });

  it('job cost templates of the same code keep the order the fixtures give them', async () => {
    const jobCostTemplates = [
      ...DEFAULT_FIXTURES.jobCostTemplates,
      { id: '50000000-0000-4000-8000-0000000000a1', code: 'TRAVEL', name: 'Travel (second)', type: 'T_EXPENSE' as const },
      { id: '50000000-0000-4000-8000-0000000000a2', code: 'TRAVEL', name: 'Travel (third)', type: 'T_EXPENSE' as const },
    ];
    const { platform } = makePlatform({ fixtures: { ...DEFAULT_FIXTURES, jobCostTemplates } });
    const { items } = await platform.sdk.jobCostTemplates.list({ codes: ['TRAVEL'] });
    expect(items.map((t) => t.name)).toEqual(['Travel', 'Travel (second)', 'Travel (third)']);
  });

  it('quotes of the same moment: the one added last comes first', async () => {
    const { platform } = makePlatform(); // a fixed clock: both quotes get the same date
    const request = { customerName: 'A', upsertByEmail: false, lines: [{ qty: 1, unitPrice: 1, taxRate: 0 }] };
    await platform.sdk.quotes.create(request);
    await platform.sdk.quotes.create(request);
    expect((await platform.sdk.quotes.list({ pageSize: 2 })).items.map((q) => q.ref)).toEqual(['Q-1044', 'Q-1043']);
  });
});

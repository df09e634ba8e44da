import { describe, expect, it } from 'vitest';
import { describeWarning } from '../../src/platform/index.js';
import { ids, line, makePlatform, rejectionOf } from './helpers.js';

/*
 * What the bridge says, word for word: the message of every problem a call is refused for and of
 * every warning it gives. Tool authors read these in the dev server and in their test failures, so
 * each names the field, the value received (or its kind) and the rule it broke.
 */

/** The `path: message [CODE]` of each problem of a refused call. */
async function problemTexts(promise: Promise<unknown>, code: 'INVALID_ARGUMENT' | 'BATCH_REJECTED'): Promise<string[]> {
  const error = await rejectionOf(promise, code);
  return error.details.map((p) => `${p.path}: ${p.message} [${p.code}]`);
}

/** The warnings of one call that succeeds, in the words describeWarning gives them. */
async function warningTexts(run: (platform: ReturnType<typeof makePlatform>['platform']) => Promise<unknown>): Promise<string[]> {
  const { platform, warnings } = makePlatform();
  await run(platform);
  return warnings.map(describeWarning);
}

describe('quotes.addLines: problems', () => {
  it('numbers: missing, not finite, and outside their range with the range spelled out', async () => {
    const { platform } = makePlatform();
    expect(
      await problemTexts(
        platform.sdk.quotes.addLines([
          line({ qty: undefined, unitPrice: 'ten', taxRate: Number.NaN }),
          line({ qty: 0, unitPrice: -0.01, taxRate: -1, costPrice: -5, discountPercent: 100.5 }),
          line({ discountPercent: -1 }),
        ]),
        'BATCH_REJECTED',
      ),
    ).toEqual([
      'lines[0].qty: is required [REQUIRED]',
      'lines[0].unitPrice: must be a finite number, got "ten" [INVALID_TYPE]',
      'lines[0].taxRate: must be a finite number, got NaN [INVALID_TYPE]',
      'lines[1].qty: must be greater than 0, got 0 [OUT_OF_RANGE]',
      'lines[1].unitPrice: must be at least 0, got -0.01 [OUT_OF_RANGE]',
      'lines[1].costPrice: must be at least 0, got -5 [OUT_OF_RANGE]',
      'lines[1].taxRate: must be at least 0, got -1 [OUT_OF_RANGE]',
      'lines[1].discountPercent: must be at least 0 and at most 100, got 100.5 [OUT_OF_RANGE]',
      'lines[2].discountPercent: must be at least 0 and at most 100, got -1 [OUT_OF_RANGE]',
    ]);
  });

  it('the edges of each range are allowed', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ qty: Number.MIN_VALUE, unitPrice: 0, costPrice: 0, taxRate: 0, discountPercent: 0 }), line({ discountPercent: 100 })]);
    expect(platform.editorView().blocks.flatMap((b) => b.lines).map((l) => [l.qty, l.unitPrice, l.costPrice, l.taxRate, l.discountPercent])).toEqual([
      [Number.MIN_VALUE, 0, 0, 0, 0],
      [1, 100, 100, 0.15, 100],
    ]);
  });

  it('lines that are not objects, texts that are not strings, unknown tokens', async () => {
    const { platform } = makePlatform();
    expect(
      await problemTexts(
        platform.sdk.quotes.addLines([
          5 as never,
          null as never,
          [] as never,
          line({ description: 5, specification: true, groupKey: {}, unit: 'EA', lineType: 'Product' }),
        ]),
        'BATCH_REJECTED',
      ),
    ).toEqual([
      'lines[0]: must be an add-line object, got 5 [INVALID_TYPE]',
      'lines[1]: must be an add-line object, got null [INVALID_TYPE]',
      'lines[2]: must be an add-line object, got an array [INVALID_TYPE]',
      'lines[3].description: must be a string, got 5 [INVALID_TYPE]',
      'lines[3].specification: must be a string, got a boolean [INVALID_TYPE]',
      'lines[3].groupKey: must be a string, got an object [INVALID_TYPE]',
      'lines[3].unit: is "EA"; expected one of T_ITEM, T_SQUARE_METRE, T_LINEAR_METRE [UNKNOWN_UNIT]',
      'lines[3].lineType: is "Product"; expected one of product, task, cost, jobcost [UNKNOWN_LINE_TYPE]',
    ]);
  });

  it('the lines argument itself: missing, not an array, too long', async () => {
    const { platform } = makePlatform();
    expect(await problemTexts(platform.call('quotes.addLines', []), 'BATCH_REJECTED')).toEqual(['lines: is required [REQUIRED]']);
    expect(await problemTexts(platform.call('quotes.addLines', [{ qty: 1 }]), 'BATCH_REJECTED')).toEqual(['lines: must be an array, got an object [INVALID_TYPE]']);
    const many = Array.from({ length: 10_001 }, () => line());
    expect(await problemTexts(platform.sdk.quotes.addLines(many), 'BATCH_REJECTED')).toEqual([
      'lines: holds 10001 items; the emulator takes at most 10000 per call [TOO_MANY_ITEMS]',
    ]);
  });

  it('linked items: the table, the id and a hint at what went wrong', async () => {
    const { platform } = makePlatform();
    const product = ids.product('HOOD-900');
    const missing = '20000000-0000-4000-8000-000000000999';
    expect(
      await problemTexts(
        platform.sdk.quotes.addLines([
          line({ lineType: 'task', linkedItemId: product }),
          line({ lineType: 'jobcost', linkedItemId: ' ' }),
          line({ linkedItemId: missing }),
          line({ lineType: 'task', linkedItemId: ids.task('T_LEGACY_ASSEMBLY') }),
          line({ lineType: 'jobcost', linkedItemId: ids.jobcost('SKIP-HIRE') }),
          line({ lineType: 'cost', linkedItemId: ids.cost('TRAVEL-OLD') }),
          line({ productId: missing }),
        ]),
        'BATCH_REJECTED',
      ),
    ).toEqual([
      `lines[0].linkedItemId: matches no task template of this tenant ("${product}"); that id belongs to lineType 'product' [LINKED_ITEM_NOT_FOUND]`,
      'lines[1].linkedItemId: matches no job cost template of this tenant (" "); leave the field out or send null when there is nothing to link [LINKED_ITEM_NOT_FOUND]',
      `lines[2].linkedItemId: matches no product of this tenant ("${missing}") [LINKED_ITEM_NOT_FOUND]`,
      `lines[3].linkedItemId: points to an inactive task template (${ids.task('T_LEGACY_ASSEMBLY')}) [LINKED_ITEM_INACTIVE]`,
      `lines[4].linkedItemId: points to an inactive job cost template (${ids.jobcost('SKIP-HIRE')}) [LINKED_ITEM_INACTIVE]`,
      `lines[5].linkedItemId: points to an inactive cost item (${ids.cost('TRAVEL-OLD')}) [LINKED_ITEM_INACTIVE]`,
      `lines[6].productId: matches no product of this tenant ("${missing}") [LINKED_ITEM_NOT_FOUND]`,
    ]);
  });

  it("a line whose total no number holds exactly, and a quote whose total would not", async () => {
    const { platform } = makePlatform();
    expect(await problemTexts(platform.sdk.quotes.addLines([line(), line({ qty: 1e10, unitPrice: 1e10 })]), 'BATCH_REJECTED')).toEqual([
      'lines[1]: the line total is too large to be represented exactly [OUT_OF_RANGE]',
    ]);
    // Each line fits; together they do not (MAX_SAFE_INTEGER cents is about 90 trillion).
    const half = line({ qty: 1, unitPrice: 40_000_000_000_000, taxRate: 0 });
    expect(await problemTexts(platform.sdk.quotes.addLines([half, half, half]), 'BATCH_REJECTED')).toEqual([
      'lines: the quote total would be too large to be represented exactly [OUT_OF_RANGE]',
    ]);
  });

  it('the error message counts the problems and lists each one', async () => {
    const { platform } = makePlatform();
    const one = await rejectionOf(platform.sdk.quotes.addLines([line({ qty: 0 })]), 'BATCH_REJECTED');
    expect(one.message).toBe('quotes.addLines rejected the whole batch, nothing was changed (1 problem): lines[0].qty: must be greater than 0, got 0 [OUT_OF_RANGE]');
    const two = await rejectionOf(platform.sdk.quotes.addLines([line({ qty: 0, unit: 'x' })]), 'BATCH_REJECTED');
    expect(two.message).toBe(
      'quotes.addLines rejected the whole batch, nothing was changed (2 problems): lines[0].qty: must be greater than 0, got 0 [OUT_OF_RANGE]; ' +
        'lines[0].unit: is "x"; expected one of T_ITEM, T_SQUARE_METRE, T_LINEAR_METRE [UNKNOWN_UNIT]',
    );
  });

  it('sections: not objects, blank names, options that are not an object', async () => {
    const { platform } = makePlatform();
    expect(await problemTexts(platform.sdk.quotes.addSections([null as never, { name: '   ' }, { name: 7 as never }, {} as never]), 'BATCH_REJECTED')).toEqual([
      'sections[0]: must be a section object, got null [INVALID_TYPE]',
      'sections[1].name: is "   "; a declared section needs a name [BLANK_SECTION_NAME]',
      'sections[2].name: must be a string, got 7 [INVALID_TYPE]',
      'sections[3].name: is null; a declared section needs a name [BLANK_SECTION_NAME]',
    ]);
    expect(await problemTexts(platform.call('quotes.addLines', [[line()], 3]), 'BATCH_REJECTED')).toEqual(['options: must be an object, got 3 [INVALID_TYPE]']);
  });
});

describe('quotes.addLines: warnings', () => {
  it('unknown fields, with the nearest known name when one is close', async () => {
    expect(await warningTexts((p) => p.call('quotes.addLines', [[{ ...line(), qtty: 2, colour: 'red' }], { sectons: [] }]))).toEqual([
      'lines[0].qtty: is not a field the bridge knows and is ignored (did you mean qty?) [UNKNOWN_FIELD]',
      'lines[0].colour: is not a field the bridge knows and is ignored [UNKNOWN_FIELD]',
      'sectons: is not a field the bridge knows and is ignored (did you mean sections?) [UNKNOWN_FIELD]',
    ]);
  });

  it('deprecated line types and productId, and which field wins', async () => {
    const product = ids.product('HOOD-900');
    expect(
      await warningTexts((p) =>
        p.sdk.quotes.addLines([
          line({ lineType: 'cost', linkedItemId: ids.cost('TRAVEL-KM') }),
          line({ productId: product }),
          line({ productId: product, linkedItemId: product }),
          line({ lineType: 'jobcost', productId: product }),
        ]),
      ),
    ).toEqual([
      "lines[0].lineType: 'cost' is deprecated; use 'jobcost' with a job cost template [DEPRECATED]",
      "lines[1].productId: is deprecated; send the product's GUID as linkedItemId with lineType 'product' [DEPRECATED]",
      "lines[2].productId: is deprecated; send the product's GUID as linkedItemId with lineType 'product' [DEPRECATED]",
      'lines[2].productId: is ignored because linkedItemId is also set [FIELD_IGNORED]',
      "lines[3].productId: is deprecated; send the product's GUID as linkedItemId with lineType 'product' [DEPRECATED]",
      "lines[3].productId: is ignored because lineType is 'jobcost' [FIELD_IGNORED]",
    ]);
  });

  it('section fields: cut, blank, not a boolean, or without a section', async () => {
    const long = 'S'.repeat(101);
    expect(
      await warningTexts((p) =>
        p.sdk.quotes.addLines([
          line({ section: long, sectionNotes: 'n'.repeat(2001) }),
          line({ section: 'Kitchen', sectionNotes: ' \n ', summaryOnly: 'yes' }),
          line({ summaryOnly: true, sectionNotes: 'x' }),
          line({ section: '  ', summaryOnly: 1 }),
        ]),
      ),
    ).toEqual([
      'lines[0].sectionNotes: are 2001 characters long and were cut to 2000 [SECTION_NOTES_TRUNCATED]',
      'lines[0].section: is 101 characters long and was cut to 100 [SECTION_NAME_TRUNCATED]',
      'lines[1].sectionNotes: are only spaces or line breaks: they count as notes (the first non-empty notes win) and print as blank [SECTION_NOTES_BLANK]',
      'lines[1].summaryOnly: is "yes", not a boolean, so it counts as false [FIELD_IGNORED]',
      'lines[2].summaryOnly: has no effect on a line without a section [FIELD_IGNORED]',
      'lines[2].sectionNotes: have no effect on a line without a section [FIELD_IGNORED]',
      'lines[3].summaryOnly: is 1, not a boolean, so it counts as false [FIELD_IGNORED]',
    ]);
  });

  it('tax rate 1, suppliers that fall back to Self, a SKU sent without its id', async () => {
    expect(
      await warningTexts((p) =>
        p.sdk.quotes.addLines([
          line({ taxRate: 1 }),
          line({ supplierRef: 'nobody' }),
          line({ supplierRef: 'totara-timber' }),
          line({ productCode: 'hood-900' }),
        ]),
      ),
    ).toEqual([
      'lines[0].taxRate: is 1, which means 100%; for 1% send 0.01 [TAX_RATE_IS_ONE]',
      'lines[1].supplierRef: "nobody" fell back to the Self supplier: no active supplier has that reference or name [SUPPLIER_NOT_RESOLVED]',
      'lines[2].supplierRef: "totara-timber" fell back to the Self supplier: supplier "Totara Timber Co" is inactive [SUPPLIER_NOT_RESOLVED]',
      'lines[3].productCode: names a product of the catalogue but the line sends no linkedItemId, so it stays free text without task injection [PRODUCT_CODE_NOT_LINKED]',
    ]);
  });

  it('a tax rate over 100% once read: the same warning from quotes.create, the REST API and quotes.addLines', async () => {
    const created = await warningTexts((p) => p.sdk.quotes.create({ customerName: 'A', upsertByEmail: false, lines: [{ qty: 1, unitPrice: 10, taxRate: 15 }] }));
    const added = await warningTexts((p) => p.sdk.quotes.addLines([line({ taxRate: 1500 }), line({ taxRate: 15 }), line({ taxRate: 100 })]));
    const overRest = await warningTexts(async (p) => {
      p.createApiQuote({ customerId: '10000000-0000-4000-8000-000000000001', lines: [{ skuId: '20000000-0000-4000-8000-000000000006', qty: 1, unitPrice: 1, taxRate: 15 }] });
    });
    expect(created).toEqual(['lines[0].taxRate: is 15, which quotes.create takes as a fraction (15 × 100%); for 15% send 0.15 [TAX_RATE_LOOKS_LIKE_PERCENT]']);
    expect(overRest).toEqual(['lines[0].taxRate: is 15, which quotes.create takes as a fraction (15 × 100%); for 15% send 0.15 [TAX_RATE_LOOKS_LIKE_PERCENT]']);
    // 15 and 100 are percentages addLines takes; 1500 is 1500%.
    expect(added).toEqual(['lines[0].taxRate: is 1500, which quotes.addLines reads as 1500% (above 1 a rate is a percentage); for 15% send 15 or 0.15 [TAX_RATE_LOOKS_LIKE_PERCENT]']);
  });

  it('sections on a host older than 2.5.0', async () => {
    const { platform, warnings } = makePlatform({ sdkVersion: '2.4.0' });
    await platform.call('quotes.addLines', [[line()], { sections: [{ name: 'A' }] }]);
    expect(warnings.map(describeWarning)).toEqual(['sections: arrived in SDK 2.5.0; this host is older and ignores it [OPTION_NOT_AVAILABLE]']);
    expect(platform.editorView().blocks.map((b) => b.section?.name ?? null)).toEqual([null]);
  });
});

describe('quotes.create: problems and warnings', () => {
  const request = (changes: Record<string, unknown> = {}) => ({ customerName: 'Aroha', upsertByEmail: false, lines: [{ qty: 1, unitPrice: 10, taxRate: 0.15 }], ...changes });

  it('the request, its strings and its upsert flag', async () => {
    const { platform } = makePlatform();
    expect(await problemTexts(platform.sdk.quotes.create('quote' as never), 'INVALID_ARGUMENT')).toEqual([
      'request: must be a create-quote request object, got "quote" [INVALID_TYPE]',
    ]);
    expect(await problemTexts(platform.sdk.quotes.create(request({ title: 3, upsertByEmail: 'yes' }) as never), 'INVALID_ARGUMENT')).toEqual([
      'title: must be a string, got 3 [INVALID_TYPE]',
      'upsertByEmail: must be a boolean, got "yes" [INVALID_TYPE]',
    ]);
    for (const customerEmail of [undefined, ' ']) {
      expect(await problemTexts(platform.sdk.quotes.create(request({ upsertByEmail: true, customerEmail }) as never), 'INVALID_ARGUMENT')).toEqual([
        'customerEmail: is required when upsertByEmail is true [REQUIRED]',
      ]);
    }
  });

  it('lines: their count, their objects, their numbers with the quotes.create limits', async () => {
    const { platform } = makePlatform();
    expect(await problemTexts(platform.sdk.quotes.create(request({ lines: [] }) as never), 'INVALID_ARGUMENT')).toEqual(['lines: is empty; at least 1 needed [EMPTY_LIST]']);
    const many = Array.from({ length: 201 }, () => ({ qty: 1, unitPrice: 1, taxRate: 0 }));
    expect(await problemTexts(platform.sdk.quotes.create(request({ lines: many }) as never), 'INVALID_ARGUMENT')).toEqual([
      'lines: holds 201 items; a quote takes at most 200 [TOO_MANY_ITEMS]',
    ]);
    const lines = [
      'x',
      { qty: 10_000.5, unitPrice: 1_000_000.01, taxRate: -0.1 },
      { qty: 0, unitPrice: 1 },
      { qty: 1, unitPrice: 1, taxRate: 0, description: 1, productCode: false, supplierRef: [] },
    ];
    expect(await problemTexts(platform.sdk.quotes.create(request({ lines }) as never), 'INVALID_ARGUMENT')).toEqual([
      'lines[0]: must be a quote line object, got "x" [INVALID_TYPE]',
      'lines[1].qty: must be greater than 0 and at most 10000, got 10000.5 [OUT_OF_RANGE]',
      'lines[1].unitPrice: must be at least 0 and at most 1000000, got 1000000.01 [OUT_OF_RANGE]',
      'lines[1].taxRate: must be at least 0, got -0.1 [OUT_OF_RANGE]',
      'lines[2].qty: must be greater than 0 and at most 10000, got 0 [OUT_OF_RANGE]',
      'lines[2].taxRate: is required [REQUIRED]',
      'lines[3].description: must be a string, got 1 [INVALID_TYPE]',
      'lines[3].productCode: must be a string, got a boolean [INVALID_TYPE]',
      'lines[3].supplierRef: must be a string, got an array [INVALID_TYPE]',
    ]);
    // The largest qty and unit price are allowed, and so is their product.
    const { platform: other } = makePlatform();
    const result = await other.sdk.quotes.create(request({ lines: [{ qty: 10_000, unitPrice: 1_000_000, taxRate: 0 }] }) as never);
    expect(result.total).toBe(10_000_000_000);
  });

  it('warnings: unknown fields, a missing upsert flag, a rate that looks like a percentage, suppliers, jobs', async () => {
    const texts = await warningTexts((p) =>
      p.sdk.quotes.create({
        customerName: 'Aroha',
        customerEmial: 'a@example.com',
        jobId: '70000000-0000-4000-8000-000000000003',
        lines: [
          { qty: 1, unitPrice: 10, taxRate: 15, quantity: 2 },
          { qty: 1, unitPrice: 10, taxRate: 0.15, supplierRef: 'bunn-trade' },
          { qty: 1, unitPrice: 10, taxRate: 0.15, supplierRef: 'Totara Timber Co' },
          { qty: 1, unitPrice: 10, taxRate: 0.15, supplierRef: 'nobody' },
        ],
      } as never),
    );
    expect(texts).toEqual([
      'customerEmial: is not a field the bridge knows and is ignored (did you mean customerEmail?) [UNKNOWN_FIELD]',
      "upsertByEmail: is missing; the platform's type requires it, so send false explicitly [UPSERT_BY_EMAIL_MISSING]",
      'lines[0].quantity: is not a field the bridge knows and is ignored [UNKNOWN_FIELD]',
      'lines[0].taxRate: is 15, which quotes.create takes as a fraction (15 × 100%); for 15% send 0.15 [TAX_RATE_LOOKS_LIKE_PERCENT]',
      'lines[2].supplierRef: "Totara Timber Co" fell back to the Self supplier: supplier "Totara Timber Co" is inactive [SUPPLIER_NOT_RESOLVED]',
      'lines[3].supplierRef: "nobody" fell back to the Self supplier: no active supplier has that reference or name [SUPPLIER_NOT_RESOLVED]',
      'jobId: "70000000-0000-4000-8000-000000000003" is not an active job of this tenant [JOB_NOT_FOUND]',
    ]);
  });

  it('a taxRate of exactly 1 is a fraction (100%) and draws no percentage warning', async () => {
    expect(await warningTexts((p) => p.sdk.quotes.create(request({ lines: [{ qty: 1, unitPrice: 10, taxRate: 1 }] }) as never))).toEqual([]);
  });
});

describe('POST /api/v1/quotes: problems', () => {
  const customer = '10000000-0000-4000-8000-000000000001';
  const sku = '20000000-0000-4000-8000-000000000010';

  it('the body, its ids and its lines', () => {
    const { platform, warnings } = makePlatform();
    const problems = (body: unknown) => {
      try {
        platform.createApiQuote(body);
      } catch (error) {
        return (error as { details: { path: string; message: string; code: string }[] }).details.map((p) => `${p.path}: ${p.message} [${p.code}]`);
      }
      throw new Error('accepted');
    };
    expect(problems([])).toEqual([': the body must be a JSON object, got an array [INVALID_TYPE]']);
    expect(problems({ customerId: '', lines: [{ skuId: 5, qty: 1, unitPrice: 1 }] })).toEqual([
      'customerId: is required [REQUIRED]',
      'lines[0].skuId: must be a string, got 5 [INVALID_TYPE]',
    ]);
    expect(problems({ customerId: sku, lines: [{ skuId: customer, qty: 1, unitPrice: 1 }, 'line'] })).toEqual([
      `customerId: "${sku}" is not the id of a customer of this tenant [UNKNOWN_ID]`,
      `lines[0].skuId: "${customer}" is not the id of a product of this tenant [UNKNOWN_ID]`,
      'lines[1]: must be a quote line object, got "line" [INVALID_TYPE]',
    ]);
    expect(warnings).toEqual([]);
    platform.createApiQuote({ customerId: customer, lines: [{ skuId: sku, qty: 1, unitPrice: 1, colour: 'red' }], note: 'x' });
    expect(warnings.map(describeWarning)).toEqual([
      'note: is not a field the REST API knows and is ignored [UNKNOWN_FIELD]',
      'lines[0].colour: is not a field the REST API knows and is ignored [UNKNOWN_FIELD]',
    ]);
  });
});

describe('lists, settings and the calls themselves', () => {
  it('list options: their type, page numbers, codes', async () => {
    const { platform } = makePlatform();
    expect(await problemTexts(platform.call('customers.list', ['all']), 'INVALID_ARGUMENT')).toEqual(['options: must be an object, got "all" [INVALID_TYPE]']);
    expect(await problemTexts(platform.sdk.customers.list({ page: 0, pageSize: 1.5 }), 'INVALID_ARGUMENT')).toEqual([
      'page: must be at least 1, got 0 [OUT_OF_RANGE]',
      'pageSize: must be a whole number, got 1.5 [NOT_AN_INTEGER]',
    ]);
    expect(await problemTexts(platform.call('taskTemplates.list', [{ codes: ['T_TILING', 7] }]), 'INVALID_ARGUMENT')).toEqual([
      'codes[1]: must be a string, got 7 [INVALID_TYPE]',
    ]);
    expect(await problemTexts(platform.call('taskTemplates.list', [{ codes: Array.from({ length: 10_001 }, () => 'X') }]), 'INVALID_ARGUMENT')).toEqual([
      'codes: holds 10001 items; the emulator takes at most 10000 [TOO_MANY_ITEMS]',
    ]);
  });

  it('list warnings: paging beside codes, codes where they do not apply, a deprecated method', async () => {
    expect(await warningTexts((p) => p.call('taskTemplates.list', [{ codes: [], page: 2, pageSize: 5 }]))).toEqual([
      'page: is ignored when codes is given: every match comes back [FIELD_IGNORED]',
      'pageSize: is ignored when codes is given: every match comes back [FIELD_IGNORED]',
    ]);
    expect(await warningTexts((p) => p.call('customers.list', [{ codes: ['A'] }]))).toEqual([
      'codes: is not a field the bridge knows and is ignored [UNKNOWN_FIELD]',
    ]);
    expect(await warningTexts((p) => p.call('costItems.list', []))).toEqual([
      'costItems.list is deprecated; use jobCostTemplates.list and lineType jobcost [DEPRECATED]',
    ]);
  });

  it('settings keys and values', async () => {
    const { platform } = makePlatform();
    expect(await problemTexts(platform.call('settings.get', ['']), 'INVALID_ARGUMENT')).toEqual(['key: is required: a non-empty string [REQUIRED]']);
    expect(await problemTexts(platform.call('settings.get', [{}]), 'INVALID_ARGUMENT')).toEqual(['key: must be a string, got an object [INVALID_TYPE]']);
    expect(await problemTexts(platform.call('settings.set', [null]), 'INVALID_ARGUMENT')).toEqual([
      'key: is required: a non-empty string [REQUIRED]',
      'value: is required; send null to clear a setting [REQUIRED]',
    ]);
    expect(await problemTexts(platform.call('settings.set', ['k', { a: [1, Number.NaN] }]), 'INVALID_ARGUMENT')).toEqual([
      'value: must be JSON data: value.a[1] is NaN, which JSON cannot hold [INVALID_TYPE]',
    ]);
  });

  it('methods that do not exist, are not there yet, or are not for this tool', async () => {
    const { platform } = makePlatform({ sdkVersion: '2.2.0', toolType: 'standalone' });
    const error = async (promise: Promise<unknown>, code: Parameters<typeof rejectionOf>[1]) => (await rejectionOf(promise, code)).message;
    expect(await error(platform.call('settings.get', ['k']), 'METHOD_NOT_AVAILABLE')).toBe('settings.get arrived in SDK 2.3.0; this host acts as SDK 2.2.0');
    expect(await error(platform.call('quotes.addLines', [[line()]]), 'TOOL_TYPE_NOT_ALLOWED')).toBe(
      'quotes.addLines may only be called by a quoting_extension tool; this tool is standalone',
    );
    expect(await error(platform.call('context.get', 'x' as never), 'INVALID_ARGUMENT')).toBe('context.get: the arguments must be an array');
    expect(await error(platform.call('quotes.lst'), 'UNKNOWN_METHOD')).toBe('quotes.lst is not a bridge method. Did you mean quotes.list? (quotes has list, create, addLines)');
  });
});

describe('how values are named and read', () => {
  it('a string of up to 40 characters is quoted; a longer one is only counted', async () => {
    const { platform } = makePlatform();
    expect(await problemTexts(platform.sdk.quotes.addLines([line({ unit: 'u'.repeat(40) }), line({ unit: 'u'.repeat(41) })]), 'BATCH_REJECTED')).toEqual([
      `lines[0].unit: is "${'u'.repeat(40)}"; expected one of T_ITEM, T_SQUARE_METRE, T_LINEAR_METRE [UNKNOWN_UNIT]`,
      'lines[1].unit: is a string of 41 characters; expected one of T_ITEM, T_SQUARE_METRE, T_LINEAR_METRE [UNKNOWN_UNIT]',
    ]);
  });

  it('a null token takes its default; null lines are missing, not of the wrong type', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ unit: null, lineType: null })]);
    expect(platform.editorView().blocks[0]!.lines.map((l) => [l.unit, l.lineType])).toEqual([['T_ITEM', 'product']]);
    expect(await problemTexts(platform.call('quotes.addLines', [null]), 'BATCH_REJECTED')).toEqual(['lines: is required [REQUIRED]']);
  });
});

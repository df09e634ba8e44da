import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES, describeWarning, OTHER_TENANT_ID, type EditorLine, type Platform } from '../../src/platform/index.js';
import { ids, line, makePlatform, problemsOf, rejectionOf, warningCodes } from './helpers.js';

const linesOf = (platform: Platform): EditorLine[] => platform.editorView().blocks.flatMap((block) => block.lines);

describe('tool-type gate (§4.2 rule 2, §7.2)', () => {
  it('refuses quotes.addLines and quotes.addSections from a standalone tool', async () => {
    const { platform } = makePlatform({ toolType: 'standalone' });
    const before = platform.editorView();
    const error = await rejectionOf(platform.sdk.quotes.addLines([line()]), 'TOOL_TYPE_NOT_ALLOWED');
    expect(error.method).toBe('quotes.addLines');
    await rejectionOf(platform.sdk.quotes.addSections([{ name: 'A' }]), 'TOOL_TYPE_NOT_ALLOWED');
    expect(platform.editorView()).toEqual(before);
  });

  it('lets one platform serve both tool types per call', async () => {
    const { platform } = makePlatform({ toolType: 'standalone' });
    await platform.call('quotes.addLines', [[line()]], { toolId: 'configurator', toolType: 'quoting_extension' });
    expect(linesOf(platform)).toHaveLength(1);
  });
});

describe('lineType and linkedItemId', () => {
  it('defaults to a product line and links the product: name and SKU fill in', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ linkedItemId: ids.product('HOOD-900'), unitPrice: 1099 })]);
    expect(linesOf(platform)[0]).toMatchObject({
      lineType: 'product',
      linkedItemId: ids.product('HOOD-900'),
      linkedCode: 'HOOD-900',
      description: 'Rangehood 900 mm',
      workObjectCode: 'HOOD-900',
      unitPrice: 1099, // the tool's price, not the catalogue's 899
    });
  });

  it('keeps the description and productCode the tool sends', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ linkedItemId: ids.product('HOOD-900'), description: 'Hood', productCode: 'hood-900' })]);
    expect(linesOf(platform)[0]).toMatchObject({ description: 'Hood', workObjectCode: 'hood-900', linkedCode: 'HOOD-900' });
  });

  it('links each line type to its own table', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([
      line({ lineType: 'task', linkedItemId: ids.task('T_DEMOLITION') }),
      line({ lineType: 'cost', linkedItemId: ids.cost('TRAVEL-KM') }),
      line({ lineType: 'jobcost', linkedItemId: ids.jobcost('DISPOSAL'), unitPrice: 240 }),
      line({ lineType: 'jobcost', description: 'Council dump fee' }),
    ]);
    expect(linesOf(platform).map((l) => [l.lineType, l.linkedCode, l.description, l.unitPrice])).toEqual([
      ['task', 'T_DEMOLITION', 'Demolition and strip-out', 100],
      ['cost', 'TRAVEL-KM', 'Mileage', 100],
      ['jobcost', 'DISPOSAL', 'Waste disposal', 240],
      ['jobcost', null, 'Council dump fee', 100], // ad-hoc job cost: valid without a template
    ]);
    expect(warningCodes(warnings)).toEqual([['lines[1].lineType', 'DEPRECATED']]);
  });

  it('matches GUIDs without regard to case', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ linkedItemId: ids.product('HOOD-900').toUpperCase() })]);
    expect(linesOf(platform)[0]!.linkedItemId).toBe(ids.product('HOOD-900'));
  });

  it.each([
    ['an unknown lineType', { lineType: 'Product' }, 'lineType', 'UNKNOWN_LINE_TYPE'],
    ['a non-string lineType', { lineType: 3 }, 'lineType', 'UNKNOWN_LINE_TYPE'],
    ['an id of the wrong table', { lineType: 'task', linkedItemId: ids.product('HOOD-900') }, 'linkedItemId', 'LINKED_ITEM_NOT_FOUND'],
    ['an unknown GUID', { linkedItemId: '20000000-0000-4000-8000-000000000999' }, 'linkedItemId', 'LINKED_ITEM_NOT_FOUND'],
    ['an empty linkedItemId', { lineType: 'jobcost', linkedItemId: '' }, 'linkedItemId', 'LINKED_ITEM_NOT_FOUND'],
    ['a row of another tenant', { linkedItemId: '20000000-0000-4000-8000-000000000013' }, 'linkedItemId', 'LINKED_ITEM_NOT_FOUND'],
    ['an inactive task template', { lineType: 'task', linkedItemId: ids.task('T_LEGACY_ASSEMBLY') }, 'linkedItemId', 'LINKED_ITEM_INACTIVE'],
    ['an inactive cost item', { lineType: 'cost', linkedItemId: ids.cost('TRAVEL-OLD') }, 'linkedItemId', 'LINKED_ITEM_INACTIVE'],
    ['an inactive job cost template', { lineType: 'jobcost', linkedItemId: ids.jobcost('SKIP-HIRE') }, 'linkedItemId', 'LINKED_ITEM_INACTIVE'],
    ['a non-string linkedItemId', { linkedItemId: 42 }, 'linkedItemId', 'INVALID_TYPE'],
    ['an unknown productId', { productId: '20000000-0000-4000-8000-000000000999' }, 'productId', 'LINKED_ITEM_NOT_FOUND'],
  ])('rejects the batch for %s', async (_, changes, field, code) => {
    const { platform } = makePlatform();
    const error = await rejectionOf(platform.sdk.quotes.addLines([line(), line(changes)]), 'BATCH_REJECTED');
    expect(error.details).toEqual([expect.objectContaining({ path: `lines[1].${field}`, index: 1, field, code })]);
    expect(linesOf(platform)).toEqual([]);
  });
});

describe('legacy productId', () => {
  it('stands in for linkedItemId on a product line without one, with a deprecation warning', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([line({ productId: ids.product('HANDLE-BAR-160') }), line({ lineType: 'product', productId: ids.product('HOOD-900') })]);
    expect(linesOf(platform).map((l) => l.linkedCode)).toEqual(['HANDLE-BAR-160', 'HOOD-900']);
    expect(warningCodes(warnings)).toEqual([
      ['lines[0].productId', 'DEPRECATED'],
      ['lines[1].productId', 'DEPRECATED'],
    ]);
  });

  it('is ignored when linkedItemId is set or the line is not a product', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([
      line({ linkedItemId: ids.product('HOOD-900'), productId: ids.product('HANDLE-BAR-160') }),
      line({ lineType: 'task', productId: ids.product('HANDLE-BAR-160') }),
    ]);
    expect(linesOf(platform).map((l) => [l.lineType, l.linkedCode])).toEqual([
      ['product', 'HOOD-900'],
      ['task', null],
    ]);
    expect(warningCodes(warnings)).toEqual([
      ['lines[0].productId', 'DEPRECATED'],
      ['lines[0].productId', 'FIELD_IGNORED'],
      ['lines[1].productId', 'DEPRECATED'],
      ['lines[1].productId', 'FIELD_IGNORED'],
    ]);
  });
});

describe('task injection', () => {
  it('follows a product with a task sequence by one task line per template: qty 1, price 0, same group and section', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ linkedItemId: ids.product('CAB-BASE-600'), qty: 4, groupKey: 'run-1', section: 'Cabinetry' })]);
    const [product, task] = linesOf(platform);
    expect(product).toMatchObject({ lineNumber: 1, groupId: 1, injectedFromLine: null });
    expect(task).toMatchObject({
      lineNumber: 2,
      lineType: 'task',
      linkedItemId: ids.task('T_DEFAULT_INSTALLATION_TASK'),
      description: 'Installation',
      qty: 1,
      unitPrice: 0,
      costPrice: 0,
      nett: 0,
      groupId: 1,
      injectedFromLine: 1,
      supplierRef: 'T_SELF',
    });
    expect(platform.editorView().blocks[0]!.section!.name).toBe('Cabinetry');
  });

  it('uses fixture prices for injected tasks, taxed at the product line rate', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ linkedItemId: ids.product('BENCH-STONE-20'), qty: 3.2, unitPrice: 620, taxRate: 15 })]);
    expect(linesOf(platform).map((l) => [l.description, l.qty, l.unitPrice, l.costPrice, l.nett, l.tax])).toEqual([
      ['Engineered stone benchtop 20 mm', 3.2, 620, 620, 1984, 297.6],
      ['Site measure', 1, 0, 0, 0, 0],
      ['Installation', 1, 180, 120, 180, 27],
    ]);
  });

  it('skips templates of the sequence that are inactive', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ linkedItemId: ids.product('LED-STRIP-WW') })]);
    expect(linesOf(platform).map((l) => l.linkedCode)).toEqual(['LED-STRIP-WW', 'T_ELECTRICAL_CONNECT']);
  });

  it('does not inject for task, jobcost or unlinked lines, nor for products without a sequence', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([
      line({ linkedItemId: ids.product('BENCH-LAM-3000') }),
      line({ lineType: 'task', linkedItemId: ids.task('T_TILING') }),
      line({ productCode: 'cab-base-600', description: 'Base cabinet (free text)' }),
      line({ productCode: 'NOT-IN-CATALOGUE' }),
    ]);
    expect(linesOf(platform)).toHaveLength(4);
    // A known SKU sent without its id: allowed, but the author is told why no tasks appeared.
    expect(warningCodes(warnings)).toEqual([['lines[2].productCode', 'PRODUCT_CODE_NOT_LINKED']]);
  });
});

describe('prices, tax and discount', () => {
  it('buys at costPrice and sells at unitPrice; without costPrice both are unitPrice', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ unitPrice: 100, costPrice: 62.5 }), line({ unitPrice: 100 }), line({ unitPrice: 100, costPrice: null })]);
    expect(linesOf(platform).map((l) => [l.costPrice, l.unitPrice])).toEqual([
      [62.5, 100],
      [100, 100],
      [100, 100],
    ]);
  });

  it.each([
    [15, 0.15, 15],
    [0.15, 0.15, 15],
    [12.5, 0.125, 12.5],
    [1, 1, 100],
    [0, 0, 0],
    [0.5, 0.5, 50],
  ])('normalises taxRate %d to %d', async (sent, fraction, tax) => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ unitPrice: 100, taxRate: sent })]);
    expect(linesOf(platform)[0]).toMatchObject({ taxRate: fraction, nett: 100, tax });
  });

  it('warns that taxRate 1 means 100%', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([line({ taxRate: 1 })]);
    expect(warningCodes(warnings)).toEqual([['lines[0].taxRate', 'TAX_RATE_IS_ONE']]);
  });

  it('applies discountPercent to the nett; null means none', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([
      line({ unitPrice: 99.99, qty: 3, discountPercent: 12.5 }),
      line({ unitPrice: 50, discountPercent: null }),
      line({ unitPrice: 50, discountPercent: 100 }),
    ]);
    expect(linesOf(platform).map((l) => [l.discountPercent, l.nett, l.tax])).toEqual([
      [12.5, 262.47, 39.37],
      [0, 50, 7.5],
      [100, 0, 0],
    ]);
  });

  it.each([
    ['qty', 0, 'OUT_OF_RANGE'],
    ['qty', -2, 'OUT_OF_RANGE'],
    ['qty', undefined, 'REQUIRED'],
    ['qty', Number.POSITIVE_INFINITY, 'INVALID_TYPE'],
    ['unitPrice', -0.01, 'OUT_OF_RANGE'],
    ['unitPrice', null, 'REQUIRED'],
    ['unitPrice', '100', 'INVALID_TYPE'],
    ['costPrice', -1, 'OUT_OF_RANGE'],
    ['taxRate', -0.15, 'OUT_OF_RANGE'],
    ['taxRate', undefined, 'REQUIRED'],
    ['taxRate', Number.NaN, 'INVALID_TYPE'],
    ['discountPercent', 100.5, 'OUT_OF_RANGE'],
    ['discountPercent', -1, 'OUT_OF_RANGE'],
    ['unit', 'M2', 'UNKNOWN_UNIT'],
    ['description', 5, 'INVALID_TYPE'],
    ['groupKey', {}, 'INVALID_TYPE'],
    ['section', 12, 'INVALID_TYPE'],
    ['sectionNotes', ['a'], 'INVALID_TYPE'],
  ])('rejects %s = %s with %s', async (field, value, code) => {
    const { platform } = makePlatform();
    const error = await rejectionOf(platform.sdk.quotes.addLines([line({ [field]: value })]), 'BATCH_REJECTED');
    expect(error.details).toEqual([expect.objectContaining({ path: `lines[0].${field}`, index: 0, field, code })]);
  });

  it('defaults the unit to T_ITEM and keeps the ones it knows', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line(), line({ unit: 'T_SQUARE_METRE' }), line({ unit: 'T_LINEAR_METRE' })]);
    expect(linesOf(platform).map((l) => l.unit)).toEqual(['T_ITEM', 'T_SQUARE_METRE', 'T_LINEAR_METRE']);
  });

  it('prices a whole quote to the cent (hand-computed)', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([
      // 365.50 × 4 × 0.9 = 1315.80; tax 197.37. Injects Installation at 0.
      line({ linkedItemId: ids.product('CAB-BASE-600'), qty: 4, unitPrice: 365.5, taxRate: 15, discountPercent: 10 }),
      // 89.90 × 2.5 = 224.75; tax 33.7125 → 33.71. Injects Tiling preparation at 0 and Tiling at 55 (tax 8.25).
      line({ linkedItemId: ids.product('TILE-SUBWAY-75'), qty: 2.5, unitPrice: 89.9, taxRate: 0.15, unit: 'T_SQUARE_METRE' }),
      // 19.99; tax 2.9985 → 3.00
      line({ lineType: 'jobcost', linkedItemId: ids.jobcost('SHIPPING'), unitPrice: 19.99, taxRate: 15 }),
    ]);
    expect(linesOf(platform).map((l) => [l.linkedCode, l.nett, l.tax])).toEqual([
      ['CAB-BASE-600', 1315.8, 197.37],
      ['T_DEFAULT_INSTALLATION_TASK', 0, 0],
      ['TILE-SUBWAY-75', 224.75, 33.71],
      ['T_TILING_PREP', 0, 0],
      ['T_TILING', 55, 8.25],
      ['SHIPPING', 19.99, 3],
    ]);
    expect(platform.editorView().totals).toEqual({ nett: 1615.54, tax: 242.33, total: 1857.87 });
  });
});

describe('groupKey', () => {
  it('shares a group id within one call; ids run 1, 2, 3 across the quote; no key is 0', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ groupKey: 'a' }), line({ groupKey: 'b' }), line({ groupKey: 'a' }), line(), line({ groupKey: '' })]);
    await platform.sdk.quotes.addLines([line({ groupKey: 'b' }), line({ groupKey: 'c' }), line({ groupKey: 'b' })]);
    expect(linesOf(platform).map((l) => l.groupId)).toEqual([1, 2, 1, 0, 0, 3, 4, 3]);
  });
});

describe('free-text fields', () => {
  it('stores specification, location and the two free-text fields in fields 1 to 4', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([
      line({ specification: 'Soft-close, white', location: 'Kitchen', freeTextField3: 'Order 88', freeTextField4: 'Bay 2' }),
      line(),
    ]);
    const [full, empty] = linesOf(platform);
    expect(full).toMatchObject({ freeTextField1: 'Soft-close, white', freeTextField2: 'Kitchen', freeTextField3: 'Order 88', freeTextField4: 'Bay 2' });
    expect(empty).toMatchObject({ freeTextField1: null, freeTextField2: null, freeTextField3: null, freeTextField4: null });
  });
});

describe('supplierRef', () => {
  it('resolves by reference then name, ignoring case, active only; else falls back to Self', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([
      line({ supplierRef: 'stoneworks' }),
      line({ supplierRef: 'placemakers RICCARTON' }),
      line({ supplierRef: 'Totara Timber Co' }),
      line({ supplierRef: 'OTHER-SUPPLY' }),
      line({ supplierRef: 'nobody' }),
      line({ supplierRef: null }),
      line({ supplierRef: '' }),
    ]);
    expect(linesOf(platform).map((l) => [l.supplierRef, l.supplierName])).toEqual([
      ['STONEWORKS', 'Stoneworks NZ'],
      ['PLACE-RIC', 'PlaceMakers Riccarton'],
      ['T_SELF', 'Self'],
      ['T_SELF', 'Self'],
      ['T_SELF', 'Self'],
      ['T_SELF', 'Self'],
      ['T_SELF', 'Self'],
    ]);
    expect(warningCodes(warnings)).toEqual([
      ['lines[2].supplierRef', 'SUPPLIER_NOT_RESOLVED'],
      ['lines[3].supplierRef', 'SUPPLIER_NOT_RESOLVED'],
      ['lines[4].supplierRef', 'SUPPLIER_NOT_RESOLVED'],
    ]);
  });
});

describe('atomic batches (§4.2 rules 3–5)', () => {
  it('one bad line rejects every line, reports all problems with index and field, and changes nothing', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([line({ section: 'Existing', groupKey: 'g' })]);
    const before = platform.editorView();
    warnings.length = 0;

    const error = await rejectionOf(
      platform.sdk.quotes.addLines(
        [
          line({ section: 'New section', groupKey: 'g', supplierRef: 'nobody' }),
          line({ lineType: 'costs', qty: 0 }),
          line({ linkedItemId: ids.product('CAB-BASE-600') }),
          line({ lineType: 'task', linkedItemId: ids.task('T_LEGACY_ASSEMBLY') }),
        ],
        { sections: [{ name: 'Declared', notes: 'x' }] },
      ),
      'BATCH_REJECTED',
    );
    expect(error.method).toBe('quotes.addLines');
    expect(problemsOf(error)).toEqual([
      ['lines[1].qty', 'OUT_OF_RANGE'],
      ['lines[1].lineType', 'UNKNOWN_LINE_TYPE'],
      ['lines[3].linkedItemId', 'LINKED_ITEM_INACTIVE'],
    ]);
    expect(platform.editorView()).toEqual(before);
    expect(warnings).toEqual([]); // a rejected call reports its problems, not its warnings
    // Group ids were not consumed by the rejected batch either.
    await platform.sdk.quotes.addLines([line({ groupKey: 'x' })]);
    expect(linesOf(platform).at(-1)!.groupId).toBe(2);
  });

  it('rejects lines that are not objects and arguments that are not arrays', async () => {
    const { platform } = makePlatform();
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [line(), , line()];
    const holes = await rejectionOf(platform.call('quotes.addLines', [sparse]), 'BATCH_REJECTED');
    expect(problemsOf(holes)).toEqual([['lines[1]', 'INVALID_TYPE']]);
    expect(problemsOf(await rejectionOf(platform.call('quotes.addLines', [line()]), 'BATCH_REJECTED'))).toEqual([['lines', 'INVALID_TYPE']]);
    expect(problemsOf(await rejectionOf(platform.call('quotes.addLines', []), 'BATCH_REJECTED'))).toEqual([['lines', 'REQUIRED']]);
    expect(problemsOf(await rejectionOf(platform.call('quotes.addLines', [[], 'sections']), 'BATCH_REJECTED'))).toEqual([['options', 'INVALID_TYPE']]);
  });

  it('accepts an empty batch as a no-op', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([]);
    expect(platform.editorView().blocks).toEqual([]);
  });

  it('reads own fields only: inherited values and __proto__ keys are not arguments', async () => {
    const { platform, warnings } = makePlatform();
    const inherited = Object.create({ qty: 1, unitPrice: 1, taxRate: 0 }) as object;
    const error = await rejectionOf(platform.call('quotes.addLines', [[inherited]]), 'BATCH_REJECTED');
    expect(problemsOf(error)).toEqual([
      ['lines[0].qty', 'REQUIRED'],
      ['lines[0].unitPrice', 'REQUIRED'],
      ['lines[0].taxRate', 'REQUIRED'],
    ]);
    const polluting = JSON.parse('{"qty":1,"unitPrice":1,"taxRate":0,"__proto__":{"polluted":true}}') as unknown;
    await platform.call('quotes.addLines', [[polluting]]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(warningCodes(warnings)).toEqual([['lines[0].__proto__', 'UNKNOWN_FIELD']]);
  });

  it('warns about misspelt fields', async () => {
    const { platform, warnings } = makePlatform();
    await platform.call('quotes.addLines', [[{ ...line(), sectionNote: 'typo' }]]);
    expect(warnings).toEqual([expect.objectContaining({ code: 'UNKNOWN_FIELD', path: 'lines[0].sectionNote', method: 'quotes.addLines' })]);
  });
});

describe('warnings name their line and field, as problems do', () => {
  it('describeWarning reads like an error problem: path, message, code', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([line(), line(), { ...line({ taxRate: 1 }), sectionNote: 'typo' } as never]);
    expect(warnings.map((w) => [w.path, w.code])).toEqual([
      ['lines[2].sectionNote', 'UNKNOWN_FIELD'],
      ['lines[2].taxRate', 'TAX_RATE_IS_ONE'],
    ]);
    const described = warnings.map(describeWarning);
    expect(described[1]).toBe('lines[2].taxRate: is 1, which means 100%; for 1% send 0.01 [TAX_RATE_IS_ONE]');
    expect(described[0]).toMatch(/^lines\[2\]\.sectionNote: .*sectionNotes.* \[UNKNOWN_FIELD\]$/);
    expect(describeWarning({ code: 'DEPRECATED', method: 'costItems.list', path: null, message: 'old' })).toBe('old [DEPRECATED]');
  });
});

describe('details of reading a batch', () => {
  it('an injected task is a whole line: unit T_ITEM and the product line tax rate, from the tenant’s own template', async () => {
    // Another tenant's template of the same code, listed first, is never the one injected.
    const foreign = { id: '30000000-0000-4000-8000-0000000000f1', code: 'T_PLUMBING_CONNECT', name: 'Plumbing (other tenant)', tenantId: OTHER_TENANT_ID };
    const { platform } = makePlatform({ fixtures: { ...DEFAULT_FIXTURES, taskTemplates: [foreign, ...DEFAULT_FIXTURES.taskTemplates] } });
    await platform.sdk.quotes.addLines([line({ linkedItemId: ids.product('SINK-UM-450'), unit: 'T_LINEAR_METRE', taxRate: 12.5 })]);
    expect(linesOf(platform).map((l) => [l.linkedItemId, l.description, l.unit, l.taxRate])).toEqual([
      [ids.product('SINK-UM-450'), 'Undermount sink 450 mm', 'T_LINEAR_METRE', 0.125],
      [ids.task('T_PLUMBING_CONNECT'), 'Plumbing connection', 'T_ITEM', 0.125],
    ]);
  });

  it('a SKU sent as productCode draws a warning only on an unlinked product line, and only for the tenant’s own catalogue', async () => {
    const foreign = { id: '20000000-0000-4000-8000-0000000000f1', sku: 'OVEN-FOREIGN', name: 'Oven (other tenant)', price: 1, unit: 'T_ITEM' as const, tenantId: OTHER_TENANT_ID };
    const { platform, warnings } = makePlatform({ fixtures: { ...DEFAULT_FIXTURES, products: [...DEFAULT_FIXTURES.products, foreign] } });
    await platform.sdk.quotes.addLines([
      line({ lineType: 'task', linkedItemId: ids.task('T_TILING'), productCode: 'HOOD-900' }),
      line({ lineType: 'jobcost', productCode: 'HOOD-900' }),
      line({ linkedItemId: ids.product('BENCH-LAM-3000'), productCode: 'HOOD-900' }),
      line({ productCode: 'OVEN-FOREIGN' }),
      line({ productCode: 'hood-900' }),
    ]);
    expect(warningCodes(warnings)).toEqual([['lines[4].productCode', 'PRODUCT_CODE_NOT_LINKED']]);
  });

  it('a line total of exactly MAX_SAFE_INTEGER cents is allowed; one cent more, or any tax on top, is not', async () => {
    const max = Number.MAX_SAFE_INTEGER; // cents: 90,071,992,547,409.91
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ unitPrice: 0.01, qty: max, taxRate: 0 })]);
    expect(platform.editorView().totals.total).toBe(max / 100);
    for (const changes of [{ qty: max + 1, taxRate: 0 }, { qty: max, taxRate: 0.15 }]) {
      const error = await rejectionOf(makePlatform().platform.sdk.quotes.addLines([line({ unitPrice: 0.01, ...changes })]), 'BATCH_REJECTED');
      expect(error.details.map((p) => `${p.path}: ${p.message}`)).toEqual(['lines[0]: the line total is too large to be represented exactly']);
    }
  });

  it('a line that already has a problem is not priced: its total is not checked as well', async () => {
    const { platform } = makePlatform();
    const missing = '20000000-0000-4000-8000-000000000999';
    for (const [changes, problem] of [
      [{ unit: 'EA' }, ['lines[0].unit', 'UNKNOWN_UNIT']],
      [{ linkedItemId: missing }, ['lines[0].linkedItemId', 'LINKED_ITEM_NOT_FOUND']],
    ] as const) {
      const error = await rejectionOf(platform.sdk.quotes.addLines([line({ ...changes, qty: 1e10, unitPrice: 1e10 })]), 'BATCH_REJECTED');
      expect(problemsOf(error)).toEqual([problem]);
    }
  });

  it('a linkedItemId that wins over productId is the field a failed lookup names', async () => {
    const { platform } = makePlatform();
    const error = await rejectionOf(
      platform.sdk.quotes.addLines([line({ productId: ids.product('HOOD-900'), linkedItemId: '20000000-0000-4000-8000-000000000999' })]),
      'BATCH_REJECTED',
    );
    expect(problemsOf(error)).toEqual([['lines[0].linkedItemId', 'LINKED_ITEM_NOT_FOUND']]);
  });

  it('null options, null summaryOnly and empty notes are the same as none, without a word', async () => {
    const { platform, warnings } = makePlatform();
    await platform.call('quotes.addLines', [[line({ section: 'Kitchen', summaryOnly: null, sectionNotes: '' })], null]);
    expect(warnings).toEqual([]);
    expect(platform.editorView().blocks.map((b) => b.section)).toEqual([{ id: 1, name: 'Kitchen', summaryOnly: false, notes: null }]);
  });

  it('a cut section name loses the spaces the cut leaves at its end, and a whole emoji before the cut stays', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([line({ section: `${'a'.repeat(99)} tail` }), line({ section: `😀${'b'.repeat(120)}` })]);
    expect(platform.editorView().blocks.map((b) => b.section?.name)).toEqual(['a'.repeat(99), `😀${'b'.repeat(98)}`]);
    expect(warningCodes(warnings)).toEqual([
      ['lines[0].section', 'SECTION_NAME_TRUNCATED'],
      ['lines[1].section', 'SECTION_NAME_TRUNCATED'],
    ]);
  });

  it('a declared section name that is cut is warned about at sections[i].name', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addSections([{ name: 'n'.repeat(150) }]);
    expect(warningCodes(warnings)).toEqual([['sections[0].name', 'SECTION_NAME_TRUNCATED']]);
  });
});

describe('declared sections with more than one problem', () => {
  it('a blank name is reported beside notes of the wrong type', async () => {
    const { platform } = makePlatform();
    const error = await rejectionOf(platform.sdk.quotes.addSections([{ name: '  ', notes: 5 as never }, { name: null as never, notes: [] as never }]), 'BATCH_REJECTED');
    expect(problemsOf(error)).toEqual([
      ['sections[0].notes', 'INVALID_TYPE'],
      ['sections[0].name', 'BLANK_SECTION_NAME'],
      ['sections[1].notes', 'INVALID_TYPE'],
      ['sections[1].name', 'BLANK_SECTION_NAME'],
    ]);
  });
});

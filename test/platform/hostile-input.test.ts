import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BridgeModelError, listSdkMethods } from '../../src/platform/index.js';
import { ids, line, makePlatform } from './helpers.js';

/*
 * Tool code is untrusted. Whatever it passes, a call either succeeds or rejects with a
 * BridgeModelError about the arguments, and a rejected call leaves the host exactly as it was.
 */

const hostile = fc.oneof(
  fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withNullPrototype: true, withObjectString: true, withSparseArray: true }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e308, -1e-308, '__proto__', 'constructor', [], {}, null, undefined),
);

/** An add-line record where every field may be replaced by something hostile. */
const hostileLine = fc.record(
  {
    qty: fc.oneof(fc.double(), hostile),
    unitPrice: fc.oneof(fc.double(), hostile),
    costPrice: fc.oneof(fc.double(), hostile),
    taxRate: fc.oneof(fc.double(), hostile),
    discountPercent: fc.oneof(fc.double(), hostile),
    lineType: fc.oneof(fc.constantFrom('product', 'task', 'cost', 'jobcost'), hostile),
    linkedItemId: fc.oneof(fc.constantFrom(ids.product('CAB-BASE-600'), ids.task('T_TILING'), ids.jobcost('SHIPPING')), hostile),
    productId: hostile,
    section: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 150 }), hostile),
    summaryOnly: hostile,
    sectionNotes: fc.oneof(fc.string(), hostile),
    groupKey: fc.oneof(fc.string({ maxLength: 2 }), hostile),
    unit: hostile,
    supplierRef: fc.oneof(fc.constantFrom('stoneworks', 'T_SELF'), hostile),
    __proto__: hostile,
  },
  { requiredKeys: [] },
);

const methods = listSdkMethods('2.5.0');

describe('hostile arguments', () => {
  it('any arguments to any method: success or a BridgeModelError about them, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), fc.array(fc.oneof(hostile, fc.array(hostileLine, { maxLength: 4 })), { maxLength: 3 }), async (method, args) => {
        const { platform } = makePlatform();
        await platform.sdk.quotes.addLines([line({ section: 'Before' })]);
        const before = JSON.stringify([platform.editorView(), await platform.sdk.quotes.list({ pageSize: 1000 }), await platform.sdk.customers.list({ pageSize: 1000 })]);
        try {
          const result = await platform.call(method, args);
          // Results must travel as JSON.
          if (result !== undefined) expect(JSON.parse(JSON.stringify(result))).toEqual(result);
        } catch (error) {
          expect(error).toBeInstanceOf(BridgeModelError);
          expect((error as BridgeModelError).code).not.toBe('INTERNAL_ERROR');
          const after = JSON.stringify([platform.editorView(), await platform.sdk.quotes.list({ pageSize: 1000 }), await platform.sdk.customers.list({ pageSize: 1000 })]);
          expect(after).toBe(before);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('hostile add-line records: whole batches merge or none of them does, and views stay JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileLine, { maxLength: 6 }), async (lines) => {
        const { platform } = makePlatform();
        const count = () => platform.editorView().blocks.reduce((n, b) => n + b.lines.length, 0);
        try {
          await platform.call('quotes.addLines', [lines]);
          expect(count()).toBeGreaterThanOrEqual(lines.length);
        } catch (error) {
          expect(error).toBeInstanceOf(BridgeModelError);
          expect((error as BridgeModelError).code).toBe('BATCH_REJECTED');
          expect((error as BridgeModelError).details.length).toBeGreaterThan(0);
          expect(count()).toBe(0);
        }
        for (const view of [platform.editorView(), platform.customerPreview()]) expect(JSON.parse(JSON.stringify(view))).toEqual(view);
        expect(Object.prototype).not.toHaveProperty('polluted');
      }),
      { numRuns: 400 },
    );
  });

  it('refuses absurdly long batches quickly instead of walking them', async () => {
    const { platform } = makePlatform();
    const huge = new Array(1e9);
    const error = await platform.call('quotes.addLines', [huge]).catch((e: unknown) => e);
    expect((error as BridgeModelError).details.map((d) => d.code)).toEqual(['TOO_MANY_ITEMS']);
    const codes = await platform.call('taskTemplates.list', [{ codes: new Array(1e9) }]).catch((e: unknown) => e);
    expect((codes as BridgeModelError).details.map((d) => d.code)).toEqual(['TOO_MANY_ITEMS']);
  });

  it('keeps amounts exact or refuses them', async () => {
    const { platform } = makePlatform();
    const error = await platform.call('quotes.addLines', [[line({ qty: 1e300, unitPrice: 1e300 })]]).catch((e: unknown) => e);
    expect((error as BridgeModelError).details.map((d) => [d.path, d.code])).toEqual([['lines[0]', 'OUT_OF_RANGE']]);
    await platform.sdk.quotes.addLines([line({ qty: 9_000_000, unitPrice: 9_000_000, taxRate: 0 })]);
    const second = await platform.call('quotes.addLines', [[line({ qty: 9_000_000, unitPrice: 9_000_000, taxRate: 0 })]]).catch((e: unknown) => e);
    expect((second as BridgeModelError).details.map((d) => [d.path, d.code])).toEqual([['lines', 'OUT_OF_RANGE']]);
    expect(platform.editorView().totals.total).toBe(81_000_000_000_000);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES, isSupportedSdkVersion } from '../../src/platform/index.js';
import { describeUnknownMethod, hasSince, listSdkMethods } from '../../src/platform/sdk-versions.js';
import { line, makePlatform, rejectionOf, warningCodes } from './helpers.js';

/*
 * Smaller rules of the model, each at its edge: what a setting may hold, how versions compare,
 * which method an unknown name is pointed to, and which supplier a line falls back to.
 */

describe('what a setting may hold', () => {
  const refusal = async (value: unknown) => {
    const { platform } = makePlatform();
    const error = await rejectionOf(platform.call('settings.set', ['k', value]), 'INVALID_ARGUMENT');
    return error.details.map((p) => p.message);
  };
  const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);

  it('up to 64 levels of nesting below the value itself', async () => {
    const { platform } = makePlatform();
    await platform.sdk.settings.set('k', nested(64) as never);
    expect(await platform.sdk.settings.get('k')).toEqual(nested(64));
    // The number inside 65 arrays sits 65 levels down.
    expect(await refusal(nested(65))).toEqual([`must be JSON data: value${'[0]'.repeat(65)} is nested more than 64 levels deep (or refers to itself)`]);
  });

  it('names the first value JSON cannot hold, anywhere in an object, with what it is', async () => {
    expect(await refusal({ a: 1, b: undefined })).toEqual(['must be JSON data: value.b is undefined, which JSON cannot hold']);
    expect(await refusal({ a: { f: () => 1 } })).toEqual(['must be JSON data: value.a.f is a function, which JSON cannot hold']);
    expect(await refusal([1n])).toEqual(['must be JSON data: value[0] is a bigint, which JSON cannot hold']);
    expect(await refusal({ when: new Date(0) })).toEqual(['must be JSON data: value.when is not a plain object']);
  });

  it('an object without a prototype is plain data', async () => {
    const { platform } = makePlatform();
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    await platform.sdk.settings.set('k', bare as never);
    expect(await platform.sdk.settings.get('k')).toEqual({ a: 1 });
  });
});

describe('SDK versions', () => {
  it('compare part by part as numbers, patch included', () => {
    expect(hasSince('10.0.0', '2.1.0')).toBe(true);
    expect(hasSince('2.10.0', '2.5.0')).toBe(true);
    expect(hasSince('2.5.0', '2.5.1')).toBe(false);
    expect(hasSince('2.5.10', '2.5.9')).toBe(true);
    expect(isSupportedSdkVersion('2.4.10')).toBe(true);
  });

  it('a version or a since that is not x.y.z has nothing', () => {
    expect(hasSince('2.5', '2.1.0')).toBe(false);
    expect(hasSince('2.5.0', 'soon')).toBe(false);
  });
});

describe('unknown method names', () => {
  it('far from every method, the nearest method of the same namespace is offered', () => {
    const methods = listSdkMethods('2.5.0');
    expect(describeUnknownMethod('quotes.x', methods)).toBe('quotes.x is not a bridge method. Did you mean quotes.list? (quotes has list, create, addLines, addSections)');
    // Edit distances 15, 10, 14 and 12: create; 12, 11, 9 and 7: addSections.
    expect(describeUnknownMethod('quotes.createEverything', methods)).toBe(
      'quotes.createEverything is not a bridge method. Did you mean quotes.create? (quotes has list, create, addLines, addSections)',
    );
    expect(describeUnknownMethod('quotes.addEverything', methods)).toBe(
      'quotes.addEverything is not a bridge method. Did you mean quotes.addSections? (quotes has list, create, addLines, addSections)',
    );
    expect(describeUnknownMethod('nothing.here', methods)).toBe('nothing.here is not a bridge method.');
  });

  it('a near spelling of any method wins over the namespace the name starts with', () => {
    const methods = listSdkMethods('2.5.0');
    expect(describeUnknownMethod('jobs.customers.list', methods)).toBe('jobs.customers.list is not a bridge method. Did you mean customers.list? (jobs has list)');
  });

  it('of namespace members equally far away, the first listed is offered', () => {
    const methods = listSdkMethods('2.5.0');
    // Edit distance 8 to both get and set.
    expect(describeUnknownMethod('settings.abcdefgh', methods)).toBe('settings.abcdefgh is not a bridge method. Did you mean settings.get? (settings has get, set)');
  });
});

describe('suppliers', () => {
  it("a line without a supplier goes to the tenant's Self row, whatever its name and place", async () => {
    const suppliers = [
      { id: '60000000-0000-4000-8000-0000000000c1', reference: 'BUNN-TRADE', name: 'Bunnings Trade' },
      { id: '60000000-0000-4000-8000-0000000000c2', reference: 'T_SELF', name: 'In-house' },
    ];
    const { platform } = makePlatform({ fixtures: { ...DEFAULT_FIXTURES, suppliers } });
    await platform.sdk.quotes.addLines([line(), line({ supplierRef: '  ' })]);
    expect(platform.editorView().blocks[0]!.lines.map((l) => [l.supplierRef, l.supplierName])).toEqual([
      ['T_SELF', 'In-house'],
      ['T_SELF', 'In-house'],
    ]);
  });

  it('quotes.addLines ignores letter case by lower case: STRASSE is not the supplier Straße', async () => {
    const suppliers = [...DEFAULT_FIXTURES.suppliers, { id: '60000000-0000-4000-8000-0000000000c3', reference: 'STRASSE-1', name: 'Straße' }];
    const { platform, warnings } = makePlatform({ fixtures: { ...DEFAULT_FIXTURES, suppliers } });
    await platform.sdk.quotes.addLines([line({ supplierRef: 'strasse-1' }), line({ supplierRef: 'STRASSE' })]);
    expect(platform.editorView().blocks[0]!.lines.map((l) => l.supplierRef)).toEqual(['STRASSE-1', 'T_SELF']);
    expect(warningCodes(warnings)).toEqual([['lines[1].supplierRef', 'SUPPLIER_NOT_RESOLVED']]);
  });

  it('a blank supplierRef is no supplier and draws no warning', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([line({ supplierRef: ' \t ' })]);
    expect(warnings).toEqual([]);
  });

  it('quotes.create and quotes.addLines match supplierRef by one rule: reference, then name, ignoring case', async () => {
    const { platform, warnings } = makePlatform();
    const refs = ['bunn-trade', 'bunnings trade', 'PlaceMakers RICCARTON', 'totara-timber', 'nobody'];
    const made = await platform.sdk.quotes.create({ customerName: 'A', upsertByEmail: false, lines: refs.map((supplierRef) => ({ qty: 1, unitPrice: 1, taxRate: 0, supplierRef })) });
    const created = platform.createdQuotes().find((quote) => quote.id === made.id)!;
    await platform.sdk.quotes.addLines(refs.map((supplierRef) => line({ supplierRef })));
    const added = platform.editorView().blocks.flatMap((block) => block.lines);
    const expected = ['BUNN-TRADE', 'BUNN-TRADE', 'PLACE-RIC', 'T_SELF', 'T_SELF'];
    expect(created.lines.map((l) => l.supplierRef)).toEqual(expected);
    expect(added.map((l) => l.supplierRef)).toEqual(expected);
    // The same two fall back, with the same reasons, in both.
    expect(warnings.map((w) => [w.method, w.path, w.message])).toEqual([
      ['quotes.create', 'lines[3].supplierRef', '"totara-timber" fell back to the Self supplier: supplier "Totara Timber Co" is inactive'],
      ['quotes.create', 'lines[4].supplierRef', '"nobody" fell back to the Self supplier: no active supplier has that reference or name'],
      ['quotes.addLines', 'lines[3].supplierRef', '"totara-timber" fell back to the Self supplier: supplier "Totara Timber Co" is inactive'],
      ['quotes.addLines', 'lines[4].supplierRef', '"nobody" fell back to the Self supplier: no active supplier has that reference or name'],
    ]);
  });
});

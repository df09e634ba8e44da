import { describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/platform/index.js';
import { makePlatform, rejectionOf, warningCodes } from './helpers.js';

/*
 * The platform object itself: the options it refuses and in what words, what it does without the
 * optional ones, and how calls are dispatched to the methods.
 */

describe('createPlatform options', () => {
  it('refuses a missing tool id, an unknown tool type and an unsupported SDK version, saying which and why', () => {
    expect(() => createPlatform({ toolId: '', toolType: 'standalone' })).toThrow(new TypeError('createPlatform: toolId must be a non-empty string'));
    expect(() => createPlatform({ toolId: 5 as never, toolType: 'standalone' })).toThrow(new TypeError('createPlatform: toolId must be a non-empty string'));
    expect(() => createPlatform({ toolId: 't', toolType: 'widget' as never })).toThrow(
      new TypeError('createPlatform: toolType must be standalone or quoting_extension, got "widget"'),
    );
    expect(() => createPlatform({ toolId: 't', toolType: 'standalone', sdkVersion: '2.6.0' })).toThrow(
      new RangeError('createPlatform: sdkVersion must be a version from 2.1.0 to 2.5.0, got "2.6.0"'),
    );
  });

  it('without generateId, now and onWarning: random GUIDs, the current time, and warnings go nowhere', async () => {
    const platform = createPlatform({ toolId: 't', toolType: 'standalone' });
    const before = Date.now();
    const made = await platform.sdk.quotes.create({ customerName: 'A', upsertByEmail: false, lines: [{ qty: 1, unitPrice: 1, taxRate: 0 }], colour: 'red' } as never);
    const after = Date.now();
    expect(made.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const date = Date.parse(platform.createdQuotes()[0]!.date);
    expect(date >= before && date <= after).toBe(true);
    // A REST quote with a warning, and no one to hear it.
    const api = platform.createApiQuote({ customerId: '10000000-0000-4000-8000-000000000001', lines: [{ skuId: '20000000-0000-4000-8000-000000000010', qty: 1, unitPrice: 1 }], note: 'x' });
    expect(api.id).not.toBe(made.id);
  });
});

describe('dispatching calls', () => {
  it('a call without arguments is a call with none', async () => {
    const { platform } = makePlatform();
    expect(await platform.call('customers.list')).toMatchObject({ page: 1, pageSize: 50, totalCount: 8 });
  });

  it('names at most 100 characters of an unknown method', async () => {
    const { platform } = makePlatform();
    const error = await rejectionOf(platform.call('x'.repeat(150)), 'UNKNOWN_METHOD');
    expect(error.message).toBe(`${'x'.repeat(100)} is not a bridge method.`);
    expect(error.method).toBe('x'.repeat(150));
  });

  it('a fault inside the emulator is an INTERNAL_ERROR naming the method and the fault, with the fault as its cause', async () => {
    const fault = new Error('disk gone');
    const { platform } = makePlatform({ settingsStore: { read: () => Promise.reject(fault), write: () => undefined } });
    const error = await rejectionOf(platform.sdk.settings.get('k'), 'INTERNAL_ERROR');
    expect(error.message).toBe('settings.get failed inside the emulator: Error: disk gone');
    expect(error.details).toEqual([]);
    expect(error.cause).toBe(fault);
  });

  it('only the template and cost-item lists filter by codes; the others page and call codes unknown', async () => {
    const { platform, warnings } = makePlatform();
    const codes = { codes: ['HOOD-900', 'TRAVEL-KM', 'J-2031', 'Q-1037'] };
    expect((await platform.sdk.products.list(codes as never)).totalCount).toBe(12);
    expect((await platform.sdk.jobs.list(codes as never)).totalCount).toBe(4);
    expect((await platform.sdk.quotes.list(codes as never)).totalCount).toBe(5);
    expect(warningCodes(warnings)).toEqual([
      ['codes', 'UNKNOWN_FIELD'],
      ['codes', 'UNKNOWN_FIELD'],
      ['codes', 'UNKNOWN_FIELD'],
    ]);
    const costItems = await platform.sdk.costItems.list(codes as never);
    expect(costItems.items.map((c) => c.code)).toEqual(['TRAVEL-KM']);
  });
});

describe('errors', () => {
  it('a refused call says it was refused; a rejected batch says nothing was changed', async () => {
    const { platform } = makePlatform();
    const refused = await rejectionOf(platform.call('settings.get', [5]), 'INVALID_ARGUMENT');
    expect(refused.message).toBe('settings.get was refused (1 problem): key: must be a string, got 5 [INVALID_TYPE]');
    expect(refused.name).toBe('BridgeModelError');
  });

  it('an error without problems has empty details, and its JSON form has every field', async () => {
    const { platform } = makePlatform();
    const error = await rejectionOf(platform.call('nothing.here'), 'UNKNOWN_METHOD');
    expect(error.details).toEqual([]);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'BridgeModelError',
      code: 'UNKNOWN_METHOD',
      method: 'nothing.here',
      message: 'nothing.here is not a bridge method.',
      details: [],
    });
  });
});

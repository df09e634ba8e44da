import { describe, expect, it } from 'vitest';
import {
  createMemorySettingsStore,
  DEFAULT_FIXTURES,
  OTHER_TENANT_ID,
  type JsonValue,
  type SettingsScope,
  type SettingsStore,
} from '../../src/platform/index.js';
import { makePlatform, problemsOf, rejectionOf } from './helpers.js';

describe('settings.get and settings.set (§4.3)', () => {
  it('a missing key reads as null; a stored value reads back', async () => {
    const { platform } = makePlatform({ toolType: 'standalone' });
    expect(await platform.sdk.settings.get('markup')).toBeNull();
    expect(await platform.sdk.settings.set('markup', { percent: 35, rounding: [0.5, 1] })).toBeUndefined();
    expect(await platform.sdk.settings.get('markup')).toEqual({ percent: 35, rounding: [0.5, 1] });
  });

  it('stores any JSON value, including null to clear', async () => {
    const { platform } = makePlatform();
    for (const value of ['text', 0, -1.5, true, false, [], {}, [{ a: [null] }], null]) {
      await platform.sdk.settings.set('k', value);
      expect(await platform.sdk.settings.get('k')).toEqual(value);
    }
  });

  it('keeps settings apart per tool and per tenant', async () => {
    const store = createMemorySettingsStore();
    const { platform } = makePlatform({ settingsStore: store });
    await platform.sdk.settings.set('theme', 'dark');
    expect(await platform.call('settings.get', ['theme'], { toolId: 'another-tool', toolType: 'standalone' })).toBeNull();
    const otherTenant = makePlatform({ settingsStore: store, context: { tenantId: OTHER_TENANT_ID } }).platform;
    expect(await otherTenant.sdk.settings.get('theme')).toBeNull();
    expect(store.entries()).toEqual([{ tenantId: DEFAULT_FIXTURES.context.tenantId, toolId: 'test-tool', key: 'theme', value: 'dark' }]);
  });

  it('hands out copies, so neither side can change the other’s value', async () => {
    const { platform } = makePlatform();
    const value = { list: [1, 2] };
    await platform.sdk.settings.set('v', value);
    value.list.push(3);
    const read = await platform.sdk.settings.get<{ list: number[] }>('v');
    read!.list.push(4);
    expect(await platform.sdk.settings.get('v')).toEqual({ list: [1, 2] });
  });

  it('keeps a __proto__ key as plain data', async () => {
    const { platform } = makePlatform();
    await platform.sdk.settings.set('p', JSON.parse('{"__proto__":{"polluted":1}}'));
    expect(JSON.stringify(await platform.sdk.settings.get('p'))).toBe('{"__proto__":{"polluted":1}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('rejects keys that are not non-empty strings and values JSON cannot hold', async () => {
    const { platform } = makePlatform();
    for (const key of [undefined, null, '']) {
      expect(problemsOf(await rejectionOf(platform.call('settings.get', [key]), 'INVALID_ARGUMENT'))).toEqual([['key', 'REQUIRED']]);
    }
    expect(problemsOf(await rejectionOf(platform.call('settings.get', [5]), 'INVALID_ARGUMENT'))).toEqual([['key', 'INVALID_TYPE']]);
    expect(problemsOf(await rejectionOf(platform.call('settings.set', ['k']), 'INVALID_ARGUMENT'))).toEqual([['value', 'REQUIRED']]);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    // eslint-disable-next-line no-sparse-arrays
    for (const value of [Number.NaN, () => 1, new Date(0), new Map(), { a: undefined }, [1, , 3], cyclic, deep, 10n]) {
      const error = await rejectionOf(platform.call('settings.set', ['k', value]), 'INVALID_ARGUMENT');
      expect(problemsOf(error)).toEqual([['value', 'INVALID_TYPE']]);
    }
    expect(await platform.sdk.settings.get('k')).toBeNull();
  });

  it('uses a pluggable, possibly asynchronous store, with fixture settings as defaults', async () => {
    const writes: [SettingsScope, string, JsonValue][] = [];
    const saved = new Map<string, JsonValue>();
    const store: SettingsStore = {
      read: async (_scope, key) => saved.get(key),
      write: async (scope, key, value) => {
        writes.push([scope, key, value]);
        saved.set(key, value);
      },
    };
    const fixtures = { ...DEFAULT_FIXTURES, settings: [{ toolId: 'test-tool', key: 'units', value: 'metric' }] };
    const { platform } = makePlatform({ settingsStore: store, fixtures });
    expect(await platform.sdk.settings.get('units')).toBe('metric');
    await platform.sdk.settings.set('units', 'imperial');
    expect(await platform.sdk.settings.get('units')).toBe('imperial');
    expect(writes).toEqual([[{ tenantId: DEFAULT_FIXTURES.context.tenantId, toolId: 'test-tool' }, 'units', 'imperial']]);
  });

  it('a stored null is the stored value: only a key never set falls back to the fixture', async () => {
    const fixtures = { ...DEFAULT_FIXTURES, settings: [{ toolId: 'test-tool', key: 'units', value: 'metric' }] };
    const { platform } = makePlatform({ fixtures, settingsStore: createMemorySettingsStore() });
    expect(await platform.sdk.settings.get('units')).toBe('metric');
    await platform.sdk.settings.set('units', null);
    expect(await platform.sdk.settings.get('units')).toBeNull();
    await platform.sdk.settings.set('units', false);
    expect(await platform.sdk.settings.get('units')).toBe(false);
    await platform.sdk.settings.set('units', 'imperial');
    expect(await platform.sdk.settings.get('units')).toBe('imperial');
    // Another key of the same tool still reads its fixture default, or null.
    expect(await platform.sdk.settings.get('never-set')).toBeNull();
  });

  it('a failing store surfaces as INTERNAL_ERROR, not as a fault of the tool', async () => {
    const store: SettingsStore = {
      read: () => {
        throw new Error('disk gone');
      },
      write: () => undefined,
    };
    const { platform } = makePlatform({ settingsStore: store });
    await rejectionOf(platform.sdk.settings.get('x'), 'INTERNAL_ERROR');
  });
});

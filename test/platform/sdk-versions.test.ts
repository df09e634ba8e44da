import { describe, expect, it } from 'vitest';
import { createPlatform, isSupportedSdkVersion, listSdkMethods } from '../../src/platform/index.js';
import { line, makePlatform, rejectionOf, warningCodes } from './helpers.js';

describe('methods by SDK version (§9.3)', () => {
  it('lists what each version has', () => {
    const v210 = listSdkMethods('2.1.0');
    expect(v210).toEqual([
      'context.get',
      'customers.list',
      'products.list',
      'taskTemplates.list',
      'costItems.list',
      'jobs.list',
      'quotes.list',
      'quotes.create',
      'quotes.addLines',
    ]);
    expect(listSdkMethods('2.2.0')).toEqual([...v210.slice(0, 5), 'jobCostTemplates.list', ...v210.slice(5)]);
    expect(listSdkMethods('2.3.0')).toEqual([...listSdkMethods('2.2.0'), 'settings.get', 'settings.set']);
    expect(listSdkMethods('2.4.0')).toEqual(listSdkMethods('2.3.0'));
    expect(listSdkMethods('2.5.0')).toHaveLength(13);
    expect(listSdkMethods('2.5.0')).toContain('quotes.addSections');
  });

  it('accepts 2.1.0 to 2.5.0, patch releases included', () => {
    for (const version of ['2.1.0', '2.1.2', '2.3.0', '2.4.9', '2.5.0']) expect(isSupportedSdkVersion(version)).toBe(true);
    for (const version of ['2.0.9', '2.5.1', '2.6.0', '3.0.0', '2.5', 'v2.5.0', '2.5.0-beta.1', '02.5.0', '']) {
      expect(isSupportedSdkVersion(version)).toBe(false);
    }
    expect(() => createPlatform({ toolId: 't', toolType: 'standalone', sdkVersion: '2.6.0' })).toThrow(RangeError);
  });

  it('an older host leaves later methods out of window.pipeline entirely', () => {
    const { sdk } = makePlatform({ sdkVersion: '2.1.0' }).platform;
    expect(sdk.version).toBe('2.1.0');
    expect('jobCostTemplates' in sdk).toBe(false);
    expect('settings' in sdk).toBe(false);
    expect('addSections' in sdk.quotes).toBe(false);
    expect(typeof sdk.quotes.addLines).toBe('function');
    expect(typeof sdk.costItems.list).toBe('function');

    const v240 = makePlatform({ sdkVersion: '2.4.0' }).platform.sdk;
    expect(typeof v240.settings.get).toBe('function');
    expect('addSections' in v240.quotes).toBe(false);
    expect(Object.keys(makePlatform().platform.sdk.quotes)).toEqual(['list', 'create', 'addLines', 'addSections']);
  });

  it('calling an absent method by name fails with METHOD_NOT_AVAILABLE', async () => {
    const { platform } = makePlatform({ sdkVersion: '2.1.0' });
    for (const method of ['jobCostTemplates.list', 'settings.get', 'settings.set', 'quotes.addSections']) {
      const error = await rejectionOf(platform.call(method, []), 'METHOD_NOT_AVAILABLE');
      expect(error.method).toBe(method);
    }
    await rejectionOf(makePlatform({ sdkVersion: '2.2.0' }).platform.call('settings.get', ['k']), 'METHOD_NOT_AVAILABLE');
    expect(await makePlatform({ sdkVersion: '2.3.0' }).platform.call('settings.get', ['k'])).toBeNull();
  });

  it('a name that is no bridge method fails with UNKNOWN_METHOD', async () => {
    const { platform } = makePlatform();
    for (const method of ['quotes.delete', 'quotes', '__proto__', 'toString', 'constructor', '', Object.create(null), 42]) {
      await rejectionOf(platform.call(method as string, []), 'UNKNOWN_METHOD');
    }
  });

  it('an older host ignores the sections option of addLines, as a real one would', async () => {
    const { platform, warnings } = makePlatform({ sdkVersion: '2.4.0' });
    await platform.sdk.quotes.addLines([line({ section: 'Kept' })], { sections: [{ name: 'Ignored' }, { name: '' }] });
    expect(platform.editorView().blocks.map((b) => b.section?.name)).toEqual(['Kept']);
    expect(warningCodes(warnings)).toEqual([['sections', 'OPTION_NOT_AVAILABLE']]);
  });

  it('the legacy productId works on the SDK generation it was made for', async () => {
    const { platform } = makePlatform({ sdkVersion: '2.1.2' });
    await platform.sdk.quotes.addLines([line({ productId: '20000000-0000-4000-8000-000000000007' })]);
    expect(platform.editorView().blocks[0]!.lines[0]!.linkedCode).toBe('HANDLE-BAR-160');
  });

  it('checks its own options', () => {
    expect(() => createPlatform({ toolId: '', toolType: 'standalone' })).toThrow(TypeError);
    expect(() => createPlatform({ toolId: 't', toolType: 'extension' as never })).toThrow(TypeError);
  });
});

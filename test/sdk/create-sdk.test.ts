import { describe, expect, it } from 'vitest';
import { BRIDGE_METHODS, listSdkMethods } from '../../src/platform/index.js';
import { describeUnknownMethod } from '../../src/platform/sdk-versions.js';
import { createSdk, type SdkCall } from '../../src/sdk/create-sdk.js';

/*
 * The one implementation of `window.pipeline`, with a transport that only records what it is
 * given: the dev frame and the testing kit differ in nothing else.
 */

function recordingSdk(version = '2.5.0') {
  const sent: SdkCall[] = [];
  const handle = createSdk({ version, methods: listSdkMethods(version), known: Object.keys(BRIDGE_METHODS) }, { send: (call) => sent.push(call) });
  const sdk = handle.sdk as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> & { version: string };
  return { handle, sdk, sent };
}

describe('createSdk', () => {
  it('holds calls made before the host is ready, then sends them in order, numbered from 1', async () => {
    const { handle, sdk, sent } = recordingSdk();
    const first = sdk['context']!['get']!();
    const second = sdk['quotes']!['addLines']!([{ description: 'a' }]);
    expect(sent).toEqual([]);
    handle.ready();
    expect(sent.map((call) => [call.seq, call.method])).toEqual([
      [1, 'context.get'],
      [2, 'quotes.addLines'],
    ]);
    void sdk['settings']!['get']!('k');
    expect(sent.at(-1)).toEqual({ seq: 3, method: 'settings.get', args: ['k'] });
    handle.settle(2, { ok: true });
    handle.settle(1, { ok: true, value: { userName: 'A' } });
    await expect(first).resolves.toEqual({ userName: 'A' });
    await expect(second).resolves.toBeUndefined();
    expect(handle.pending()).toBe(1);
  });

  it('gives a refused call the stack of the line that made it, without the SDK\'s own frames', async () => {
    const { handle, sdk } = recordingSdk();
    handle.ready();
    const callFromHere = () => sdk['quotes']!['addLines']!([]);
    const pending = callFromHere();
    handle.settle(1, { ok: false, error: { code: 'BATCH_REJECTED', message: 'no' } });
    const error = (await pending.catch((failure: unknown) => failure)) as Error;
    const frames = (error.stack ?? '').split('\n');
    expect(frames[0]).toBe('BridgeError: no');
    // The first frame is this test's arrow function, on this file's line.
    expect(frames[1]).toMatch(/callFromHere .*create-sdk\.test\.ts:\d+:\d+\)$/);
    expect(error.stack).not.toMatch(/src[\\/]sdk[\\/]create-sdk\.ts/);
    // Refused before it is sent, for arguments no host could receive: the same.
    const unclonable = await sdk['settings']!['set']!('k', () => 1).catch((failure: unknown) => failure);
    expect((unclonable as Error).stack!.split('\n')[1]).toMatch(/create-sdk\.test\.ts:\d+:\d+\)?$/);
  });

  it('sends a copy of the arguments, so later changes by the tool do not travel', () => {
    const { handle, sdk, sent } = recordingSdk();
    handle.ready();
    const lines = [{ description: 'before', qty: Number.NaN }];
    void sdk['quotes']!['addLines']!(lines);
    lines[0]!.description = 'after';
    expect(sent[0]!.args).toEqual([[{ description: 'before', qty: Number.NaN }]]);
  });

  it('refuses arguments that cannot cross to the host, without using up a place in the sequence', async () => {
    const { handle, sdk, sent } = recordingSdk();
    handle.ready();
    await expect(sdk['settings']!['set']!('handler', () => 1)).rejects.toMatchObject({ name: 'BridgeError', code: 'INVALID_ARGUMENT', method: 'settings.set' });
    void sdk['context']!['get']!();
    expect(sent.map((call) => call.seq)).toEqual([1]);
  });

  it('rebuilds a failure as an Error named BridgeError with code, method and details', async () => {
    const { handle, sdk } = recordingSdk();
    handle.ready();
    const call = sdk['quotes']!['addLines']!([]);
    handle.settle(1, { ok: false, error: { code: 'BATCH_REJECTED', message: 'no', details: [{ code: 'EMPTY_LIST', path: 'lines' }] } });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'BridgeError', code: 'BATCH_REJECTED', method: 'quotes.addLines', message: 'no', details: [{ code: 'EMPTY_LIST' }] });
  });

  it('sends a call of an unknown name on a namespace to the host, which names the nearest method', () => {
    const { handle, sdk, sent } = recordingSdk();
    handle.ready();
    const quotes = sdk['quotes']!;
    expect(typeof quotes['update']).toBe('function');
    expect(quotes['update']).toBe(quotes['update']);
    void quotes['update']!({ id: 1 });
    expect(sent).toEqual([{ seq: 1, method: 'quotes.update', args: [{ id: 1 }] }]);
    // Its members stay fixed: listing, `in` and JSON see only the real methods.
    expect(Object.keys(quotes)).toEqual(['list', 'create', 'addLines', 'addSections']);
    expect('update' in quotes).toBe(false);
  });

  it('leaves out the methods of later SDK versions, so tools can test for them', () => {
    const { sdk } = recordingSdk('2.2.0');
    expect(sdk.version).toBe('2.2.0');
    expect(sdk['quotes']!['addSections']).toBeUndefined();
    expect(sdk['settings']).toBeUndefined();
    expect(typeof sdk['jobCostTemplates']!['list']).toBe('function');
  });

  it('answers probes for promise, matcher and prototype names as absent: awaiting a namespace calls nothing', async () => {
    const { handle, sdk, sent } = recordingSdk();
    handle.ready();
    const quotes = sdk['quotes']!;
    for (const name of ['then', 'catch', 'toJSON', 'asymmetricMatch', 'nodeType', 'Update', 'up-date', '$$typeof']) expect(quotes[name]).toBeUndefined();
    expect(typeof quotes['hasOwnProperty']).toBe('function');
    expect(await Promise.resolve(quotes)).toBe(quotes);
    expect(JSON.stringify(sdk['context'])).toBe('{}');
    expect(sent).toEqual([]);
  });
});

describe('describeUnknownMethod', () => {
  const methods = listSdkMethods('2.5.0');
  it.each([
    ['quotes.update', 'Did you mean quotes.create?', '(quotes has list, create, addLines, addSections)'],
    ['quotes.addline', 'Did you mean quotes.addLines?', '(quotes has'],
    ['quote.addLines', 'Did you mean quotes.addLines?', ''],
    ['settings.remove', 'Did you mean settings.', '(settings has get, set)'],
  ])('%s: %s', (name, hint, members) => {
    const message = describeUnknownMethod(name, methods);
    expect(message.startsWith(`${name} is not a bridge method.`)).toBe(true);
    expect(message).toContain(hint);
    expect(message).toContain(members);
  });

  it('suggests nothing when nothing is near', () => {
    expect(describeUnknownMethod('weather.forecast', methods)).toBe('weather.forecast is not a bridge method.');
  });
});

describe('the platform model', () => {
  it('rejects an unknown name with UNKNOWN_METHOD, naming the nearest method of its own SDK version', async () => {
    const { createPlatform } = await import('../../src/platform/index.js');
    const platform = createPlatform({ toolId: 't', toolType: 'quoting_extension', sdkVersion: '2.5.0' });
    const error = await platform.call('quotes.addline', [[]]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNKNOWN_METHOD', method: 'quotes.addline' });
    expect((error as Error).message).toContain('Did you mean quotes.addLines?');
  });
});

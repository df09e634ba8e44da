import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestHost, type TestHost } from '../../src/testing/index.js';

/*
 * The finer points of createTestHost a tool's test relies on: what it makes of a manifest given
 * as an object, what a call record holds while the host works on it, where install() puts
 * window.pipeline and what close() takes away, how settled() copes with fake timers and with a
 * tool that never stops calling. (test/testing/test-host.test.ts holds the main uses.)
 */

let hosts: TestHost[] = [];
const host = async (options: Parameters<typeof createTestHost>[0] = {}) => {
  const made = await createTestHost(options);
  hosts.push(made);
  return made;
};
afterEach(() => {
  vi.useRealTimers();
  for (const made of hosts) made.close();
  hosts = [];
});

describe('a manifest given as an object', () => {
  it('takes the trimmed name, a known type and the entry, with nothing to note', async () => {
    const test = await host({ manifest: { name: '  Kitchen  ', type: 'quoting_extension', entry: 'start.html' } });
    expect(test.tool).toEqual({ toolId: 'Kitchen', toolType: 'quoting_extension', entry: 'start.html' });
    expect(test.notices).toEqual([]);
    const standalone = await host({ manifest: { name: 'Side', type: 'standalone' } });
    expect(standalone.tool).toEqual({ toolId: 'Side', toolType: 'standalone', entry: 'index.html' });
    expect(standalone.notices).toEqual([]);
  });

  it('falls back as dev does: test-tool for a missing or blank name, index.html for a missing or empty entry, standalone for an unknown type', async () => {
    for (const manifest of [{ name: 7, entry: '' }, { name: '   ', entry: 3 }, {}]) {
      const test = await host({ manifest });
      expect(test.tool).toEqual({ toolId: 'test-tool', toolType: 'standalone', entry: 'index.html' });
      expect(test.notices).toEqual(['the manifest has no valid type: acting as standalone, as the platform would.']);
    }
    expect((await host({ manifest: { name: 'x', type: 'Standalone' } })).notices).toHaveLength(1);
  });

  it('with none at all, or null, is a standalone test-tool with nothing to note', async () => {
    for (const manifest of [undefined, null as never]) {
      const test = await host({ manifest });
      expect(test.tool).toEqual({ toolId: 'test-tool', toolType: 'standalone', entry: 'index.html' });
      expect(test.notices).toEqual([]);
    }
  });

  it('gives way to toolId, which keys the settings', async () => {
    const test = await host({ manifest: { name: 'Named', type: 'standalone' }, toolId: 'other-id', settings: { a: 1 } });
    expect(test.tool.toolId).toBe('other-id');
    expect(await test.pipeline.settings.get('a')).toBe(1);
  });
});

describe('options it refuses', () => {
  it('an SDK version it does not know, named as the kit\'s own option', async () => {
    await expect(createTestHost({ sdkVersion: '3.0.0' })).rejects.toThrow(new RangeError('createTestHost: sdkVersion must be a version from 2.1.0 to 2.5.0, got "3.0.0"'));
    await expect(createTestHost({ sdkVersion: 2.5 as never })).rejects.toThrow(new RangeError('createTestHost: sdkVersion must be a version from 2.1.0 to 2.5.0, got 2.5'));
  });

  it('fixtures given as an object that break the format, naming the option', async () => {
    const error = await createTestHost({ fixtures: { customers: 'none' } as never }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'FixtureError' });
    expect((error as Error).message).toMatch(/^the fixtures option/);
  });
});

describe('the call log', () => {
  it('holds a call as pending, with no warnings yet, until the host has answered it', async () => {
    const test = await host();
    const answer = test.pipeline.customers.list();
    // The call reaches the host a few turns of the microtask queue after it is made.
    while (test.calls.length === 0) await Promise.resolve();
    expect(test.calls).toEqual([{ method: 'customers.list', args: [], status: 'pending', warnings: [] }]);
    await answer;
    expect(test.calls[0]!.status).toBe('resolved');
  });

  it('shows the quotes made and the context told, as the tool got them', async () => {
    const test = await host({ userRole: 'H_Field' });
    const context = await test.pipeline.context.get();
    expect(test.context()).toEqual(context);
    expect(test.context().userRole).toBe('H_Field');
    const made = await test.pipeline.quotes.create({ customerName: 'Ana', upsertByEmail: false, lines: [{ description: 'Hood', qty: 1, unitPrice: 899, taxRate: 0.15 }] });
    expect(test.createdQuotes()).toEqual([expect.objectContaining({ id: made.id, ref: made.ref })]);
  });
});

describe('install() and close()', () => {
  it('define pipeline on the given object as a plain, replaceable property, and take it away', async () => {
    const test = await host();
    const target: Record<string, unknown> = {};
    test.install(target);
    expect(Object.getOwnPropertyDescriptor(target, 'pipeline')).toEqual({ value: test.pipeline, enumerable: true, configurable: true, writable: true });
    test.close();
    expect(target).toEqual({});
  });

  it('leave alone a pipeline the test put there since', async () => {
    const test = await host();
    const target: Record<string, unknown> = {};
    test.install(target);
    target['pipeline'] = 'the test\'s own';
    test.close();
    expect(target['pipeline']).toBe('the test\'s own');
  });

  it('without a target, use the global object, and a window beside it when there is one', async () => {
    const global = globalThis as { pipeline?: unknown; window?: unknown };
    const test = await host();
    expect(global.window).toBeUndefined();
    test.install();
    expect(global.pipeline).toBe(test.pipeline);
    test.close();
    expect('pipeline' in global).toBe(false);

    const window: { pipeline?: unknown } = {};
    global.window = window;
    try {
      test.install();
      expect(global.pipeline).toBe(test.pipeline);
      expect(window.pipeline).toBe(test.pipeline);
      test.close();
      expect('pipeline' in global || 'pipeline' in window).toBe(false);
      // A window that is the global object itself is defined on once.
      global.window = globalThis;
      test.install();
      expect(global.pipeline).toBe(test.pipeline);
      test.close();
      expect('pipeline' in global).toBe(false);
    } finally {
      delete global.window;
    }
  });
});

describe('settled()', () => {
  it('is not stalled by fake timers installed after the kit was imported', async () => {
    const test = await host();
    vi.useFakeTimers();
    const chain = (left: number): Promise<unknown> => test.pipeline.context.get().then(() => (left > 0 ? chain(left - 1) : undefined));
    void chain(3);
    await test.settled();
    expect(test.calls.map((call) => call.status)).toEqual(['resolved', 'resolved', 'resolved', 'resolved']);
  });

  it('gives up after 1000 rounds on a tool that calls again after every answer, counting the calls made meanwhile', async () => {
    const test = await host();
    let polling = true;
    const poll = (): Promise<unknown> => test.pipeline.context.get().then(() => (polling ? poll() : undefined));
    void poll();
    await test.settled().catch(() => undefined);
    const before = test.calls.length;
    const error = await test.settled().catch((caught: unknown) => caught as Error);
    polling = false;
    await test.settled();
    // One call in each round: each answer comes in a turn of its own, and the next call follows it.
    expect(error).toEqual(new Error('settled(): the tool was still calling the bridge after 1000 calls in 1000 rounds; does it poll without a pause?'));
    expect(test.calls.length - before).toBeGreaterThanOrEqual(1000);
  });
});

import { describe, expect, it } from 'vitest';
import { createCallSequencer } from '../../src/dev/call-order.js';
import { createDevSession } from '../../src/dev/session.js';
import { DEFAULT_FIXTURES, createMemorySettingsStore } from '../../src/platform/index.js';
import type { DevServer } from '../../src/dev/server.js';
import { postFromHostPage, readState, sendRequest, startTestServer, writeTool } from './helpers.js';

/*
 * Calls in call order: the sequencer on its own, the session, and the HTTP endpoint fed bursts of
 * hundreds of requests in a shuffled order.
 */

/** A fixed shuffle, so that a failure can be replayed. */
function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const line = (n: number) => ({ description: `c${n}`, qty: 1, unitPrice: 1, taxRate: 0.15 });
const descriptions = (state: Record<string, any>): string[] => // eslint-disable-line @typescript-eslint/no-explicit-any
  state['editor'].blocks.flatMap((block: { lines: { description: string }[] }) => block.lines.map((l) => l.description));

describe('the call sequencer', () => {
  it('starts the calls of a channel in seq order whatever order they arrive in', () => {
    const sequencer = createCallSequencer({ gapMs: 60_000 });
    const started: number[] = [];
    for (const seq of shuffled(Array.from({ length: 500 }, (_, i) => i + 1))) sequencer.admit({ channel: 'a', seq }, () => started.push(seq));
    expect(started).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
  });

  it('keeps channels apart, and runs a call without an order at once', () => {
    const sequencer = createCallSequencer({ gapMs: 60_000 });
    const started: string[] = [];
    sequencer.admit({ channel: 'a', seq: 2 }, () => started.push('a2'));
    sequencer.admit({ channel: 'b', seq: 1 }, () => started.push('b1'));
    sequencer.admit(undefined, () => started.push('free'));
    sequencer.admit({ channel: 'a', seq: 1 }, () => started.push('a1'));
    expect(started).toEqual(['b1', 'free', 'a1', 'a2']);
  });

  it('lets the later calls go when a place is skipped', () => {
    const sequencer = createCallSequencer({ gapMs: 60_000 });
    const started: number[] = [];
    sequencer.admit({ channel: 'a', seq: 1 }, () => started.push(1));
    sequencer.admit({ channel: 'a', seq: 3 }, () => started.push(3));
    expect(started).toEqual([1]);
    sequencer.skip({ channel: 'a', seq: 2 });
    expect(started).toEqual([1, 3]);
  });

  it('gives up on a call that never comes, after the gap time', async () => {
    const sequencer = createCallSequencer({ gapMs: 50 });
    const started: number[] = [];
    sequencer.admit({ channel: 'a', seq: 3 }, () => started.push(3));
    sequencer.admit({ channel: 'a', seq: 2 }, () => started.push(2));
    expect(started).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(started).toEqual([2, 3]);
    // A straggler that turns up late still runs rather than hanging.
    sequencer.admit({ channel: 'a', seq: 1 }, () => started.push(1));
    expect(started).toEqual([2, 3, 1]);
  });
});

describe('a dev session', () => {
  const session = () =>
    createDevSession({
      tool: { toolId: 'order-test', manifestType: 'quoting_extension', entry: 'index.html', notes: [], manifestProblem: null, lastGood: false, entryMissing: null, alerts: [] },
      fixtures: DEFAULT_FIXTURES,
      fixturesFile: null,
      sdkVersion: '2.5.0',
      settings: Object.assign(createMemorySettingsStore(), { file: 'memory', clear: async () => {}, flush: async () => {} }),
      gapMs: 60_000,
    });

  it('applies un-awaited addLines calls in call order, however they reach it', async () => {
    const host = session();
    const order = shuffled(Array.from({ length: 400 }, (_, i) => i + 1), 11);
    const outcomes = await Promise.all(order.map((seq) => host.call('quotes.addLines', [[line(seq)]], { channel: 'page', seq })));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(descriptions(host.snapshot())).toEqual(Array.from({ length: 400 }, (_, i) => `c${i + 1}`));
  });

  it('keeps the value of the last settings.set made, not the last to arrive', async () => {
    for (let round = 0; round < 20; round++) {
      const host = session();
      await Promise.all([host.call('settings.set', ['mode', 'second'], { channel: 'p', seq: 2 }), host.call('settings.set', ['mode', 'first'], { channel: 'p', seq: 1 })]);
      const read = await host.call('settings.get', ['mode'], { channel: 'p', seq: 3 });
      expect(read).toMatchObject({ ok: true, value: 'second' });
    }
  });
});

describe('the bridge endpoint', () => {
  let server: DevServer;

  it('applies a burst of 300 requests sent in a shuffled order in seq order', async () => {
    server = await startTestServer({ root: writeTool(), watch: false });
    const seqs = shuffled(Array.from({ length: 300 }, (_, i) => i + 1), 3);
    const responses = await Promise.all(
      seqs.map((seq) => postFromHostPage(server, `/__pipeline/call?channel=burst&seq=${seq}`, { method: 'quotes.addLines', args: [[line(seq)]] })),
    );
    expect(responses.map((response) => response.status)).toEqual(seqs.map(() => 200));
    expect(descriptions(await readState(server))).toEqual(Array.from({ length: 300 }, (_, i) => `c${i + 1}`));
  });

  it('frees the place of a call it refuses, so the next ones do not wait', async () => {
    await postFromHostPage(server, '/__pipeline/control', { action: 'reset-quote' });
    const refused = await sendRequest(server.port, {
      path: '/__pipeline/call?channel=refusing&seq=1',
      method: 'POST',
      headers: { Origin: `http://127.0.0.1:${server.port}`, 'Content-Type': 'application/json' },
      body: '{not json',
    });
    expect(refused.status).toBe(400);
    const bad = await postFromHostPage(server, '/__pipeline/call?channel=refusing&seq=2', { method: 'no such name', args: [] });
    expect(bad.status).toBe(400);
    const next = await postFromHostPage(server, '/__pipeline/call?channel=refusing&seq=3', { method: 'quotes.addLines', args: [[line(3)]] });
    expect(JSON.parse(next.body)).toMatchObject({ ok: true });
    expect(descriptions(await readState(server))).toEqual(['c3']);
  });
});

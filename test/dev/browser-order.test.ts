import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServer } from '../../src/dev/server.js';
import { findToolFrame, launchChromium, requireChromium, SETTLE_MS } from './browser.js';
import { postFromHostPage, QUOTING_MANIFEST, readState, startTestServer, writeTool } from './helpers.js';

/*
 * What a tool does without awaiting, in the real sandbox: bursts of hundreds of calls reach the
 * model in the order they were made; and a call of a name the bridge lacks is a BridgeError in
 * the tool and an entry in the host page's call log.
 */

const hasChromium = requireChromium();

describe.skipIf(!hasChromium)('calls from the tool frame, in Chromium', () => {
  let browser: Browser;
  let server: DevServer;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startTestServer({ root: writeTool(QUOTING_MANIFEST), watch: false });
    page = await browser.newPage();
    await page.goto(server.url);
  });
  afterAll(async () => {
    await page?.close();
    await browser?.close();
  });

  it('applies 400 un-awaited addLines calls in the order they were made', async () => {
    const frame = await findToolFrame(page, server, 'loaded v1');
    const settled = await frame.evaluate(async () => {
      const calls: Promise<void>[] = [];
      for (let i = 0; i < 400; i++) calls.push(window.pipeline!.quotes.addLines([{ description: `c${i}`, qty: 1, unitPrice: 1, taxRate: 0.15 }]));
      return (await Promise.allSettled(calls)).filter((result) => result.status === 'fulfilled').length;
    });
    expect(settled).toBe(400);
    const lines = (await readState(server))['editor'].blocks.flatMap((block: { lines: { description: string }[] }) => block.lines.map((line) => line.description));
    expect(lines).toEqual(Array.from({ length: 400 }, (_, i) => `c${i}`));
    // A 400-line quote makes every later redraw of the host page slow; the other tests need none of it.
    await postFromHostPage(server, '/__pipeline/control', { action: 'reset-quote' });
  });

  it('keeps the last of two un-awaited settings.set calls, round after round', async () => {
    const frame = await findToolFrame(page, server, 'loaded v1');
    const values = await frame.evaluate(async () => {
      const sdk = window.pipeline!;
      const read: unknown[] = [];
      for (let round = 0; round < 20; round++) {
        void sdk.settings.set('mode', `first ${round}`);
        void sdk.settings.set('mode', `second ${round}`);
        read.push(await sdk.settings.get('mode'));
      }
      return read;
    });
    expect(values).toEqual(Array.from({ length: 20 }, (_, round) => `second ${round}`));
  });

  it("marks a call made again with the same arguments while the first waits for its answer, as React's StrictMode makes them, and says why", async () => {
    const frame = await findToolFrame(page, server, 'loaded v1');
    await frame.evaluate(async () => {
      const sdk = window.pipeline!;
      // An effect run twice: the same calls, one right after the other; then another key, and the
      // same call again once the first two are answered (a loop that awaits is not a repeat).
      await Promise.all([sdk.settings.get('strict-probe'), sdk.settings.get('strict-probe'), sdk.settings.get('other-probe')]);
      await sdk.settings.get('strict-probe');
    });
    const entries = page.locator('#call-log li[data-method="settings.get"]', { hasText: '-probe"' });
    const marked = page.locator('#call-log li[data-method="settings.get"][data-repeat]');
    await expect.poll(() => marked.count(), { timeout: SETTLE_MS }).toBe(1);
    const text = await marked.textContent();
    expect(text).toContain('"strict-probe"');
    expect(text).toContain("Repeated: the same call with the same arguments was still waiting for its answer. React's StrictMode runs each effect twice while developing");
    // The first of the pair, the call with other arguments and the later call are not marked
    // (newest first), nor the earlier test's awaited loop of the same settings.get.
    await expect.poll(() => entries.count(), { timeout: SETTLE_MS }).toBe(4);
    const plain = await page.locator('#call-log li[data-method="settings.get"]:not([data-repeat])', { hasText: '-probe"' }).allTextContents();
    expect(plain).toEqual([expect.stringContaining('"strict-probe"'), expect.stringContaining('"other-probe"'), expect.stringContaining('"strict-probe"')]);
  });

  it('rejects a call of an unknown name with UNKNOWN_METHOD, the nearest name, and a log entry', async () => {
    const frame = await findToolFrame(page, server, 'loaded v1');
    const failure = await frame.evaluate(async () => {
      const quotes = window.pipeline!.quotes as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const shape = { listed: Object.keys(quotes), has: 'update' in quotes, then: typeof quotes['then'] };
      try {
        await quotes['update']!({ id: 'Q-1' });
        return { shape, rejected: false };
      } catch (error) {
        const e = error as Error & { code: string; method: string };
        return { shape, rejected: true, isError: e instanceof Error, name: e.name, code: e.code, method: e.method, message: e.message };
      }
    });
    expect(failure).toMatchObject({ rejected: true, isError: true, name: 'BridgeError', code: 'UNKNOWN_METHOD', method: 'quotes.update' });
    expect(failure.message).toContain('Did you mean quotes.create?');
    // The namespace's own members are unchanged, and promise-like probes do not turn into calls.
    expect(failure.shape).toEqual({ listed: ['list', 'create', 'addLines', 'addSections'], has: false, then: 'undefined' });
    const logged = page.locator('#call-log li[data-method="quotes.update"][data-code="UNKNOWN_METHOD"]');
    await expect.poll(() => logged.count(), { timeout: SETTLE_MS }).toBe(1);
    expect(await logged.textContent()).toContain('quotes.create');
  });
});

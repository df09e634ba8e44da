import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServer } from '../../src/dev/server.js';
import { DEFAULT_API_KEY } from '../../src/platform/index.js';
import { launchChromium, requireChromium, SETTLE_MS } from './browser.js';
import { readState, startTestServer, STANDALONE_MANIFEST, writeTool } from './helpers.js';

/*
 * The REST API seen from a browser: what an integrator creates shows in the open host page, and
 * a page of another origin can use the API neither to read nor to create.
 */

const hasChromium = requireChromium();

describe.skipIf(!hasChromium)('the REST API and the browser', () => {
  let browser: Browser;
  let server: DevServer;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startTestServer({ root: writeTool(STANDALONE_MANIFEST), watch: false });
    page = await browser.newPage();
    await page.goto(server.url);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a quote created over REST in the open host page, with its total', async () => {
    await expect.poll(() => page.locator('#created-quotes').textContent(), { timeout: SETTLE_MS }).toContain('None yet');
    const response = await fetch(`${server.apiUrl}/quotes`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ customerId: '10000000-0000-4000-8000-000000000003', lines: [{ skuId: '20000000-0000-4000-8000-000000000006', qty: 3, unitPrice: 12.45, taxRate: 0.15 }] }),
    });
    expect(response.status).toBe(201);
    const { ref } = (await response.json()) as { ref: string };
    // Pushed over the event stream: the page is not reloaded.
    await expect.poll(() => page.locator('#created-quotes').textContent(), { timeout: SETTLE_MS }).toContain(ref);
    const row = await page.locator('#created-quotes tr', { hasText: ref }).textContent();
    expect(row).toContain('Papamoa Beach Motel');
    expect(row).toContain('42.95');
  });

  it('gives a page of another origin nothing to read and no way to create a quote, even with the key', async () => {
    let elsewhere: Server | undefined;
    const other = await browser.newPage();
    try {
      elsewhere = createServer((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/html' });
        response.end('<p>another site</p>');
      });
      await new Promise<void>((resolve) => elsewhere!.listen(0, '127.0.0.1', resolve));
      await other.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
      const before = (await readState(server))['createdQuotes'].length as number;
      const outcome = await other.evaluate(
        async ({ api, key }) => {
          const attempt = async (run: () => Promise<Response>) => {
            try {
              const response = await run();
              return response.type === 'opaque' ? 'opaque' : `read ${response.status}`;
            } catch {
              return 'blocked';
            }
          };
          const body = JSON.stringify({ customerId: '10000000-0000-4000-8000-000000000001', lines: [{ skuId: '20000000-0000-4000-8000-000000000006', qty: 1, unitPrice: 1 }] });
          return {
            read: await attempt(() => fetch(`${api}/customers`, { headers: { Authorization: `Bearer ${key}` } })),
            create: await attempt(() => fetch(`${api}/quotes`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body })),
            // A "simple" request needs no preflight, but it can carry neither the key nor JSON's media type.
            simple: await attempt(() => fetch(`${api}/quotes`, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body })),
          };
        },
        { api: server.apiUrl, key: DEFAULT_API_KEY },
      );
      expect(outcome).toEqual({ read: 'blocked', create: 'blocked', simple: 'opaque' });
      expect((await readState(server))['createdQuotes']).toHaveLength(before);
    } finally {
      await other.close();
      await new Promise((resolve) => elsewhere?.close(resolve));
    }
  });
});

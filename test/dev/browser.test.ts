import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSdkMethods } from '../../src/platform/index.js';
import type { DevServer } from '../../src/dev/server.js';
import { tempDir } from '../helpers/bundles.js';
import { findToolFrame, launchChromium, requireChromium, SETTLE_MS } from './browser.js';
import { BOOT_SCRIPT, QUOTING_MANIFEST, readState, STANDALONE_MANIFEST, startTestServer, waitFor, writeTool } from './helpers.js';

/*
 * The dev server end to end: real tools in the real sandbox of a headless Chromium, talking to
 * the host page through the injected SDK.
 */

const FIXTURE_PRODUCT_ID = '20000000-0000-4000-8000-000000000901';
const FIXTURES = {
  context: { userName: 'Test Author' },
  customers: [{ id: '10000000-0000-4000-8000-000000000901', name: 'Fixture Customer', email: 'fixture@example.com', phone: '' }],
  products: [{ id: FIXTURE_PRODUCT_ID, sku: 'FIX-SKU-1', name: 'Fixture Widget', price: 42.5, unit: 'T_ITEM' }],
};

const hasChromium = requireChromium();

describe.skipIf(!hasChromium)('pipeline-tool dev in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('a quoting extension', () => {
    let server: DevServer;
    let page: Page;
    let root: string;

    beforeAll(async () => {
      root = writeTool(QUOTING_MANIFEST);
      const fixturesFile = path.join(tempDir(), 'fixtures.json');
      writeFileSync(fixturesFile, JSON.stringify(FIXTURES));
      server = await startTestServer({ root, fixturesFile });
      page = await browser.newPage();
      await page.goto(server.url);
    });
    afterAll(async () => {
      await page?.close();
    });

    it('completes the handshake: calls made at load wait for it and are answered', async () => {
      const frame = await findToolFrame(page, server, 'loaded v1');
      const boot = await frame.evaluate(() => (window as unknown as { __boot: Promise<unknown> }).__boot);
      expect(boot).toMatchObject({ version: '2.5.0', context: { userName: 'Test Author', tenantName: 'Kauri Coast Kitchens Ltd' } });
      expect(Number(await page.getAttribute('body', 'data-handshakes'))).toBeGreaterThanOrEqual(1);
      // The frame really is sandboxed into an opaque origin, on another port than the host page.
      expect(await frame.evaluate(() => window.origin)).toBe('null');
      expect(new URL(frame.url()).port).toBe(String(server.toolPort));
      // Under the random base path, which only the host page knows.
      expect(frame.url()).toBe(`${server.toolUrl}index.html`);
    });

    it("keeps the tool's files from a sandboxed frame of another site, which has the same null origin", async () => {
      // Another site's page, served from this machine so that the browser lets it reach loopback
      // at all (a public site over HTTPS can, too), framing itself into the null origin.
      const elsewhere = createServer((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/html' });
        response.end('<iframe sandbox="allow-scripts" srcdoc="<p>hello</p>"></iframe>');
      });
      await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
      const other = await browser.newPage();
      try {
        await other.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
        const hostile = await waitFor(() => other.frames().find((frame) => frame !== other.mainFrame()), SETTLE_MS, 'the sandboxed frame');
        const read = (url: string) =>
          hostile.evaluate(async (target) => {
            try {
              const response = await fetch(target);
              return { origin: window.origin, status: response.status, text: await response.text() };
            } catch (error) {
              return { origin: window.origin, status: 0, text: String(error) };
            }
          }, url);
        for (const guess of [`${server.toolOrigin}/index.html`, `${server.toolOrigin}/app.js`, `${server.toolOrigin}/`, `${server.toolOrigin}/t/`]) {
          expect(await read(guess)).toEqual({ origin: 'null', status: 404, text: 'not found' });
        }
        // The same frame can read a file when it has the token, so the 404 above is the base path at work.
        expect(await read(`${server.toolUrl}app.js`)).toMatchObject({ origin: 'null', status: 200, text: expect.stringContaining('window.__boot') });
      } finally {
        await other.close();
        await new Promise((resolve) => elsewhere.close(resolve));
      }
    });

    it('answers every bridge method from the fixtures', async () => {
      const frame = await findToolFrame(page, server, 'loaded v1');
      const results = await frame.evaluate(async (productId) => {
        const sdk = window.pipeline!;
        const out: Record<string, unknown> = {};
        out['context.get'] = await sdk.context.get();
        out['customers.list'] = await sdk.customers.list({ pageSize: 100 });
        out['products.list'] = await sdk.products.list({ pageSize: 100 });
        out['taskTemplates.list'] = await sdk.taskTemplates.list({ codes: ['T_TILING'] });
        out['costItems.list'] = await sdk.costItems.list();
        out['jobCostTemplates.list'] = await sdk.jobCostTemplates.list();
        out['jobs.list'] = await sdk.jobs.list();
        out['quotes.list'] = await sdk.quotes.list({ page: 1, pageSize: 2 });
        out['quotes.create'] = await sdk.quotes.create({
          customerName: 'Fixture Customer',
          upsertByEmail: false,
          lines: [{ description: 'Call-out', qty: 1, unitPrice: 10, taxRate: 0.15 }],
        });
        out['quotes.addLines'] = await sdk.quotes.addLines([{ description: 'Widget', productCode: 'FIX-SKU-1', linkedItemId: productId, qty: 2, unitPrice: 42.5, taxRate: 15 }]);
        out['quotes.addSections'] = await sdk.quotes.addSections([{ name: 'Delivery', notes: 'Tuesday morning' }]);
        out['settings.set'] = await sdk.settings.set('units', { system: 'metric' });
        out['settings.get'] = await sdk.settings.get('units');
        return { results: out, undefinedKeys: Object.keys(out).filter((key) => out[key] === undefined) };
      }, FIXTURE_PRODUCT_ID);
      const r = results.results as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(Object.keys(r).sort()).toEqual([...listSdkMethods('2.5.0')].sort());
      expect(r['context.get'].userName).toBe('Test Author');
      expect(r['customers.list'].items.map((c: { name: string }) => c.name)).toContain('Fixture Customer');
      expect(r['customers.list'].totalCount).toBe(9);
      expect(r['products.list'].items.find((p: { sku: string }) => p.sku === 'FIX-SKU-1')).toMatchObject({ id: FIXTURE_PRODUCT_ID, price: 42.5 });
      expect(r['taskTemplates.list'].items.map((t: { code: string }) => t.code)).toEqual(['T_TILING']);
      expect(r['costItems.list'].items.map((c: { code: string }) => c.code)).toEqual(['CARD-FEE', 'TRAVEL-KM']);
      expect(r['jobCostTemplates.list'].items.map((t: { code: string }) => t.code)).toEqual(['APPLIANCES', 'CHECK-MEASURE', 'CONSENT', 'DISPOSAL', 'SHIPPING', 'TRAVEL']);
      expect(r['jobs.list'].items).toHaveLength(4);
      expect(r['quotes.list']).toMatchObject({ totalCount: 5, page: 1, pageSize: 2 });
      expect(r['quotes.create']).toMatchObject({ ref: expect.stringMatching(/^Q-\d+$/), total: 11.5 });
      expect(results.undefinedKeys.sort()).toEqual(['quotes.addLines', 'quotes.addSections', 'settings.set']);
      expect(r['settings.get']).toEqual({ system: 'metric' });

      // Each call is in the log, with its duration, and the quote panel shows what was added.
      await expect.poll(() => page.locator('#call-log li[data-status="ok"]').count(), { timeout: SETTLE_MS }).toBeGreaterThanOrEqual(13);
      const entry = page.locator('#call-log li[data-method="quotes.create"]').first();
      expect(await entry.locator('.call-ms').textContent()).toMatch(/^\d+\.\d ms$/);
      expect(await entry.locator('.call-args pre').textContent()).toContain('Fixture Customer');
      await expect.poll(() => page.locator('#quote-editor').textContent(), { timeout: SETTLE_MS }).toContain('FIX-SKU-1');
      await expect.poll(() => page.locator('#created-quotes').textContent(), { timeout: SETTLE_MS }).toContain('Fixture Customer');
      await expect.poll(() => page.locator('#quote-preview [data-kind="notes"][data-section="Delivery"]').textContent()).toContain('Tuesday morning');
    });

    it('rejects a refused addLines batch as an Error carrying its code, changing nothing', async () => {
      const frame = await findToolFrame(page, server, 'loaded v1');
      const linesBefore = (await readState(server))['editor'].blocks.flatMap((b: { lines: unknown[] }) => b.lines).length;
      const failure = await frame.evaluate(async () => {
        try {
          await window.pipeline!.quotes.addLines([
            { description: 'Fine', qty: 1, unitPrice: 5, taxRate: 0.15 },
            { description: 'Bad', qty: 1, unitPrice: 5, taxRate: 0.15, lineType: 'gizmo' as never },
          ]);
          return { rejected: false };
        } catch (error) {
          const e = error as Error & { code: string; details: { code: string; path: string }[] };
          return { rejected: true, isError: e instanceof Error, name: e.name, code: e.code, message: e.message, details: e.details };
        }
      });
      expect(failure).toMatchObject({ rejected: true, isError: true, name: 'BridgeError', code: 'BATCH_REJECTED' });
      expect(failure.details).toEqual([expect.objectContaining({ code: 'UNKNOWN_LINE_TYPE', path: 'lines[1].lineType' })]);
      expect((await readState(server))['editor'].blocks.flatMap((b: { lines: unknown[] }) => b.lines)).toHaveLength(linesBefore);
      const logged = page.locator('#call-log li[data-status="error"][data-code="BATCH_REJECTED"]').first();
      await expect.poll(() => logged.textContent(), { timeout: SETTLE_MS }).toContain('UNKNOWN_LINE_TYPE');
    });

    it('passes arguments as the real bridge would: NaN stays NaN, functions cannot be sent', async () => {
      const frame = await findToolFrame(page, server, 'loaded v1');
      const codes = await frame.evaluate(async () => {
        const sdk = window.pipeline!;
        const nan = await sdk.quotes.addLines([{ description: 'x', qty: Number.NaN, unitPrice: 1, taxRate: 0.15 }]).catch((e: { code: string; details: { code: string }[] }) => [e.code, e.details[0]?.code]);
        const fn = await sdk.settings.set('handler', () => 1).catch((e: { code: string }) => [e.code]);
        return { nan, fn };
      });
      expect(codes).toEqual({ nan: ['BATCH_REJECTED', 'INVALID_TYPE'], fn: ['INVALID_ARGUMENT'] });
    });

    // Two calls of 5 MB through the frame, the host page and the server: room for a busy machine.
    it('refuses a call over 5,000,000 bytes with CALL_TOO_LARGE and the testing kit\'s message, and takes one of exactly that size', { timeout: 120_000 }, async () => {
      const frame = await findToolFrame(page, server, 'loaded v1');
      const outcomes = await frame.evaluate(async () => {
        const sdk = window.pipeline!;
        // {"method":"settings.set","args":["big","xxx…"]}: the bytes around the value, counted.
        const around = JSON.stringify({ method: 'settings.set', args: ['big', ''] }).length;
        const settle = (call: Promise<unknown>) =>
          call.then(
            () => ({ ok: true }),
            (error: { code: string; message: string }) => ({ ok: false, code: error.code, message: error.message }),
          );
        const exactly = await settle(sdk.settings.set('big', 'x'.repeat(5_000_000 - around)));
        const over = await settle(sdk.settings.set('big', 'x'.repeat(5_000_001 - around)));
        await sdk.settings.set('big', null);
        return [exactly, over];
      });
      expect(outcomes).toEqual([
        { ok: true },
        {
          ok: false,
          code: 'CALL_TOO_LARGE',
          message:
            'settings.set was not run: the call is 5,000,001 bytes as JSON, more than the 5,000,000 the emulated host takes in one call. Nothing was changed; send less in one call (fewer lines in a batch, say).',
        },
      ]);
      const logged = page.locator('#call-log li[data-status="error"][data-code="CALL_TOO_LARGE"]').first();
      await expect.poll(() => logged.count(), { timeout: SETTLE_MS }).toBe(1);
    });

    it('shows a summaryOnly section collapsed in the customer preview, and whole in the editor', async () => {
      const frame = await findToolFrame(page, server, 'loaded v1');
      await frame.evaluate(() =>
        window.pipeline!.quotes.addLines([
          { description: 'Labour bundle A', qty: 3, unitPrice: 100, taxRate: 0.15, section: 'Labour', summaryOnly: true, sectionNotes: 'Two installers, <b>one day</b>' },
          { description: 'Labour bundle B', qty: 1, unitPrice: 50, taxRate: 0.15, section: 'Labour', summaryOnly: true },
          { description: 'Benchtop', qty: 1, unitPrice: 489, taxRate: 0.15, section: 'Benches' },
        ]),
      );
      const summary = page.locator('#quote-preview [data-kind="summary"][data-section="Labour"]');
      await summary.waitFor({ timeout: SETTLE_MS });
      expect(await summary.locator('.summary-total').textContent()).toBe('350.00');
      expect(await summary.locator('table').count()).toBe(0);
      // Notes print under the collapsed section, as plain text: the markup shows literally.
      expect(await summary.locator('.notes').textContent()).toBe('Two installers, <b>one day</b>');
      expect(await summary.locator('b').count()).toBe(0);
      const preview = await page.locator('#quote-preview').textContent();
      expect(preview).not.toContain('Labour bundle A');
      expect(preview).toContain('Benchtop');
      const editor = page.locator('#quote-editor [data-section="Labour"][data-summary-only="true"]');
      expect(await editor.textContent()).toContain('Labour bundle A');
      expect(await editor.textContent()).toContain('summary only');
    });

    it('ignores bridge messages that do not come from its tool frame', async () => {
      const before = JSON.stringify((await readState(server))['editor']);
      const logBefore = await page.locator('#call-log li').count();
      await page.evaluate(() => {
        window.postMessage({ type: 'pipeline:call', id: 1, method: 'quotes.addLines', args: [[{ description: 'Injected', qty: 1, unitPrice: 1, taxRate: 0.15 }]] }, '*');
      });
      await page.waitForTimeout(300);
      expect(JSON.stringify((await readState(server))['editor'])).toBe(before);
      expect(await page.locator('#call-log li').count()).toBe(logBefore);
    });

    it('reloads the tool after a file edit, keeping the quote and the settings', async () => {
      const loadsBefore = Number(await page.getAttribute('body', 'data-frame-loads'));
      writeFileSync(path.join(root, 'app.js'), BOOT_SCRIPT.replace("'loaded v1'", "'loaded v2'"));
      const frame = await findToolFrame(page, server, 'loaded v2');
      expect(Number(await page.getAttribute('body', 'data-frame-loads'))).toBeGreaterThan(loadsBefore);
      expect(await frame.evaluate(() => window.pipeline!.settings.get('units'))).toEqual({ system: 'metric' });
      expect(await page.locator('#quote-editor').textContent()).toContain('Labour bundle A');
    });

    it('ignores alert(), confirm() and prompt() without blocking, and has no dependable storage', async () => {
      const frame = (await findToolFrame(page, server, 'loaded v2').catch(() => undefined)) ?? (await findToolFrame(page, server, 'loaded v1'));
      // Playwright would dismiss a real dialog by itself; counting them shows none was ever opened.
      let dialogs = 0;
      page.on('dialog', (dialog) => {
        dialogs += 1;
        void dialog.dismiss();
      });
      // A dialog that opened would wait for the dismissal counted below; none may open.
      const sandbox = await frame.evaluate(() => {
        const alerted = window.alert('hello');
        const confirmed = window.confirm('sure?');
        const prompted = window.prompt('name?');
        let storage: string;
        try {
          window.localStorage.setItem('k', 'v');
          storage = 'available';
        } catch (error) {
          storage = (error as Error).name;
        }
        let session: string;
        try {
          window.sessionStorage.setItem('k', 'v');
          session = 'available';
        } catch (error) {
          session = (error as Error).name;
        }
        return { alerted: alerted === undefined, confirmed, prompted, storage, session, cookie: (() => { try { return document.cookie; } catch (error) { return (error as Error).name; } })() };
      });
      expect(sandbox).toMatchObject({ alerted: true, confirmed: false, prompted: null, storage: 'SecurityError', session: 'SecurityError', cookie: 'SecurityError' });
      expect(dialogs).toBe(0);
    });

    it('lets the author switch the role and culture from the host page', async () => {
      await page.fill('#user-role', 'H_Field');
      await page.fill('#culture-code', 'en-AU');
      await page.click('#apply-choices');
      const context = await waitFor(async () => {
        const frame = page.frames().find((f) => f.url().startsWith(server.toolOrigin) && !f.isDetached());
        const value = await frame?.evaluate(() => window.pipeline!.context.get()).catch(() => undefined);
        return value?.userRole === 'H_Field' ? value : undefined;
      });
      expect(context).toMatchObject({ userRole: 'H_Field', cultureCode: 'en-AU', userName: 'Test Author' });
    });

    it('shows the validation findings of the folder, refreshed after a change, and what pack leaves out', async () => {
      await expect.poll(() => page.locator('#findings').textContent(), { timeout: SETTLE_MS }).toContain('No problems');
      // Left out as pack leaves it out: listed, not a problem.
      writeFileSync(path.join(root, 'notes.txt'), 'not an allowed file type');
      await page.locator('#findings li[data-reason="file-type"]').waitFor({ state: 'attached', timeout: SETTLE_MS });
      expect(await page.locator('#findings li[data-rule]').count()).toBe(0);
      // Once the tool refers to it, it is an error that names the cause.
      writeFileSync(path.join(root, 'photo.jpeg'), 'jpeg');
      writeFileSync(path.join(root, 'extra.html'), '<!doctype html><title>x</title><img src="photo.jpeg" alt="">');
      const item = page.locator('#findings li[data-rule="reference-missing"]');
      await item.waitFor({ timeout: SETTLE_MS });
      expect(await item.textContent()).toContain('Rename it to .jpg');
    });
  });

  describe('a standalone tool on SDK 2.3.0', () => {
    let root: string;
    let server: DevServer;
    let page: Page;

    beforeAll(async () => {
      root = writeTool(STANDALONE_MANIFEST);
      server = await startTestServer({ root, sdkVersion: '2.3.0', watch: false });
      page = await browser.newPage();
      await page.goto(server.url);
    });
    afterAll(async () => {
      await page?.close();
    });

    it('has the methods of 2.3.0 only', async () => {
      const frame = await findToolFrame(page, server, 'loaded v1');
      const shape = await frame.evaluate(() => {
        const sdk = window.pipeline as unknown as Record<string, Record<string, unknown>> & { version: string };
        return { version: sdk.version, addSections: typeof sdk['quotes']!['addSections'], addLines: typeof sdk['quotes']!['addLines'], settings: typeof sdk['settings'] };
      });
      expect(shape).toEqual({ version: '2.3.0', addSections: 'undefined', addLines: 'function', settings: 'object' });
    });

    it('is refused quotes.addLines with a code', async () => {
      const frame = await findToolFrame(page, server, 'loaded v1');
      const failure = await frame.evaluate(() =>
        window.pipeline!.quotes.addLines([{ description: 'x', qty: 1, unitPrice: 1, taxRate: 0.15 }]).then(
          () => null,
          (error: Error & { code: string }) => ({ isError: error instanceof Error, code: error.code, message: error.message }),
        ),
      );
      expect(failure).toMatchObject({ isError: true, code: 'TOOL_TYPE_NOT_ALLOWED' });
      expect(failure?.message).toContain('quoting_extension');
    });

    it('keeps its settings across a restart of the server', async () => {
      const frame = await findToolFrame(page, server, 'loaded v1');
      await frame.evaluate(() => window.pipeline!.settings.set('favourites', ['CAB-BASE-600', 'HOOD-900']));
      await server.close();

      // Same port: the open page reconnects by itself and loads the tool from its new origin.
      const restarted = await startTestServer({ root, sdkVersion: '2.3.0', watch: false, port: server.port });
      const again = await findToolFrame(page, restarted, 'loaded v1');
      expect(await again.evaluate(() => window.pipeline!.settings.get('favourites'))).toEqual(['CAB-BASE-600', 'HOOD-900']);
    });
  });
});

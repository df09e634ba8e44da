import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServer } from '../../src/dev/server.js';
import { tempDir } from '../helpers/bundles.js';
import { findToolFrame, launchChromium, requireChromium, SETTLE_MS } from './browser.js';
import { spawnDev } from './dev-process.js';
import { QUOTING_MANIFEST, startTestServer, waitFor, writeTool } from './helpers.js';

/*
 * What goes wrong in the tool, seen in a real browser: the problems box above the tool, the call
 * log's warnings, and the layout of the host page from 800 px up.
 */

const hasChromium = requireChromium();

/** A page whose problems happen at load, each on a known line of a known file. */
const TROUBLED_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><script src="broken.js"></script></head>
<body><p id="status">troubled</p>
<form id="order"><input id="field" name="q"><button id="send">Send</button></form>
<a id="leave" href="https://example.com/" target="_top">leave</a>
<img src="img/logo.pngg" alt="">
<script src="lib/missing.js"></script>
<script src="app.js"></script>
</body></html>
`;
const BROKEN_JS = 'const fine = 1;\nconst broken = ;\n';
const APP_JS = [
  "setTimeout(function late() { throw new TypeError('late boom'); }, 0);",
  "Promise.reject(new Error('nobody caught me'));",
  "console.error('saving failed', { code: 7 });",
  "window.open('https://example.com/popup');",
  "document.getElementById('order').addEventListener('submit', () => { document.body.dataset.submitted = 'yes'; });",
  "setTimeout(function away() { window.top.location.href = 'https://example.com/away'; }, 0);",
  'window.pipeline.quotes.addLines([{ qty: -1, unitPrice: 1, taxRate: 0 }]);',
  "document.body.dataset.dialogs = [alert('Saved'), confirm('Sure?'), prompt('Name?')].map(String).join(' ');",
  "function readSaved() { return localStorage.getItem('saved'); }",
  'setTimeout(function load() { readSaved(); }, 0);',
  '',
].join('\n');

/** The problems box as [kind, text] rows. */
async function problems(page: Page): Promise<[string, string][]> {
  return page.$$eval('#tool-problems li', (items) => items.map((item) => [(item as HTMLElement).dataset['kind'] ?? '', item.textContent ?? ''] as [string, string]));
}

describe.skipIf(!hasChromium)('problems in the tool, in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('a tool that goes wrong at load', () => {
    let server: DevServer;
    let page: Page;

    beforeAll(async () => {
      const root = writeTool(QUOTING_MANIFEST, { 'index.html': TROUBLED_PAGE, 'broken.js': BROKEN_JS, 'app.js': APP_JS, 'img/logo.png': 'png' });
      server = await startTestServer({ root, watch: false });
      page = await browser.newPage();
      await page.goto(server.url);
    });
    afterAll(async () => {
      await page?.close();
    });

    it('shows every error, rejection, console.error, block and missing file, with file, line and column', async () => {
      const frame = await findToolFrame(page, server, 'troubled');
      await frame.click('#send');
      await frame.click('#leave');
      await expect.poll(async () => (await problems(page)).length, { timeout: SETTLE_MS }).toBeGreaterThanOrEqual(15);
      const shown = await problems(page);
      const find = (kind: string, text: string) => shown.find(([k, t]) => k === kind && t.includes(text));
      // A syntax error in a classic script is caught, with its place: the reporter runs first.
      expect(find('error', 'broken.js:2:16')?.[1]).toContain('SyntaxError');
      expect(find('error', 'app.js:1:')?.[1]).toContain('TypeError: late boom');
      expect(find('rejection', 'app.js:2:')?.[1]).toContain('Error: nobody caught me');
      expect(find('console', 'app.js:3:')?.[1]).toContain('console.error: saving failed {"code":7}');
      expect(find('blocked', 'app.js:4:')?.[1]).toContain('window.open("https://example.com/popup") was blocked');
      expect(find('blocked', 'form submission')?.[1]).toContain("Handle the button's click instead");
      expect(find('blocked', 'target _top')?.[1]).toContain('https://example.com/');
      expect(find('missing', 'img/logo.pngg')?.[1]).toContain('Did you mean img/logo.png?');
      // Asked for twice by the browser (preload scanner and parser), shown once.
      expect(shown.filter(([kind, text]) => kind === 'missing' && text.includes('lib/missing.js'))).toHaveLength(1);
      expect(find('error', 'app.js:6:')?.[1]).toContain('The sandbox keeps the tool from navigating the host page');
      // A bridge call the host refused and nobody awaited: at the tool's line that made it, not in the SDK.
      expect(find('rejection', 'app.js:7:24')?.[1]).toContain('BridgeError: quotes.addLines rejected the whole batch');
      expect(shown.some(([, text]) => text.includes('__pipeline') || text.includes('sdk.js'))).toBe(false);
      // Dialogs the sandbox ignores are said, with their text, and return what the platform's do.
      expect(find('blocked', 'app.js:8:')?.[1]).toContain('alert("Saved") was ignored');
      expect(shown.some(([kind, text]) => kind === 'blocked' && text.includes('prompt("Name?") was ignored') && text.includes('returns null'))).toBe(true);
      expect(await frame.evaluate(() => document.body.dataset['dialogs'])).toBe('undefined false null');
      // The sandbox refuses storage: said with its message, at the line that used it.
      expect(find('error', 'app.js:9:31')?.[1]).toContain("SecurityError: Failed to read the 'localStorage' property");
      // The box is in the page, above the tool, and says how many.
      expect(await page.locator('#tool-problems').isVisible()).toBe(true);
      expect(await page.locator('#tool-problems .problems-head strong').textContent()).toBe(`${shown.length} problems in the tool`);
      // The sandbox really did block the form: its submit handler never ran.
      expect(await frame.evaluate(() => document.body.dataset['submitted'] ?? 'no')).toBe('no');
      // The base path with its token never shows.
      expect(await page.locator('#tool-problems').textContent()).not.toContain('/t/');
    });

    it('empties the box when the tool reloads', async () => {
      await page.evaluate(() => {
        document.body.dataset['frameLoadsBefore'] = document.body.dataset['frameLoads'];
      });
      await page.click('#reload-tool');
      await waitFor(async () => (await page.getAttribute('body', 'data-frame-loads')) !== (await page.getAttribute('body', 'data-frame-loads-before')), SETTLE_MS, 'the reload');
      // The same page loads again, so the same problems come back: but only once each.
      await findToolFrame(page, server, 'troubled');
      await expect.poll(async () => (await problems(page)).length, { timeout: SETTLE_MS }).toBeGreaterThanOrEqual(8);
      await page.waitForTimeout(300);
      expect((await problems(page)).map(([kind]) => kind).filter((kind) => kind === 'missing')).toHaveLength(2);
      const kinds = (await problems(page)).map(([kind]) => kind);
      expect(kinds.filter((kind) => kind === 'rejection')).toHaveLength(2);
      await page.click('#tool-problems button');
      expect(await page.locator('#tool-problems').isHidden()).toBe(true);
    });
  });

  it('says in the frame which entry the manifest names and what is there instead', async () => {
    const root = writeTool({ ...QUOTING_MANIFEST, entry: 'main.html' });
    const server = await startTestServer({ root, watch: false });
    const page = await browser.newPage();
    try {
      await page.goto(server.url);
      const frame = await waitFor(() => page.frames().find((f) => f.url().startsWith(server.toolOrigin)), SETTLE_MS, 'the frame');
      await expect.poll(() => frame.evaluate(() => document.body.textContent).catch(() => ''), { timeout: SETTLE_MS }).toContain('manifest.json names the entry page "main.html"');
      expect(await frame.evaluate(() => document.body.textContent)).toContain('HTML files at the top of the folder: index.html.');
      await expect.poll(() => page.locator('#notices .notice.error').first().textContent(), { timeout: SETTLE_MS }).toContain('"main.html", which is not in the folder');
    } finally {
      await page.close();
    }
  });

  it('the call log says where each warning points and how many a call had; created quotes show their total', async () => {
    const server = await startTestServer({ root: writeTool(), watch: false });
    const page = await browser.newPage();
    try {
      await page.goto(server.url);
      const frame = await findToolFrame(page, server, 'loaded v1');
      await frame.evaluate(async () => {
        const line = { description: 'x', qty: 1, unitPrice: 10, taxRate: 0.15 };
        await window.pipeline!.quotes.addLines([line, line, { ...line, taxRate: 1, sectionNote: 'typo' } as never]);
        await window.pipeline!.quotes.create({ customerName: 'Total Test', upsertByEmail: false, lines: [{ description: 'Call-out', qty: 2, unitPrice: 10, taxRate: 0.15 }] });
        await window.pipeline!.quotes.addLines([{ ...line, taxRate: 1500 }]);
      });
      // Newest first: the last addLines at the top.
      await expect.poll(() => page.locator('#call-log li[data-method="quotes.addLines"]').count(), { timeout: SETTLE_MS }).toBe(2);
      const entry = page.locator('#call-log li[data-method="quotes.addLines"]').nth(1);
      await expect.poll(() => entry.getAttribute('data-status'), { timeout: SETTLE_MS }).toBe('ok');
      expect(await entry.locator('.call-status').textContent()).toBe('resolved with 2 warnings');
      const warnings = await entry.locator('.call-warning').allTextContents();
      expect(warnings).toEqual([expect.stringMatching(/^warning lines\[2\]\.sectionNote: .* \[UNKNOWN_FIELD\]$/), expect.stringMatching(/^warning lines\[2\]\.taxRate: is 1, .* \[TAX_RATE_IS_ONE\]$/)]);
      // A rate over 100% once read gets the warning quotes.create gives for 15.
      const over = page.locator('#call-log li[data-method="quotes.addLines"]').first();
      await expect.poll(() => over.locator('.call-warning').allTextContents(), { timeout: SETTLE_MS }).toEqual([
        expect.stringMatching(/^warning lines\[0\]\.taxRate: is 1500, which quotes\.addLines reads as 1500% .* \[TAX_RATE_LOOKS_LIKE_PERCENT\]$/),
      ]);
      const created = page.locator('#created-quotes tr').nth(1);
      await expect.poll(() => created.locator('td').last().textContent(), { timeout: SETTLE_MS }).toBe('23.00');
    } finally {
      await page.close();
    }
  });

  it('reaches the terminal of the real binary', async () => {
    const root = writeTool(QUOTING_MANIFEST, { 'app.js': "document.getElementById('status').textContent = 'loaded v1';\nnull.boom();\n" });
    const dev = spawnDev([root, '--port', '0'], { cwd: tempDir() });
    const page = await browser.newPage();
    try {
      await page.goto(await dev.url());
      const line = await dev.waitForOutput(/tool: uncaught error at app\.js:2:\d+: Uncaught TypeError: .*null.*\n/, 'stderr');
      expect(line[0]).not.toContain('/t/');
    } finally {
      await page.close();
      expect(await dev.stop()).toBe(0);
    }
  });

  describe('the host page layout', () => {
    const folder = process.env['PIPELINE_TOOL_SCREENSHOTS'] ?? path.join(tmpdir(), 'pipeline-tool-dev-layout');
    let server: DevServer;

    beforeAll(async () => {
      mkdirSync(folder, { recursive: true });
      server = await startTestServer({ root: writeTool(), watch: false });
    });

    it.each([800, 1100, 1400, 1700, 1920])('at %i px: nothing overflows sideways and the call log is in the first screen', async (width) => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      try {
        await page.goto(server.url);
        const frame = await findToolFrame(page, server, 'loaded v1');
        // A quote with long descriptions and every column filled, and a few calls in the log.
        await frame.evaluate(async () => {
          const sdk = window.pipeline!;
          await sdk.quotes.addLines([
            { description: 'Base cabinet 600 mm with soft-close drawers and a very long description', productCode: 'CAB-BASE-600', qty: 2, unitPrice: 450, taxRate: 15, section: 'Cabinets', sectionNotes: 'White melamine carcasses', groupKey: 'a' },
            { description: 'Benchtop, engineered stone, 20 mm, with arris edge', qty: 3.2, unitPrice: 1489.5, taxRate: 0.15, discountPercent: 12.5, section: 'Benchtop' },
            { description: 'Installation', qty: 1, unitPrice: 800, taxRate: 0.15, section: 'Labour', summaryOnly: true },
            // The long tokens real quotes carry: a task template's code and an area unit.
            { description: 'Installation', productCode: 'T_DEFAULT_INSTALLATION_TASK', qty: 1, unitPrice: 180, taxRate: 0.15, section: 'Benchtop' },
            { description: 'Splashback', productCode: 'TILE-SUBWAY-75', unit: 'T_SQUARE_METRE', qty: 12.75, unitPrice: 1234.56, taxRate: 0.15, section: 'Benchtop' },
          ]);
          await sdk.quotes.create({ customerName: 'Layout Customer With A Long Name Ltd', upsertByEmail: false, lines: [{ description: 'Call-out', qty: 1, unitPrice: 10, taxRate: 0.15 }] });
        });
        await expect.poll(() => page.locator('#call-log li[data-status="ok"]').count(), { timeout: SETTLE_MS }).toBeGreaterThanOrEqual(3);
        await expect.poll(() => page.locator('#quote-editor').textContent(), { timeout: SETTLE_MS }).toContain('Benchtop');
        await page.screenshot({ path: path.join(folder, `host-page-${width}.png`) });
        const layout = await page.evaluate(() => {
          const box = (id: string) => document.getElementById(id)!.getBoundingClientRect();
          const editor = document.querySelector('#quote-panel > .panel-body') as HTMLElement;
          return {
            pageWidth: document.documentElement.scrollWidth,
            viewportWidth: document.documentElement.clientWidth,
            logTop: box('log-panel').top,
            toolWidth: box('tool-pane').width,
            viewportHeight: window.innerHeight,
            // Sideways, only the quote's body as a whole may scroll: no table or block on its own.
            ownScrollers: Array.from(document.querySelectorAll('#quote-panel .quote-block, #quote-panel table, #quote-editor, #quote-preview')).filter((element) => getComputedStyle(element).overflowX !== 'visible').length,
            editorFitsOrScrolls: editor.scrollWidth <= editor.clientWidth || getComputedStyle(editor).overflowX === 'auto',
            // Column heads (Nett, Total…) past the quote panel's right edge, which only a sideways scroll shows.
            cutOff: Array.from(document.querySelectorAll('#quote-panel th'))
              .filter((th) => th.getBoundingClientRect().right > editor.getBoundingClientRect().right + 1)
              .map((th) => th.textContent),
          };
        });
        expect(layout.pageWidth).toBeLessThanOrEqual(layout.viewportWidth);
        expect(layout.logTop).toBeLessThan(layout.viewportHeight - 60);
        expect(layout.toolWidth).toBeGreaterThanOrEqual(Math.min(360, width - 40));
        expect(layout.ownScrollers).toBe(0);
        expect(layout.editorFitsOrScrolls).toBe(true);
        // From 1700 px the quote has a column of its own, wide enough for every column of it.
        if (width >= 1700) expect(layout.cutOff).toEqual([]);
      } finally {
        await page.close();
      }
    });
  });
});

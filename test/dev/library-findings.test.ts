import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { librarySummary } from '../../src/core/library-summary.js';
import { launchChromium, requireChromium, SETTLE_MS } from './browser.js';
import { QUOTING_MANIFEST, readState, startTestServer, writeTool } from './helpers.js';

/*
 * dev says library code's warnings as validate, pack and the Vite build say them: one line per
 * package (or vendored file) in the findings panel, which opens to list them, and the author's own
 * findings one by one.
 */

const hasChromium = requireChromium();

/** A vendored store: two warnings of library code, nothing guarding them. */
const VENDOR = "localStorage.setItem('draft', 'x');\ndocument.body.innerHTML = location.hash;\n";
/** The author's own script: one warning, listed in full. */
const APP = "window.pipeline.context.get();\nalert('saved');\n";

const startOnTool = () => startTestServer({ root: writeTool(QUOTING_MANIFEST, { 'app.js': APP, 'vendor/store.js': VENDOR }), watch: false });

describe('dev sums up library warnings per package, as validate does', () => {
  it('gives the panel one line per vendored file, with its warnings, and the author\u2019s findings in full', async () => {
    const server = await startOnTool();
    const findings = (await readState(server))['findings'];
    const problems = findings.report.problems as { ruleId: string; file: string; library?: boolean; severity: string }[];
    const vendored = problems.filter((problem) => problem.file === 'vendor/store.js');
    expect(vendored.map((problem) => [problem.ruleId, problem.library])).toEqual([
      ['browser-storage', true],
      ['unsafe-html', true],
    ]);
    expect(findings.library).toEqual([{ name: 'vendor/store.js', summary: librarySummary('vendor/store.js', vendored as never, undefined, 'the line opens to list them'), warnings: vendored }]);
    expect(findings.library[0].summary).toMatch(/^1 browser-storage, 1 unsafe-html warnings in library code, not listed \(the line opens to list them\)/);
    // The author's own finding is not summed up.
    expect(problems.find((problem) => problem.file === 'app.js')).toMatchObject({ ruleId: 'dialog-call' });
  });
});

describe.skipIf(!hasChromium)('the findings panel', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
  }, SETTLE_MS);
  afterAll(async () => {
    await page?.close();
    await browser?.close();
  });

  it('shows the library line, which opens to list each warning, and the author\u2019s finding as its own item', async () => {
    const server = await startOnTool();
    page = await browser.newPage();
    await page.goto(server.url);
    const line = page.locator('#findings li.library-summary[data-library="vendor/store.js"]');
    await line.waitFor({ timeout: SETTLE_MS });
    expect(await line.locator('summary').textContent()).toContain('vendor/store.js 1 browser-storage, 1 unsafe-html warnings in library code');
    // Listed only inside the line, which is closed until asked.
    expect(await page.locator('#findings > ul > li[data-rule="browser-storage"]').count()).toBe(0);
    expect(await line.locator('li[data-rule]').evaluateAll((items) => items.map((item) => item.getAttribute('data-rule')))).toEqual(['browser-storage', 'unsafe-html']);
    expect(await line.locator('li[data-rule="unsafe-html"]').isVisible()).toBe(false);
    await line.locator('summary').click();
    expect(await line.locator('li[data-rule="unsafe-html"]').isVisible()).toBe(true);
    expect(await page.locator('#findings > ul > li[data-rule="dialog-call"]').count()).toBe(1);
  });
});

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_TSX, buildApp, positionOf, type BuiltApp } from '../helpers/built-app.js';
import { launchChromium, requireChromium, SETTLE_MS } from './browser.js';
import { postFromHostPage, readState, startTestServer } from './helpers.js';

/*
 * dev with a bundler's output: the findings panel and the tool's runtime errors are placed at the
 * author's source through the built files' source maps, in the terminal and in the host page.
 */

const hasChromium = requireChromium();

/**
 * App.tsx throwing just after it starts to render: the error happens in the bundle, at this line
 * of the source. (Its localStorage then throws too: the sandboxed frame's origin is opaque.)
 */
const THROWING = APP_TSX.replace('export function App(): HTMLElement {\n', "export function App(): HTMLElement {\n  setTimeout(() => {\n    throw new TypeError('no name stored');\n  }, 0);\n");
const throwLine = positionOf(THROWING, 'throw').line;

async function startOn(app: BuiltApp) {
  const logged: [string, string][] = [];
  const server = await startTestServer({ root: app.dist, sourceRoot: app.project, watch: false, onLog: (level, message) => logged.push([level, message]) });
  return { server, logged };
}

describe('dev places what happens in a built tool at the source', () => {
  it('shows validation findings at the source, with the built place', async () => {
    const app = buildApp();
    const { server } = await startOn(app);
    const state = await readState(server);
    const problem = state['findings'].report.problems.find((p: { ruleId: string }) => p.ruleId === 'browser-storage');
    expect(problem).toMatchObject({ file: 'src/App.tsx', ...positionOf(APP_TSX, 'localStorage'), built: { file: 'assets/index.js', line: 1 } });
  });

  it("places a frame's report through the map, tells the terminal both places, and answers the page with them", async () => {
    const app = buildApp({ 'src/App.tsx': THROWING });
    const { server, logged } = await startOn(app);
    const built = positionOf(app.bundle, 'throw');
    const report = { kind: 'error', message: 'Uncaught TypeError: no name stored', file: `${server.toolUrl}assets/index.js?v=2`, line: built.line, column: built.column };
    const response = await postFromHostPage(server, '/__pipeline/report', report);
    expect(response.status).toBe(200);
    const answer = JSON.parse(response.body) as { problem: Record<string, unknown> };
    expect(answer.problem).toMatchObject({ file: 'src/App.tsx', line: throwLine, built: { file: 'assets/index.js', ...built } });
    expect(logged.at(-1)).toEqual(['error', `tool: uncaught error at src/App.tsx:${throwLine}:${String(answer.problem['column'])} (built: assets/index.js:${built.line}:${built.column}): Uncaught TypeError: no name stored`]);
  });

  it('leaves a report where it was when the file is not the tool\'s, has no map, or the place is nonsense', async () => {
    const app = buildApp();
    writeFileSync(path.join(app.dist, 'plain.js'), 'throw new Error("x");\n');
    const { server } = await startOn(app);
    for (const [file, line, column] of [
      [`${server.toolUrl}plain.js`, 1, 1],
      ['https://cdn.example.com/lib.js', 1, 1],
      [`${server.toolUrl}../../../etc/passwd`, 1, 1],
      [`${server.toolUrl}assets/%2e%2e/%2e%2e/x.js`, 1, 1],
      [`${server.toolUrl}assets/index.js`, 99, 1],
      [`${server.toolUrl}assets/index.js`, 1, 10_000_000],
    ] as const) {
      const response = await postFromHostPage(server, '/__pipeline/report', { kind: 'error', message: 'x', file, line, column });
      const { problem } = JSON.parse(response.body) as { problem: Record<string, unknown> };
      expect(problem['built'], `${file}:${line}:${column}`).toBeUndefined();
    }
  });
});

describe.skipIf(!hasChromium)('a runtime error of a built tool, in Chromium', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await page?.close();
    await browser?.close();
  });

  it('shows in the problems box and the terminal at its src/ line', async () => {
    const app = buildApp({ 'src/App.tsx': THROWING });
    const { server, logged } = await startOn(app);
    page = await browser.newPage();
    await page.goto(server.url);
    const item = page.locator('#tool-problems li[data-kind="error"][data-built]', { hasText: 'no name stored' });
    await item.waitFor({ timeout: SETTLE_MS });
    const place = await item.locator('.problem-place').textContent();
    expect(place).toMatch(new RegExp(`^src/App\\.tsx:${throwLine}:\\d+$`));
    expect(await item.getAttribute('data-built')).toMatch(/^assets\/index\.js:1:\d+$/);
    expect(await item.textContent()).toContain('no name stored');
    expect(logged.map(([, message]) => message)).toContainEqual(expect.stringMatching(new RegExp(`^tool: uncaught error at src/App\\.tsx:${throwLine}:\\d+ \\(built: assets/index\\.js:1:\\d+\\): .*no name stored`)));
    // The findings panel names the source too.
    const finding = page.locator('#findings li[data-rule="browser-storage"]');
    expect(await finding.textContent()).toContain(`src/App.tsx:${positionOf(THROWING, 'localStorage').line}`);
    expect(await finding.getAttribute('data-built')).toMatch(/^assets\/index\.js:1:\d+$/);
  });
});

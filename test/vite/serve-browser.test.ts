import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser, Frame, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pipeline from '../../src/vite/index.js';
import { launchChromium, requireChromium } from '../dev/browser.js';
import { waitFor } from '../dev/helpers.js';
import { captureLogger, MANIFEST, viteProject, type CapturedLogger } from './helpers.js';

/*
 * `vite` with pipeline-tool/vite, in Chromium: a React app served by Vite runs inside the emulated
 * host's sandboxed frame, calls the bridge, keeps its state through a hot update, and has its
 * runtime errors shown in the host page and the terminal.
 */

const hasChromium = requireChromium();

const APP = `import { useState } from 'react';

export function App() {
  const [count, setCount] = useState(0);
  const [customers, setCustomers] = useState('');
  const listCustomers = () => {
    (window as any).pipeline.customers.list({ pageSize: 2 }).then((page: { totalCount: number }) => setCustomers(String(page.totalCount)));
  };
  return (
    <main>
      <p id="count">Count: {count}</p>
      <button id="more" onClick={() => setCount((n) => n + 1)}>More</button>
      <button id="customers" onClick={listCustomers}>Customers</button>
      <p id="customer-count">{customers}</p>
      <button id="break" onClick={() => { throw new Error('the counter broke'); }}>Break</button>
    </main>
  );
}
`;

const MAIN = `import { createRoot } from 'react-dom/client';
import { App } from './App';

createRoot(document.getElementById('root')!).render(<App />);
`;

describe.skipIf(!hasChromium)('pipeline-tool/vite while Vite serves, in Chromium', () => {
  let root: string;
  let logger: CapturedLogger;
  let server: ViteDevServer;
  let browser: Browser;
  let page: Page;
  let hostUrl: string;
  let viteOrigin: string;

  beforeAll(async () => {
    root = viteProject({
      'index.html': '<!doctype html>\n<html><head><meta charset="utf-8"><title>Counter</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n',
      'public/manifest.json': JSON.stringify(MANIFEST),
      'src/main.tsx': MAIN,
      'src/App.tsx': APP,
    });
    logger = captureLogger();
    server = await createServer({
      root,
      configFile: false,
      clearScreen: false,
      customLogger: logger,
      plugins: [react(), pipeline({ port: 0 })],
      server: { port: 0 },
      // Bundled before the page asks, so that no late discovery reloads the page during the test.
      optimizeDeps: { include: ['react', 'react-dom/client', 'react/jsx-dev-runtime'] },
    });
    await server.listen();
    server.printUrls();
    hostUrl = await waitFor(() => /Open:\s+(\S+)/.exec(logger.text('info'))?.[1], 20_000, 'the host page address');
    viteOrigin = new URL(server.resolvedUrls?.local[0] ?? '').origin;
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(hostUrl);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const appFrame = (): Promise<Frame> =>
    waitFor(
      async () => {
        for (const frame of page.frames()) {
          if (!frame.url().startsWith(viteOrigin) || frame.isDetached()) continue;
          if ((await frame.locator('#count').count().catch(() => 0)) > 0) return frame;
        }
        return undefined;
      },
      20_000,
      'the app to render in the tool frame',
    );

  it('prints one address to open: the host page, which frames the app Vite serves in the sandbox', async () => {
    expect(logger.text('info').match(/Open:/g)).toHaveLength(1);
    expect(logger.text('info')).not.toContain(viteOrigin);
    const sandbox = await page.getAttribute('#tool-frame', 'sandbox');
    expect(sandbox).toBe('allow-scripts');
    // Under the random base path that keeps other sites' sandboxed frames out (see the next file).
    expect(await page.getAttribute('#tool-frame', 'src')).toMatch(new RegExp(`^${viteOrigin}/t/[\\w-]{22}/$`));
    const frame = await appFrame();
    expect(await frame.textContent('#count')).toBe('Count: 0');
    // The manifest in public/ makes it a quoting extension, as the host page says.
    await waitFor(async () => (await page.textContent('#tool-name'))?.includes('quoting_extension'), 10_000, 'the tool type from public/manifest.json');
  });

  it('shows a bridge call made from a component in the call log', async () => {
    const frame = await appFrame();
    await frame.click('#customers');
    await waitFor(async () => (await frame.textContent('#customer-count')) !== '', 10_000, 'the customers to arrive');
    expect(Number(await frame.textContent('#customer-count'))).toBeGreaterThan(0);
    const entry = page.locator('#call-log li[data-method="customers.list"]');
    await waitFor(async () => (await entry.getAttribute('data-status')) === 'ok', 10_000, 'the call log entry to resolve');
    expect(logger.text('info')).toMatch(/\[pipeline-tool\] customers\.list ok/);
  });

  it('updates an edited component in place: no reload, and the count survives', async () => {
    const frame = await appFrame();
    for (let i = 0; i < 3; i++) await frame.click('#more');
    expect(await frame.textContent('#count')).toBe('Count: 3');
    await frame.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const loads = await page.evaluate(() => document.body.dataset['frameLoads']);

    const file = path.join(root, 'src/App.tsx');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Count: {count}', 'Total: {count}'));

    await waitFor(async () => (await frame.textContent('#count').catch(() => null)) === 'Total: 3', 20_000, 'the edit to show with the count kept');
    expect(await frame.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(await page.evaluate(() => document.body.dataset['frameLoads'])).toBe(loads);
  });

  it('shows an error thrown in a component in the problems box and the terminal, at its file in src/', async () => {
    const frame = await appFrame();
    await frame.click('#break');
    const item = page.locator('#tool-problems li[data-kind="error"]').first();
    await item.waitFor({ timeout: 10_000 });
    expect(await item.locator('.problem-message').textContent()).toContain('the counter broke');
    expect(await item.locator('.problem-place').textContent()).toMatch(/^src\/App\.tsx:\d+:\d+$/);
    await waitFor(() => logger.text('error').includes('the counter broke'), 10_000, 'the terminal to hear of it');
    expect(logger.text('error')).toMatch(/\[pipeline-tool\] tool: uncaught error at src\/App\.tsx:\d+:\d+: .*the counter broke/);
  });

  // Ready for when dev maps runtime positions through source maps (Vite serves each module with its
  // map inline): the place is then the line of the throw in src/App.tsx as written.
  it.todo('places that error at the line of its throw in src/App.tsx');
});

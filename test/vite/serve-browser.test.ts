import { readFileSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import type { Browser, Frame, Page } from 'playwright-core';
import { createServer, type PluginOption, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pipeline from '../../src/vite/index.js';
import { launchChromium, requireChromium, SETTLE_MS } from '../dev/browser.js';
import { waitFor } from '../dev/helpers.js';
import { positionOf } from '../helpers/built-app.js';
import { captureLogger, MANIFEST, viteProject, type CapturedLogger } from './helpers.js';

/*
 * `vite` with pipeline-tool/vite, in Chromium: a React app (and a Vue one) served by Vite runs
 * inside the emulated host's sandboxed frame, calls the bridge, keeps its state through a hot
 * update, and has its runtime errors shown in the host page and the terminal.
 */

const hasChromium = requireChromium();

const APP = `import { useEffect, useState } from 'react';

export function App() {
  const [count, setCount] = useState(0);
  const [customers, setCustomers] = useState('');
  const [dialogs, setDialogs] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (saving) localStorage.setItem('count', String(count));
  }, [saving]);
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
      <button id="dialogs" onClick={() => setDialogs([alert('Hello there'), confirm('Sure?'), prompt('Name?')].map(String).join(' '))}>Dialogs</button>
      <p id="dialog-results">{dialogs}</p>
      <button id="save" onClick={() => setSaving(true)}>Save</button>
    </main>
  );
}
`;

const MAIN = `import { createRoot } from 'react-dom/client';
import { App } from './App';

createRoot(document.getElementById('root')!).render(<App />);
`;

const VUE_APP = `<script setup lang="ts">
import { ref, watch } from 'vue';
const count = ref(0);
const customers = ref('');
const saved = ref(false);
watch(saved, () => sessionStorage.setItem('count', String(count.value)));
const greet = () => alert('Hello from Vue');
const listCustomers = () => (window as any).pipeline.customers.list({ pageSize: 2 }).then((page: { totalCount: number }) => (customers.value = String(page.totalCount)));
</script>

<template>
  <main>
    <p id="count">Count: {{ count }}</p>
    <button id="more" @click="count++">More</button>
    <button id="customers" @click="listCustomers">Customers</button>
    <p id="customer-count">{{ customers }}</p>
    <button id="greet" @click="greet">Greet</button>
    <button id="save" @click="saved = true">Save</button>
  </main>
</template>
`;

/** A Vite server with the plugin, on free ports, and the host page's address it printed. */
async function serve(files: Record<string, string>, plugins: PluginOption[], include: string[]): Promise<{ root: string; logger: CapturedLogger; server: ViteDevServer; hostUrl: string; viteOrigin: string }> {
  const root = viteProject({ 'public/manifest.json': JSON.stringify(MANIFEST), ...files });
  const logger = captureLogger();
  const server = await createServer({
    root,
    configFile: false,
    clearScreen: false,
    customLogger: logger,
    plugins: [...plugins, pipeline({ port: 0 })],
    server: { port: 0 },
    // Bundled before the page asks, so that no late discovery reloads the page during the test.
    optimizeDeps: { include },
  });
  await server.listen();
  server.printUrls();
  const hostUrl = await waitFor(() => /Open:\s+(\S+)/.exec(logger.text('info'))?.[1], SETTLE_MS, 'the host page address');
  return { root, logger, server, hostUrl, viteOrigin: new URL(server.resolvedUrls?.local[0] ?? '').origin };
}

/** The app in the tool frame, once it shows its count. */
function appFrame(page: Page, viteOrigin: string): Promise<Frame> {
  return waitFor(
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
}

describe.skipIf(!hasChromium)('pipeline-tool/vite while Vite serves, in Chromium', () => {
  let root: string;
  let logger: CapturedLogger;
  let server: ViteDevServer;
  let browser: Browser;
  let page: Page;
  let hostUrl: string;
  let viteOrigin: string;

  beforeAll(async () => {
    ({ root, logger, server, hostUrl, viteOrigin } = await serve(
      {
        'index.html': '<!doctype html>\n<html><head><meta charset="utf-8"><title>Counter</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n',
        'src/main.tsx': MAIN,
        'src/App.tsx': APP,
      },
      [react()],
      ['react', 'react-dom/client', 'react/jsx-dev-runtime'],
    ));
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(hostUrl);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const toolFrame = () => appFrame(page, viteOrigin);

  it('prints one address to open: the host page, which frames the app Vite serves in the sandbox', async () => {
    expect(logger.text('info').match(/Open:/g)).toHaveLength(1);
    expect(logger.text('info')).not.toContain(viteOrigin);
    const sandbox = await page.getAttribute('#tool-frame', 'sandbox');
    expect(sandbox).toBe('allow-scripts');
    // Under the random base path that keeps other sites' sandboxed frames out (see the next file).
    expect(await page.getAttribute('#tool-frame', 'src')).toMatch(new RegExp(`^${viteOrigin}/t/[\\w-]{22}/$`));
    const frame = await toolFrame();
    expect(await frame.textContent('#count')).toBe('Count: 0');
    // The manifest in public/ makes it a quoting extension, as the host page says.
    await waitFor(async () => (await page.textContent('#tool-name'))?.includes('quoting_extension'), SETTLE_MS, 'the tool type from public/manifest.json');
  });

  it('shows a bridge call made from a component in the call log', async () => {
    const frame = await toolFrame();
    await frame.click('#customers');
    await waitFor(async () => (await frame.textContent('#customer-count')) !== '', SETTLE_MS, 'the customers to arrive');
    expect(Number(await frame.textContent('#customer-count'))).toBeGreaterThan(0);
    const entry = page.locator('#call-log li[data-method="customers.list"]');
    await waitFor(async () => (await entry.getAttribute('data-status')) === 'ok', SETTLE_MS, 'the call log entry to resolve');
    expect(logger.text('info')).toMatch(/\[pipeline-tool\] customers\.list ok/);
  });

  it('updates an edited component in place: no reload, and the count survives', async () => {
    const frame = await toolFrame();
    for (let i = 0; i < 3; i++) await frame.click('#more');
    expect(await frame.textContent('#count')).toBe('Count: 3');
    await frame.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const loads = await page.evaluate(() => document.body.dataset['frameLoads']);

    const file = path.join(root, 'src/App.tsx');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Count: {count}', 'Total: {count}'));

    await waitFor(async () => (await frame.textContent('#count').catch(() => null)) === 'Total: 3', SETTLE_MS, 'the edit to show with the count kept');
    expect(await frame.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(await page.evaluate(() => document.body.dataset['frameLoads'])).toBe(loads);
  });

  it('shows an error thrown in a component in the problems box and the terminal, at the line of its throw in src/App.tsx', async () => {
    const frame = await toolFrame();
    await frame.click('#break');
    // Shown at once where the browser saw it, then where the server placed it (data-served).
    const item = page.locator('#tool-problems li[data-kind="error"][data-served]', { hasText: 'the counter broke' }).first();
    await item.waitFor({ timeout: SETTLE_MS });
    // Vite serves App.tsx transformed, its map inline: the place is the source's, as the author wrote
    // it, where Chromium puts an error's place: the line of the throw, at the Error's construction.
    const { line, column } = positionOf(readFileSync(path.join(root, 'src/App.tsx'), 'utf8'), "new Error('the counter broke')");
    expect(line).toBe(positionOf(APP, 'throw').line);
    expect(await item.locator('.problem-place').textContent()).toBe(`src/App.tsx:${line}:${column}`);
    // The place in the code Vite served (the same path, transformed) is in the tooltip, named as served.
    expect(await item.getAttribute('data-served')).toMatch(/^src\/App\.tsx:\d+:\d+$/);
    expect(await item.getAttribute('data-served')).not.toBe(`src/App.tsx:${line}:${column}`);
    expect(await item.locator('.problem-place').getAttribute('title')).toMatch(/^served: src\/App\.tsx:\d+:\d+$/);
    await waitFor(() => logger.text('error').includes('the counter broke'), SETTLE_MS, 'the terminal to hear of it');
    expect(logger.text('error')).toMatch(new RegExp(`\\[pipeline-tool\\] tool: uncaught error at src/App\\.tsx:${line}:${column} \\(served: src/App\\.tsx:\\d+:\\d+\\): .*the counter broke`));
  });

  it('places the error at its new line after a hot update moved it, with no reload of the frame', async () => {
    const frame = await toolFrame();
    const loads = await page.evaluate(() => document.body.dataset['frameLoads']);
    const file = path.join(root, 'src/App.tsx');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('  return (\n', '  // Two lines more above the throw,\n  // which Vite serves anew.\n  return (\n')
        .replace("Error('the counter broke')", "Error('the counter broke again')")
        .replace('>Break<', '>Break again<'),
    );
    await waitFor(async () => (await frame.textContent('#break').catch(() => null)) === 'Break again', SETTLE_MS, 'the edit to show');
    const { line, column } = positionOf(readFileSync(file, 'utf8'), "new Error('the counter broke again')");
    await frame.click('#break');
    const item = page.locator('#tool-problems li[data-kind="error"][data-served]', { hasText: 'the counter broke again' }).first();
    await item.waitFor({ timeout: SETTLE_MS });
    await waitFor(async () => (await item.locator('.problem-place').textContent()) === `src/App.tsx:${line}:${column}`, SETTLE_MS, `the place src/App.tsx:${line}:${column}`);
    expect(await page.evaluate(() => document.body.dataset['frameLoads'])).toBe(loads);
  });

  it("shows what the code rules find in the modules Vite serves in the findings panel, at the author's line, without a build", async () => {
    const source = readFileSync(path.join(root, 'src/App.tsx'), 'utf8');
    const { line, column } = positionOf(source, 'localStorage');
    const item = page.locator(`#findings li[data-rule="browser-storage"][data-place="src/App.tsx:${line}:${column}"]`);
    await item.waitFor({ timeout: SETTLE_MS });
    expect(await item.getAttribute('data-served')).toMatch(/^src\/App\.tsx:\d+:\d+$/);
    expect(await page.textContent('#findings')).toContain('Checked as served');
    expect(logger.text('warn')).toMatch(new RegExp(`\\[pipeline-tool\\] src/App\\.tsx:${line}:${column}: localStorage is not dependable`));
  });

  it("reports alert, confirm and prompt, which the sandbox ignores, with their text at the caller's line; they return what the platform's do", async () => {
    const frame = await toolFrame();
    await frame.click('#dialogs');
    await waitFor(async () => (await frame.textContent('#dialog-results')) !== '', SETTLE_MS, 'the dialogs to return');
    expect(await frame.textContent('#dialog-results')).toBe('undefined false null');
    const { line } = positionOf(readFileSync(path.join(root, 'src/App.tsx'), 'utf8'), "alert('Hello there')");
    const item = page.locator('#tool-problems li[data-kind="blocked"][data-served]', { hasText: 'alert("Hello there") was ignored' }).first();
    await item.waitFor({ timeout: SETTLE_MS });
    expect(await item.locator('.problem-place').textContent()).toMatch(new RegExp(`^src/App\\.tsx:${line}:\\d+$`));
    for (const said of ['confirm("Sure?") was ignored', 'prompt("Name?") was ignored']) await page.locator('#tool-problems li[data-kind="blocked"]', { hasText: said }).first().waitFor({ timeout: SETTLE_MS });
    await waitFor(() => logger.text('warn').includes('alert("Hello there") was ignored'), SETTLE_MS, 'the terminal to hear of it');
    expect(logger.text('warn')).toMatch(new RegExp(`tool: blocked by the sandbox at src/App\\.tsx:${line}:\\d+ \\(served: src/App\\.tsx:\\d+:\\d+\\): alert\\("Hello there"\\) was ignored`));
  });

  it('follows a save: the box keeps a failed update, empties on a successful one, and a new mistake shows in the panel until it is fixed', async () => {
    const frame = await toolFrame();
    const loads = await page.evaluate(() => document.body.dataset['frameLoads']);
    expect(Number(await page.evaluate(() => document.body.dataset['toolProblems']))).toBeGreaterThan(0);
    const file = path.join(root, 'src/App.tsx');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('<p id="dialog-results">', '<p id="dialog-results"'));
    await page.locator('#tool-problems li', { hasText: 'Failed to reload' }).first().waitFor({ timeout: SETTLE_MS });

    const mistaken = good.replace('  return (\n', "  const ask = () => confirm('Really?');\n  return (\n").replace('>Dialogs<', ' onDoubleClick={ask}>Dialogs<');
    writeFileSync(file, mistaken);
    await waitFor(async () => (await page.evaluate(() => document.body.dataset['toolProblems'])) === '0', SETTLE_MS, 'the box to empty after the update');
    const { line, column } = positionOf(mistaken, "confirm('Really?')");
    const item = page.locator(`#findings li[data-rule="dialog-call"][data-place="src/App.tsx:${line}:${column}"]`);
    await item.waitFor({ timeout: SETTLE_MS });

    writeFileSync(file, good);
    await item.waitFor({ state: 'detached', timeout: SETTLE_MS });
    expect(await frame.textContent('#count')).toMatch(/: \d+$/);
    expect(await page.evaluate(() => document.body.dataset['frameLoads'])).toBe(loads);
  });

  // Last: React unmounts the app after an error in an effect.
  it("reports a storage access the sandbox refuses in an effect with its message, at the author's line, not React's", async () => {
    const frame = await toolFrame();
    await frame.click('#save');
    const { line, column } = positionOf(readFileSync(path.join(root, 'src/App.tsx'), 'utf8'), 'localStorage');
    const item = page.locator('#tool-problems li[data-kind="error"]', { hasText: "SecurityError: Failed to read the 'localStorage' property" }).first();
    await item.waitFor({ timeout: SETTLE_MS });
    await waitFor(async () => (await item.locator('.problem-place').textContent().catch(() => null)) === `src/App.tsx:${line}:${column}`, SETTLE_MS, `the place src/App.tsx:${line}:${column}`);
    expect(await item.textContent()).not.toContain('react-dom');
    await waitFor(() => logger.text('error').includes("'localStorage'"), SETTLE_MS, 'the terminal to hear of it');
    expect(logger.text('error')).toMatch(new RegExp(`tool: uncaught error at src/App\\.tsx:${line}:${column}: SecurityError: Failed to read the 'localStorage' property`));
  });
});

describe.skipIf(!hasChromium)('pipeline-tool/vite with a Vue app, in Chromium', () => {
  let root: string;
  let server: ViteDevServer;
  let browser: Browser;
  let page: Page;
  let viteOrigin: string;

  beforeAll(async () => {
    let hostUrl: string;
    ({ root, server, hostUrl, viteOrigin } = await serve(
      {
        'index.html': '<!doctype html>\n<html><head><meta charset="utf-8"><title>Counter</title></head><body><div id="root"></div><script type="module" src="/src/main.ts"></script></body></html>\n',
        'src/main.ts': "import { createApp } from 'vue';\nimport App from './App.vue';\n\ncreateApp(App).mount('#root');\n",
        'src/App.vue': VUE_APP,
      },
      [vue()],
      ['vue'],
    ));
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(hostUrl);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('calls the bridge from a component, and keeps the count through an edit of its template', async () => {
    const frame = await appFrame(page, viteOrigin);
    await frame.click('#customers');
    await page.locator('#call-log li[data-method="customers.list"][data-status="ok"]').waitFor({ timeout: SETTLE_MS });

    for (let i = 0; i < 2; i++) await frame.click('#more');
    await waitFor(async () => (await frame.textContent('#count')) === 'Count: 2', SETTLE_MS, 'the count');
    await frame.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    const file = path.join(root, 'src/App.vue');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Count: {{ count }}', 'Total: {{ count }}'));

    await waitFor(async () => (await frame.textContent('#count').catch(() => null)) === 'Total: 2', SETTLE_MS, 'the edit to show with the count kept');
    expect(await frame.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  });

  it("shows sessionStorage in src/App.vue in the findings panel as served, and reports the sandbox's SecurityError and an ignored alert at their lines", async () => {
    const source = readFileSync(path.join(root, 'src/App.vue'), 'utf8');
    const storage = positionOf(source, 'sessionStorage');
    await page.locator(`#findings li[data-rule="browser-storage"][data-place="src/App.vue:${storage.line}:${storage.column}"]`).waitFor({ timeout: SETTLE_MS });

    const frame = await appFrame(page, viteOrigin);
    await frame.click('#greet');
    const greeting = page.locator('#tool-problems li[data-kind="blocked"]', { hasText: 'alert("Hello from Vue") was ignored' }).first();
    await greeting.waitFor({ timeout: SETTLE_MS });
    const alertLine = positionOf(source, "alert('Hello from Vue')").line;
    await waitFor(async () => new RegExp(`^src/App\\.vue:${alertLine}:\\d+$`).test((await greeting.locator('.problem-place').textContent()) ?? ''), SETTLE_MS, `the alert at src/App.vue:${alertLine}`);

    await frame.click('#save');
    // Vue's scheduler runs the watcher in a promise, so the error arrives as an unhandled rejection.
    const refused = page.locator('#tool-problems li[data-kind="rejection"]', { hasText: "SecurityError: Failed to read the 'sessionStorage' property" }).first();
    await refused.waitFor({ timeout: SETTLE_MS });
    await waitFor(async () => (await refused.locator('.problem-place').textContent().catch(() => null)) === `src/App.vue:${storage.line}:${storage.column}`, SETTLE_MS, `the place src/App.vue:${storage.line}:${storage.column}`);
    expect(await refused.textContent()).not.toContain('runtime-core');
  });
});

describe('what pipeline-tool/vite lets the opaque origin read', () => {
  let server: ViteDevServer;
  let base: URL;
  let hostUrl: string;
  beforeAll(async () => {
    const served = await serve(
      {
        'index.html': '<!doctype html>\n<html><head><title>t</title></head><body><script type="module" src="/src/main.ts"></script></body></html>\n',
        'src/main.ts': "document.body.dataset.ready = 'yes';\n",
      },
      [],
      [],
    );
    server = served.server;
    hostUrl = served.hostUrl;
    base = new URL(server.resolvedUrls?.local[0] ?? '');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** GET with the headers a browser would send, redirects not followed. */
  const get = (pathname: string, origin?: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
      const request = httpGet({ host: base.hostname, port: base.port, path: pathname, headers: origin === undefined ? {} : { Origin: origin } }, (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, headers: response.headers });
      });
      request.on('error', reject);
    });

  it('serves the app under a random path, and lets origin null read below it only', async () => {
    expect(base.pathname).toMatch(/^\/t\/[\w-]{22}\/$/);
    const inside = await get(`${base.pathname}src/main.ts`, 'null');
    expect(inside.status).toBe(200);
    expect(inside.headers['access-control-allow-origin']).toBe('null');
    // Outside the path, origin null gets a bare 404, not Vite's redirect, which would name the path.
    for (const pathname of ['/', '/index.html', '/src/main.ts', '/@vite/client']) {
      const outside = await get(pathname, 'null');
      expect(outside.status, pathname).toBe(404);
      expect(outside.headers['location'], pathname).toBeUndefined();
    }
    // Another site's page gets nothing it may read.
    expect((await get(`${base.pathname}src/main.ts`, 'https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it("lets the host page's origin read, and no page on another localhost port (Vite's default would)", async () => {
    const hostOrigin = new URL(hostUrl).origin;
    expect((await get(`${base.pathname}src/main.ts`, hostOrigin)).headers['access-control-allow-origin']).toBe(hostOrigin);
    for (const origin of ['http://localhost:5999', 'http://127.0.0.1:3000', `http://localhost:${base.port}`]) {
      expect((await get(`${base.pathname}src/main.ts`, origin)).headers['access-control-allow-origin'], origin).toBeUndefined();
      expect((await get('/', origin)).headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});

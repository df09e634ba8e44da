import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_TSX, buildApp, positionOf, type BuiltApp, type MapStyle } from '../helpers/built-app.js';
import { launchChromium, requireChromium, SETTLE_MS } from './browser.js';
import { spawnDev } from './dev-process.js';
import { postFromHostPage, startTestServer, waitFor } from './helpers.js';

/*
 * `dev --url` with a page another dev server serves: what goes wrong in its scripts is placed at
 * the author's source through the maps that server sends with them, read from that server alone,
 * below the page's base path, and never more of it than the limit.
 */

const hasChromium = requireChromium();

/** App.tsx throwing just after it starts to render (as in test/dev/source-maps.test.ts). */
const THROWING = APP_TSX.replace('export function App(): HTMLElement {\n', "export function App(): HTMLElement {\n  setTimeout(() => {\n    throw new TypeError('no name stored');\n  }, 0);\n");
const BASE = '/app/';
/**
 * Well past the 50,000,000 bytes a served file may have: so far past that, once the reader stops at
 * the limit, what is left cannot all sit in the connection's buffers, and the server sees the
 * response cut off rather than finished.
 */
const TOO_LARGE = 150_000_000;

interface Site {
  /** The page's address: the base path on the site's origin. */
  url: string;
  port: number;
  /** Every path asked for, in order. */
  requests: string[];
  /** The paths asked for by anything but the browser (dev reading a script for its map), in order. */
  notByBrowser: string[];
  /** Whether the over-large file was sent whole, once asked for. */
  largeSentWhole: () => boolean | undefined;
  setSdk(url: string): void;
}

const servers: Server[] = [];
afterAll(() => servers.forEach((server) => server.close()));

/**
 * Another dev server: the project folder at /app/, as Vite serves its root, with a page that loads
 * the SDK and the built bundle as a module (which the opaque origin may read: Access-Control-Allow-Origin
 * null), a redirect, and beside the bundle a copy padded to 1 MB and one padded past the limit,
 * whose maps would place them if they were read whole.
 */
async function serveProject(app: BuiltApp): Promise<Site> {
  const requests: string[] = [];
  const notByBrowser: string[] = [];
  let sdkUrl = '';
  let largeSentWhole: boolean | undefined;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const pathname = (request.url ?? '/').replace(/[?#].*$/s, '');
    requests.push(request.url ?? '');
    if (!/Chrome\//.test(request.headers['user-agent'] ?? '')) notByBrowser.push(request.url ?? '');
    const headers = { 'Access-Control-Allow-Origin': 'null', 'Cache-Control': 'no-store' };
    if (pathname === BASE) {
      response.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html><head><script src="${sdkUrl}"></script></head><body><script type="module" src="dist/assets/index.js"></script></body></html>`);
    } else if (pathname === `${BASE}dist/assets/moved.js`) {
      response.writeHead(302, { ...headers, Location: `${BASE}dist/assets/index.js` });
      response.end();
    } else if (pathname === `${BASE}dist/assets/large.js` || pathname === `${BASE}dist/assets/padded.js`) {
      // The bundle, then spaces, then its map comment: its map would place it, were it read whole.
      const text = app.bundle.trimEnd();
      const comment = text.slice(text.lastIndexOf('\n') + 1);
      const padding = Buffer.alloc(1_000_000, ' ');
      const large = pathname === `${BASE}dist/assets/large.js`;
      let left = large ? Math.ceil(TOO_LARGE / padding.length) : 1;
      response.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' });
      if (large) response.on('close', () => (largeSentWhole = response.writableFinished));
      response.write(`${text.slice(0, text.length - comment.length)}\n`);
      const more = () => {
        while (left > 0 && !response.destroyed) {
          left -= 1;
          if (!response.write(padding)) return void response.once('drain', more);
        }
        if (!response.destroyed) response.end(`\n${comment}\n`);
      };
      more();
    } else {
      const file = path.join(app.project, ...decodeURIComponent(pathname.slice(BASE.length)).split('/'));
      if (!pathname.startsWith(BASE) || !file.startsWith(app.project + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
        response.writeHead(404, headers);
        response.end();
        return;
      }
      response.writeHead(200, { ...headers, 'Content-Type': file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream' });
      response.end(readFileSync(file));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${BASE}`, port, requests, notByBrowser, largeSentWhole: () => largeSentWhole, setSdk: (url) => (sdkUrl = url) };
}

async function startOn(map: MapStyle, sources: Record<string, string> = { 'src/App.tsx': THROWING }) {
  const app = buildApp(sources, { map });
  const site = await serveProject(app);
  const logged: string[] = [];
  const server = await startTestServer({ root: app.dist, url: site.url, manifest: app.dist, sourceRoot: app.project, watch: false, onLog: (_level, message) => logged.push(message) });
  const report = async (file: string, line: number, column: number) => {
    const response = await postFromHostPage(server, '/__pipeline/report', { kind: 'error', message: 'Uncaught TypeError: no name stored', file, line, column });
    expect(response.status).toBe(200);
    return (JSON.parse(response.body) as { problem: { file: string | null; line: number | null; column: number | null; built?: object } }).problem;
  };
  return { app, site, server, logged, report };
}

describe('dev --url places what goes wrong in the framed page through the maps its server sends', () => {
  it('reads a script with its map inline from the framed page\u2019s server, and tells the terminal both places', async () => {
    const { app, site, logged, report } = await startOn('inline');
    const built = positionOf(app.bundle, 'throw');
    const problem = await report(`${site.url}dist/assets/index.js?v=3`, built.line, built.column);
    const source = positionOf(THROWING, 'throw');
    expect(problem).toEqual({ kind: 'error', message: 'Uncaught TypeError: no name stored', file: 'src/App.tsx', ...source, built: { file: 'dist/assets/index.js', ...built } });
    expect(logged.at(-1)).toBe(`tool: uncaught error at src/App.tsx:${source.line}:${source.column} (built: dist/assets/index.js:${built.line}:${built.column}): Uncaught TypeError: no name stored`);
    // Without the query, which bundlers add to bust caches.
    expect(site.requests).toEqual(['/app/dist/assets/index.js']);
  });

  it('follows a map file the script names, and guesses at none beside a script that names none', async () => {
    const linked = await startOn('linked');
    const built = positionOf(linked.app.bundle, 'throw');
    expect(await linked.report(`${linked.site.url}dist/assets/index.js`, built.line, built.column)).toMatchObject({ file: 'src/App.tsx', built: { file: 'dist/assets/index.js' } });
    expect(linked.site.requests).toEqual(['/app/dist/assets/index.js', '/app/dist/assets/index.js.map']);

    const hidden = await startOn('hidden');
    const problem = await hidden.report(`${hidden.site.url}dist/assets/index.js`, built.line, built.column);
    expect(problem).toMatchObject({ file: 'dist/assets/index.js', line: built.line });
    expect(problem.built).toBeUndefined();
    expect(hidden.site.requests).toEqual(['/app/dist/assets/index.js']);
  });

  it('asks nothing of another site or outside the base path, follows no redirect, and leaves those reports where they were', async () => {
    const { app, site, report } = await startOn('inline');
    const other = await serveProject(app);
    const built = positionOf(app.bundle, 'throw');
    const origin = `http://127.0.0.1:${site.port}`;
    for (const file of [
      `${other.url}dist/assets/index.js`,
      `http://localhost:${site.port}${BASE}dist/assets/index.js`,
      `${origin}/dist/assets/index.js`,
      `${origin}${BASE}%2e%2e/app-other/index.js`,
      `${origin}${BASE}dist/%2e%2e/%2E%2E/%2e%2e/index.js`,
      `${origin}${BASE}dist/assets/moved.js`,
      `${origin}${BASE}missing.js`,
    ]) {
      const problem = await report(file, built.line, built.column);
      expect(problem.built, file).toBeUndefined();
      expect(problem.line, file).toBe(built.line);
    }
    expect(other.requests).toEqual([]);
    expect(site.requests).toEqual(['/app/dist/assets/moved.js', '/app/missing.js']);
  });

  it('reads no more of a script than 50,000,000 bytes, and places what it can read whole', async () => {
    const { app, site, report } = await startOn('inline');
    const built = positionOf(app.bundle, 'throw');
    // Beside the bundle, so that the map's relative sources lead to src/.
    expect(await report(`${site.url}dist/assets/padded.js`, built.line, built.column)).toMatchObject({ file: 'src/App.tsx', built: { file: 'dist/assets/padded.js' } });
    const large = await report(`${site.url}dist/assets/large.js`, built.line, built.column);
    expect(large).toMatchObject({ file: 'dist/assets/large.js', line: built.line, column: built.column });
    expect(large.built).toBeUndefined();
    await waitFor(() => site.largeSentWhole() !== undefined, SETTLE_MS, 'the large response to end');
    expect(site.largeSentWhole()).toBe(false);
  });

  it('reads the script again at the next report: the other server rebuilds without the tool reloading', async () => {
    const { app, site, report } = await startOn('inline');
    const built = positionOf(app.bundle, 'throw');
    expect(await report(`${site.url}dist/assets/index.js`, built.line, built.column)).toMatchObject({ file: 'src/App.tsx', line: positionOf(THROWING, 'throw').line });

    const moved = THROWING.replace("  setTimeout(() => {\n", "  // A comment,\n  // and another.\n  setTimeout(() => {\n");
    const rebuilt = buildApp({ 'src/App.tsx': moved }, { map: 'inline' });
    copyFileSync(path.join(rebuilt.dist, 'assets/index.js'), path.join(app.dist, 'assets/index.js'));
    copyFileSync(path.join(rebuilt.project, 'src/App.tsx'), path.join(app.project, 'src/App.tsx'));
    const now = positionOf(rebuilt.bundle, 'throw');
    expect(await report(`${site.url}dist/assets/index.js`, now.line, now.column)).toMatchObject({ file: 'src/App.tsx', line: positionOf(moved, 'throw').line });
  });
});

describe.skipIf(!hasChromium)('dev --url in Chromium, with a script whose map is inline', () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the framed page\u2019s runtime error in the problems box and the terminal at its src/ line', async () => {
    const app = buildApp({ 'src/App.tsx': THROWING }, { map: 'inline' });
    const site = await serveProject(app);
    // From the project's folder, which has no project file: sources are named from there.
    const dev = spawnDev(['--url', site.url, 'dist', '--port', '0'], { cwd: app.project });
    try {
      const url = await dev.url();
      site.setSdk(`${url}__pipeline/sdk.js`);
      browser = await launchChromium();
      const page = await browser.newPage();
      await page.goto(url);
      const throwAt = positionOf(THROWING, 'new TypeError');
      const item = page.locator('#tool-problems li[data-kind="error"][data-built]', { hasText: 'no name stored' });
      await item.waitFor({ timeout: SETTLE_MS });
      expect(await item.locator('.problem-place').textContent()).toBe(`src/App.tsx:${throwAt.line}:${throwAt.column}`);
      expect(await item.getAttribute('data-built')).toMatch(/^dist\/assets\/index\.js:1:\d+$/);
      await dev.waitForOutput(new RegExp(`tool: uncaught error at src/App\\.tsx:${throwAt.line}:${throwAt.column} \\(built: dist/assets/index\\.js:1:\\d+\\): .*no name stored`), 'stderr');
    } finally {
      expect(await dev.stop('SIGTERM')).toBe(0);
    }
  });

  it('reads the script once for two errors of one load of the page: the reports say which code they come from', async () => {
    // Two errors from the same code, the second only once the first is shown (so that the two
    // reports cannot share one request): the frame's reporter tags both with the same version of
    // the page's code, so dev reads the script for the first and reuses it for the second.
    const twice = THROWING.replace("  setTimeout(() => {\n", "  setInterval(() => {\n    if (document.body.dataset.again === 'yes') {\n      delete document.body.dataset.again;\n      throw new RangeError('no room left');\n    }\n  }, 50);\n  setTimeout(() => {\n");
    expect(twice).not.toBe(THROWING);
    const app = buildApp({ 'src/App.tsx': twice }, { map: 'inline' });
    const site = await serveProject(app);
    const dev = spawnDev(['--url', site.url, 'dist', '--port', '0'], { cwd: app.project });
    try {
      const url = await dev.url();
      site.setSdk(`${url}__pipeline/sdk.js`);
      browser ??= await launchChromium();
      const page = await browser.newPage();
      await page.goto(url);
      const shown = async (message: string, word: string) => {
        const at = positionOf(twice, word);
        const item = page.locator('#tool-problems li[data-kind="error"][data-built]', { hasText: message });
        await item.waitFor({ timeout: SETTLE_MS });
        expect(await item.locator('.problem-place').textContent()).toBe(`src/App.tsx:${at.line}:${at.column}`);
      };
      await shown('no name stored', 'new TypeError');
      const frame = page.frames().find((candidate) => candidate.url().startsWith(site.url));
      await frame!.evaluate(() => void (document.body.dataset.again = 'yes'));
      await shown('no room left', 'new RangeError');
      expect(site.requests.filter((request) => request === `${BASE}dist/assets/index.js`).length).toBeGreaterThanOrEqual(2);
      expect(site.notByBrowser).toEqual([`${BASE}dist/assets/index.js`]);
      await page.close();
    } finally {
      expect(await dev.stop('SIGTERM')).toBe(0);
    }
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevServerError } from '../../src/dev/server.js';
import { readToolReport } from '../../src/dev/tool-problems.js';
import { tempDir } from '../helpers/bundles.js';
import { runCli } from '../helpers/cli.js';
import { launchChromium, requireChromium, SETTLE_MS } from './browser.js';
import { spawnDev } from './dev-process.js';
import { QUOTING_MANIFEST, startTestServer, STANDALONE_MANIFEST, waitFor } from './helpers.js';

/*
 * `dev --url`: the host page frames a page of another dev server (webpack, Parcel, a backend),
 * which loads window.pipeline from the host page's listener; the folder given is the build output,
 * validated for the findings panel.
 */

const hasChromium = requireChromium();

/** Another dev server: serves one page, with or without the SDK's script tag. */
async function pageServer(head: (sdkUrl: string) => string): Promise<{ server: Server; url: string; setSdk: (url: string) => void }> {
  let sdkUrl = '';
  const server = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript' });
      response.end(
        "document.getElementById('go').addEventListener('click', () => window.pipeline.customers.list({ pageSize: 1 }).then((page) => { document.getElementById('status').textContent = 'customers: ' + page.totalCount; }));\n" +
          "document.getElementById('status').textContent = window.pipeline ? 'has pipeline' : 'no pipeline';\n",
      );
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head>${head(sdkUrl)}</head><body><p id="status">…</p><button id="go">Go</button><script src="/app.js"></script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return { server, url: `http://localhost:${port}/`, setSdk: (url) => (sdkUrl = url) };
}
const servers: Server[] = [];
afterAll(() => servers.forEach((server) => server.close()));

const json = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown>>;

describe('startDevServer with a url', () => {
  it('frames the address, serves no tool folder, and says the build folder is not there yet', async () => {
    const project = tempDir();
    writeFileSync(path.join(project, 'manifest.json'), JSON.stringify(QUOTING_MANIFEST));
    const server = await startTestServer({ root: path.join(project, 'dist'), url: 'http://localhost:5999/app/', manifest: project });
    expect(server.toolUrl).toBe('http://localhost:5999/app/');
    expect(server.toolOrigin).toBe('http://localhost:5999');
    expect(server.sdkUrl).toBe(`${server.url}__pipeline/sdk.js`);
    expect(server.listeners.tool).toBeNull();

    const state = await json(`${server.url}__pipeline/state`);
    expect(state['frameUrl']).toBe('http://localhost:5999/app/');
    expect((state['tool'] as { toolType: string }).toolType).toBe('quoting_extension');
    // The entry page is the other server's: nothing says it is missing.
    expect(state['alerts']).toEqual([]);
    expect(state['findings']).toEqual({ ok: false, message: expect.stringMatching(/^dist\/ is not there yet\. Build the tool/) });

    const page = await fetch(server.url);
    expect(page.headers.get('content-security-policy')).toContain('frame-src http://localhost:5999;');
  });

  it('serves the SDK script for the framed page, talking to the host page it was asked from', async () => {
    const server = await startTestServer({ root: tempDir(), url: 'http://localhost:5999/' });
    const response = await fetch(server.sdkUrl!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await response.text();
    expect(script).toContain(`"hostOrigin":"${server.url.slice(0, -1)}"`);
    // The frame reporter comes first, and leaves the other server's scripts out of CORS mode.
    expect(script.indexOf('tells the host page what goes wrong')).toBeLessThan(script.indexOf('window.pipeline for pipeline-tool dev'));
    expect(script).toContain('"corsScripts":false');
  });

  it('has no SDK script on the host page listener when it serves a folder itself', async () => {
    const root = tempDir();
    writeFileSync(path.join(root, 'manifest.json'), JSON.stringify(STANDALONE_MANIFEST));
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>t</title>');
    const server = await startTestServer({ root });
    expect(server.sdkUrl).toBeNull();
    expect((await fetch(`${server.url}__pipeline/sdk.js`)).status).toBe(404);
  });

  it('follows the builds: the findings when the folder appears and changes, the tool when the manifest does', async () => {
    const project = tempDir();
    const manifest = path.join(project, 'public', 'manifest.json');
    mkdirSync(path.dirname(manifest));
    writeFileSync(manifest, JSON.stringify(STANDALONE_MANIFEST));
    const dist = path.join(project, 'dist');
    const server = await startTestServer({ root: dist, url: 'http://localhost:5999/', manifest });
    const state = () => json(`${server.url}__pipeline/state`);

    mkdirSync(dist);
    writeFileSync(path.join(dist, 'manifest.json'), JSON.stringify(STANDALONE_MANIFEST));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><title>t</title></head><body><script>alert("hi")</script></body></html>');
    const findings = await waitFor(async () => {
      const current = (await state())['findings'] as { ok: boolean; report?: { problems: { ruleId: string }[] } };
      return current.ok ? current : undefined;
    }, SETTLE_MS, 'the findings of the first build');
    expect(findings.report?.problems.map((problem) => problem.ruleId)).toContain('dialog-call');

    writeFileSync(manifest, JSON.stringify(QUOTING_MANIFEST));
    await waitFor(async () => ((await state())['tool'] as { toolType: string }).toolType === 'quoting_extension', SETTLE_MS, 'the new tool type');
  });

  it('refuses an address it cannot frame, and a manifest without a url', async () => {
    for (const url of ['localhost:5173', 'ftp://localhost/', 'http://user:secret@localhost:5173/']) {
      const failure = await startTestServer({ root: tempDir(), url }).catch((error: unknown) => error);
      expect(failure, url).toBeInstanceOf(DevServerError);
      expect((failure as DevServerError).code).toBe('INVALID_OPTION');
      expect((failure as Error).message).toMatch(/^--url /);
    }
    const failure = await startTestServer({ root: tempDir(), manifest: 'public' }).catch((error: unknown) => error);
    expect((failure as DevServerError).code).toBe('INVALID_OPTION');
  });

  it('warns in one line when the framed address is not on this machine, and only then', async () => {
    const warnings = async (url: string) => {
      const logged: string[] = [];
      const server = await startTestServer({ root: tempDir(), url, onLog: (level, message) => level === 'warning' && logged.push(message) });
      await server.close();
      return logged;
    };
    expect(await warnings('https://tool.example.com/app/')).toEqual([
      '--url https://tool.example.com is not on this machine: the page it serves gets window.pipeline (the fixture data and stored settings), and dev asks that server for its scripts to place errors. Frame a dev server you run here.',
    ]);
    expect(await warnings('http://192.0.2.7:5173/')).toHaveLength(1);
    for (const url of ['http://localhost:5173/', 'http://127.0.0.1:5173/', 'http://[::1]:5173/', 'http://app.localhost:5173/']) expect(await warnings(url), url).toEqual([]);
  });

  it('reports a framed page\u2019s files relative to its folder, without the query or the folder\u2019s address', () => {
    const base = 'http://localhost:5173/t/SECRET/';
    expect(readToolReport({ kind: 'error', message: `Failed to fetch ${base}src/x.ts`, file: `${base}src/App.tsx?t=123`, line: 3, column: 9 }, 'tok', base)).toEqual({
      kind: 'error',
      message: 'Failed to fetch src/x.ts',
      file: 'src/App.tsx',
      line: 3,
      column: 9,
    });
    // Another origin's file stays as it is.
    expect(readToolReport({ kind: 'error', message: 'm', file: 'https://cdn.example.com/lib.js' }, 'tok', base)?.file).toBe('https://cdn.example.com/lib.js');
  });
});

describe('pipeline-tool dev --url (the binary)', () => {
  it('prints the page it frames, the script that page must load, and the folder it validates', async () => {
    const project = tempDir();
    writeFileSync(path.join(project, 'pipeline-tool.config.json'), JSON.stringify({ source: 'dist' }));
    mkdirSync(path.join(project, 'public'));
    writeFileSync(path.join(project, 'public', 'manifest.json'), JSON.stringify(QUOTING_MANIFEST));
    // No build yet: the project file's source does not exist, which --url accepts.
    const dev = spawnDev(['--url', 'http://localhost:8080/', '--manifest', 'public/manifest.json', '--port', '0'], { cwd: project });
    try {
      const url = await dev.url();
      expect(dev.stdout()).toContain('pipeline-tool dev is framing http://localhost:8080/');
      expect(dev.stdout()).toContain(`Page:     http://localhost:8080/ (its <head> must load ${url}__pipeline/sdk.js)`);
      expect(dev.stdout()).toContain('Findings: dist, validated after each build');
      const state = await json(`${url}__pipeline/state`);
      expect((state['tool'] as { toolType: string }).toolType).toBe('quoting_extension');
    } finally {
      expect(await dev.stop('SIGTERM')).toBe(0);
    }
  });

  it('refuses an address that is not http(s), in one line, with exit 2', () => {
    const result = runCli(['dev', '--url', 'file:///tmp/index.html', tempDir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('pipeline-tool: --url must be an http:// or https:// address, not file:; give the address your dev server prints, such as http://localhost:5173/.\n');
  });
});

describe.skipIf(!hasChromium)('dev --url in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('gives the framed page window.pipeline through the script it loads, and logs its calls', async () => {
    const other = await pageServer((sdkUrl) => `<script src="${sdkUrl}"></script>`);
    const server = await startTestServer({ root: tempDir(), url: other.url });
    other.setSdk(server.sdkUrl!);
    const page = await browser.newPage();
    await page.goto(server.url);
    const frame = await waitFor(() => page.frames().find((candidate) => candidate.url() === other.url), SETTLE_MS, 'the framed page');
    await waitFor(async () => (await frame.textContent('#status')) === 'has pipeline', SETTLE_MS, 'window.pipeline in the framed page');
    await frame.click('#go');
    await waitFor(async () => (await frame.textContent('#status'))?.startsWith('customers: '), SETTLE_MS, 'the answer');
    await page.locator('#call-log li[data-method="customers.list"][data-status="ok"]').waitFor({ timeout: SETTLE_MS });
    await page.close();
  });

  it('says which script to add when the framed page never loads it', async () => {
    const other = await pageServer(() => '');
    const server = await startTestServer({ root: tempDir(), url: other.url });
    const page = await browser.newPage();
    await page.goto(server.url);
    const item = page.locator('#tool-problems li[data-kind="setup"]');
    await item.waitFor({ timeout: SETTLE_MS });
    expect(await item.textContent()).toContain(`Add <script src="${server.url}__pipeline/sdk.js"></script> to its <head>`);
    await page.close();
  });
});

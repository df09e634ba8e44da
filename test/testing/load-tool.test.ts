import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTool, type LoadedTool } from '../../src/testing/index.js';
import { tempDir, writeFolder } from '../helpers/bundles.js';

/*
 * A tool's own page in a test: read from its folder as the platform serves a bundle, run in a
 * realm of its own by jsdom, with window.pipeline there before its first script.
 */

const MANIFEST = { name: 'Page Test', shortName: 'Page', type: 'quoting_extension', version: '1.0.0', description: 'A test.', entry: 'index.html' };

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Page</title>
<script>window.seenAtStart = window.pipeline && window.pipeline.version;</script>
<script src="app.js" defer></script></head>
<body><input id="qty" type="number" value="1"><button id="add" type="button">Add</button><p id="status">…</p><p id="who"></p></body></html>`;

const APP = `
const bridge = window.pipeline;
bridge.context.get().then((context) => { document.getElementById('who').textContent = context.userName; });
bridge.products.list({ pageSize: 1 }).then((page) => { window.itemsIsArray = page.items instanceof Array; });
document.getElementById('add').addEventListener('click', async () => {
  const qty = document.getElementById('qty').valueAsNumber;
  try {
    await bridge.quotes.addLines([{ description: 'Widget', qty, unitPrice: 5, taxRate: 0.15 }]);
    document.getElementById('status').textContent = 'added ' + qty;
  } catch (error) {
    document.getElementById('status').textContent = error.code + ' ' + (error instanceof Error) + ' ' + error.details.map((d) => d.path).join();
  }
});
`;

function writeTool(files: Record<string, string> = {}, manifest: object = MANIFEST): string {
  return writeFolder({ 'manifest.json': JSON.stringify(manifest), 'index.html': PAGE, 'app.js': APP, ...files });
}

let opened: LoadedTool[] = [];
const open = async (folder: string, options: Parameters<typeof loadTool>[1] = {}) => {
  const tool = await loadTool(folder, options);
  opened.push(tool);
  return tool;
};
afterEach(() => {
  for (const tool of opened) tool.close();
  opened = [];
});

describe('loadTool', () => {
  it('runs the page with window.pipeline from its first script, and answers its start-up calls before resolving', async () => {
    const tool = await open(writeTool());
    expect((tool.window as unknown as { seenAtStart: string }).seenAtStart).toBe('2.5.0');
    expect(tool.text('#who')).toBe('Mere Whitaker');
    expect(tool.host.calls.map((call) => [call.method, call.status])).toEqual([
      ['context.get', 'resolved'],
      ['products.list', 'resolved'],
    ]);
    // What the tool gets belongs to its own realm, as in a browser frame.
    expect((tool.window as unknown as { itemsIsArray: boolean }).itemsIsArray).toBe(true);
    expect(tool.errors).toEqual([]);
  });

  it('lets a test fill fields and click buttons, and see the quote change', async () => {
    const tool = await open(writeTool());
    await tool.fill('#qty', 3);
    await tool.click('#add');
    expect(tool.text('#status')).toBe('added 3');
    expect(tool.host.lines().map((line) => [line.description, line.qty, line.nett])).toEqual([['Widget', 3, 15]]);
    await tool.fill('#qty', 0);
    await tool.click('#add');
    expect(tool.text('#status')).toBe('BATCH_REJECTED true lines[0].qty');
  });

  it('follows the manifest: a standalone tool is refused, with the code the page shows', async () => {
    const tool = await open(writeTool({}, { ...MANIFEST, type: 'standalone' }));
    await tool.click('#add');
    expect(tool.text('#status')).toBe('TOOL_TYPE_NOT_ALLOWED true');
    expect(tool.host.calls.at(-1)).toMatchObject({ method: 'quotes.addLines', status: 'rejected', error: { code: 'TOOL_TYPE_NOT_ALLOWED' } });
  });

  it('passes the host options on: SDK version, fixtures, role', async () => {
    const tool = await open(writeTool(), { sdkVersion: '2.2.0', fixtures: { context: { userName: 'Fixture Person' } }, userRole: 'H_Field' });
    expect((tool.window as unknown as { seenAtStart: string }).seenAtStart).toBe('2.2.0');
    expect(tool.text('#who')).toBe('Fixture Person');
  });

  it('acts as the sandbox does: dialogs and popups do nothing, storage throws', async () => {
    const tool = await open(
      writeTool({
        'app.js': `
          window.results = [alert('hi'), confirm('sure?'), prompt('name?'), window.open('https://example.com')];
          try { localStorage.setItem('a', '1'); window.storage = 'worked'; } catch (error) { window.storage = error.name; }
        `,
      }),
    );
    const page = tool.window as unknown as { results: unknown[]; storage: string };
    expect(page.results).toEqual([undefined, false, null, null]);
    expect(page.storage).toBe('SecurityError');
    expect(tool.console.filter((entry) => entry.level === 'warn').map((entry) => entry.message)).toEqual([
      expect.stringContaining('ignored alert("hi")'),
      expect.stringContaining('ignored confirm'),
      expect.stringContaining('ignored prompt'),
      expect.stringContaining('ignored window.open'),
      expect.stringContaining('refused localStorage'),
    ]);
  });

  it('reports uncaught errors, console.error, and files it could not load', async () => {
    const tool = await open(
      writeTool({
        'index.html': PAGE.replace('</head>', '<script src="missing.js"></script><link rel="stylesheet" href="styles.css"><script type="module" src="module.js"></script></head>'),
        'app.js': `console.error('careful'); throw new Error('boom at start');`,
      }),
    );
    expect(tool.errors).toEqual(
      expect.arrayContaining([expect.stringContaining('missing.js'), expect.stringContaining('styles.css'), 'careful', expect.stringContaining('boom at start'), expect.stringContaining('module.js is a module script')]),
    );
  });

  it('serves the tool its own files only: not hidden ones, not outside the folder, not the network', async () => {
    const outside = writeFolder({ 'secret.txt': 'outside' });
    const folder = writeTool({
      '.env': 'SECRET=1',
      'data.json': '{"ok":true}',
      'app.js': `
        window.read = (url) => new Promise((resolve) => {
          const request = new XMLHttpRequest();
          request.open('GET', url);
          request.onload = () => resolve(request.status + ' ' + request.responseText);
          request.onerror = () => resolve('error');
          request.send();
        });
      `,
    });
    symlinkSync(path.join(outside, 'secret.txt'), path.join(folder, 'linked.txt'));
    const tool = await open(folder);
    const read = (url: string) => (tool.window as unknown as { read(url: string): Promise<string> }).read(url);
    expect(await read('data.json')).toBe('200 {"ok":true}');
    const fetched = await tool.window.fetch('data.json').then((response) => response.json());
    expect(fetched).toEqual({ ok: true });
    expect((await tool.window.fetch('.env')).status).toBe(404);
    for (const url of ['.env', 'linked.txt', '../secret.txt', 'https://example.com/']) expect(await read(url)).toMatch(/^404 |^error$/);
  });

  it('records a bridge call left rejected, at the tool\'s line, in errors and the page\'s log, and never fails the run', async () => {
    const STANDALONE = { ...MANIFEST, type: 'standalone' };
    const app = [
      "window.pipeline.quotes.addSections([{ name: 'At start' }]);",
      'async function save() {',
      '  await window.pipeline.quotes.create({ lines: [] });',
      '}',
      "document.getElementById('add').addEventListener('click', () => { save(); });",
      "document.getElementById('qty').addEventListener('change', () => window.pipeline.quotes.addLines([]).then(() => {}));",
      '',
    ].join('\n');
    const tool = await open(writeTool({ 'app.js': app }, STANDALONE));
    expect(tool.errors).toEqual([
      'unhandled rejection at app.js:1:24: BridgeError: quotes.addSections may only be called by a quoting_extension tool; this tool is standalone',
    ]);
    await tool.click('#add');
    await tool.fill('#qty', 2);
    expect(tool.errors.slice(1)).toEqual([
      'unhandled rejection at app.js:3:32: BridgeError: quotes.create was refused (1 problem): lines: is empty; at least 1 needed [EMPTY_LIST]',
      expect.stringMatching(/^unhandled rejection at app\.js:6:88: BridgeError: quotes\.addLines may only be called/),
    ]);
    expect(tool.console.filter((entry) => entry.level === 'error').map((entry) => entry.message)).toEqual(tool.errors);
    expect(tool.host.calls.map((call) => [call.method, call.status])).toEqual([
      ['quotes.addSections', 'rejected'],
      ['quotes.create', 'rejected'],
      ['quotes.addLines', 'rejected'],
    ]);
    // A rejection the tool handles is nobody's business.
    const handled = await open(writeTool({ 'app.js': "window.pipeline.quotes.addLines([]).catch(() => { document.title = 'caught'; });" }, STANDALONE));
    expect(handled.errors).toEqual([]);
    expect(handled.document.title).toBe('caught');
  });

  it('says plainly when it cannot load the tool', async () => {
    await expect(loadTool(path.join(tempDir(), 'none'))).rejects.toThrow(/is not a folder/);
    await expect(loadTool(writeTool({}, { ...MANIFEST, entry: 'start.html' }))).rejects.toThrow(/the entry page start\.html \(from the manifest\) is not a file/);
  });
});

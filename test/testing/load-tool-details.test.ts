import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTool, type LoadedTool } from '../../src/testing/index.js';
import { tempDir, writeFolder } from '../helpers/bundles.js';

/*
 * The finer points of loadTool a tool's test relies on: what the page's console and errors hold,
 * word for word; how the tool's files are served to fetch() (methods, headers, what is not
 * found); what the sandbox's stand-ins look like from the page; the helpers click, fill, $,
 * settled and close; and where jsdom is looked for. (test/testing/load-tool.test.ts holds the
 * main uses.)
 */

const MANIFEST = { name: 'Details', shortName: 'Details', type: 'quoting_extension', version: '1.0.0', description: 'A test.', entry: 'index.html' };

function writeTool(files: Record<string, string>, manifest: object = MANIFEST): string {
  return writeFolder({ 'manifest.json': JSON.stringify(manifest), 'index.html': '<!doctype html><title>T</title><p id="out"></p><script src="app.js"></script>', 'app.js': '', ...files });
}

let opened: LoadedTool[] = [];
const open = async (folder: string, options: Parameters<typeof loadTool>[1] = {}) => {
  const tool = await loadTool(folder, options);
  opened.push(tool);
  return tool;
};
afterEach(() => {
  vi.restoreAllMocks();
  for (const tool of opened) tool.close();
  opened = [];
});

const page = <T>(tool: LoadedTool) => tool.window as unknown as T;

describe("the page's console and errors", () => {
  it('keeps every line with its level, arguments joined as the console prints them, and only errors in errors', async () => {
    const tool = await open(writeTool({ 'app.js': "console.log('a', 1, { x: 1 }, null);\nconsole.info('i');\nconsole.warn('w');\nconsole.error('e', 2);\n" }));
    expect(tool.console).toEqual([
      { level: 'log', message: 'a 1 [object Object] null' },
      { level: 'info', message: 'i' },
      { level: 'warn', message: 'w' },
      { level: 'error', message: 'e 2' },
    ]);
    expect(tool.errors).toEqual(['e 2']);
  });

  it('echoes the console into the test\'s, by level, when asked to', async () => {
    const spies = { log: vi.spyOn(console, 'log').mockImplementation(() => {}), info: vi.spyOn(console, 'info').mockImplementation(() => {}), warn: vi.spyOn(console, 'warn').mockImplementation(() => {}), error: vi.spyOn(console, 'error').mockImplementation(() => {}) };
    const folder = writeTool({ 'app.js': "console.log('l');\nconsole.info('i');\nconsole.warn('w');\nconsole.error('e');\n" });
    await open(folder);
    expect(Object.values(spies).every((spy) => spy.mock.calls.length === 0)).toBe(true);
    await open(folder, { printConsole: true });
    expect(Object.fromEntries(Object.entries(spies).map(([level, spy]) => [level, spy.mock.calls]))).toEqual({
      log: [['[index.html] l']],
      info: [['[index.html] i']],
      warn: [['[index.html] w']],
      error: [['[index.html] e']],
    });
  });

  it('says "uncaught" with the error\'s own message, and "could not load" for a missing file', async () => {
    const tool = await open(
      writeTool({
        'index.html': '<!doctype html><title>T</title><script src="missing.js"></script><script src="app.js"></script><script type="module">import "./x.js";</script>',
        'app.js': "throw new TypeError('boom at start');",
      }),
    );
    expect(tool.errors).toEqual([
      'not found: missing.js (a tool reaches only its own files)',
      expect.stringMatching(/^could not load: .*missing\.js/),
      'uncaught: boom at start',
      'an inline script is a module script, which jsdom does not run: the test sees the page without it (pipeline-tool dev runs it)',
    ]);
  });
});

describe("fetch() of the tool's files", () => {
  const serving = () => writeTool({ 'data.json': '{"ok":true}', 'app.js': 'window.go = (url, init) => fetch(url, init).then(async (r) => [r.status, r.headers.get("content-type"), r.headers.get("allow"), await r.text()]);' });
  type Go = { go(url: unknown, init?: object): Promise<[number, string | null, string | null, string]> };

  it('answers GET with the file and its type, HEAD with the type alone, and other methods with 405', async () => {
    const tool = await open(serving());
    const { go } = page<Go>(tool);
    expect(await go('data.json')).toEqual([200, 'application/json; charset=utf-8', null, '{"ok":true}']);
    expect(await go('data.json', { method: 'head' })).toEqual([200, 'application/json; charset=utf-8', null, '']);
    expect(await go('data.json', { method: 'POST' })).toEqual([405, 'text/plain;charset=UTF-8', 'GET, HEAD', 'only GET and HEAD are served here']);
  });

  it('takes a URL object or a request-like object, and finds nothing at another origin or outside the files', async () => {
    const tool = await open(serving());
    const { go } = page<Go>(tool);
    expect((await go(new tool.window.URL('data.json', tool.window.location.href)))[0]).toBe(200);
    expect((await go({ url: 'data.json' }))[0]).toBe(200);
    expect(await go('https://example.com/data.json')).toEqual([404, 'text/plain', null, 'not found']);
    expect(await go('nothing.json')).toEqual([404, 'text/plain', null, 'not found']);
    expect(tool.errors).toEqual([
      'not found: https://example.com/data.json (a tool reaches only its own files)',
      'not found: nothing.json (a tool reaches only its own files)',
    ]);
  });

  it('can be wrapped or replaced by the page, as in a browser', async () => {
    const tool = await open(
      writeTool({
        'app.js': `'use strict';
const own = window.fetch;
const wrapped = (url) => own(url);
window.fetch = wrapped;
const assigned = window.fetch === wrapped;
Object.defineProperty(window, 'fetch', { value: (url) => wrapped(url) });
const replaced = window.fetch !== wrapped;
delete window.fetch;
window.done = [assigned, replaced, typeof window.fetch];`,
      }),
    );
    expect(page<{ done: unknown[] }>(tool).done).toEqual([true, true, 'undefined']);
    expect(tool.errors).toEqual([]);
  });

  it('reads null as the text "null", as fetch() does', async () => {
    const tool = await open(serving());
    expect(await page<Go>(tool).go(null)).toEqual([404, 'text/plain', null, 'not found']);
  });
});

describe('the page', () => {
  it('is served from a subfolder entry and a name with spaces', async () => {
    const folder = writeTool({ 'pages/my start.html': '<!doctype html><title>T</title><p id="where">here</p>' }, { ...MANIFEST, entry: 'pages/my start.html' });
    const tool = await open(folder);
    expect(tool.text('#where')).toBe('here');
    expect(tool.window.location.href).toBe('https://tool.pipeline.test/pages/my%20start.html');
  });

  it('has window.pipeline as a plain property, and animation frames as a visible page has', async () => {
    const tool = await open(writeTool({ 'app.js': 'window.frames_ = typeof requestAnimationFrame;' }));
    expect(Object.getOwnPropertyDescriptor(tool.window, 'pipeline')).toMatchObject({ enumerable: true, configurable: true, writable: true });
    expect(page<{ frames_: string }>(tool).frames_).toBe('function');
  });

  it('refuses, in the page, a value the host\'s frame could not clone', async () => {
    const tool = await open(writeTool({ 'app.js': 'window.tryIt = (value) => pipeline.settings.set("k", value).then(() => "stored", (error) => error.code);' }));
    const { tryIt } = page<{ tryIt(value: unknown): Promise<string> }>(tool);
    expect(await tryIt(Symbol('s'))).toBe('INVALID_ARGUMENT');
    expect(await tryIt(new tool.window.Object())).toBe('stored');
    expect(tool.host.calls.map((call) => call.method)).toEqual(['settings.set']);
  });

  it('says when it takes longer to load than allowed', async () => {
    const scripts = Array.from({ length: 40 }, (_, i) => `<script src="s${i}.js"></script>`).join('');
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`s${i}.js`, `window.n = ${i};`]));
    await expect(loadTool(writeTool({ ...files, 'index.html': `<!doctype html><title>T</title>${scripts}` }), { timeout: 1 })).rejects.toThrow(
      new Error('loadTool: index.html did not finish loading within 1 ms'),
    );
  });
});

describe('the files it reads', () => {
  it.runIf(process.platform === 'linux')('are closed once read', async () => {
    const scripts = Array.from({ length: 30 }, (_, i) => `<script src="s${i}.js"></script>`).join('');
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`s${i}.js`, `window.n = ${i};`]));
    const folder = writeTool({ ...files, 'index.html': `<!doctype html><title>T</title>${scripts}` });
    const descriptors = () => readdirSync('/proc/self/fd').length;
    (await loadTool(folder)).close();
    const before = descriptors();
    (await loadTool(folder)).close();
    expect(descriptors() - before).toBeLessThan(15);
  });
});

describe('the helpers', () => {
  const FORM = `<!doctype html><title>T</title><input id="name"><input id="box" type="checkbox" value="v"><p id="log"></p><button id="ask">Ask</button>
<script>
const log = [];
document.addEventListener('input', (e) => log.push('input ' + e.target.id));
document.addEventListener('change', (e) => log.push('change ' + e.target.id));
window.log = log;
document.getElementById('ask').addEventListener('click', () => { document.getElementById('log').textContent = '  asked  '; });
document.addEventListener('ask-later', () => { window.answer = window.pipeline.context.get(); });
</script>`;

  it('fill sets a value or a checkbox, firing input and change where the page listens for them', async () => {
    const tool = await open(writeTool({ 'index.html': FORM }));
    await tool.fill('#name', 'Ana');
    await tool.fill('#box', true);
    expect((tool.$('#name') as HTMLInputElement).value).toBe('Ana');
    expect((tool.$('#box') as HTMLInputElement).checked).toBe(true);
    expect((tool.$('#box') as HTMLInputElement).value).toBe('v');
    await tool.fill('#box', false);
    expect((tool.$('#box') as HTMLInputElement).checked).toBe(false);
    expect(page<{ log: string[] }>(tool).log).toEqual(['input name', 'change name', 'input box', 'change box', 'input box', 'change box']);
  });

  it('$ and text name the selector they cannot find; text trims', async () => {
    const tool = await open(writeTool({ 'index.html': FORM }));
    await tool.click('#ask');
    expect(tool.text('#log')).toBe('asked');
    expect(() => tool.$('#nowhere')).toThrow(new Error('index.html has no element matching #nowhere'));
    expect(() => tool.text('.none')).toThrow(new Error('index.html has no element matching .none'));
  });

  it('settled waits for calls the page makes by itself', async () => {
    const tool = await open(writeTool({ 'index.html': FORM }));
    tool.document.dispatchEvent(new tool.window.Event('ask-later'));
    await tool.settled();
    expect(tool.host.calls).toEqual([expect.objectContaining({ method: 'context.get', status: 'resolved' })]);
  });

  it('close stops the page', async () => {
    const tool = await loadTool(writeTool({ 'app.js': 'window.ticks = 0; setInterval(() => { window.ticks++; }, 1);' }));
    tool.close();
    const ticks = page<{ ticks: number }>(tool).ticks;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(page<{ ticks: number }>(tool).ticks).toBe(ticks);
  });
});

describe("the sandbox's stand-ins, seen from the page", () => {
  it('dialogs note what they were given, or nothing, and can be replaced by the page', async () => {
    const tool = await open(writeTool({ 'app.js': 'alert(); confirm(42); window.alert = () => "own"; window.own = alert();' }));
    expect(tool.console.map((entry) => entry.message)).toEqual([
      'the sandbox ignored alert(): show messages in the page instead',
      'the sandbox ignored confirm("42"): show messages in the page instead',
    ]);
    expect(page<{ own: string }>(tool).own).toBe('own');
    for (const name of ['alert', 'confirm', 'prompt', 'open']) {
      expect(Object.getOwnPropertyDescriptor(tool.window, name), name).toMatchObject({ configurable: true, writable: true });
    }
  });

  it('both storages throw the SecurityError a sandboxed frame gives, and say so', async () => {
    const tool = await open(
      writeTool({ 'app.js': 'window.seen = ["localStorage", "sessionStorage"].map((name) => { try { return window[name]; } catch (error) { return error.name + ": " + error.message; } });' }),
    );
    expect(page<{ seen: string[] }>(tool).seen).toEqual(
      ['localStorage', 'sessionStorage'].map((name) => `SecurityError: Failed to read the '${name}' property from 'Window': The document is sandboxed and lacks the 'allow-same-origin' flag.`),
    );
    expect(tool.console.map((entry) => entry.message)).toEqual([
      'the sandbox refused localStorage: keep preferences with pipeline.settings',
      'the sandbox refused sessionStorage: keep preferences with pipeline.settings',
    ]);
    expect(Object.getOwnPropertyDescriptor(tool.window, 'localStorage')?.configurable).toBe(true);
  });
});

describe('where jsdom comes from', () => {
  it('beside pipeline-tool itself, when neither the tool\'s folder nor the working folder has one', async () => {
    const folder = writeTool({ 'app.js': "document.getElementById('out').textContent = 'ran';" });
    // Tests run from a folder with jsdom; here they seem to run from one without (and no chdir in a worker).
    vi.spyOn(process, 'cwd').mockReturnValue(tempDir());
    const tool = await open(folder);
    expect(tool.text('#out')).toBe('ran');
  });

  it("the tool's own project first: a jsdom there that is too old is named", async () => {
    const folder = writeTool({});
    mkdirSync(path.join(folder, 'node_modules', 'jsdom'), { recursive: true });
    writeFileSync(path.join(folder, 'node_modules', 'jsdom', 'package.json'), JSON.stringify({ name: 'jsdom', version: '20.0.0', main: 'index.js' }));
    writeFileSync(path.join(folder, 'node_modules', 'jsdom', 'index.js'), 'exports.JSDOM = class {};\nexports.VirtualConsole = class {};\n');
    await expect(loadTool(folder)).rejects.toThrow(
      new Error('loadTool needs jsdom 29 or later (it serves the tool files through requestInterceptor): run npm install --save-dev jsdom@latest'),
    );
  });
});

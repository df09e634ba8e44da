import { realpath, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeWireValue } from '../dev/wire-values.js';
import { openToolFile, readRequestPath, contentTypeOf } from '../dev/static-files.js';
import { createSdk } from '../sdk/create-sdk.js';
import { connectSdk } from './connect.js';
import { catchPageRejections, describeReason, toolPlaceIn } from './rejections.js';
import { installSandbox, type ConsoleEntry } from './sandbox.js';
import { createTestHost, type TestHost, type TestHostOptions } from './test-host.js';

/*
 * The tool's own page in a test: its manifest.json, its entry page and every file that page
 * loads, read from the tool folder as the platform serves a bundle, in a DOM made by jsdom. The
 * SDK is there before the page's first script, built by the same code as under `dev`, and the
 * page runs in a realm of its own, as in the host's frame.
 *
 * jsdom is not a dependency of pipeline-tool: a project that loads pages in tests installs it
 * (`npm install --save-dev jsdom`), and everything else of the kit works without it.
 */

/** Where the page seems to live. Its files are served from the tool folder; nothing else is reachable. */
export const TOOL_ORIGIN = 'https://tool.pipeline.test';

export interface LoadToolOptions extends Omit<TestHostOptions, 'manifest'> {
  /** Also print the page's console output in the test's console. */
  printConsole?: boolean;
  /** How long the page may take to load, in milliseconds; 10000 when left out. */
  timeout?: number;
}

export interface LoadedTool {
  /** The emulated host the page talks to: its call log, its open quote, its settings. */
  readonly host: TestHost;
  readonly window: Window & typeof globalThis;
  readonly document: Document;
  /** What the page wrote to its console, and what the sandbox stopped, oldest first. */
  readonly console: readonly ConsoleEntry[];
  /**
   * Uncaught errors, promises the page left rejected (a bridge call nobody awaited, with the
   * tool's line that made it), files the page could not load, and console.error output.
   */
  readonly errors: readonly string[];
  /** The first element matching `selector`; throws, naming the selector, when there is none. */
  $(selector: string): HTMLElement;
  /** The trimmed text of the first element matching `selector`. */
  text(selector: string): string;
  /** Clicks the element, then waits for the calls it set off and the page's reactions. */
  click(selector: string): Promise<void>;
  /** Sets a field's value (or a checkbox's checked state), fires input and change, and waits as click() does. */
  fill(selector: string, value: string | number | boolean): Promise<void>;
  /** Waits until no bridge call is pending and the page has reacted to the answers. */
  settled(): Promise<void>;
  /** Closes the page: its timers stop and its window is released. */
  close(): void;
}

interface JsdomModule {
  JSDOM: new (html: string, options: Record<string, unknown>) => { window: Window & typeof globalThis };
  VirtualConsole: new () => { on(event: string, listener: (...args: unknown[]) => void): void };
  requestInterceptor?: (handler: (request: Request) => Promise<Response | undefined> | Response | undefined) => unknown;
}

/**
 * jsdom is the author's dev dependency, not ours, so it is looked for where the author's project
 * is: from the tool's folder, then from the folder the tests run in (a tool folder outside the
 * project, such as a fixture in /tmp, has no node_modules above it), and only then beside
 * pipeline-tool itself. When the project reaches pipeline-tool through a link (a `file:`
 * dependency on a global or cloned copy, `npm link`), a plain import would search beside
 * pipeline-tool's real location only, and miss the project's jsdom. Each jsdom found is loaded
 * once; tools in two projects use each project's own.
 */
const jsdomLoaded = new Map<string, Promise<JsdomModule>>();

function importJsdom(toolFolder: string): Promise<JsdomModule> {
  const specifier = findJsdom(toolFolder);
  let loading = jsdomLoaded.get(specifier);
  if (loading === undefined) {
    loading = loadJsdom(specifier);
    jsdomLoaded.set(specifier, loading);
    // A failure is not kept: the author may install jsdom and run again in the same process.
    loading.catch(() => jsdomLoaded.delete(specifier));
  }
  return loading;
}

function findJsdom(toolFolder: string): string {
  for (const from of [toolFolder, process.cwd()]) {
    try {
      return pathToFileURL(createRequire(path.join(from, 'noop.js')).resolve('jsdom')).href;
    } catch {
      // Not installed there: look in the next place, then beside pipeline-tool itself.
    }
  }
  return 'jsdom';
}

async function loadJsdom(specifier: string): Promise<JsdomModule> {
  let loaded: { default?: JsdomModule } & Partial<JsdomModule>;
  try {
    loaded = (await import(specifier)) as typeof loaded;
  } catch {
    throw new Error('loadTool needs jsdom to build the page, and it is not installed: run npm install --save-dev jsdom');
  }
  const jsdom = (loaded.default ?? loaded) as JsdomModule;
  if (typeof jsdom.requestInterceptor !== 'function') {
    throw new Error('loadTool needs jsdom 29 or later (it serves the tool files through requestInterceptor): run npm install --save-dev jsdom@latest');
  }
  return jsdom;
}

/** The tool file a URL of the page names, read the way `dev` serves it, or undefined. */
async function readToolUrl(realRoot: string, url: string): Promise<{ bytes: Buffer; type: string } | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.origin !== TOOL_ORIGIN) return undefined;
  const request = readRequestPath(parsed.pathname);
  if (!request.ok) return undefined;
  const file = await openToolFile(realRoot, request.segments);
  if (file === undefined) return undefined;
  try {
    return { bytes: await file.handle.readFile(), type: contentTypeOf(file.name) };
  } finally {
    await file.handle.close();
  }
}

/**
 * Loads the tool in `folder` as the platform would open it, and resolves once the page has
 * loaded and the calls it made at start have been answered.
 */
export async function loadTool(folder: string, options: LoadToolOptions = {}): Promise<LoadedTool> {
  const info = await stat(folder).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) throw new Error(`loadTool: ${folder} is not a folder; give the folder that holds manifest.json`);
  const realRoot = await realpath(folder);
  const host = await createTestHost({ ...options, manifest: folder });
  const entry = host.tool.entry;
  const entryUrl = `${TOOL_ORIGIN}/${entry.split('/').map(encodeURIComponent).join('/')}`;
  const page = await readToolUrl(realRoot, entryUrl);
  if (page === undefined) throw new Error(`loadTool: the entry page ${entry} (from the manifest) is not a file in ${folder}`);
  const jsdom = await importJsdom(realRoot);

  const consoleEntries: ConsoleEntry[] = [];
  const errors: string[] = [];
  const note = (level: ConsoleEntry['level'], message: string) => {
    consoleEntries.push({ level, message });
    if (level === 'error') errors.push(message);
    // eslint-disable-next-line no-console -- asked for: the page's console, echoed in the test's
    if (options.printConsole) console[level](`[${entry}] ${message}`);
  };
  const virtualConsole = new jsdom.VirtualConsole();
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    virtualConsole.on(level, (...args: unknown[]) => note(level, args.map(String).join(' ')));
  }
  virtualConsole.on('jsdomError', (error: unknown) => {
    const e = error as { message?: string; type?: string; cause?: { message?: string } };
    const detail = e.type === 'unhandled-exception' && e.cause?.message ? e.cause.message : e.message;
    note('error', `${e.type === 'resource-loading' ? 'could not load' : 'uncaught'}: ${String(detail)}`);
  });

  /** A tool file as a response, as the dev server's tool origin would answer; nothing else is reachable. */
  const serve = async (url: string, method: string): Promise<Response> => {
    if (method !== 'GET' && method !== 'HEAD') return new Response('only GET and HEAD are served here', { status: 405, headers: { Allow: 'GET, HEAD' } });
    const file = await readToolUrl(realRoot, url);
    if (file !== undefined) return new Response(method === 'HEAD' ? null : new Uint8Array(file.bytes), { status: 200, headers: { 'Content-Type': file.type } });
    note('error', `not found: ${url.startsWith(`${TOOL_ORIGIN}/`) ? url.slice(TOOL_ORIGIN.length + 1) : url} (a tool reaches only its own files)`);
    return new Response('not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  };
  const interceptor = jsdom.requestInterceptor!((request) => serve(request.url, request.method));

  const { port, config } = host.connect();
  const dom = new jsdom.JSDOM(page.bytes.toString('utf8'), {
    url: entryUrl,
    runScripts: 'dangerously',
    pretendToBeVisual: true,
    virtualConsole,
    resources: { interceptors: [interceptor] },
    beforeParse(window: Window & typeof globalThis) {
      installSandbox(window, note);
      // What the page leaves rejected is the page's problem, as under dev: recorded, with the
      // tool's line, never a crash of the test runner.
      catchPageRejections(window.Promise, (reason) => {
        const place = toolPlaceIn((reason as { stack?: unknown } | null)?.stack, TOOL_ORIGIN);
        note('error', `unhandled rejection${place === undefined ? '' : ` at ${place}`}: ${describeReason(reason)}`);
      });
      // jsdom has no fetch(); a tool may fetch its own files, as under dev. (The response's
      // objects come from Node, so instanceof checks on them fail in the page.)
      if (typeof (window as { fetch?: unknown }).fetch !== 'function') {
        Object.defineProperty(window, 'fetch', {
          configurable: true,
          writable: true,
          value: (input: unknown, init?: { method?: string }) => {
            // As fetch() reads its input: a Request by its url, anything else as text (a URL
            // object of the page's realm included, which is no instance of Node's URL).
            const url = (input as { url?: unknown } | null | undefined)?.url;
            const target = typeof url === 'string' ? url : String(input);
            return serve(new URL(target, window.location.href).href, (init?.method ?? 'GET').toUpperCase());
          },
        });
      }
      // The SDK is built inside the page's realm, so its promises, errors and results are the page's own.
      const inPage = (code: string) => (window as unknown as { eval(code: string): unknown }).eval(`(${code})`);
      const connect = inPage(connectSdk.toString()) as typeof connectSdk;
      // jsdom's window has no structuredClone; Node's refuses the same values a browser's does.
      const check = typeof (window as { structuredClone?: unknown }).structuredClone === 'function' ? undefined : (args: unknown[]) => void structuredClone(args);
      const sdk = connect(config, inPage(createSdk.toString()) as typeof createSdk, inPage(encodeWireValue.toString()) as typeof encodeWireValue, port, check);
      Object.defineProperty(window, 'pipeline', { value: sdk, enumerable: true, configurable: true, writable: true });
    },
  });
  const window = dom.window;
  const timeout = options.timeout ?? 10_000;
  if (window.document.readyState !== 'complete') {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`loadTool: ${entry} did not finish loading within ${timeout} ms`)), timeout);
      window.addEventListener('load', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  // jsdom runs classic scripts only; a module script would just be missing from the test.
  for (const script of Array.from(window.document.querySelectorAll('script[type="module"]'))) {
    note('error', `${script.getAttribute('src') ?? 'an inline script'} is a module script, which jsdom does not run: the test sees the page without it (pipeline-tool dev runs it)`);
  }
  await host.settled();

  const find = (selector: string): HTMLElement => {
    const found = window.document.querySelector(selector);
    if (found === null) throw new Error(`${entry} has no element matching ${selector}`);
    return found as HTMLElement;
  };

  return {
    host,
    window,
    document: window.document,
    console: consoleEntries,
    errors,
    $: find,
    text: (selector) => (find(selector).textContent ?? '').trim(),
    async click(selector) {
      find(selector).click();
      await host.settled();
    },
    async fill(selector, value) {
      const field = find(selector) as HTMLInputElement;
      if (typeof value === 'boolean') field.checked = value;
      else field.value = String(value);
      field.dispatchEvent(new window.Event('input', { bubbles: true }));
      field.dispatchEvent(new window.Event('change', { bubbles: true }));
      await host.settled();
    },
    settled: () => host.settled(),
    close() {
      window.close();
    },
  };
}


import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { createServer, resolveConfig, type InlineConfig, type Plugin, type ViteDevServer } from 'vite';
import { describe, expect, it } from 'vitest';
import pipeline, { type PipelinePluginOptions } from '../../src/vite/index.js';
import { createServedChecks, describeServedProblem, type ServedCheckResult } from '../../src/vite/served-checks.js';
import { readProjectSettings } from '../../src/vite/project.js';
import { SETTLE_MS, waitFor } from '../dev/helpers.js';
import { captureLogger, MANIFEST, viteProject, type CapturedLogger } from './helpers.js';

/*
 * `vite` with pipeline-tool/vite, driven in this process through Vite's own `createServer` and
 * HTTP, without a browser: the config the plugin gives the dev server, the addresses it prints,
 * what the opaque origin and other pages may read, the emulated host it starts (its state, its
 * bridge endpoint, its log), and the checks of each module Vite serves. Each test starts and
 * closes its own server, so that `npm run mutate` can tell which test reaches which code;
 * test/vite/serve-browser.test.ts runs the same in Chromium.
 */

const INDEX = '<!doctype html>\n<html><head><meta charset="utf-8"><title>t</title></head><body><div id="root"></div><script type="module" src="/src/main.ts"></script></body></html>\n';
const TOOL = {
  'public/manifest.json': JSON.stringify(MANIFEST),
  'index.html': INDEX,
  'src/main.ts': "document.getElementById('root')!.textContent = 'ready';\n",
};

interface Started {
  server: ViteDevServer;
  logger: CapturedLogger;
  root: string;
  plugins: Plugin[];
  /** The host page's address, as printed. */
  hostUrl: string;
  /** Vite's own address, base path included. */
  viteUrl: string;
}

async function startVite(files: Record<string, string> = TOOL, options: PipelinePluginOptions = {}, config: InlineConfig = {}, root = viteProject(files)): Promise<Started> {
  const logger = captureLogger();
  const plugins = pipeline({ port: 0, ...options });
  const server = await createServer({ root, configFile: false, clearScreen: false, customLogger: logger, plugins, server: { port: 0, ...config.server }, optimizeDeps: { noDiscovery: true, include: [] }, ...config, ...(config.server ? { server: { port: 0, ...config.server } } : {}) });
  await server.listen();
  server.printUrls();
  const hostUrl = await waitFor(() => /Open:\s+(\S+)/.exec(logger.text('info'))?.[1], SETTLE_MS, 'the host page address').catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  const address = server.httpServer!.address() as { port: number };
  return { server, logger, root, plugins, hostUrl, viteUrl: `http://localhost:${address.port}${server.config.base}` };
}

async function closing<T>(started: Started, body: (started: Started) => Promise<T>): Promise<T> {
  try {
    return await body(started);
  } finally {
    await started.server.close();
  }
}

interface HostState {
  frameUrl: string | null;
  choices: { sdkVersion: string };
  tool: { toolId: string };
  fixtures: { file: string | null };
  settings: { file: string };
  findings: { served?: { modules: number; problems: { ruleId: string; file?: string; line?: number }[] } } | null;
}
const stateOf = async (hostUrl: string) => (await (await fetch(new URL('/__pipeline/state', hostUrl))).json()) as HostState;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createNetServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe('the config pipeline-tool/vite gives the dev server', () => {
  const serveConfig = (config: InlineConfig, mode?: string, preview = false) =>
    resolveConfig({ root: viteProject(TOOL), configFile: false, logLevel: 'silent', plugins: pipeline(), ...config }, 'serve', mode, mode === 'test' ? 'test' : 'development', preview);

  it('serves the app under a random path of its own, which only the host page may read', async () => {
    const first = await serveConfig({});
    const second = await serveConfig({});
    expect(first.base).toMatch(/^\/t\/[\w-]{22}\/$/);
    expect(first.plugins.some((plugin) => plugin.name === 'pipeline-tool:serve')).toBe(true);
    expect(second.base).not.toBe(first.base);
    const cors = first.server.cors as { origin: (origin: string | undefined, callback: (error: Error | null, allow?: boolean) => void) => void };
    const asked: unknown[] = [];
    cors.origin('http://localhost:5173', (error, allow) => asked.push([error, allow]));
    cors.origin(undefined, (error, allow) => asked.push([error, allow]));
    expect(asked).toEqual([
      [null, false],
      [null, false],
    ]);
  });

  it('leaves the author’s CORS, middleware mode, vite preview and vitest as they are', async () => {
    expect((await serveConfig({ server: { cors: false } })).server.cors).toBe(false);
    const middleware = await serveConfig({ server: { middlewareMode: true } });
    expect(middleware.base).toBe('/');
    expect(typeof (middleware.server.cors as { origin?: unknown }).origin).not.toBe('function');
    expect((await serveConfig({}, 'development', true)).base).toBe('/');
    expect((await serveConfig({}, 'test')).base).toBe('/');
    expect((await serveConfig({}, 'test')).plugins.some((plugin) => plugin.name === 'pipeline-tool:serve')).toBe(false);
    // A mode named "test" outside vitest is served as any other.
    const vitest = process.env['VITEST'];
    delete process.env['VITEST'];
    try {
      expect((await serveConfig({}, 'test')).base).toMatch(/^\/t\//);
    } finally {
      process.env['VITEST'] = vitest;
    }
    // A build is not served.
    const built = await resolveConfig({ root: viteProject(TOOL), configFile: false, logLevel: 'silent', plugins: pipeline() }, 'build');
    expect(built.plugins.some((plugin) => plugin.name === 'pipeline-tool:serve')).toBe(false);
  });
});

describe('vite with pipeline-tool/vite, over HTTP', () => {
  it('prints one address to open, the host page, which frames Vite’s address under the random path', async () => {
    await closing(await startVite(), async ({ server, logger, hostUrl }) => {
      const lines = logger.text('info').split('\n');
      const open = lines.findIndex((line) => line.startsWith('  ➜  Open:'));
      expect(lines[open]).toBe(`  ➜  Open:      ${hostUrl}   (the app inside the emulated Pipeline host)`);
      expect(lines[open + 1]).toMatch(/^ {2}➜ {2}REST API: {2}http:\/\/\S+\/api\/v1( {3}\(key \S+\))?$/);
      expect(logger.text('info')).not.toContain('Local:');
      const port = (server.httpServer!.address() as { port: number }).port;
      expect((await stateOf(hostUrl)).frameUrl).toBe(`http://localhost:${port}${server.config.base}`);
    });
  });

  it('frames the host name Vite is given, in brackets for IPv6, and localhost for every interface', async () => {
    for (const [host, name] of [
      ['127.0.0.1', '127.0.0.1'],
      ['::1', '[::1]'],
      [true, 'localhost'],
      ['0.0.0.0', 'localhost'],
    ] as const) {
      await closing(await startVite(TOOL, {}, { server: { host } }), async ({ server, hostUrl, logger }) => {
        const port = (server.httpServer!.address() as { port: number }).port;
        expect((await stateOf(hostUrl)).frameUrl).toBe(`http://${name}:${port}${server.config.base}`);
        void logger;
      });
    }
  });

  it('answers the opaque origin below the random path only, and nothing else outside it', async () => {
    await closing(await startVite(), async ({ viteUrl, server }) => {
      const outside = await fetch(new URL('/src/main.ts', viteUrl), { headers: { Origin: 'null' } });
      expect(outside.status).toBe(404);
      expect(await outside.text()).toBe('not found');
      expect(outside.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(outside.headers.get('cache-control')).toBe('no-store');
      expect(outside.headers.get('access-control-allow-origin')).toBeNull();
      const inside = await fetch(new URL('src/main.ts', viteUrl), { headers: { Origin: 'null' } });
      expect(inside.status).toBe(200);
      expect(inside.headers.get('access-control-allow-origin')).toBe('null');
      expect(inside.headers.get('vary')).toMatch(/Origin/);
      expect(await inside.text()).toContain('ready');
      // Other pages are not let in, below the path or not.
      const other = await fetch(new URL('src/main.ts', viteUrl), { headers: { Origin: 'http://localhost:1' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const plain = await fetch(new URL('/src/main.ts', viteUrl));
      expect(plain.status).not.toBe(200);
      expect(server.config.base).not.toBe('/');
    });
  });

  it('lets the host page’s origin read what Vite serves', async () => {
    await closing(await startVite(), async ({ viteUrl, hostUrl }) => {
      const origin = new URL(hostUrl).origin;
      const response = await fetch(new URL('src/main.ts', viteUrl), { headers: { Origin: origin } });
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    });
  });

  it('gives the page the SDK before its own scripts, and tells the frame of hot updates', async () => {
    await closing(await startVite(), async ({ viteUrl, hostUrl }) => {
      const html = await (await fetch(viteUrl)).text();
      const sdk = /<script src="([^"]+)"><\/script>/.exec(html)?.[1];
      expect(sdk).toBeDefined();
      expect(new URL(sdk!).origin).toBe(new URL(hostUrl).origin);
      expect(html.indexOf(sdk!)).toBeLessThan(html.indexOf('/src/main.ts'));
      expect(html.indexOf(sdk!)).toBeLessThan(html.indexOf('<meta charset'));
      const proxy = /<script type="module" src="([^"]*html-proxy[^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
      expect(proxy).toBeDefined();
      const events = await (await fetch(new URL(proxy!, viteUrl))).text();
      expect(events).toContain("import.meta.hot.on('vite:beforeUpdate', () => window.dispatchEvent(new Event('pipeline:hot-update-start')));");
      expect(events).toContain("import.meta.hot.on('vite:afterUpdate', () => window.dispatchEvent(new Event('pipeline:hot-update')));");
    });
  });

  it('passes the manifest, fixtures and SDK version it is given to the host, and keeps settings beside the project file', async () => {
    const root = viteProject({
      ...TOOL,
      'tool/manifest.json': JSON.stringify({ ...MANIFEST, name: 'Elsewhere Tool' }),
      'pipeline-tool.config.json': JSON.stringify({ source: 'app/dist' }),
    });
    mkdirSync(path.join(root, 'app'));
    for (const [file, text] of Object.entries(TOOL)) {
      mkdirSync(path.dirname(path.join(root, 'app', file)), { recursive: true });
      writeFileSync(path.join(root, 'app', file), text);
    }
    writeFileSync(path.join(root, 'app', 'fixtures.json'), JSON.stringify({}));
    const options = { manifest: '../tool/manifest.json', fixtures: 'fixtures.json', sdk: '2.1.0' };
    await closing(await startVite(TOOL, options, {}, path.join(root, 'app')), async ({ hostUrl }) => {
      const state = await stateOf(hostUrl);
      expect(state.tool.toolId).toBe('Elsewhere Tool');
      expect(state.choices.sdkVersion).toBe('2.1.0');
      expect(state.fixtures.file).toBe(path.join(root, 'app', 'fixtures.json'));
      expect(state.settings.file).toBe(path.join(root, '.pipeline-tool', 'settings.json'));
    });
    await closing(await startVite(), async ({ hostUrl }) => {
      const state = await stateOf(hostUrl);
      expect(state.tool.toolId).toBe(MANIFEST.name);
      expect(state.choices.sdkVersion).toBe('2.5.0');
      expect(state.fixtures.file ?? null).toBeNull();
    });
  });

  it('logs each bridge call as dev does: method, result, warnings, time', async () => {
    await closing(await startVite(), async ({ hostUrl, logger }) => {
      const call = (method: string, args: unknown[]) =>
        fetch(new URL('/__pipeline/call', hostUrl), { method: 'POST', headers: { Origin: new URL(hostUrl).origin, 'Content-Type': 'application/json' }, body: JSON.stringify({ method, args }) });
      expect((await call('context.get', [])).status).toBe(200);
      await waitFor(() => logger.text('info').includes('context.get'), SETTLE_MS, 'the call in the log');
      expect(logger.text('info')).toMatch(/^\[pipeline-tool\] context\.get ok [\d.]+ ms$/m);
      await call('costItems.list', []);
      await waitFor(() => logger.text('info').includes('costItems.list'), SETTLE_MS, 'the call with a warning');
      expect(logger.text('info')).toMatch(/^\[pipeline-tool\] costItems\.list ok, 1 warning [\d.]+ ms\n {4}warning costItems\.list is deprecated; use jobCostTemplates\.list and lineType jobcost \[DEPRECATED\]$/m);
      await call('quotes.addLines', [[1, 2].map((n) => ({ description: `c${n}`, qty: 1, unitPrice: 1, taxRate: 0.15, lineType: 'cost' }))]);
      await waitFor(() => logger.text('info').includes('quotes.addLines'), SETTLE_MS, 'the call with warnings');
      expect(logger.text('info')).toMatch(/^\[pipeline-tool\] quotes\.addLines ok, 2 warnings [\d.]+ ms(\n {4}warning .*\[DEPRECATED\]){2}$/m);
      await call('quotes.reload', []);
      await waitFor(() => logger.text('info').includes('quotes.reload'), SETTLE_MS, 'the refused call');
      expect(logger.text('info')).toMatch(/^\[pipeline-tool\] quotes\.reload [A-Z_]+ [\d.]+ ms$/m);
    });
  });

  it('says so in Vite’s log when the host cannot start, and prints Vite’s own addresses', async () => {
    const busy = createNetServer();
    await new Promise<void>((resolve) => busy.listen(0, resolve));
    const port = (busy.address() as { port: number }).port;
    const logger = captureLogger();
    const server = await createServer({ root: viteProject(TOOL), configFile: false, clearScreen: false, customLogger: logger, plugins: pipeline({ port }), server: { port: 0 }, optimizeDeps: { noDiscovery: true, include: [] } });
    try {
      await server.listen();
      server.printUrls();
      const error = await waitFor(() => logger.text('error') || undefined, SETTLE_MS, 'the error');
      expect(error).toMatch(/^\[pipeline-tool\] the emulated host could not start: .*\S/);
      await waitFor(() => logger.text('info').includes('Local:') || undefined, SETTLE_MS, 'Vite’s addresses');
      expect(logger.text('info')).not.toContain('Open:');
    } finally {
      await server.close();
      busy.close();
    }
  });

  it('in middleware mode, says there is no address to frame, and starts no host', async () => {
    const logger = captureLogger();
    const plugins = pipeline();
    const server = await createServer({ root: viteProject(TOOL), configFile: false, customLogger: logger, plugins, server: { middlewareMode: true }, optimizeDeps: { noDiscovery: true, include: [] } });
    try {
      expect(logger.text('warn')).toBe(
        '[pipeline-tool] Vite runs in middleware mode, so there is no address for the emulated host to frame; run pipeline-tool dev --url <address> beside it instead.',
      );
      expect((plugins[0] as Plugin & { servedChecks: () => unknown }).servedChecks()).toBeUndefined();
      const html = await server.transformIndexHtml('/index.html', INDEX);
      expect(html).not.toContain('pipeline:hot-update');
      // No random path to hide behind: the author's own server answers the opaque origin as it chooses.
      const own = createHttpServer(server.middlewares);
      await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = own.address() as { port: number };
        const answered = await fetch(`http://127.0.0.1:${port}/src/main.ts`, { headers: { Origin: 'null' } });
        expect(answered.status).toBe(200);
        expect(await answered.text()).toContain('ready');
      } finally {
        await new Promise((resolve) => own.close(resolve));
      }
    } finally {
      await server.close();
    }
  });

  it('keeps the host’s port across a restart of Vite: the new host waits for the old one to close', async () => {
    const port = await freePort();
    await closing(await startVite(TOOL, { port }), async (started) => {
      expect(new URL(started.hostUrl).port).toBe(String(port));
      await started.server.restart();
      const restarted = (started.server as ViteDevServer & { _currentServer?: ViteDevServer })._currentServer ?? started.server;
      await waitFor(async () => (await fetch(new URL('/__pipeline/state', started.hostUrl)).catch(() => undefined))?.ok, SETTLE_MS, 'the new host');
      expect(started.logger.text('error')).toBe('');
      started.server = restarted;
    });
  });

  it('checks nothing as served with checkServed: false', async () => {
    await closing(await startVite(TOOL, { checkServed: false }), async ({ plugins, server }) => {
      expect((plugins[0] as Plugin & { servedChecks: () => unknown }).servedChecks()).toBeUndefined();
      expect((await server.environments['client']!.transformRequest('/src/main.ts'))?.code).toContain('ready');
    });
  });
});

describe('the checks of what Vite serves', () => {
  const checksOf = (plugins: Plugin[]) => (plugins[0] as Plugin & { servedChecks: () => { idle(): Promise<void> } | undefined }).servedChecks()!;

  it('tell the terminal, the host page and Vite’s overlay what each served module has, as it changes', async () => {
    const files = {
      ...TOOL,
      'src/main.ts': "import './styles.css';\nimport { ask } from './ask';\nask();\n",
      'src/ask.ts': "export function ask() {\n  alert('one');\n}\n",
      'src/styles.css': 'body { color: red; }\n',
    };
    await closing(await startVite(files), async ({ server, logger, plugins, hostUrl, root }) => {
      const environment = server.environments['client']!;
      const sent: { type: string; err?: { message: string; plugin?: string; id?: string; loc?: unknown } }[] = [];
      const send = environment.hot.send.bind(environment.hot);
      environment.hot.send = ((payload: (typeof sent)[number]) => {
        sent.push(payload);
        return send(payload as never);
      }) as typeof environment.hot.send;
      await environment.transformRequest('/src/main.ts');
      await environment.transformRequest('/src/ask.ts');
      await environment.transformRequest('/src/styles.css');
      await checksOf(plugins).idle();
      expect(logger.text('warn')).toMatch(/^\[pipeline-tool\] src\/ask\.ts:2:3: .* \(dialog-call, served: src\/ask\.ts:\d+:\d+\)$/m);
      const state = await stateOf(hostUrl);
      // The stylesheet is served as a module too.
      expect(state.findings?.served?.modules).toBe(3);
      expect(state.findings?.served?.problems.map((problem) => [problem.ruleId, problem.file, problem.line])).toEqual([['dialog-call', 'src/ask.ts', 2]]);

      // An error goes to the overlay too, at the author's file.
      const update = (file: string, text: string) => {
        writeFileSync(path.join(root, file), text);
        environment.moduleGraph.invalidateModule(environment.moduleGraph.getModuleById(path.join(root, file))!);
        return environment.transformRequest(`/${file}`);
      };
      await update('src/ask.ts', "export function ask() {\n  alert('one');\n  alert('two');\n  return (window as any).pipeline.quotes.reload();\n}\n");
      await checksOf(plugins).idle();
      expect(logger.text('error')).toMatch(/^\[pipeline-tool\] src\/ask\.ts:4:\d+: .*\(bridge-unknown-method, served: /m);
      expect(logger.text('warn')).toMatch(/^\[pipeline-tool\] src\/ask\.ts:3:3: .*\(dialog-call, served: /m);
      // What was said already is not said again.
      expect(logger.text('warn').split('\n').filter((line) => line.startsWith('[pipeline-tool] src/ask.ts:2:3:'))).toHaveLength(1);
      const overlay = sent.filter((payload) => payload.type === 'error');
      expect(overlay).toEqual([
        {
          type: 'error',
          err: expect.objectContaining({ plugin: 'pipeline-tool', stack: '', id: path.join(root, 'src/ask.ts'), loc: { file: path.join(root, 'src/ask.ts'), line: 4, column: expect.any(Number) } }),
        },
      ]);
      expect(overlay[0]!.err!.message).toMatch(/ \(bridge-unknown-method\)$/);
      const sorted = (await stateOf(hostUrl)).findings?.served?.problems.map((problem) => [problem.ruleId, problem.line]);
      expect(sorted).toEqual([
        ['dialog-call', 2],
        ['dialog-call', 3],
        ['bridge-unknown-method', 4],
      ]);

      // One finding gone, then several.
      await update('src/ask.ts', "export function ask() {\n  alert('one');\n  alert('two');\n}\n");
      await checksOf(plugins).idle();
      expect(logger.text('info')).toContain('[pipeline-tool] src/ask.ts:4');
      expect(logger.text('info')).toMatch(/^\[pipeline-tool\] src\/ask\.ts:4:\d+: bridge-unknown-method is gone\.$/m);
      await update('src/ask.ts', 'export function ask() {}\n');
      await checksOf(plugins).idle();
      expect(logger.text('info')).toContain('[pipeline-tool] src/ask.ts:2:3, src/ask.ts:3:3: 2 findings are gone.');
      // The same code served again is not checked again.
      const said = logger.lines.length;
      environment.moduleGraph.invalidateModule(environment.moduleGraph.getModuleById(path.join(root, 'src/ask.ts'))!);
      await environment.transformRequest('/src/ask.ts');
      await checksOf(plugins).idle();
      expect(logger.lines.length).toBe(said);
    });
  });

  it('use the tool’s manifest (the tool type) and the project file’s rules, and list findings by file and line across modules', async () => {
    const files = {
      ...TOOL,
      'public/manifest.json': JSON.stringify({ ...MANIFEST, type: 'standalone' }),
      'pipeline-tool.config.json': JSON.stringify({ rules: { 'browser-storage': 'off' } }),
      'src/main.ts': "import './b';\nalert(1);\n(window as any).pipeline.quotes.addLines([]);\n",
      'src/b.ts': "localStorage.getItem('k');\nalert(2);\n",
    };
    await closing(await startVite(files), async ({ server, plugins, hostUrl }) => {
      const environment = server.environments['client']!;
      await environment.transformRequest('/src/main.ts');
      await environment.transformRequest('/src/b.ts');
      await checksOf(plugins).idle();
      const found = (await stateOf(hostUrl)).findings?.served?.problems.map((problem) => [problem.file, problem.line, problem.ruleId]);
      expect(found).toEqual([
        ['src/b.ts', 2, 'dialog-call'],
        ['src/main.ts', 2, 'dialog-call'],
        ['src/main.ts', 3, 'bridge-tool-type'],
      ]);
    });
  });

  it('forget a module Vite no longer has', async () => {
    const files = { ...TOOL, 'src/main.ts': "import './ask';\n", 'src/ask.ts': "alert('one');\n" };
    await closing(await startVite(files), async ({ server, plugins, hostUrl, root }) => {
      const environment = server.environments['client']!;
      await environment.transformRequest('/src/main.ts');
      await environment.transformRequest('/src/ask.ts');
      await checksOf(plugins).idle();
      expect((await stateOf(hostUrl)).findings?.served?.modules).toBe(2);
      const ask = environment.moduleGraph.getModuleById(path.join(root, 'src/ask.ts'))!;
      environment.moduleGraph.onFileDelete(path.join(root, 'src/ask.ts'));
      environment.moduleGraph.urlToModuleMap.delete(ask.url);
      await environment.transformRequest('/src/main.ts');
      environment.moduleGraph.invalidateModule(environment.moduleGraph.getModuleById(path.join(root, 'src/main.ts'))!);
      writeFileSync(path.join(root, 'src/main.ts'), 'export {};\n');
      await environment.transformRequest('/src/main.ts');
      await checksOf(plugins).idle();
      const served = (await stateOf(hostUrl)).findings?.served;
      expect(served?.modules).toBe(1);
      expect(served?.problems).toEqual([]);
    });
  });
});

describe('createServedChecks', () => {
  const noop = () => {};

  it('names served modules by their path from Vite’s root, leaving out what is not the author’s file', async () => {
    const root = viteProject({ ...TOOL, 'src/a b.ts': "alert('x');\n", 'src/ok.ts': "alert('y');\n" });
    const logger = captureLogger();
    const server = await createServer({ root, configFile: false, logLevel: 'silent', customLogger: logger, plugins: [], server: { middlewareMode: true, ws: false }, optimizeDeps: { noDiscovery: true, include: [] } });
    try {
      const results: ServedCheckResult[] = [];
      const environment = server.environments['client']!;
      const checks = createServedChecks({
        environment: () => environment,
        folder: root,
        project: readProjectSettings(root),
        manifestFile: path.join(root, 'public', 'manifest.json'),
        logger,
        onResult: (result) => results.push(result),
      });
      for (const url of ['/src/a b.ts', '/src/ok.ts?import', '/@vite/client']) {
        const result = await environment.transformRequest(url);
        expect(result).not.toBeNull();
      }
      for (const module of environment.moduleGraph.idToModuleMap.keys()) checks.served(module);
      checks.served('/no/such/module.ts');
      await checks.idle();
      expect(results.at(-1)?.modules).toBe(2);
      expect(results.at(-1)?.problems.map((problem) => problem.file)).toEqual(['src/a b.ts', 'src/ok.ts']);
      // Nothing new, nothing said.
      const told = results.length;
      checks.served(path.join(root, 'src/ok.ts'));
      await checks.idle();
      expect(results).toHaveLength(told);
      expect(logger.text('error')).toBe('');
    } finally {
      await server.close();
    }
  });

  it('check nothing while Vite has no client environment', async () => {
    const results: unknown[] = [];
    const checks = createServedChecks({
      environment: () => undefined,
      folder: '/nowhere',
      project: Promise.resolve({ root: '/nowhere', file: null, source: null, rules: {}, overrides: [] }),
      manifestFile: '/nowhere/manifest.json',
      logger: captureLogger(),
      onResult: (result) => results.push(result),
    });
    checks.served('/nowhere/a.ts');
    await checks.idle();
    expect(results).toEqual([]);
    void noop;
  });

  it('describes a finding on one line, with where it is in what Vite served', () => {
    expect(describeServedProblem({ ruleId: 'dialog-call', severity: 'warning', message: 'm', file: 'src/a.ts', line: 2, column: 3, served: { file: 'src/a.ts', line: 9, column: 1 } })).toBe(
      'src/a.ts:2:3: m (dialog-call, served: src/a.ts:9:1)',
    );
    expect(describeServedProblem({ ruleId: 'r', severity: 'error', message: 'm', file: 'src/a.ts', line: 2 })).toBe('src/a.ts:2: m (r)');
    expect(describeServedProblem({ ruleId: 'r', severity: 'error', message: 'm' })).toBe(': m (r)');
  });
});

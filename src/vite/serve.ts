import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Plugin, ResolvedConfig, ViteDevServer } from 'vite';
import type { DevServer } from '../dev/server.js';
import type { CallOutcome } from '../dev/session.js';
import type { PipelinePluginOptions } from './options.js';
import { readProjectSettings } from './project.js';
import { createServedChecks, type ServedChecks } from './served-checks.js';

/*
 * `vite` (serve): the app Vite serves runs inside pipeline-tool's emulated host, framed in its
 * sandbox as on the platform. Vite keeps serving and hot-reloading the app; the host page, the
 * bridge, fixtures, call log, findings and REST API are `pipeline-tool dev`'s own, started with
 * Vite's address to frame (startDevServer's `url`).
 */

const PREFIX = '[pipeline-tool]';

/** Vite's hot update events as DOM events of the page, which the frame reporter (a classic script) can hear. */
const HOT_UPDATE_EVENTS = [
  'if (import.meta.hot) {',
  "  import.meta.hot.on('vite:beforeUpdate', () => window.dispatchEvent(new Event('pipeline:hot-update-start')));",
  "  import.meta.hot.on('vite:afterUpdate', () => window.dispatchEvent(new Event('pipeline:hot-update')));",
  '}',
].join('\n');

/**
 * The host of the Vite server that closed last, while it closes. Vite restarts its server when
 * vite.config.ts changes, with a new instance of this plugin; the new host waits for the old one,
 * so that it gets the same port and the page the author has open carries on.
 */
let lastClosing: Promise<void> = Promise.resolve();

export function servePlugin(options: PipelinePluginOptions): Plugin & { servedChecks: () => ServedChecks | undefined } {
  let host: Promise<DevServer> | undefined;
  let checks: ServedChecks | undefined;
  // 128 random bits, as dev's own tool origin uses: see allowTheSandbox.
  const base = `/t/${randomBytes(16).toString('base64url')}/`;
  // The host page's origins, once it listens: the only pages Vite's CORS lets read what it serves.
  let hostOrigins = new Set<string>();
  const fromHostPage = (origin: string | undefined, callback: (error: Error | null, allow?: boolean) => void) => callback(null, origin !== undefined && hostOrigins.has(origin));
  return {
    name: 'pipeline-tool:serve',
    // Not for `vite preview`, which serves a build, nor under vitest (its own mode, "test"), which has no page to frame.
    apply: (_config, env) => env.command === 'serve' && env.isPreview !== true && !(env.mode === 'test' && process.env['VITEST'] !== undefined),
    // A tool's build has a relative base, which Vite serves at "/"; here it is the secret path.
    // In middleware mode the app is mounted in the author's own server, whose paths stay theirs.
    // Vite's default CORS lets a page on any localhost port read what it serves, the random base
    // path included, and then the sources: only the host page may (an explicit server.cors wins).
    config: (user) => (user.server?.middlewareMode ? {} : { base, ...(user.server?.cors === undefined ? { server: { cors: { origin: fromHostPage } } } : {}) }),
    configureServer(server) {
      if (server.httpServer !== null) allowTheSandbox(server, base);
      host = startHostWith(server, options);
      if (host === undefined) return;
      host.then((started) => (hostOrigins = new Set([started.url, ...started.networkUrls].map((url) => new URL(url).origin))), () => {});
      printHostAddress(server, host);
      if (options.checkServed !== false) checks = checkServedModules(server, host, options);
    },
    // Only notes the module: the check runs after Vite has answered (served-checks.ts).
    transform: {
      order: 'post',
      handler(_code, id) {
        if (checks !== undefined && this.environment.name === 'client') checks.served(id);
      },
    },
    servedChecks: () => checks,
    // window.pipeline for the app: the emulated host's SDK, before the app's own scripts.
    transformIndexHtml: {
      order: 'pre',
      async handler() {
        if (host === undefined) return [];
        const { sdkUrl } = await host;
        if (sdkUrl === null) return [];
        return [
          { tag: 'script', attrs: { src: sdkUrl }, injectTo: 'head-prepend' },
          // Tells the frame reporter (in the SDK's script) of each hot update, so the host page's box of problems empties.
          { tag: 'script', attrs: { type: 'module' }, children: HOT_UPDATE_EVENTS, injectTo: 'head' },
        ];
      },
    },
  };
}

/**
 * The sandboxed frame's origin is opaque, "null", and its module scripts are CORS requests, which
 * Vite allows for localhost origins only. But every sandboxed frame on any web site has that same
 * origin: were "null" simply allowed, a page the author visits could read the project's sources
 * from Vite. So Vite serves the app under a random base path that only the host page learns, and
 * "null" may read only below it. Outside it, such a request gets a bare 404, before Vite's own
 * redirect to the base path could tell the path.
 */
function allowTheSandbox(server: ViteDevServer, base: string): void {
  server.middlewares.use((request: IncomingMessage, response: ServerResponse, next: () => void) => {
    if (request.headers.origin !== 'null') return next();
    if (!(request.url ?? '').startsWith(base)) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end('not found');
      return;
    }
    response.setHeader('Access-Control-Allow-Origin', 'null');
    response.setHeader('Vary', 'Origin');
    next();
  });
}

/**
 * Starts the emulated host once Vite listens, since it frames Vite's address. Without Vite's own
 * HTTP server (middleware mode) there is no address to frame, and the plugin says so.
 */
function startHostWith(server: ViteDevServer, options: PipelinePluginOptions): Promise<DevServer> | undefined {
  const { httpServer, config } = server;
  if (httpServer === null) {
    config.logger.warn(`${PREFIX} Vite runs in middleware mode, so there is no address for the emulated host to frame; run pipeline-tool dev --url <address> beside it instead.`);
    return undefined;
  }
  const started = new Promise<DevServer>((resolve, reject) => {
    httpServer.once('listening', () => {
      const url = frameAddress(config, httpServer.address() as AddressInfo);
      lastClosing.then(() => startHost(config, url, options)).then(resolve, reject);
    });
  });
  started.catch((error: unknown) => config.logger.error(`${PREFIX} the emulated host could not start: ${error instanceof Error ? error.message : String(error)}`));
  httpServer.once('close', () => {
    lastClosing = started.then(
      (host) => host.close(),
      () => undefined,
    );
  });
  return started;
}

async function startHost(config: ResolvedConfig, url: string, options: PipelinePluginOptions): Promise<DevServer> {
  // Loaded only when Vite serves: a build never starts the host.
  const [{ startDevServer }, { describeWarning }, project] = await Promise.all([import('../dev/server.js'), import('../platform/index.js'), readProjectSettings(config.root)]);
  const logger = config.logger;
  const fromRoot = (file: string) => path.resolve(config.root, file);
  return startDevServer({
    root: path.resolve(config.root, config.build.outDir),
    url,
    manifest: manifestFileOf(config, options),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.fixtures === undefined ? {} : { fixturesFile: fromRoot(options.fixtures) }),
    ...(options.sdk === undefined ? {} : { sdkVersion: options.sdk }),
    // Beside the project file, as dev keeps them: never in the build folder, which each build empties.
    settingsFile: path.join(project.root, '.pipeline-tool', 'settings.json'),
    // Findings and runtime errors are named from the project's folder, as validate names them; what
    // Vite serves at its base comes from its root, which is that folder or lies inside it.
    sourceRoot: project.root,
    servedRoot: config.root,
    ruleSettings: { rules: project.rules, overrides: project.overrides },
    onLog: (level, message) => {
      const line = `${PREFIX} ${message}`;
      if (level === 'error') logger.error(line);
      else if (level === 'warning') logger.warn(line);
      else logger.info(line);
    },
    onCall: (method, outcome) => logger.info(`${PREFIX} ${describeCall(method, outcome, describeWarning)}`),
  });
}

/**
 * Each module Vite serves, checked by validate's code rules as it is served; what is found goes to
 * the host page's findings panel, the terminal, and (errors) Vite's error overlay in the frame.
 */
function checkServedModules(server: ViteDevServer, host: Promise<DevServer>, options: PipelinePluginOptions): ServedChecks {
  const { config } = server;
  return createServedChecks({
    environment: () => server.environments['client'],
    folder: config.root,
    project: readProjectSettings(config.root),
    manifestFile: manifestFileOf(config, options),
    logger: config.logger,
    onResult: (result) => void host.then((started) => started.setServedFindings(result)).catch(() => {}),
    onError: (problem, file) =>
      server.environments['client']?.hot.send({
        type: 'error',
        err: {
          message: `${problem.message} (${problem.ruleId})`,
          stack: '',
          plugin: 'pipeline-tool',
          ...(file === undefined ? {} : { id: file, loc: { file, line: problem.line ?? 1, column: problem.column ?? 1 } }),
        },
      }),
  });
}

/** The tool's manifest.json: the one given, else the one in Vite's publicDir. */
function manifestFileOf(config: ResolvedConfig, options: PipelinePluginOptions): string {
  return options.manifest === undefined ? path.join(config.publicDir || config.root, 'manifest.json') : path.resolve(config.root, options.manifest);
}

/** A bridge call as dev's terminal log shows it: method, result, warnings, time. */
function describeCall(method: string, outcome: CallOutcome, describeWarning: (warning: CallOutcome['warnings'][number]) => string): string {
  const count = outcome.warnings.length;
  const counted = count === 0 ? '' : count === 1 ? ', 1 warning' : `, ${count} warnings`;
  const warnings = outcome.warnings.map((warning) => `\n    warning ${describeWarning(warning)}`).join('');
  return `${method} ${outcome.ok ? 'ok' : outcome.error.code}${counted} ${outcome.ms} ms${warnings}`;
}

/** Vite's own address for the frame: the name it answers to on this machine, its port and base. */
export function frameAddress(config: Pick<ResolvedConfig, 'server' | 'base'>, address: Pick<AddressInfo, 'port'>): string {
  const protocol = config.server.https ? 'https' : 'http';
  const given = config.server.host;
  // `true`, like no host at all, is not a name.
  const wildcard = given === '0.0.0.0' || given === '::' || given === '';
  const name = typeof given === 'string' && !wildcard ? given : 'localhost';
  return `${protocol}://${name.includes(':') ? `[${name}]` : name}:${address.port}${config.base}`;
}

/** What the terminal shows instead of Vite's addresses: the host page, on the network too, and the REST API. */
export function hostAddressLines(started: Pick<DevServer, 'url' | 'networkUrls' | 'apiUrl' | 'apiKey'>): string {
  return [
    `  ➜  Open:      ${started.url}   (the app inside the emulated Pipeline host)`,
    ...started.networkUrls.map((url) => `  ➜  Network:   ${url}`),
    `  ➜  REST API:  ${started.apiUrl}${started.apiKey === null ? '' : `   (key ${started.apiKey})`}`,
  ].join('\n');
}

/**
 * One address to open: the host page. Vite's own address shows the app without a host, where
 * window.pipeline never answers, so it is not printed.
 */
function printHostAddress(server: ViteDevServer, host: Promise<DevServer>): void {
  const printViteUrls = server.printUrls.bind(server);
  server.printUrls = () => {
    host.then(
      (started) => server.config.logger.info(hostAddressLines(started)),
      () => printViteUrls(),
    );
  };
}

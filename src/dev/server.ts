import { randomBytes } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { CURRENT_SDK_VERSION, FixtureError, isSupportedSdkVersion, listSdkMethods, loadFixtureFile, DEFAULT_FIXTURES, type Fixtures } from '../platform/index.js';
import { API_BASE_PATH, readyApiKey, type ApiKey } from '../platform/index.js';
import { DevServerError } from './errors.js';

export { DevServerError } from './errors.js';
import { createEventHub, type DevEvent } from './events.js';
import type { ValidateOptions } from '../core/validate.js';
import { collectFindings, renderToolReport, type Findings, type ServedFindings } from './findings.js';
import { allowedHostNames, isLoopbackAddress, isWildcardAddress, networkAddresses, urlHostName } from './host-check.js';
import { routeHostRequest } from './host-routes.js';
import { sendText } from './http-utils.js';
import { limitInFlight } from './connection-limit.js';
import { loadFixturesInBackground } from './fixture-loader.js';
import { listenOn } from './listen.js';
import { reportToolChanges, startLiveReload } from './live-reload.js';
import { createDevSession, type CallOutcome } from './session.js';
import { openSettingsFile } from './settings-file.js';
import { handleApiHttp } from './rest/endpoint.js';
import { createRateLimiter } from './rest/rate-limit.js';
import { readToolInfo } from './tool-manifest.js';
import { createRuntimePlaces } from './source-places.js';
import { placeStorageError, type FoundPlace } from './storage-errors.js';
import { checkFrameUrl, collectBuiltFindings, isOnThisMachine, remoteFrameWarning, renderFrameScript, startFramedReload } from './framed-page.js';
import { MANIFEST_PATH } from '../core/paths.js';
import { createMissingFileReporter, createReportLimiter, describeToolProblem, readToolReport, reportVersion } from './tool-problems.js';
import { routeToolRequest, SDK_PATH } from './tool-routes.js';
import { fileStamp, isIgnoredToolPath, snapshotFolder } from './watch.js';

/*
 * `pipeline-tool dev` as a library. Two listeners, because the tool must run on another origin
 * than the host page, as on the platform: the host page (the address printed) and the tool's
 * files (a second port). Both listen on loopback unless told otherwise.
 *
 * The tool's files are served under a random path made at each start, `/t/<token>/`. The tool
 * origin has to let the opaque origin "null" read them (the sandboxed frame's module scripts and
 * fetch() need that), but every sandboxed frame on any web site has that same origin; without
 * the token, a page the author visits could find the port and read the tool's files.
 */

export const DEFAULT_DEV_PORT = 4800;
export const DEFAULT_DEV_HOST = '127.0.0.1';

export interface DevServerOptions {
  /**
   * The tool folder to serve. With `url`, the folder the tool is built into: the findings panel
   * validates it, and it need not exist yet.
   */
  root: string;
  /**
   * Frame this address instead of serving `root`: a page of another dev server (Vite, webpack,
   * Parcel, a backend). The page gets `window.pipeline` by loading `/__pipeline/sdk.js` from the
   * host page's listener (docs/frameworks.md).
   */
  url?: string;
  /**
   * With `url`: the manifest.json that names the tool and gives its type (a file, or the folder
   * holding it); `<root>/manifest.json` when left out.
   */
  manifest?: string;
  /** Port of the host page; 4800 when left out, 0 for any free port. */
  port?: number;
  /**
   * What to do when the port is taken: move to the next free one (false), or fail with
   * PORT_IN_USE (true). Left out, the port moves only when `port` was left out too.
   */
  strictPort?: boolean;
  /** Address to listen on; 127.0.0.1 when left out. Anything else exposes the server to the network. */
  host?: string;
  /** Port of the tool's origin; any free port when left out. */
  toolPort?: number;
  /** A fixture file laid over the built-in data; watched, and reloaded when it changes. */
  fixturesFile?: string;
  /** The SDK version to act as, 2.1.0 to 2.5.0; 2.5.0 when left out. */
  sdkVersion?: string;
  /** Where settings.set persists; `<root>/.pipeline-tool/settings.json` when left out. */
  settingsFile?: string;
  /** Rule settings for the findings shown beside the tool, as `validateBundle` takes them. */
  ruleSettings?: Pick<ValidateOptions, 'rules' | 'overrides'>;
  /**
   * The project's folder: findings and the tool's runtime errors in built files are placed at the
   * author's source through source maps, with paths relative to it. Default: the current folder.
   */
  sourceRoot?: string;
  /**
   * With `url`: the folder the other server serves at the page's base path (Vite's root). What goes
   * wrong in the page's files is placed through the source maps that server sends with them, and
   * their relative sources are found from here, and places in them are named as served (Vite's
   * modules, transformed as it serves them), not built. Default: `sourceRoot`, and places are named as built.
   */
  servedRoot?: string;
  /** Watch the folder and the fixture file for live reload; true when left out. */
  watch?: boolean;
  /** Receives what a terminal should show: warnings, reloads, problems. Must not throw. */
  onLog?: (level: 'info' | 'warning' | 'error', message: string) => void;
  /** Told after every bridge call. Must not throw. */
  onCall?: (method: string, outcome: CallOutcome) => void;
  /**
   * Abort to give up starting (Ctrl-C while a large fixture file loads): the start rejects with
   * the signal's reason, with nothing left listening or running. Once started, close() stops.
   */
  signal?: AbortSignal;
}

export interface DevServer {
  /** The host page: what the author opens. */
  readonly url: string;
  /** The tool's origin: the tool listener's, or with `url` that address's. */
  readonly toolOrigin: string;
  /**
   * Where the tool folder is served: the tool's origin and a random path made at each start,
   * such as `http://127.0.0.1:40123/t/Q2x…/`. Anything outside that path gets 404. With `url`,
   * that address.
   */
  readonly toolUrl: string;
  /** With `url`: the script the framed page must load to get `window.pipeline`; null otherwise. */
  readonly sdkUrl: string | null;
  /** Base address of the REST API v1 on the host page's listener, such as `http://127.0.0.1:4800/api/v1`. */
  readonly apiUrl: string;
  /** An API key of the data set in use that may call every endpoint (else its first key), or null when it has none. */
  readonly apiKey: string | null;
  /** Every API key of the data set in use (the fixture file's, after a reload), with its scopes and rate limit. */
  readonly apiKeys: readonly ApiKey[];
  /**
   * The host page's address as other computers reach it, one per network interface, when the
   * server listens beyond loopback; empty on loopback.
   */
  readonly networkUrls: readonly string[];
  /** The addresses the host page's and the tool's listeners are bound to, as the system reports them; no tool listener with `url`. */
  readonly listeners: { readonly hostPage: AddressInfo; readonly tool: AddressInfo | null };
  readonly port: number;
  readonly toolPort: number;
  readonly settingsFile: string;
  /**
   * With `url`: what validate's code rules found in the modules the other server serves (the Vite
   * plugin checks each one as it is served), shown in the findings panel beside the build's, which
   * then gives only what waits for a build. Null: no module is checked.
   */
  setServedFindings(served: Omit<ServedFindings, 'ruleIds'> | null): void;
  /** Stops listening, closes every connection and watcher, and waits for pending settings writes. */
  close(): Promise<void>;
}

function checkPort(value: number | undefined, name: string, fallback: number): number {
  const port = value ?? fallback;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new DevServerError('INVALID_OPTION', `${name} must be a whole number from 0 to 65535, got ${String(value)}.`);
  }
  return port;
}

async function checkRoot(root: string): Promise<string> {
  const info = await stat(root).catch(() => undefined);
  if (info === undefined) throw new DevServerError('ROOT_NOT_FOUND', `${root} does not exist. Give the path of a tool folder.`);
  if (!info.isDirectory()) {
    throw new DevServerError('ROOT_NOT_FOUND', `${root} is not a folder. dev serves a tool folder; to try a .zip bundle, unzip it into a folder first.`);
  }
  return realpath(root);
}

/** The manifest file a framed page's tool is described by: the file given, or manifest.json in the folder given. */
async function manifestPath(given: string): Promise<string> {
  const resolved = path.resolve(given);
  const info = await stat(resolved).catch(() => undefined);
  return info?.isDirectory() ? path.join(resolved, MANIFEST_PATH) : resolved;
}

function portOf(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/** The data set to start with; with a signal, loaded as a reload loads it, in steps that an abort stops. */
async function loadFixtures(file: string | undefined, signal: AbortSignal | undefined): Promise<Fixtures> {
  if (file === undefined) return DEFAULT_FIXTURES;
  try {
    if (signal === undefined) return await loadFixtureFile(file);
    signal.throwIfAborted();
    const load = loadFixturesInBackground(file);
    const cancel = () => load.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await load.fixtures;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof FixtureError) throw new DevServerError('FIXTURES_INVALID', error.message, { cause: error });
    throw error;
  }
}

/** Keeps track of open sockets, so that close() does not wait for idle keep-alive connections. */
function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return sockets;
}

function hardenServer(
  server: Server,
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  log: NonNullable<DevServerOptions['onLog']>,
  shownTarget: (target: string) => string = (target) => target,
): void {
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.on(
    'request',
    limitInFlight((request: IncomingMessage, response: ServerResponse) => {
      // Two Host headers name two sites: which one the request is for cannot be told (RFC 9112 §3.2).
      if ((request.headersDistinct.host?.length ?? 0) > 1) {
        sendText(response, 400, 'the Host header is given more than once; send it once', { Connection: 'close' });
        return;
      }
      handle(request, response).catch((error: unknown) => {
        log('error', `internal error while answering ${request.method ?? '?'} ${shownTarget(request.url ?? '?')}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (!response.headersSent) sendText(response, 500, 'internal error in pipeline-tool dev; see the terminal');
        else response.destroy();
      });
    }),
  );
  // A request Node cannot even parse gets a plain 400 instead of an unhandled error.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
}

/** Every finding of the code rules the panel shows: the served modules' and the folder's or build's. */
function codeFindings(findings: Findings | null): FoundPlace[] {
  if (findings === null) return [];
  return [...(findings.served?.problems ?? []), ...(findings.ok ? findings.report.problems : [])];
}

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const log = options.onLog ?? (() => {});
  const port = checkPort(options.port, 'port', DEFAULT_DEV_PORT);
  const toolPortOption = checkPort(options.toolPort, 'toolPort', 0);
  const host = options.host ?? DEFAULT_DEV_HOST;
  const sdkVersion = options.sdkVersion ?? CURRENT_SDK_VERSION;
  if (!isSupportedSdkVersion(sdkVersion)) {
    throw new DevServerError('INVALID_OPTION', `the SDK version must be one from 2.1.0 to ${CURRENT_SDK_VERSION}, such as 2.3.0; got "${sdkVersion}".`);
  }
  const frameUrl = options.url === undefined ? undefined : checkFrameUrl(options.url);
  if (options.manifest !== undefined && frameUrl === undefined) throw new DevServerError('INVALID_OPTION', '--manifest goes with --url (the manifest option with url): a folder dev serves has its own manifest.json.');
  // A framed page's built folder is only validated, and may come with the first build.
  const realRoot = frameUrl === undefined ? await checkRoot(path.resolve(options.root)) : await realpath(options.root).catch(() => path.resolve(options.root));
  const manifestFile = frameUrl === undefined ? undefined : await manifestPath(options.manifest ?? realRoot);
  const fixturesFile = options.fixturesFile === undefined ? undefined : path.resolve(options.fixturesFile);
  const { signal } = options;
  // Watched only once dev is up; a save meanwhile is told from this stamp (live-reload.ts).
  const fixturesReadFrom = fixturesFile !== undefined && options.watch !== false ? await fileStamp(fixturesFile) : undefined;
  const fixtures = await loadFixtures(fixturesFile, signal);
  signal?.throwIfAborted();
  const settingsFile = path.resolve(options.settingsFile ?? path.join(realRoot, '.pipeline-tool', 'settings.json'));
  const { store, problem } = await openSettingsFile(settingsFile, { onWriteError: (message) => log('error', message) });
  if (problem !== null) {
    log('warning', `${problem.file} could not be used (${problem.reason}); starting with no stored settings.${problem.keptAs === null ? '' : ` The old file is kept as ${problem.keptAs}.`}`);
  }

  const stateFolder = path.dirname(settingsFile);
  // The folder is watched only once it has been read; what is saved or built meanwhile is told
  // from this look at its files.
  const readFrom = options.watch === false ? undefined : await snapshotFolder(realRoot, isIgnoredToolPath);
  const tool = manifestFile === undefined ? await readToolInfo(realRoot) : await readToolInfo(path.dirname(manifestFile), { manifestFile, checkEntry: false });
  reportToolChanges(null, tool, log);
  const session = createDevSession({
    tool,
    fixtures,
    fixturesFile: fixturesFile ?? null,
    sdkVersion,
    settings: store,
    onCall: options.onCall,
  });
  const sourceRoot = path.resolve(options.sourceRoot ?? process.cwd());
  const findingSettings = { ...options.ruleSettings, sourceMaps: { root: sourceRoot } };
  session.setFindings(
    frameUrl === undefined
      ? await collectFindings(realRoot, stateFolder, fixturesFile ?? null, findingSettings)
      : await collectBuiltFindings(realRoot, stateFolder, fixturesFile ?? null, findingSettings),
  );
  // The last look before anything listens or watches.
  signal?.throwIfAborted();

  const events = createEventHub();
  // A framed page's files are the other server's: what goes wrong in them is placed through what it serves.
  const frameBase = frameUrl === undefined ? undefined : new URL('.', frameUrl).href;
  const servedRoot = path.resolve(options.servedRoot ?? sourceRoot);
  const printReport = createReportLimiter(log);
  // Aborted when dev closes: no request to a framed page's server outlives it.
  const closingController = new AbortController();
  const runtimePlaces = createRuntimePlaces(
    frameBase === undefined ? { folder: realRoot } : { server: frameBase, folder: servedRoot, modules: options.servedRoot !== undefined },
    sourceRoot,
    closingController.signal,
  );
  const emit = (event: DevEvent) => {
    // The tool loads again, perhaps rebuilt with new maps.
    if (event.type === 'reload') runtimePlaces.reset();
    events.send(event);
  };
  // Outside the session, so that counts survive a fixture reload, as a platform's would.
  const apiContext = { session, limiter: createRateLimiter(), onChange: () => emit({ type: 'state' }), log };
  const allowedHosts = allowedHostNames(host);
  // 128 random bits; base64url needs no escaping in a URL.
  const toolToken = randomBytes(16).toString('base64url');
  const toolBasePath = `/t/${toolToken}/`;
  let hostPort = port;
  let toolPort = frameUrl === undefined ? toolPortOption : portOf(frameUrl);
  const sdk = () => {
    const version = session.current().sdkVersion;
    return { version, methods: listSdkMethods(version) };
  };

  // One for the server's life: it remembers what it logged lately, so that a burst is logged once.
  const reportMissingFile = createMissingFileReporter({
    realRoot,
    entry: () => session.current().entry,
    show: (problem) => emit({ type: 'tool-problem', problem }),
    log: (problem) => log('error', describeToolProblem(problem)),
  });

  const hostServer = createServer();
  const toolServer = createServer();
  const sockets = [trackSockets(hostServer), trackSockets(toolServer)];
  hardenServer(
    hostServer,
    (request, response) =>
      routeHostRequest(request, response, {
        session,
        events,
        allowedHosts,
        hostPort: () => hostPort,
        toolPort: () => toolPort,
        toolBasePath,
        toolReport: async (body) => {
          const read = readToolReport(body, toolToken, frameBase);
          if (read === undefined) return undefined;
          const problem = placeStorageError(await runtimePlaces.place(read, reportVersion(body)), codeFindings(session.findings()));
          printReport(problem.kind === 'blocked' ? 'warning' : 'error', describeToolProblem(problem));
          return problem;
        },
        afterChange: (reloadTool) => {
          emit({ type: 'state' });
          if (reloadTool) emit({ type: 'reload', reason: 'the host settings changed' });
        },
        api: (request, response) => handleApiHttp(request, response, apiContext),
        bundleReport: () => renderToolReport(realRoot, stateFolder, fixturesFile ?? null, findingSettings),
        ...(frameUrl === undefined ? {} : { frameUrl: frameUrl.href, frameScript: (hostOrigin: string) => renderFrameScript(hostOrigin, sdk()) }),
      }),
    log,
  );
  hardenServer(
    toolServer,
    (request, response) =>
      routeToolRequest(request, response, {
        realRoot,
        allowedHosts,
        toolPort: () => toolPort,
        hostPort: () => hostPort,
        basePath: toolBasePath,
        entry: () => session.current().entry,
        missing: reportMissingFile,
        sdk,
      }),
    log,
    // The terminal is no place for the token: a log pasted into a bug report would carry it.
    (target) => target.split(toolToken).join('…'),
  );

  const closeServers = async () => {
    // Stop accepting first, then drop what is open (event streams, idle keep-alive connections),
    // so that close() never waits on a browser tab.
    const closed = [hostServer, ...(frameUrl === undefined ? [toolServer] : [])].map((server) => new Promise((resolve) => (server.listening ? server.close(resolve) : resolve(undefined))));
    events.close();
    for (const set of sockets) for (const socket of set) socket.destroy();
    await Promise.all(closed);
  };
  try {
    hostPort = await listenOn(hostServer, port, host, !(options.strictPort ?? options.port !== undefined));
    if (port !== 0 && hostPort !== port) log('info', `port ${port} is in use, so the host page took port ${hostPort}.`);
    if (frameUrl === undefined) toolPort = await listenOn(toolServer, toolPortOption, host);
  } catch (error) {
    await closeServers();
    throw error;
  }

  const watchers =
    options.watch === false
      ? []
      : manifestFile === undefined
        ? await startLiveReload({ realRoot, fixturesFile, stateFolder, session, emit, log, tool, readFrom: readFrom ?? new Map(), fixturesReadFrom, ruleSettings: findingSettings })
        : startFramedReload({ root: realRoot, manifestFile, fixturesFile, stateFolder, session, emit, log, tool, readFrom: readFrom ?? new Map(), fixturesReadFrom, ruleSettings: findingSettings });

  const wildcard = isWildcardAddress(host);
  if (frameUrl !== undefined && !isOnThisMachine(frameUrl)) log('warning', remoteFrameWarning(frameUrl));
  if (!isLoopbackAddress(host)) {
    log('warning', `listening on ${host}: other computers on your network can open the host page, read the tool's files and change its settings. The dev server has no sign-in.`);
  }
  const shownHost = urlHostName(wildcard ? DEFAULT_DEV_HOST : host);
  let closing: Promise<void> | undefined;
  const toolOrigin = frameUrl?.origin ?? `http://${shownHost}:${toolPort}`;
  return {
    url: `http://${shownHost}:${hostPort}/`,
    networkUrls: networkAddresses(host).map((address) => `http://${urlHostName(address)}:${hostPort}/`),
    toolOrigin,
    toolUrl: frameUrl?.href ?? `${toolOrigin}${toolBasePath}`,
    sdkUrl: frameUrl === undefined ? null : `http://${shownHost}:${hostPort}${SDK_PATH}`,
    apiUrl: `http://${shownHost}:${hostPort}${API_BASE_PATH}`,
    get apiKey() {
      return readyApiKey(session.apiKeys());
    },
    get apiKeys() {
      return session.apiKeys();
    },
    listeners: { hostPage: hostServer.address() as AddressInfo, tool: frameUrl === undefined ? (toolServer.address() as AddressInfo) : null },
    port: hostPort,
    toolPort,
    settingsFile,
    setServedFindings(served) {
      session.setServedFindings(served);
      emit({ type: 'state' });
    },
    close() {
      closing ??= (async () => {
        closingController.abort();
        for (const watcher of watchers) watcher.close();
        await closeServers();
        await store.flush();
      })();
      return closing;
    },
  };
}

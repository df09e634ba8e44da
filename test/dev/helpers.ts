import { request as httpRequest } from 'node:http';
import { connect, createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { startDevServer, type DevServer, type DevServerOptions } from '../../src/dev/server.js';
import { writeFolder } from '../helpers/bundles.js';
import { atFileEnd } from '../helpers/file-end.js';

export const QUOTING_MANIFEST = {
  name: 'Kitchen Estimator',
  shortName: 'Kitchen',
  type: 'quoting_extension',
  version: '1.0.0',
  description: 'Estimates kitchens.',
  entry: 'index.html',
};

export const STANDALONE_MANIFEST = { ...QUOTING_MANIFEST, name: 'Price Lookup', shortName: 'Lookup', type: 'standalone' };

/** A page that records the SDK's first answer, made before any handshake could have happened. */
export const BOOT_SCRIPT = `
window.__boot = window.pipeline.context.get().then(
  (context) => ({ version: window.pipeline.version, context }),
  (error) => ({ error: error.code }),
);
document.getElementById('status').textContent = 'loaded v1';
`;

export function toolFiles(manifest: object, script = BOOT_SCRIPT): Record<string, string> {
  return {
    'manifest.json': JSON.stringify(manifest, null, 2),
    'index.html':
      '<!doctype html>\n<html><head><meta charset="utf-8"><title>Tool</title><link rel="stylesheet" href="styles.css"></head>\n<body><p id="status">…</p><script src="app.js"></script></body></html>\n',
    'app.js': script,
    'styles.css': 'body { font-family: sans-serif; }\n',
  };
}

export function writeTool(manifest: object = QUOTING_MANIFEST, extra: Record<string, string | Buffer> = {}): string {
  return writeFolder({ ...toolFiles(manifest), ...extra });
}

const started: DevServer[] = [];
atFileEnd(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

/** A dev server on free ports, closed after the test file. */
export async function startTestServer(options: DevServerOptions): Promise<DevServer> {
  const server = await startDevServer({ port: 0, ...options });
  started.push(server);
  return server;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * An HTTP request sent exactly as given: fetch() would normalise `..` and encoded slashes away
 * before the server could be tested on them.
 */
export function sendRequest(
  port: number,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path: options.path, method: options.method ?? 'GET', headers: { Host: `127.0.0.1:${port}`, ...options.headers }, timeout: 10_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error('request timed out')));
    request.end(options.body);
  });
}

/** Bytes straight onto a socket, for requests no HTTP client would send; resolves with the reply. */
export function sendRawBytes(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** A POST from the host page itself: same-origin, JSON. */
export function postFromHostPage(server: DevServer, path: string, body: unknown): Promise<RawResponse> {
  return sendRequest(server.port, {
    path,
    method: 'POST',
    headers: { Origin: `http://127.0.0.1:${server.port}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Runs one bridge call through the endpoint and returns the parsed outcome. */
export async function callBridge(server: DevServer, method: string, args: unknown[] = []): Promise<{ ok: boolean; value?: unknown; error?: { code: string; details: { code: string; path: string }[] } }> {
  const response = await postFromHostPage(server, '/__pipeline/call', { method, args });
  if (response.status !== 200) throw new Error(`call failed with HTTP ${response.status}: ${response.body}`);
  return JSON.parse(response.body) as never;
}

export async function readState(server: DevServer): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const response = await sendRequest(server.port, { path: '/__pipeline/state' });
  return JSON.parse(response.body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * How long a test waits for something to happen (a page to show what it was sent, a reload, a
 * line of output): generous, for a 2-core machine busy with other work. A wait ends as soon as its
 * condition holds, so this costs a passing test nothing; only a failure takes this long to say so.
 */
export const SETTLE_MS = 30_000;

/** Polls until `check` returns something truthy, or fails after `timeout` ms. */
export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeout = SETTLE_MS,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** True when a TCP connection to host:port opens within `timeout` ms. */
export function canConnect(host: string, port: number, timeout = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (connected: boolean) => {
      socket.destroy();
      resolve(connected);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(timeout, () => done(false));
  });
}

/**
 * The machine's own addresses that are not loopback and that a listener on every interface can
 * be reached at from here (checked with a throwaway listener, so that a firewall cannot make a
 * refused connection look like proof). Link-local IPv6 addresses are left out: they need a scope.
 */
export async function reachableOwnAddresses(): Promise<string[]> {
  const candidates = Object.values(networkInterfaces())
    .flat()
    .filter((info) => info !== undefined && !info.internal && !info.address.toLowerCase().startsWith('fe80:'))
    .map((info) => info!.address);
  const reachable: string[] = [];
  for (const address of candidates) {
    const wildcard = address.includes(':') ? '::' : '0.0.0.0';
    const probe = createServer((socket) => socket.destroy());
    const listening = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(0, wildcard, () => resolve(true));
    });
    if (!listening) continue;
    const { port } = probe.address() as { port: number };
    if (await canConnect(address, port)) reachable.push(address);
    await new Promise((resolve) => probe.close(resolve));
  }
  return reachable;
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

import { readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { limitInFlight, MAX_IN_FLIGHT_PER_CONNECTION } from '../../src/dev/connection-limit.js';
import type { DevServer } from '../../src/dev/server.js';
import { summariseWarnings } from '../../src/dev/warning-summary.js';
import type { BridgeWarning } from '../../src/platform/index.js';
import { spawnDev } from './dev-process.js';
import { sendRawBytes, sendRequest, SETTLE_MS, startTestServer, waitFor, writeTool } from './helpers.js';
import { tempDir } from '../helpers/bundles.js';

/*
 * What one client can make the dev server do: thousands of warnings in one request, headers
 * given twice, and requests sent faster than their answers are read.
 */

const AROHA = '10000000-0000-4000-8000-000000000001';
const SKIRTING = '20000000-0000-4000-8000-000000000006';

/** The body of a raw HTTP/1.1 reply, its chunks joined. */
function bodyOf(reply: string): string {
  const [head = '', rest = ''] = reply.split(/\r\n\r\n(.*)/s);
  if (!/^transfer-encoding: chunked$/im.test(head)) return rest;
  let body = '';
  for (let at = 0; ; ) {
    const end = rest.indexOf('\r\n', at);
    const size = parseInt(rest.slice(at, end), 16);
    if (!(size > 0)) return body;
    body += rest.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
}

const warning = (n: number, code: BridgeWarning['code'] = 'UNKNOWN_FIELD'): BridgeWarning => ({ code, method: 'quotes.create', path: `field${n}`, message: 'is not a field of the request; it is ignored' });

describe('warnings of one request', () => {
  it('are shown in full up to five, then counted by code', () => {
    expect(summariseWarnings([warning(1), warning(2)])).toEqual(['field1: is not a field of the request; it is ignored [UNKNOWN_FIELD]', 'field2: is not a field of the request; it is ignored [UNKNOWN_FIELD]']);
    const many = [...Array.from({ length: 12_000 }, (_, n) => warning(n)), warning(0, 'DEPRECATED'), warning(1, 'DEPRECATED')];
    const lines = summariseWarnings(many);
    expect(lines).toHaveLength(6);
    expect(lines.slice(0, 5)).toEqual([0, 1, 2, 3, 4].map((n) => `field${n}: is not a field of the request; it is ignored [UNKNOWN_FIELD]`));
    expect(lines[5]).toBe('… and 11,997 more like these (11,995 UNKNOWN_FIELD, 2 DEPRECATED)');
    expect(summariseWarnings(many.slice(0, 5))).toHaveLength(5);
  });

  it('of a REST body with 80,000 unknown fields: one short log entry, and the quote is still created', async () => {
    const logged: string[] = [];
    const server = await startTestServer({ root: writeTool(), watch: false, onLog: (_level, message) => logged.push(message) });
    const body: Record<string, unknown> = { customerId: AROHA, lines: [{ skuId: SKIRTING, qty: 1, unitPrice: 10 }] };
    for (let n = 0; n < 80_000; n++) body[`x${n}`] = 0;
    const text = JSON.stringify(body);
    expect(text.length).toBeLessThan(1_000_000);
    const response = await fetch(`${server.apiUrl}/quotes`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' },
      body: text,
    });
    expect(response.status).toBe(201);
    const entry = logged.find((line) => line.startsWith('REST POST /api/v1/quotes 201'));
    expect(entry).toBeDefined();
    const lines = entry!.split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[1]).toMatch(/^ {4}warning x0: .* \[UNKNOWN_FIELD\]$/);
    expect(lines[6]).toBe('    warning … and 79,995 more like these (79,995 UNKNOWN_FIELD)');
    const created = (await response.json()) as { id: string };
    const read = await fetch(`${server.apiUrl}/quotes/${created.id}`, { headers: { Authorization: `Bearer ${server.apiKey}` } });
    expect(read.status).toBe(200);
  });

  it('of a bridge call: the terminal of dev shows five and a count', async () => {
    const dev = spawnDev([writeTool(), '--port', '0'], { cwd: tempDir() });
    const url = new URL(await dev.url());
    const request: Record<string, unknown> = { customerName: 'Flood', upsertByEmail: false, lines: [{ description: 'a', qty: 1, unitPrice: 1, taxRate: 0 }] };
    for (let n = 0; n < 3000; n++) request[`extra${n}`] = n;
    const answer = await sendRequest(Number(url.port), {
      path: '/__pipeline/call',
      method: 'POST',
      headers: { Origin: url.origin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'quotes.create', args: [request] }),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true });
    await dev.waitForOutput(/more like these/, 'stderr');
    expect(await dev.stop()).toBe(0);
    const warningLines = dev.stderr().split('\n').filter((line) => line.startsWith('    warning '));
    expect(warningLines).toHaveLength(6);
    expect(warningLines[5]).toBe('    warning … and 2,995 more like these (2,995 UNKNOWN_FIELD)');
  });
});

describe('a header given twice', () => {
  it('Host, on either listener: 400, whatever the values', async () => {
    const server = await startTestServer({ root: writeTool(), watch: false });
    const tool = new URL(server.toolUrl);
    for (const [port, target] of [
      [server.port, '/'],
      [server.port, '/api/v1/customers'],
      [Number(tool.port), `${tool.pathname}app.js`],
    ] as const) {
      for (const second of [`127.0.0.1:${port}`, 'elsewhere.example']) {
        const reply = await sendRawBytes(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: ${second}\r\nAuthorization: Bearer ${server.apiKey}\r\n\r\n`);
        expect(reply, `${target} with ${second}`).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
        expect(bodyOf(reply)).toBe('the Host header is given more than once; send it once');
      }
      const once = await sendRawBytes(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${server.apiKey}\r\nConnection: close\r\n\r\n`);
      expect(once, target).toMatch(/^HTTP\/1\.1 (200|302)/);
    }
  });

  it('Authorization, on the REST API: 400 DUPLICATE_HEADER, before the key is even looked at', async () => {
    const server = await startTestServer({ root: writeTool(), watch: false });
    const host = `127.0.0.1:${server.port}`;
    for (const [first, second] of [
      [server.apiKey, server.apiKey],
      [server.apiKey, 'someone-elses-key'],
      ['unknown-key-0001', server.apiKey],
    ]) {
      const reply = await sendRawBytes(server.port, `GET /api/v1/customers HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${first}\r\nauthorization: Bearer ${second}\r\nConnection: close\r\n\r\n`);
      expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(reply).not.toMatch(/X-RateLimit/i);
      const body = JSON.parse(bodyOf(reply)) as unknown;
      expect(body).toEqual({ error: { code: 'DUPLICATE_HEADER', message: 'send the Authorization header once, with one key' } });
    }
  });
});

/** How many files this process has open: the server under test runs in it. */
const openFiles = () => readdirSync('/proc/self/fd').length;

/** Sends `count` pipelined GETs for one file on a new connection, and never reads an answer. */
async function flood(server: DevServer, file: string, count: number): Promise<Socket> {
  const tool = new URL(server.toolUrl);
  const socket = connect({ host: '127.0.0.1', port: Number(tool.port) });
  socket.pause();
  await new Promise((resolve) => socket.once('connect', resolve));
  const one = `GET ${tool.pathname}${file} HTTP/1.1\r\nHost: 127.0.0.1:${tool.port}\r\n\r\n`;
  socket.write(one.repeat(count));
  return socket;
}

describe('limitInFlight', () => {
  it('stops reading a connection whose answers are not read: what it sent beyond one read stays unparsed', async () => {
    let parsed = 0;
    let answered = 0;
    const gate = limitInFlight((_request, response) => {
      answered++;
      response.end('x'.repeat(300_000));
    });
    const server = createServer((request, response) => {
      parsed++;
      gate(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
    socket.pause();
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(50_000));
    try {
      let most = 0;
      for (let sample = 0; sample < 40; sample++) {
        most = Math.max(most, parsed);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // One read of the connection holds about 2,400 of these requests; 50,000 were sent.
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThan(5_000);
      expect(answered).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_CONNECTION + 50);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the in-flight limit of one connection', () => {
  it('is 8, as decided', () => {
    expect(MAX_IN_FLIGHT_PER_CONNECTION).toBe(8);
  });

  it('starts exactly 8 of the requests sent on one connection, and one more each time one of them ends', async () => {
    // Requests are held open until the test ends them, so nothing but the limit decides how many run.
    const started: [IncomingMessage, ServerResponse][] = [];
    let reached = 0;
    const gate = limitInFlight((request, response) => void started.push([request, response]));
    const server = createServer((request, response) => {
      reached++;
      gate(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
    let replies = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (replies += chunk));
    await new Promise((resolve) => socket.once('connect', resolve));
    const sent = 12;
    socket.write(Array.from({ length: sent }, (_, n) => `GET /${n} HTTP/1.1\r\nHost: a\r\n\r\n`).join(''));
    const urls = () => started.map(([request]) => request.url);
    try {
      // Node hands a connection's requests to the gate as it parses them, in one go; once the ninth
      // has reached it, the gate has decided for the first nine, and only eight may have started.
      await waitFor(() => reached > 8, SETTLE_MS, 'the ninth request to reach the gate');
      expect(urls()).toEqual(['/0', '/1', '/2', '/3', '/4', '/5', '/6', '/7']);
      for (let next = 8; next < sent; next++) {
        started[next - 8]![1].end(`answer ${next - 8}`);
        await waitFor(() => started.length > next, SETTLE_MS, `request ${next} to start once an answer ended`);
        // Exactly one more: the limit holds again at once.
        expect(urls()).toEqual(Array.from({ length: next + 1 }, (_, n) => `/${n}`));
      }
      for (const [, response] of started.slice(sent - 8)) response.end('rest');
      await waitFor(() => replies.split('HTTP/1.1 200 OK').length - 1 === sent, SETTLE_MS, 'every answer');
    } finally {
      socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe.skipIf(process.platform !== 'linux')('a connection that never reads its answers', () => {
  it(`has at most ${MAX_IN_FLIGHT_PER_CONNECTION} requests in flight, and its files are closed when it goes`, async () => {
    // Each answer in flight waits for the connection to close: that must not add a listener to
    // the socket per answer, which Node warns about past ten (MaxListenersExceededWarning).
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    onTestFinished(() => void process.off('warning', onWarning));
    const server = await startTestServer({ root: writeTool(undefined, { 'big.js': `// ${'x'.repeat(256 * 1024)}\n` }), watch: false });
    // A first request opens whatever the server opens once (its listeners are warm).
    expect((await sendRequest(Number(new URL(server.toolUrl).port), { path: `${new URL(server.toolUrl).pathname}big.js` })).status).toBe(200);
    const before = openFiles();

    const socket = await flood(server, 'big.js', 20_000);
    let most = 0;
    // However long it is given, the server keeps at most the limit of files open for it.
    for (let sample = 0; sample < 40; sample++) {
      most = Math.max(most, openFiles() - before);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // One socket of the client, one of the server, and the files in flight.
    expect(most).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_CONNECTION + 2);

    // Another client is answered meanwhile.
    expect((await sendRequest(Number(new URL(server.toolUrl).port), { path: `${new URL(server.toolUrl).pathname}app.js` })).status).toBe(200);

    socket.destroy();
    await waitFor(() => openFiles() <= before, SETTLE_MS, 'the files of the dropped connection to be closed');
    expect(warnings).toEqual([]);
  });
});

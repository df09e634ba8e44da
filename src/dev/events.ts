import type { IncomingMessage, ServerResponse } from 'node:http';
import { commonHeaders, sendText } from './http-utils.js';
import type { ToolProblem } from './tool-problems.js';

/*
 * Server-sent events to the host page: `reload` (the tool's files changed), `state` (the quote,
 * settings, findings or fixtures changed), `notice` (something the author should read) and
 * `tool-problem` (the tool asked for a file that is not there).
 * SSE needs nothing beyond node:http and reconnects by itself, which is all live reload needs.
 */

export type DevEvent =
  | { type: 'reload'; reason: string }
  | { type: 'state' }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string }
  | { type: 'tool-problem'; problem: ToolProblem };

/** A page left open in many tabs is fine; thousands of connections are an attack or a bug. */
const MAX_CLIENTS = 64;
const KEEP_ALIVE_MS = 15_000;

export interface EventHub {
  /** Answers GET /__pipeline/events by keeping the response open as a stream. */
  connect(request: IncomingMessage, response: ServerResponse): void;
  send(event: DevEvent): void;
  readonly clientCount: number;
  close(): void;
}

export function createEventHub(): EventHub {
  const clients = new Set<ServerResponse>();
  const keepAlive = setInterval(() => {
    for (const client of clients) client.write(': keep-alive\n\n');
  }, KEEP_ALIVE_MS);
  keepAlive.unref();

  return {
    connect(request, response) {
      if (clients.size >= MAX_CLIENTS) {
        sendText(response, 503, 'too many open event streams', { 'Retry-After': '5' });
        return;
      }
      response.writeHead(200, commonHeaders({ 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' }));
      if (request.method === 'HEAD') {
        response.end();
        return;
      }
      // A short retry makes the page reconnect promptly after the server restarts.
      response.write('retry: 1000\n\n');
      clients.add(response);
      request.on('close', () => clients.delete(response));
    },
    send(event) {
      const { type, ...data } = event;
      const frame = `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const client of clients) client.write(frame);
    },
    get clientCount() {
      return clients.size;
    },
    close() {
      clearInterval(keepAlive);
      for (const client of clients) client.destroy();
      clients.clear();
    },
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { HOST_PAGE_HTML } from './assets/host-page.js';
import { renderHostScript } from './assets/host-script.js';
import { HOST_PAGE_CSS } from './assets/host-style.js';
import { handleBridgeCall } from './bridge-endpoint.js';
import type { EventHub } from './events.js';
import { checkHost, urlHostName } from './host-check.js';
import { readJsonObjectOrReply, sendBody, sendJson, sendText } from './http-utils.js';
import type { DevSession } from './session.js';
import type { ToolProblem } from './tool-problems.js';
import { SDK_PATH } from './tool-routes.js';

/*
 * The host page's origin: the page, its script and style, the state it draws, the event stream,
 * and the two endpoints that change things (a bridge call, a control). Those two accept only
 * same-origin requests from the page itself: not the tool's frame, whose origin is "null", and
 * not another site, which a browser labels with its own origin.
 */

export interface HostRouteContext {
  session: DevSession;
  events: EventHub;
  allowedHosts: ReadonlySet<string>;
  hostPort: () => number;
  toolPort: () => number;
  /** Where the tool folder is served on the tool's origin, `/t/<token>/`: the page builds the frame's address from it. */
  toolBasePath: string;
  /** A control changed something: tell every open page, and reload the tool when asked. */
  afterChange: (reloadTool: boolean) => void;
  /** Answers everything under /api/ (the REST API), after the Host check. */
  api?: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  /**
   * A report of the tool's frame, passed on by the page: the problem as the terminal was told of it
   * (placed at the author's source when a source map allows), or undefined when the body is no report.
   */
  toolReport: (body: Record<string, unknown>) => Promise<ToolProblem | undefined>;
  /** The bundle report page of the tool folder, as `pack --report` writes it; rejects when the folder cannot be read. */
  bundleReport: () => Promise<string>;
  /** With `dev --url`: the page the host page frames instead of the tool origin's files. */
  frameUrl?: string;
  /** With `dev --url`: the script that page loads from here (`/__pipeline/sdk.js`), for the host page's origin. */
  frameScript?: (hostOrigin: string) => string;
}

const MAX_CONTROL_BYTES = 16_000;
let hostScript: string | undefined;

/** True when a browser says the request comes from a page of this very origin. */
function isSameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  return origin !== undefined && origin.toLowerCase() === `http://${String(request.headers.host).toLowerCase()}`;
}

function pageHeaders(hostName: string, context: HostRouteContext): Record<string, string> {
  const toolOrigin = context.frameUrl === undefined ? `http://${urlHostName(hostName)}:${context.toolPort()}` : new URL(context.frameUrl).origin;
  return {
    // The page draws untrusted data; with no inline script allowed, a slip in escaping stays inert.
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "img-src 'self' data:",
      `frame-src ${toolOrigin}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
  };
}

export async function routeHostRequest(request: IncomingMessage, response: ServerResponse, context: HostRouteContext): Promise<void> {
  const hostName = checkHost(request.headers.host, context.allowedHosts, context.hostPort());
  if (hostName === undefined) {
    sendText(response, 403, 'This dev server answers only to the address it printed (the Host header names another).');
    return;
  }
  const path = (request.url ?? '').split(/[?#]/, 1)[0];
  const method = request.method ?? '';
  if (context.api !== undefined && (path === '/api' || path?.startsWith('/api/'))) {
    await context.api(request, response);
    return;
  }
  const route = ROUTES.get(path ?? '');
  if (route === undefined) {
    sendText(response, 404, 'not found');
    return;
  }
  if (route.method !== method && !(route.method === 'GET' && method === 'HEAD')) {
    sendText(response, 405, `use ${route.method} here`, { Allow: route.method === 'GET' ? 'GET, HEAD' : route.method });
    return;
  }
  if (route.method === 'POST' && !isSameOrigin(request)) {
    sendJson(response, 403, { error: 'only the host page itself may call this endpoint' });
    return;
  }
  await route.handle(request, response, context, hostName);
}

type Handler = (request: IncomingMessage, response: ServerResponse, context: HostRouteContext, hostName: string) => void | Promise<void>;

interface Route {
  method: 'GET' | 'POST';
  handle: Handler;
}

const ROUTE_TABLE: Record<string, Route> = {
  '/': {
    method: 'GET',
    handle: (_request, response, context, hostName) =>
      sendBody(response, 200, 'text/html; charset=utf-8', HOST_PAGE_HTML, pageHeaders(hostName, context)),
  },
  '/__pipeline/host.js': {
    method: 'GET',
    handle: (_request, response) => sendBody(response, 200, 'text/javascript; charset=utf-8', (hostScript ??= renderHostScript())),
  },
  '/__pipeline/host.css': {
    method: 'GET',
    handle: (_request, response) => sendBody(response, 200, 'text/css; charset=utf-8', HOST_PAGE_CSS),
  },
  '/favicon.ico': {
    method: 'GET',
    handle: (_request, response) => {
      response.writeHead(204);
      response.end();
    },
  },
  '/__pipeline/state': {
    method: 'GET',
    handle: (_request, response, context) =>
      sendJson(response, 200, { ...context.session.snapshot(), toolPort: context.toolPort(), toolBasePath: context.toolBasePath, frameUrl: context.frameUrl ?? null }),
  },
  // A page of another dev server gets window.pipeline from here: any page may load it, as it holds
  // nothing secret (the host page's address and the SDK version), and it talks only to this page.
  [SDK_PATH]: {
    method: 'GET',
    handle: (_request, response, context, hostName) => {
      if (context.frameScript === undefined) {
        sendText(response, 404, 'not found');
        return;
      }
      sendBody(response, 200, 'text/javascript; charset=utf-8', context.frameScript(`http://${urlHostName(hostName)}:${context.hostPort()}`));
    },
  },
  // The findings panel links here: the page `pack --report` writes, made afresh for the folder served.
  // It carries its own content security policy (its inline script and style by hash, nothing else).
  '/__pipeline/bundle-report': {
    method: 'GET',
    handle: async (_request, response, context) => {
      let page: string;
      try {
        page = await context.bundleReport();
      } catch (error) {
        sendText(response, 500, `Could not make the bundle report: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      sendBody(response, 200, 'text/html; charset=utf-8', page, { 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' });
    },
  },
  '/__pipeline/events': {
    method: 'GET',
    handle: (request, response, context) => context.events.connect(request, response),
  },
  '/__pipeline/call': {
    method: 'POST',
    handle: (request, response, context) => handleBridgeCall(request, response, context.session, () => context.events.send({ type: 'state' })),
  },
  '/__pipeline/report': {
    method: 'POST',
    handle: async (request, response, context) => {
      const body = await readJsonObjectOrReply(request, response, MAX_CONTROL_BYTES);
      if (body === undefined) return;
      const problem = await context.toolReport(body);
      if (problem === undefined) {
        sendJson(response, 400, { error: 'a report needs kind (error, rejection, console or blocked) and message; file, line and column are optional' });
        return;
      }
      // The page shows the place the terminal shows: the author's source, when a map placed it.
      sendJson(response, 200, { ok: true, problem });
    },
  },
  '/__pipeline/control': {
    method: 'POST',
    handle: async (request, response, context) => {
      const body = await readJsonObjectOrReply(request, response, MAX_CONTROL_BYTES);
      if (body === undefined) return;
      const outcome = await context.session.control(body);
      if (!outcome.ok) {
        sendJson(response, 400, { error: outcome.message });
        return;
      }
      sendJson(response, 200, outcome);
      context.afterChange(outcome.reloadTool);
    },
  },
};
// A Map, so that no request path can reach an inherited property of an object.
const ROUTES = new Map(Object.entries(ROUTE_TABLE));

import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderReporterScript } from './assets/frame-reporter.js';
import { renderSdkScript } from './assets/sdk-script.js';
import { checkHost, urlHostName } from './host-check.js';
import { commonHeaders, sendBody, sendText } from './http-utils.js';
import { readRequestPath, serveToolFile } from './static-files.js';

/*
 * The tool's origin: the tool folder's files and the SDK script, and nothing else. It has no
 * endpoint that changes anything, so code in the tool's frame can reach the platform model only
 * through the host page, as on the platform.
 *
 * The files are served under a base path with a random token (`/t/<token>/`), known only to the
 * host page; everything else but the SDK gets the same bare 404, which says nothing of the token.
 */

/**
 * The SDK's address on the tool's origin, outside the base path: it holds nothing secret (the
 * host page's origin, the SDK version), and a tool file of the same name is not shadowed.
 */
export const SDK_PATH = '/__pipeline/sdk.js';
/** The frame reporter, beside the SDK and inserted before it, so that it sees the SDK's errors too. */
export const REPORTER_PATH = '/__pipeline/report.js';

export interface ToolRouteContext {
  realRoot: string;
  allowedHosts: ReadonlySet<string>;
  toolPort: () => number;
  hostPort: () => number;
  /** Where the tool folder is served, such as `/t/<token>/`; starts and ends with a slash. */
  basePath: string;
  entry: () => string;
  sdk: () => { version: string; methods: readonly string[] };
  /** A file of the tool that is not there was asked for: tell the author, and answer with the returned text. */
  missing: (file: string) => Promise<string>;
}

export async function routeToolRequest(request: IncomingMessage, response: ServerResponse, context: ToolRouteContext): Promise<void> {
  const hostName = checkHost(request.headers.host, context.allowedHosts, context.toolPort());
  if (hostName === undefined) {
    sendText(response, 403, 'This dev server answers only to the address it printed (the Host header names another).');
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    sendText(response, 405, 'only GET and HEAD are served here', { Allow: 'GET, HEAD' });
    return;
  }
  // Module scripts and fetch() from the sandboxed frame are CORS requests from the opaque origin.
  const cors: Record<string, string> = request.headers.origin === 'null' ? { 'Access-Control-Allow-Origin': 'null', Vary: 'Origin' } : { Vary: 'Origin' };
  const target = request.url ?? '';
  const pathOnly = target.split(/[?#]/, 1)[0];
  if (pathOnly === SDK_PATH) {
    const hostOrigin = `http://${urlHostName(hostName)}:${context.hostPort()}`;
    sendBody(response, 200, 'text/javascript; charset=utf-8', renderSdkScript({ ...context.sdk(), hostOrigin }), cors);
    return;
  }
  if (pathOnly === REPORTER_PATH) {
    const hostOrigin = `http://${urlHostName(hostName)}:${context.hostPort()}`;
    sendBody(response, 200, 'text/javascript; charset=utf-8', renderReporterScript({ hostOrigin }), cors);
    return;
  }
  const base = context.basePath;
  if (pathOnly === base || pathOnly === base.slice(0, -1)) {
    response.writeHead(302, commonHeaders({ Location: `${base}${context.entry().split('/').map(encodeURIComponent).join('/')}` }));
    response.end();
    return;
  }
  // A plain comparison of the raw target: the token is URL-safe, so the host page never encodes
  // it, and any other spelling is simply another path. It is not constant-time, but a difference
  // of nanoseconds cannot be told apart through fetch() by a web page.
  if (!target.startsWith(base)) {
    sendText(response, 404, 'not found', cors);
    return;
  }
  // Keep the base path's last slash, so that the rest is read as a path of its own.
  const parsed = readRequestPath(target.slice(base.length - 1));
  if (!parsed.ok) {
    sendText(response, parsed.status, parsed.message, cors);
    return;
  }
  await serveToolFile(parsed.segments, response, {
    realRoot: context.realRoot,
    sdkPath: SDK_PATH,
    scriptsBefore: [REPORTER_PATH],
    headers: cors,
    notFound: (segments) => context.missing(segments.join('/')),
  });
}

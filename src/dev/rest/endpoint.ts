import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from '../http-utils.js';
import type { DevSession } from '../session.js';
import { summariseWarnings } from '../warning-summary.js';
import { handleApiRequest, MAX_API_BODY_BYTES } from './handle-request.js';
import type { RateLimiter } from './rate-limit.js';

/*
 * The REST API on the host page's listener, which has already checked the Host header. No CORS
 * headers are sent: the API is for servers and scripts, as on the platform, and a web page of
 * another origin cannot send an Authorization header without a preflight that gets none.
 */

export interface ApiEndpointContext {
  session: DevSession;
  limiter: RateLimiter;
  /** The tenant's data changed (a quote was created): tell the open host pages. */
  onChange: () => void;
  log: (level: 'info' | 'warning' | 'error', message: string) => void;
}

export async function handleApiHttp(request: IncomingMessage, response: ServerResponse, context: ApiEndpointContext): Promise<void> {
  const method = request.method ?? '';
  const target = request.url ?? '';
  const shown = `${method} ${target.length > 200 ? `${target.slice(0, 200)}…` : target}`;
  const answer = await handleApiRequest(
    {
      method,
      target,
      authorization: request.headersDistinct.authorization,
      contentType: request.headers['content-type'],
      readBody: () => readBody(request, MAX_API_BODY_BYTES),
    },
    { keys: () => context.session.apiKeys(), limiter: context.limiter, run: (operation) => context.session.api(operation) },
  );
  if (answer.fault !== undefined) {
    const { fault } = answer;
    context.log('error', `internal error while answering REST ${shown}: ${fault instanceof Error ? (fault.stack ?? fault.message) : String(fault)}`);
  }
  sendJson(response, answer.status, answer.body, answer.headers);
  const warnings = summariseWarnings(answer.warnings)
    .map((line) => `\n    warning ${line}`)
    .join('');
  context.log(answer.status >= 500 ? 'error' : 'info', `REST ${shown} ${answer.status}${warnings}`);
  if (answer.changed) context.onChange();
}
